// The deliberate differences (fixtures/allowed-differences.json, mirrored by docs/VENDOR_COMPAT.md).
import { readFileSync } from 'node:fs';

export interface AllowedDifference {
  /** `VC-<n>`; the heading of its section in docs/VENDOR_COMPAT.md. */
  id: string;
  /** `METHOD /path` in our words, or `*` for every operation. */
  operation: string;
  /** Canonical difference strings (support/facts.ts); `re:` starts a regular expression. */
  match: string[];
}

export function loadAllowed(url: URL): AllowedDifference[] {
  return (JSON.parse(readFileSync(url, 'utf8')) as { differences: AllowedDifference[] }).differences;
}

function matches(pattern: string, difference: string): boolean {
  return pattern.startsWith('re:') ? new RegExp(pattern.slice(3)).test(difference) : pattern === difference;
}

/** The entry that names `difference` on `operation`, if any. */
export function allowedBy(allowed: readonly AllowedDifference[], operation: string, difference: string): AllowedDifference | undefined {
  return allowed.find((entry) => (entry.operation === '*' || entry.operation === operation) && entry.match.some((p) => matches(p, difference)));
}
