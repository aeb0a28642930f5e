// TRACES Part A files, from a folder or a zip, matched to employees by PAN and assessment year. TRACES names
// each Part A after the employee's PAN and the assessment year (e.g. `ABCPE1234F_..._PartA_2026-27.pdf`); the
// match reads both from the file name, so no PDF text library is needed at run time. Every file that does not
// match, and why, is listed: a Part A of another year or of someone not in the statement is never merged.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import yauzl from 'yauzl';
import { Form16Error } from './errors.js';

const PAN_IN_NAME = /(?:^|[^A-Z0-9])([A-Z]{5}[0-9]{4}[A-Z])(?=$|[^A-Z0-9])/g;
const YEAR_IN_NAME = /(?:^|[^0-9])(20[0-9]{2})-([0-9]{2})(?=$|[^0-9])/g;

export interface PartAMismatch {
  file: string;
  reason: string;
}

export interface PartAMatch {
  /** PAN -> the Part A file's name (as listed in the folder or zip). */
  byPan: Map<string, string>;
  mismatches: PartAMismatch[];
}

/** Where Part A files are: their names, and each one's bytes on demand (a zip of 10,000 is not held whole). */
export interface PartASource {
  names: string[];
  read(name: string): Promise<Uint8Array>;
  close(): void;
}

/** Reads PAN and assessment year from a file name; a reason when either is missing or ambiguous. */
function identify(name: string): { pan: string; year: string } | { reason: string } {
  const upper = basename(name).toUpperCase();
  const pans = [...new Set([...upper.matchAll(PAN_IN_NAME)].map((m) => m[1]!))];
  const years = [...new Set([...upper.matchAll(YEAR_IN_NAME)].filter((m) => (Number(m[1]) + 1) % 100 === Number(m[2])).map((m) => `${m[1]}-${m[2]}`))];
  if (pans.length !== 1) return { reason: pans.length === 0 ? 'no PAN in the file name' : `more than one PAN in the file name (${pans.join(', ')})` };
  if (years.length !== 1) return { reason: years.length === 0 ? 'no assessment year (YYYY-YY) in the file name' : `more than one year in the file name (${years.join(', ')})` };
  return { pan: pans[0]!, year: years[0]! };
}

/** Matches Part A file names to the statement's PANs for `assessmentYear` ('2026-27'). */
export function matchPartA(names: readonly string[], pans: ReadonlySet<string>, assessmentYear: string): PartAMatch {
  const byPan = new Map<string, string>();
  const mismatches: PartAMismatch[] = [];
  for (const name of names) {
    if (!/\.pdf$/i.test(name)) {
      mismatches.push({ file: name, reason: 'not a .pdf file' });
      continue;
    }
    const id = identify(name);
    if ('reason' in id) mismatches.push({ file: name, reason: id.reason });
    else if (id.year !== assessmentYear) mismatches.push({ file: name, reason: `assessment year ${id.year}, not ${assessmentYear}` });
    else if (!pans.has(id.pan)) mismatches.push({ file: name, reason: `no employee with PAN ${id.pan} in the statement` });
    else if (byPan.has(id.pan)) mismatches.push({ file: name, reason: `a second Part A for PAN ${id.pan} (${byPan.get(id.pan)} is used)` });
    else byPan.set(id.pan, name);
  }
  return { byPan, mismatches };
}

function partAUnreadable(path: string, error: unknown): Form16Error {
  return new Form16Error('PART_A_UNREADABLE', `cannot read the Part A ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}

function folderSource(dir: string): PartASource {
  const names = readdirSync(dir).filter((n) => statSync(join(dir, n)).isFile()).sort();
  return {
    names,
    read: async (name) => {
      try {
        return readFileSync(join(dir, name));
      } catch (error) {
        throw partAUnreadable(join(dir, name), error);
      }
    },
    close: () => undefined,
  };
}

async function zipSource(path: string): Promise<PartASource> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.open(path, { lazyEntries: true, autoClose: false }, (e, z) => (e ? reject(e) : resolve(z))));
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  const read = (name: string) =>
    new Promise<Uint8Array>((resolve, reject) => {
      zip.openReadStream(entries.get(name)!, (e, stream) => {
        if (e) return reject(e);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      });
    });
  return { names: [...entries.keys()].sort(), read: (name) => read(name).catch((e: unknown) => { throw partAUnreadable(`${path}!${name}`, e); }), close: () => zip.close() };
}

/** A folder of Part A PDFs, or a zip of them (as TRACES gives a bulk download). */
export async function openPartA(path: string): Promise<PartASource> {
  try {
    return statSync(path).isDirectory() ? folderSource(path) : await zipSource(path);
  } catch (error) {
    if (error instanceof Form16Error) throw error;
    throw partAUnreadable(path, error);
  }
}
