import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createGunzip } from 'node:zlib';
import { open, stat } from 'node:fs/promises';
import { BankCodeResolver, type BankMetadata } from './bank-codes.js';
import type { Branch } from './branch.js';
import { IfscDirectory } from './directory.js';
import { normaliseRecord, type UnresolvedBranch } from './normalise.js';
import { encodeSnapshot, isSnapshot } from './snapshot.js';
import { readSource, type SourceKind } from './sources.js';

export interface ImportOptions {
  /** Razorpay metadata given explicitly; wins over files of the same name found inside the source. */
  metadata?: BankMetadata;
}

/** Counts an operator wants to see after an import (the CLI prints them). */
export interface ImportReport {
  kind: SourceKind;
  files: number;
  records: number;
  branches: number;
  /** Records without a usable IFSC. */
  skipped: number;
  /** Records whose IFSC was already seen (the first one wins). */
  duplicates: number;
  /** Branches whose BANKCODE differs from their IFSC's first four letters. */
  sublets: number;
  banks: number;
}

/** Reads a Razorpay source (IFSC.csv, by-bank tar(.gz) or folder) into resolved branches. */
export async function importBranches(
  path: string,
  options: ImportOptions = {},
): Promise<{ branches: Branch[]; report: ImportReport }> {
  const source = await readSource(path);
  const unique = new Map<string, UnresolvedBranch>();
  let skipped = 0;
  let duplicates = 0;
  for (const record of source.records) {
    const branch = normaliseRecord(record);
    if (!branch) skipped++;
    else if (unique.has(branch.IFSC)) duplicates++;
    else unique.set(branch.IFSC, branch);
  }
  const resolver = new BankCodeResolver(unique.values(), { ...source.metadata, ...options.metadata });
  const branches = [...unique.values()].map((branch) => resolver.resolve(branch));
  const report: ImportReport = {
    kind: source.kind,
    files: source.files,
    records: source.records.length,
    branches: branches.length,
    skipped,
    duplicates,
    sublets: branches.filter((b) => b.BANKCODE !== b.IFSC.slice(0, 4)).length,
    banks: new Set(branches.map((b) => b.BANKCODE)).size,
  };
  return { branches, report };
}

/** Imports a source and encodes it as a snapshot (see snapshot.ts). */
export async function buildSnapshot(
  path: string,
  options: ImportOptions = {},
): Promise<{ snapshot: Buffer; report: ImportReport }> {
  const { branches, report } = await importBranches(path, options);
  return { snapshot: encodeSnapshot(branches, `${report.kind}:${basename(path)}`), report };
}

/** The first bytes of a file, inflated when it is gzip-compressed. */
async function headOf(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) return head;
  const inflated = createReadStream(path).pipe(createGunzip());
  try {
    for await (const chunk of inflated) return chunk as Buffer;
    return Buffer.alloc(0);
  } finally {
    inflated.destroy();
  }
}

/**
 * Loads a directory from a snapshot (raw or gzip) or, more slowly, straight from a Razorpay source. The
 * router's `ifscDirectory` option and the CLI both go through here.
 */
export async function loadDirectory(path: string, options: ImportOptions = {}): Promise<IfscDirectory> {
  if ((await stat(path)).isFile() && isSnapshot(await headOf(path, 64))) return IfscDirectory.load(path);
  const { branches, report } = await importBranches(path, options);
  return IfscDirectory.fromBranches(branches, `${report.kind}:${basename(path)}`);
}
