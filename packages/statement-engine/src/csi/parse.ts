// The Challan Status Inquiry (.csi) file the FVU takes with a statement. What is published about it (see
// FORMAT_NOTES.md, "CSI file"): line 1 is caret-delimited and holds the deductor's name in its third field;
// a challan is identified by its CIN = BSR code (7 digits) + tender date (ddmmyyyy) + serial (up to 5 digits)
// and carries its amount. The field order of the challan lines is not published; ours is documented there.

import { TAN_PATTERN } from '../codes/identifiers.js';
import { civilDate, dayOf, monthOf, yearOf, type CivilDate } from '../dates.js';
import { MAX_AMOUNT_PAISE } from '../money.js';
import { StatementEngineError } from '../errors.js';
import { LineCutter, type LineLimits } from '../lines.js';
import { DEFAULT_INPUT_LIMITS } from '../limits.js';

export interface CsiChallan {
  /** 1-based line of the file, for messages. */
  line: number;
  bsr: string;
  date: CivilDate;
  /** Five digits, zero-padded as the statement writes it. */
  serial: string;
  majorHead: string;
  minorHead: string;
  /** Paise. */
  amount: number;
}

export interface CsiFile {
  tan: string;
  name: string;
  challans: CsiChallan[];
}

const HEADER_FIELDS = 3;
const CHALLAN_FIELDS = 6;
const DDMMYYYY = /^(\d{2})(\d{2})(\d{4})$/;
const AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** The key a CSI line and a workbook challan share: BSR code + tender date + serial (the CIN). */
export function cinKey(bsr: string, date: CivilDate, serial: string): string {
  return `${bsr}|${date}|${serial}`;
}

function refuse(line: number, why: string): never {
  throw new StatementEngineError('INVALID_CSI', `CSI file line ${line}: ${why}`);
}

function readDate(text: string, line: number): CivilDate {
  const m = DDMMYYYY.exec(text);
  if (!m) return refuse(line, `tender date '${text.slice(0, 20)}' is not ddmmyyyy`);
  const date = civilDate(Number(m[3]), Number(m[2]), Number(m[1]));
  const check = new Date(Date.UTC(yearOf(date), monthOf(date) - 1, dayOf(date)));
  if (check.getUTCDate() !== dayOf(date) || check.getUTCMonth() + 1 !== monthOf(date)) refuse(line, `tender date ${text} is not a calendar date`);
  return date;
}

function readAmount(text: string, line: number): number {
  const m = AMOUNT.exec(text);
  if (!m) return refuse(line, `amount '${text.slice(0, 20)}' is not a rupee amount (digits, at most two decimals)`);
  const paise = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (paise > MAX_AMOUNT_PAISE) refuse(line, `amount ${text} is too large`);
  return paise;
}

function readChallan(fields: string[], line: number): CsiChallan {
  if (fields.length < CHALLAN_FIELDS) refuse(line, `a challan line has ${CHALLAN_FIELDS} fields separated by ^ (BSR code, tender date, serial, major head, minor head, amount); this one has ${fields.length}`);
  const [bsr, date, serial, majorHead, minorHead, amount] = fields.map((f) => f.trim()) as [string, string, string, string, string, string];
  if (!/^[0-9]{7}$/.test(bsr)) refuse(line, `BSR code '${bsr.slice(0, 20)}' is not 7 digits`);
  if (!/^[0-9]{1,5}$/.test(serial)) refuse(line, `challan serial '${serial.slice(0, 20)}' is not 1 to 5 digits`);
  return { line, bsr, date: readDate(date, line), serial: serial.padStart(5, '0'), majorHead, minorHead, amount: readAmount(amount, line) };
}

function readHeader(text: string | undefined): { tan: string; name: string } {
  const fields = (text ?? '').split('^').map((f) => f.trim());
  if (fields.length < HEADER_FIELDS) refuse(1, `the header line has at least ${HEADER_FIELDS} fields separated by ^ (TAN, download date, deductor name)`);
  const tan = fields[0]!.toUpperCase();
  if (!TAN_PATTERN.test(tan)) refuse(1, `'${tan.slice(0, 20)}' is not a TAN`);
  if (fields[2] === '') refuse(1, 'the deductor name (third field) is empty');
  return { tan, name: fields[2]! };
}

/**
 * Reads a CSI file. Throws StatementEngineError INVALID_CSI naming the first malformed line: a CSI file that
 * cannot be read means the challans cannot be checked, so it is refused rather than reported per challan. The
 * file is read line by line (bytes are decoded a line at a time); a line past limits.lineBytes, or more lines
 * than limits.csiLines, throws CONVERSION_LIMIT.
 */
export function parseCsi(content: string | Uint8Array, limits: LineLimits = DEFAULT_INPUT_LIMITS): CsiFile {
  const cutter = new LineCutter(limits, 'csi', 'utf8');
  const lines = cutter.all(content);
  let header: { tan: string; name: string } | null = null;
  const challans: CsiChallan[] = [];
  const seen = new Map<string, number>();
  // Blank lines are allowed at the end only: they are counted, and refused once a line follows them.
  let blank = 0;
  let n = 0;
  for (const raw of lines) {
    n++;
    const line = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (line.trim() === '') {
      blank++;
      continue;
    }
    if (blank > 0 && !header) readHeader('');
    if (blank > 0) refuse(n - blank, 'empty line inside the file');
    if (!header) {
      header = readHeader(line);
      continue;
    }
    const challan = readChallan(line.split('^'), n);
    const key = cinKey(challan.bsr, challan.date, challan.serial);
    const first = seen.get(key);
    if (first !== undefined) refuse(n, `the same challan (BSR code, date and serial) is already on line ${first}`);
    seen.set(key, n);
    challans.push(challan);
  }
  return { ...(header ?? readHeader(undefined)), challans };
}
