import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { BankMetadata } from './bank-codes.js';
import { readCsvRecords } from './csv.js';
import type { RawRecord } from './normalise.js';
import { readTarEntries } from './tar.js';

/** What a source yields: raw branch records, plus Razorpay metadata files found beside them. */
export interface SourceContents {
  records: RawRecord[];
  metadata: BankMetadata;
  /** Files read that held branches. */
  files: number;
  kind: SourceKind;
}

export type SourceKind = 'csv' | 'by-bank-folder' | 'by-bank-tar';

export class SourceFormatError extends Error {
  override readonly name = 'SourceFormatError';
}

/** Razorpay's metadata files, recognised by name inside a folder or archive. */
const METADATA_FILES: Record<string, keyof BankMetadata> = {
  'sublet.json': 'sublets',
  'custom-sublets.json': 'customSublets',
  'banknames.json': 'bankNames',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects one JSON file of the by-bank layout (`{IFSC: branch}`) or a metadata file; ignores anything else. */
class ByBankCollector {
  readonly records: RawRecord[] = [];
  readonly metadata: BankMetadata = {};
  files = 0;

  add(path: string, text: string): void {
    const name = basename(path).toLowerCase();
    if (extname(name) !== '.json') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SourceFormatError(`${path}: not valid JSON`);
    }
    if (!isRecord(parsed)) return;
    const metadataKey = METADATA_FILES[name];
    if (metadataKey) {
      this.metadata[metadataKey] = Object.fromEntries(
        Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      return;
    }
    const branches = Object.values(parsed).filter((v): v is RawRecord => isRecord(v) && typeof v['IFSC'] === 'string');
    if (branches.length === 0) return;
    this.files++;
    for (const branch of branches) this.records.push(branch);
  }

  contents(kind: SourceKind): SourceContents {
    return { records: this.records, metadata: this.metadata, files: this.files, kind };
  }
}

async function* walkFiles(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walkFiles(path);
    else if (entry.isFile()) yield path;
  }
}

async function readFolder(dir: string): Promise<SourceContents> {
  const collector = new ByBankCollector();
  for await (const path of walkFiles(dir)) collector.add(path, await readFile(path, 'utf8'));
  return collector.contents('by-bank-folder');
}

async function readTar(path: string, gzipped: boolean): Promise<SourceContents> {
  const collector = new ByBankCollector();
  const raw = createReadStream(path);
  const stream = gzipped ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => stream.destroy(error));
  for await (const entry of readTarEntries(stream)) {
    if (entry.type === '0') collector.add(entry.path, entry.data.toString('utf8'));
  }
  return collector.contents('by-bank-tar');
}

async function readCsv(path: string): Promise<SourceContents> {
  const records: RawRecord[] = [];
  for await (const record of readCsvRecords(createReadStream(path))) records.push(record);
  if (records.length > 0 && !('IFSC' in (records[0] as RawRecord))) {
    throw new SourceFormatError(`${path}: the CSV has no IFSC column`);
  }
  return { records, metadata: {}, files: 1, kind: 'csv' };
}

async function sniff(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Reads Razorpay's published layouts: IFSC.csv, by-bank.tar.gz (or .tar), or a folder of per-bank JSON files.
 * The kind is recognised from the content (gzip and tar magic numbers), not from the file name.
 */
export async function readSource(path: string): Promise<SourceContents> {
  const info = await stat(path);
  if (info.isDirectory()) return readFolder(path);
  const head = await sniff(path);
  if (head[0] === 0x1f && head[1] === 0x8b) return readTar(path, true);
  if (head.length >= 262 && head.subarray(257, 262).toString('ascii') === 'ustar') return readTar(path, false);
  if (/^\uFEFF?"?[A-Z]/.test(head.toString('utf8'))) return readCsv(path);
  throw new SourceFormatError(`${path}: neither IFSC.csv, a by-bank tar(.gz) nor a folder`);
}
