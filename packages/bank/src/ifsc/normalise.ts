import { FLAG_FIELDS, STRING_FIELDS, canonicalIfsc, type Branch } from './branch.js';
import { iso3166ForState } from './iso3166.js';

/** One branch as a source file holds it: JSON values (by-bank layout) or CSV cells (IFSC.csv). */
export type RawRecord = Readonly<Record<string, unknown>>;

/** A branch before its sublet-aware BANKCODE (and, when the source lacks it, BANK) is resolved. */
export type UnresolvedBranch = Omit<Branch, 'BANKCODE'>;

/**
 * Fields where Razorpay's data has no value for many branches: the CSV export writes such a gap as "NA",
 * the JSON as null. Both become "". Other text fields keep a literal "NA", because the JSON layout itself
 * uses it as a value (the virtual IMPS branches have ADDRESS, CENTRE and DISTRICT "NA"), so the CSV and the
 * JSON import of the same release give the same directory.
 */
const NA_MEANS_MISSING = new Set<string>(['BANK', 'CONTACT', 'ISO3166', 'MICR', 'SWIFT']);

function text(raw: RawRecord, field: string): string {
  const value = raw[field];
  if (value === null || value === undefined) return '';
  const out = String(value).trim();
  return NA_MEANS_MISSING.has(field) && out === 'NA' ? '' : out;
}

/** Razorpay's API treats only `true` as true; a few JSON rows carry the flag under a lower-case key. */
function flag(raw: RawRecord, field: string): boolean {
  const value = raw[field] ?? raw[field.toLowerCase()];
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

/** Returns undefined when the record has no usable IFSC (it is then skipped by the importer). */
export function normaliseRecord(raw: RawRecord): UnresolvedBranch | undefined {
  const ifsc = canonicalIfsc(String(raw['IFSC'] ?? ''));
  if (!/^[A-Z0-9]{11}$/.test(ifsc)) return undefined;
  const out: Record<string, string | boolean> = { IFSC: ifsc };
  for (const field of STRING_FIELDS) if (field !== 'BANKCODE') out[field] = text(raw, field);
  for (const field of FLAG_FIELDS) out[field] = flag(raw, field);
  const branch = out as unknown as UnresolvedBranch;
  if (branch.ISO3166 === '') branch.ISO3166 = iso3166ForState(branch.STATE);
  return branch;
}
