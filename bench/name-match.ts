// npm run bench -- name-match [--seconds 2]
//
// Precision, recall and throughput of @satyapan/name-match on its test table
// (packages/name-match/test/fixtures/name-pairs.tsv), against baselines measured in the same run: fuzzball's
// plain `ratio` and `token_set_ratio` on the raw strings (fuzzball's default processing: lower case, punctuation
// removed), each at the same threshold (0.85) and at the threshold that is best for it on this table (highest
// F1), which is the most favourable reading of the baseline. Throughput is pairs per second over repeated passes.

import { ratio, token_set_ratio } from 'fuzzball';
import { DEFAULT_NAME_MATCH_THRESHOLD, matchNames } from '../packages/name-match/src/index.js';
import { confusion, loadNamePairs, type NamePair } from '../packages/name-match/test/table.js';

type Scorer = (pair: NamePair) => number;

interface Row {
  name: string;
  threshold: number;
  precision: number;
  recall: number;
  pairsPerSecond: number;
}

function argument(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

/** Passes over the table until `seconds` have gone by; pairs per second. */
function throughput(pairs: readonly NamePair[], score: Scorer, seconds: number): number {
  let done = 0;
  let sink = 0;
  const started = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  while (process.hrtime.bigint() - started < budget) {
    for (const pair of pairs) sink += score(pair);
    done += pairs.length;
  }
  if (Number.isNaN(sink)) throw new Error('unreachable: keeps the scores alive');
  return done / (Number(process.hrtime.bigint() - started) / 1e9);
}

function bestThreshold(pairs: readonly NamePair[], scores: number[]): number {
  let best = { threshold: 0, f1: -1 };
  for (let t = 0.3; t <= 1.0001; t += 0.01) {
    const c = confusion(pairs, (p) => (scores[pairs.indexOf(p)] ?? 0) >= t);
    const f1 = (2 * c.precision * c.recall) / Math.max(1e-9, c.precision + c.recall);
    if (f1 > best.f1) best = { threshold: Math.round(t * 100) / 100, f1 };
  }
  return best.threshold;
}

function measure(name: string, pairs: readonly NamePair[], score: Scorer, threshold: number, speed: number): Row {
  const scores = pairs.map(score);
  const c = confusion(pairs, (p) => (scores[pairs.indexOf(p)] ?? 0) >= threshold);
  return { name, threshold, precision: c.precision, recall: c.recall, pairsPerSecond: speed };
}

export async function main(args: string[]): Promise<void> {
  const seconds = argument(args, 'seconds', 2);
  const pairs = loadNamePairs();
  const scorers: Array<[string, Scorer]> = [
    ['@satyapan/name-match', (p) => matchNames(p.name1, p.name2, { kind: p.kind }).score],
    ['baseline fuzzball ratio', (p) => ratio(p.name1, p.name2) / 100],
    ['baseline fuzzball token_set_ratio', (p) => token_set_ratio(p.name1, p.name2) / 100],
  ];
  const rows: Row[] = [];
  for (const [name, score] of scorers) {
    const speed = throughput(pairs, score, seconds);
    rows.push(measure(name, pairs, score, DEFAULT_NAME_MATCH_THRESHOLD, speed));
    if (name.startsWith('baseline')) {
      const best = bestThreshold(pairs, pairs.map(score));
      rows.push(measure(`${name} (its best threshold)`, pairs, score, best, speed));
    }
  }
  const matches = pairs.filter((p) => p.expected === 'match').length;
  process.stdout.write(`name-match: ${pairs.length} pairs (${matches} match, ${pairs.length - matches} no_match), ${seconds} s per throughput run\n`);
  const ours = rows[0] as Row;
  for (const row of rows) {
    process.stdout.write(`${row.name.padEnd(56)} threshold ${row.threshold.toFixed(2)}  precision ${row.precision.toFixed(3)}  `
      + `recall ${row.recall.toFixed(3)}  ${Math.round(row.pairsPerSecond).toLocaleString('en-US').padStart(9)} pairs/s`
      + `${row === ours ? '' : `  (ours: ${(ours.pairsPerSecond / row.pairsPerSecond).toFixed(2)}x its speed)`}\n`);
  }
  const meets = ours.precision >= 0.95 && ours.recall >= 0.9;
  process.stdout.write(`target precision >= 0.95 and recall >= 0.90 at the default threshold: ${meets ? 'met' : 'NOT met'}\n`);
}
