// The Challan Status Inquiry (.csi) file the FVU takes with a statement, in its real layout (FORMAT_NOTES.md §13,
// as the official FVU reads it): line 1 is `challan count ^ TAN ^ TAN name ^ FVU higher version ^ FVU lower
// version ^ file hash`; every further line is one challan as an opaque token (a salted hash of its BSR code,
// date, serial, TAN and amount). The token scheme is not published, so the challans themselves cannot be read.

import { TAN_PATTERN } from '../codes/identifiers.js';
import { StatementEngineError } from '../errors.js';
import { LineCutter, type LineLimits } from '../lines.js';
import { DEFAULT_INPUT_LIMITS } from '../limits.js';

export interface CsiFile {
  /** Challans line 1 announces; the file holds exactly this many challan lines. */
  count: number;
  tan: string;
  /** The TAN holder's name as the department knows it (the FVU compares it with BH 19, ignoring case). */
  name: string;
  /** Line 1 fields 4 and 5, as written (empty when absent). */
  fvuHigherVersion: string;
  fvuLowerVersion: string;
  /** Line 1 field 6: the file's hash, which the FVU checks (T-FV-1029) and we cannot. */
  hash: string;
}

/** Count, TAN and name are what the engine uses; the FVU versions and the hash may be absent for all it needs. */
const HEADER_FIELDS = 3;
const COUNT = /^[0-9]{1,7}$/;

function refuse(line: number, why: string): never {
  throw new StatementEngineError('INVALID_CSI', `CSI file line ${line}: ${why}`);
}

function readHeader(text: string | undefined): Omit<CsiFile, 'count'> & { count: string } {
  const fields = (text ?? '').split('^').map((f) => f.trim());
  if (fields.length < HEADER_FIELDS) {
    refuse(1, `the header line has fields separated by ^ (challan count, TAN, TAN name, FVU versions, hash); this one has ${fields.length}`);
  }
  const [count, tan, name, higher = '', lower = '', hash = ''] = fields as [string, string, string, ...string[]];
  if (!COUNT.test(count)) refuse(1, `the challan count '${count.slice(0, 20)}' (first field) is not a number`);
  if (!TAN_PATTERN.test(tan.toUpperCase())) refuse(1, `'${tan.slice(0, 20)}' (second field) is not a TAN`);
  if (name === '') refuse(1, 'the TAN name (third field) is empty');
  return { count, tan: tan.toUpperCase(), name, fvuHigherVersion: higher, fvuLowerVersion: lower, hash };
}

function readToken(line: string, n: number): void {
  // A line of fields is a CSI file of another layout (or another file): its challans would all be misread.
  if (line.includes('^')) refuse(n, 'a challan line is one token (the bank\'s hash of the challan), not fields separated by ^');
  if (/\s/.test(line.trim())) refuse(n, 'a challan token has no spaces');
}

/**
 * Reads a CSI file. Throws StatementEngineError INVALID_CSI naming the first malformed line, and when the number
 * of challan lines is not the count line 1 announces (the FVU calls such a file invalid, T-FV-1029). The file is
 * read a line at a time; a line past limits.lineBytes, or more lines than limits.csiLines, throws CONVERSION_LIMIT.
 */
export function parseCsi(content: string | Uint8Array, limits: LineLimits = DEFAULT_INPUT_LIMITS): CsiFile {
  const cutter = new LineCutter(limits, 'csi', 'utf8');
  let header: ReturnType<typeof readHeader> | null = null;
  let challans = 0;
  // Blank lines are allowed at the end only: they are counted, and refused once a line follows them.
  let blank = 0;
  let n = 0;
  for (const raw of cutter.all(content)) {
    n++;
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') {
      blank++;
      continue;
    }
    if (blank > 0) refuse(header ? n - blank : 1, header ? 'empty line inside the file' : 'the file starts with an empty line; line 1 is the header');
    if (!header) {
      header = readHeader(line);
      continue;
    }
    readToken(line, n);
    challans++;
  }
  const read = header ?? readHeader(undefined);
  const count = Number(read.count);
  if (challans !== count) refuse(1, `the header announces ${count} challan${count === 1 ? '' : 's'}; the file has ${challans} challan line${challans === 1 ? '' : 's'} (it was cut short or altered)`);
  return { ...read, count };
}
