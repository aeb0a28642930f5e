import type { Branch } from './branch.js';

export interface SampleOptions {
  /** Branches kept per distinct STATE value (every state of the source is represented). */
  perState?: number;
  /** Branches kept per bank code (every bank of the source is represented). */
  perBank?: number;
  /** Sublet branches kept per sublet bank code, so the sample shows sublet resolution. */
  perSublet?: number;
}

/** `count` items spread evenly over `items` (deterministic: the same input gives the same sample). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)] as T);
}

function groupBy(branches: readonly Branch[], key: (b: Branch) => string): Map<string, Branch[]> {
  const groups = new Map<string, Branch[]>();
  for (const branch of branches) {
    const k = key(branch);
    const group = groups.get(k);
    if (group) group.push(branch);
    else groups.set(k, [branch]);
  }
  return groups;
}

/**
 * A small, representative subset of a full import, for the snapshot the package ships: some branches of
 * every state and of every bank, plus sublet branches. Branches are taken evenly spaced in IFSC order.
 */
export function sampleBranches(all: readonly Branch[], options: SampleOptions = {}): Branch[] {
  const sorted = [...all].sort((a, b) => (a.IFSC < b.IFSC ? -1 : a.IFSC > b.IFSC ? 1 : 0));
  const chosen = new Map<string, Branch>();
  const take = (branches: readonly Branch[], count: number): void => {
    for (const branch of spread(branches, count)) chosen.set(branch.IFSC, branch);
  };
  for (const group of groupBy(sorted, (b) => b.STATE).values()) take(group, options.perState ?? 60);
  for (const group of groupBy(sorted, (b) => b.BANKCODE).values()) take(group, options.perBank ?? 8);
  const sublets = sorted.filter((b) => b.BANKCODE !== b.IFSC.slice(0, 4));
  for (const group of groupBy(sublets, (b) => b.BANKCODE).values()) take(group, options.perSublet ?? 2);
  return [...chosen.values()];
}
