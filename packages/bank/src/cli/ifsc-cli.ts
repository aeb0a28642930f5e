/**
 * satyapan-ifsc: builds and inspects IFSC directory snapshots.
 *
 *   satyapan-ifsc import <IFSC.csv|by-bank.tar.gz|folder> --out directory.bin [--sublets sublet.json]
 *                        [--custom-sublets custom-sublets.json] [--banknames banknames.json]
 *   satyapan-ifsc sample <source> --out sample.bin.gz [--per-state 60] [--per-bank 8] [--per-sublet 2]
 *   satyapan-ifsc info <directory.bin>
 *   satyapan-ifsc lookup [<directory.bin>] <IFSC>      (the bundled sample directory without a path)
 *
 * An output name ending in .gz is gzip-compressed. Output is written to a temporary file and renamed into
 * place, so a router watching the path never reads a half-written snapshot.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { BankMetadata } from '../ifsc/bank-codes.js';
import { isIfscPattern } from '../ifsc/branch.js';
import type { BranchDirectory } from '../ifsc/directory.js';
import { importBranches, loadDirectory, type ImportReport } from '../ifsc/importer.js';
import { loadSampleDirectory } from '../ifsc/sample.js';
import { sampleBranches } from '../ifsc/sampler.js';
import { encodeSnapshot } from '../ifsc/snapshot.js';
import { basename } from 'node:path';

const USAGE = `usage:
  satyapan-ifsc import <IFSC.csv|by-bank.tar.gz|folder> --out <directory.bin[.gz]> [--sublets <sublet.json>] [--custom-sublets <file>] [--banknames <file>]
  satyapan-ifsc sample <source> --out <sample.bin.gz> [--per-state N] [--per-bank N] [--per-sublet N]
  satyapan-ifsc info <directory.bin>
  satyapan-ifsc lookup [<directory.bin>] <IFSC>   (without a directory: the bundled sample, ~3.7k branches)
`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  out: { type: 'string' },
  sublets: { type: 'string' },
  'custom-sublets': { type: 'string' },
  banknames: { type: 'string' },
  'per-state': { type: 'string' },
  'per-bank': { type: 'string' },
  'per-sublet': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function readJsonMap(path: string | undefined): Promise<Record<string, string> | undefined> {
  if (path === undefined) return undefined;
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
}

async function metadataFrom(values: Values): Promise<BankMetadata> {
  const metadata: BankMetadata = {};
  const sublets = await readJsonMap(values.sublets);
  const customSublets = await readJsonMap(values['custom-sublets']);
  const bankNames = await readJsonMap(values.banknames);
  if (sublets) metadata.sublets = sublets;
  if (customSublets) metadata.customSublets = customSublets;
  if (bankNames) metadata.bankNames = bankNames;
  return metadata;
}

function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
  return n;
}

async function writeAtomically(path: string, snapshot: Buffer): Promise<number> {
  const bytes = path.endsWith('.gz') ? gzipSync(snapshot, { level: 9 }) : snapshot;
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, path);
  return bytes.length;
}

function describe(report: ImportReport): string {
  return `${report.branches} branches of ${report.banks} banks from ${report.files} file(s) (${report.kind}); `
    + `${report.sublets} sublet branches, ${report.duplicates} duplicates and ${report.skipped} unusable records skipped`;
}

async function runImport(source: string, values: Values, sample: boolean): Promise<string> {
  if (!values.out) throw new UsageError('--out is required');
  const { branches, report } = await importBranches(source, { metadata: await metadataFrom(values) });
  const kept = sample
    ? sampleBranches(branches, {
      perState: count(values['per-state'], 'per-state'),
      perBank: count(values['per-bank'], 'per-bank'),
      perSublet: count(values['per-sublet'], 'per-sublet'),
    })
    : branches;
  const label = `${sample ? 'sample of ' : ''}${report.kind}:${basename(source)}`;
  const bytes = await writeAtomically(values.out, encodeSnapshot(kept, label));
  return `${describe(report)}\nwrote ${kept.length} branches to ${values.out} (${bytes} bytes)\n`;
}

export async function runCli(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  const [command, first, second] = positionals;
  if (values.help || command === undefined) return USAGE;
  if ((command === 'import' || command === 'sample') && first) return runImport(first, values, command === 'sample');
  if (command === 'info' && first) return `${JSON.stringify((await loadDirectory(first)).metadata, null, 2)}\n`;
  if (command === 'lookup' && first && second) return lookup(await loadDirectory(first), second, '');
  // One argument that is an IFSC: the bundled sample answers, as the router's default directory does.
  if (command === 'lookup' && first && isIfscPattern(first)) {
    return lookup(await loadSampleDirectory(), first, ' in the bundled sample directory; give a full one: satyapan-ifsc lookup <directory.bin> <IFSC>');
  }
  throw new UsageError(USAGE);
}

function lookup(directory: BranchDirectory, ifsc: string, where: string): string {
  const branch = directory.lookup(ifsc);
  if (!branch) throw new UsageError(`IFSC not found: ${ifsc.toUpperCase()}${where}`);
  return `${JSON.stringify(branch, null, 2)}\n`;
}
