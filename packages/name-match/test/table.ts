import { readFileSync } from 'node:fs';
import type { NameKind } from '../src/index.js';

/** One row of the test table (fixtures/name-pairs.tsv; see fixtures/README.md). */
export interface NamePair {
  name1: string;
  name2: string;
  kind: NameKind;
  expected: 'match' | 'no_match';
  category: string;
}

export function loadNamePairs(): NamePair[] {
  const text = readFileSync(new URL('./fixtures/name-pairs.tsv', import.meta.url), 'utf8');
  return text.trim().split('\n').slice(1).map((line) => {
    const [name1, name2, kind, expected, category] = line.split('\t');
    if (!name1 || !name2 || (kind !== 'person' && kind !== 'business') || (expected !== 'match' && expected !== 'no_match') || !category) {
      throw new Error(`bad row in name-pairs.tsv: ${line}`);
    }
    return { name1, name2, kind, expected, category };
  });
}

export interface Confusion {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
  precision: number;
  recall: number;
}

/** Precision and recall of a decision over the table; `match` is the positive class. */
export function confusion(pairs: readonly NamePair[], decide: (pair: NamePair) => boolean): Confusion {
  let truePositives = 0; let falsePositives = 0; let falseNegatives = 0; let trueNegatives = 0;
  for (const pair of pairs) {
    const predicted = decide(pair);
    const actual = pair.expected === 'match';
    if (predicted && actual) truePositives++;
    else if (predicted) falsePositives++;
    else if (actual) falseNegatives++;
    else trueNegatives++;
  }
  return {
    truePositives, falsePositives, falseNegatives, trueNegatives,
    precision: truePositives / Math.max(1, truePositives + falsePositives),
    recall: truePositives / Math.max(1, truePositives + falseNegatives),
  };
}
