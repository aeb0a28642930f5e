// The TRACES consolidated ("conso") file of a statement: the `.tds` text file TRACES issues with the latest
// accepted state of a statement (regular + processed corrections), on which a correction must be prepared
// (tds-corrections.md §4). Read line by line (lines.ts), so a large file is never held as one string; a file that is
// malformed, cut short, or of another TAN or period is refused with the line and a code of the engine's error
// registry (ConsoFileError).
//
// No full conso layout is published. CONSO_LAYOUT below is what three independent parsers agree on, each
// position with its source (FORMAT_NOTES.md §15); fields whose conso position is not sourced are not read.

import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ConsoFileError, type ConsoErrorCode } from '../errors.js';
import { DEFAULT_INPUT_LIMITS } from '../limits.js';
import { LineCutter, type LineLimits } from '../lines.js';
import { formatPaise, formatRate } from '../money.js';
import { fieldForForm, layoutVersion } from '../layouts/compile.js';
import type { FieldType, RecordType } from '../layouts/types.js';
import type { FormName } from '../types.js';
import type { Fields } from '../records/fields.js';

/**
 * Where the conso file keeps what a correction needs (1-based fields, as the regular layouts number them).
 * `regular` lists the regular-layout fields read at the same position; `moved` the ones read elsewhere.
 */
export const CONSO_LAYOUT = {
  FH: {
    minFields: 9,
    source: 'regular FH positions: LHS TaxCPC reads the date at field 5; EY reads a hash at field 15 for the correction FH 18 (one implementation)',
    hash: 15,
  },
  BH: {
    minFields: 42,
    /** Fields 1-42 at the regular positions; the tail differs (RP mobile at 48 in the conso, EY and TDSMAN), so nothing after 42 is read. */
    regular: range(1, 42),
    source: 'TAN 13, AY 16, FY 17, quarter 18 (LHS, EY, TDSMAN agree); original token 8 and previous regular token 9 (TDSMAN); the tail differs from the regular BH',
  },
  CD: {
    minFields: 40,
    /** Fields at the regular positions (record number 4, serial 12, BSR 16, date 18, amounts 22-27, 34/35 agree in three parsers; fee 39 and minor head 40 as EY, where TDSMAN has the minor head at 41). */
    regular: [1, 2, 3, 4, 5, 6, 12, 14, 16, 18, 22, 23, 24, 25, 26, 27, 34, 35, 39, 40],
    /** Booking status M/U/P at field 9: TDSMAN stores 0-based index 8 as "NSDL status" (one implementation; a filler in the regular CD). */
    status: 9,
    source: 'traces-app, EY, TDSMAN (tds-corrections.md §4.2)',
  },
  DD: {
    minFields: 34,
    /** Fields 1-30 at the regular positions (PAN 10, name 13, amounts 14-17/19, dates 22-25, rate 26, remark 30 agree). */
    regular: range(1, 30),
    /** The section code is at 34 in the conso (regular 33): one field is inserted before it (traces-app, EY, TDSMAN agree). */
    moved: { 33: 34 } as Readonly<Record<number, number>>,
    source: 'traces-app, EY, TDSMAN (tds-corrections.md §4.2); mode F marks rows locked by Form 26A/27BA',
  },
  SD: {
    minFields: 23,
    /** No parser of conso salary records was found: the regular SD positions are assumed (inference). */
    regular: [1, 2, 3, 4, 5, 7, 9, 13, 19, 23],
    source: 'inference: the regular 24Q Q4 SD positions',
  },
} as const;

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** Record types a conso file may hold; the salary children are accepted and not read. */
const KNOWN = new Set(['FH', 'BH', 'CD', 'DD', 'SD', 'S16', 'C6A', '94P', 'P16', 'P6A']);
const CHILDREN_OF_SALARY = new Set(['S16', 'C6A', 'P16', 'P6A']);
const PAN = /^[A-Z]{3}[PCHFATBLJG][A-Z][0-9]{4}[A-Z]$/;
const PLACEHOLDERS = new Set(['PANAPPLIED', 'PANINVALID', 'PANNOTAVBL']);
const TAN = /^[A-Z]{4}[0-9]{5}[A-Z]$/;
const DATE = /^(0[1-9]|[12][0-9]|3[01])(0[1-9]|1[0-2])[0-9]{4}$/;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
const DIGITS = /^[0-9]+$/;
const CHALLAN_STATUS = new Set(['M', 'U', 'P', '']);

export class ConsoDeductee {
  constructor(
    /** Line of the conso file. */
    readonly line: number,
    /** Deductee record number in the latest statement (DD 5). */
    readonly record: number,
    /** DD 6: O in a regular row; F for a row locked by Form 26A/27BA. */
    readonly mode: string,
    /** The normalised fields joined by carets: a row is kept as one string, so a large conso file stays small. */
    private readonly text: string,
  ) {}

  /** The row in regular-layout positions (amounts without zero padding); fields the conso does not locate are empty. Split on each call. */
  get fields(): Fields {
    return this.text.split('^');
  }
}

export interface ConsoChallan {
  line: number;
  /** Challan record number in the latest statement (CD 4). */
  record: number;
  /** Booking status at TRACES: M matched, U unmatched, P provisionally booked; '' when the file leaves it empty. */
  status: string;
  fields: Fields;
  deductees: ConsoDeductee[];
  /** CD 5 as the file declares it. */
  declared: number;
}

export interface ConsoSalary {
  line: number;
  record: number;
  fields: Fields;
}

export interface ConsoStatement {
  tan: string;
  /** BH 5 as written (24Q, 26Q, 27Q, 27EQ). */
  form: string;
  /** BH 17, e.g. '202526'. */
  yearCode: string;
  /** BH 18, Q1..Q4. */
  quarter: string;
  /** BH 8: the token (RRR) of the regular statement; '' if the file leaves it empty. */
  originalToken: string;
  /** FH 15 (EY): copied into FH 18 of the correction; '' if absent. */
  hash: string;
  /** BH fields 1-42 in regular positions. */
  batchHeader: Fields;
  challans: ConsoChallan[];
  salary: ConsoSalary[];
  /** Lines read. */
  lines: number;
}

/** What the conso file must be: the statement the correction is for. */
export interface ConsoExpectation {
  tan: string;
  form: FormName;
  yearCode: string;
  quarter: string;
}

const fail = (code: ConsoErrorCode, line: number, message: string): never => {
  throw new ConsoFileError(code, line, message);
};

/** Field types of the regular legacy layout, to normalise conso values (zero-padded amounts) into regular ones. */
function typesOf(recordType: RecordType, form: FormName, yearCode: string): readonly FieldType[] {
  const layout = layoutVersion('legacy', yearCode).records.find((r) => r.recordType === recordType && r.forms.includes(form));
  const out: FieldType[] = ['CHAR'];
  for (const spec of layout?.fields ?? []) out.push(fieldForForm(spec, form).type);
  return out;
}

/**
 * Reads a conso file one line at a time (`line()`), then `finish()`. Each line is checked as it comes: line
 * numbers consecutive from 1, a known record type, enough fields, the read fields of the right shape, each DD
 * under its CD, record numbers unique. `finish()` checks the counts the headers declared (a shortfall at the
 * end is a truncated file) and that the file is the expected statement.
 */
export class ConsoReader {
  private lineNo = 0;
  private fh: string[] | null = null;
  private bh: string[] | null = null;
  private bhLine = 0;
  private batches = 0;
  private readonly challans: ConsoChallan[] = [];
  private readonly challanRecords = new Set<number>();
  private readonly salary: ConsoSalary[] = [];
  private current: ConsoChallan | null = null;
  private deducteeRecords = new Set<number>();
  private salaryOpen = false;
  private types: { CD: readonly FieldType[]; DD: readonly FieldType[]; SD: readonly FieldType[] } | null = null;

  constructor(private readonly expected: ConsoExpectation) {}

  line(raw: string): void {
    const n = ++this.lineNo;
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A byte-order mark (decoded text, or UTF-8's three bytes read as latin1) is not part of the first record.
    if (n === 1) text = text.replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, '');
    if (text === '') fail('INVALID_CONSO', n, 'an empty line');
    const f = ['', ...text.split('^')];
    if (f[1] !== String(n) && Number(f[1]) !== n) fail('INVALID_CONSO', n, `line number '${clip(f[1])}' where ${n} belongs (a line is missing or the file is not a conso file)`);
    const type = f[2] ?? '';
    if (!KNOWN.has(type)) fail('INVALID_CONSO', n, `unknown record type '${clip(type)}'`);
    if (n === 1 && type !== 'FH') fail('INVALID_CONSO', n, 'the first line is not the file header (FH)');
    if (type === 'FH') return this.fileHeader(f, n);
    if (type === 'BH') return this.batchHeader(f, n);
    if (!this.bh) fail('INVALID_CONSO', n, `a ${type} record before the batch header`);
    if (type === 'CD') return this.challan(f, n);
    if (type === 'DD') return this.deductee(f, n);
    if (type === 'SD' || type === '94P') return this.salaryDetail(f, n, type);
    if (CHILDREN_OF_SALARY.has(type) && !this.salaryOpen) fail('INVALID_CONSO', n, `a ${type} record outside a salary detail`);
  }

  private fileHeader(f: string[], n: number): void {
    if (n !== 1) fail('INVALID_CONSO', n, 'a second file header');
    need(f, CONSO_LAYOUT.FH.minFields, n, 'FH');
    if (!TAN.test(f[8]!)) fail('INVALID_CONSO', n, 'FH field 8 is not a TAN');
    if (!DIGITS.test(f[9]!) || Number(f[9]) < 1) fail('INVALID_CONSO', n, 'FH field 9 (number of batches) is not a positive number');
    this.batches = Number(f[9]);
    this.fh = f;
  }

  private batchHeader(f: string[], n: number): void {
    if (this.bh) fail('INVALID_CONSO', n, 'a second batch header: a conso file holds one statement');
    need(f, CONSO_LAYOUT.BH.minFields, n, 'BH');
    const tan = f[13]!;
    if (!TAN.test(tan)) fail('INVALID_CONSO', n, 'BH field 13 is not a TAN');
    if (tan !== this.fh![8]) fail('INVALID_CONSO', n, 'the TAN of BH field 13 differs from FH field 8');
    if (!DIGITS.test(f[4]!)) fail('INVALID_CONSO', n, 'BH field 4 (count of challans) is not a number');
    if (f[8] !== '' && !/^[0-9]{15}$/.test(f[8]!)) fail('INVALID_CONSO', n, 'BH field 8 (original token) is not 15 digits');
    if (!/^[0-9]{6}$/.test(f[17]!)) fail('INVALID_CONSO', n, 'BH field 17 (financial year) is not a year code like 202526');
    if (!/^Q[1-4]$/.test(f[18]!)) fail('INVALID_CONSO', n, 'BH field 18 (quarter) is not Q1..Q4');
    const e = this.expected;
    if (tan !== e.tan) fail('CONSO_OTHER_TAN', n, 'the conso file is for another TAN than the correction statement');
    if (f[5] !== e.form || f[17] !== e.yearCode || f[18] !== e.quarter) {
      fail('CONSO_OTHER_PERIOD', n, `the conso file is for Form ${clip(f[5])} ${clip(f[17])} ${clip(f[18])}, the correction for Form ${e.form} ${e.yearCode} ${e.quarter}`);
    }
    this.bh = f;
    this.bhLine = n;
    this.types = { CD: typesOf('CD', e.form, e.yearCode), DD: typesOf('DD', e.form, e.yearCode), SD: e.form === '24Q' ? typesOf('SD', e.form, e.yearCode) : [] };
  }

  private challan(f: string[], n: number): void {
    if (this.salaryOpen) fail('INVALID_CONSO', n, 'a challan record after the salary details');
    this.closeChallan();
    need(f, CONSO_LAYOUT.CD.minFields, n, 'CD');
    const record = recordNumber(f[4]!, n, 'CD field 4 (challan record number)');
    if (this.challanRecords.has(record)) fail('INVALID_CONSO', n, `challan record number ${record} appears twice`);
    if (!DIGITS.test(f[5]!)) fail('INVALID_CONSO', n, 'CD field 5 (count of deductee records) is not a number');
    const status = f[CONSO_LAYOUT.CD.status]!;
    if (!CHALLAN_STATUS.has(status)) fail('INVALID_CONSO', n, `CD field ${CONSO_LAYOUT.CD.status} (booking status) is '${clip(status)}', not M, U or P`);
    const fields = this.normalise(f, CONSO_LAYOUT.CD.regular, {}, this.types!.CD, n, 'CD');
    this.challanRecords.add(record);
    this.current = { line: n, record, status, fields, deductees: [], declared: Number(f[5]) };
    this.deducteeRecords = new Set();
    this.challans.push(this.current);
  }

  private deductee(f: string[], n: number): void {
    const challan = this.current;
    if (!challan) fail('INVALID_CONSO', n, 'a deductee record that follows no challan');
    need(f, CONSO_LAYOUT.DD.minFields, n, 'DD');
    if (recordNumber(f[4]!, n, 'DD field 4 (challan record number)') !== challan!.record) fail('INVALID_CONSO', n, `DD field 4 names challan ${clip(f[4])}, but the row follows challan ${challan!.record}`);
    const record = recordNumber(f[5]!, n, 'DD field 5 (deductee record number)');
    if (this.deducteeRecords.has(record)) fail('INVALID_CONSO', n, `deductee record number ${record} appears twice under challan ${challan!.record}`);
    if (!/^[A-Z]$/.test(f[6]!)) fail('INVALID_CONSO', n, 'DD field 6 (mode) is not a letter');
    const pan = f[10]!;
    if (!PAN.test(pan) && !PLACEHOLDERS.has(pan)) fail('INVALID_CONSO', n, 'DD field 10 is neither a PAN nor a PAN placeholder');
    if (challan!.deductees.length >= challan!.declared) fail('INVALID_CONSO', n, `challan ${challan!.record} (line ${challan!.line}) declares ${challan!.declared} deductee records, this is one more`);
    this.deducteeRecords.add(record);
    challan!.deductees.push(new ConsoDeductee(n, record, f[6]!, this.normalise(f, CONSO_LAYOUT.DD.regular, CONSO_LAYOUT.DD.moved, this.types!.DD, n, 'DD').join('^')));
  }

  private salaryDetail(f: string[], n: number, type: string): void {
    this.closeChallan();
    this.current = null;
    this.salaryOpen = true;
    if (type !== 'SD') return;
    if (this.expected.form !== '24Q' || this.expected.quarter !== 'Q4') fail('INVALID_CONSO', n, 'a salary detail record outside a 24Q Q4 statement');
    need(f, CONSO_LAYOUT.SD.minFields, n, 'SD');
    const record = recordNumber(f[4]!, n, 'SD field 4 (salary record number)');
    this.salary.push({ line: n, record, fields: this.normalise(f, CONSO_LAYOUT.SD.regular, {}, this.types!.SD, n, 'SD') });
  }

  /** The deductees a challan declared must all have come before the next challan (or the end). */
  private closeChallan(): void {
    const c = this.current;
    if (c && c.deductees.length < c.declared) {
      fail('INVALID_CONSO', c.line, `challan ${c.record} declares ${c.declared} deductee records but ${c.deductees.length} follow it`);
    }
  }

  /** The fields read, at their regular positions, with amounts and rates written as the regular TXT writes them. */
  private normalise(f: string[], regular: readonly number[], moved: Readonly<Record<number, number>>, types: readonly FieldType[], n: number, type: string): Fields {
    const out: Fields = new Array<string>(types.length).fill('');
    const put = (target: number, source: number) => {
      const value = f[source] ?? '';
      const kind = types[target];
      if (value === '' || kind === undefined) {
        if (kind !== undefined) out[target] = value;
        return;
      }
      if (kind === 'AMOUNT' || kind === 'RATE') {
        if (!DECIMAL.test(value)) fail('INVALID_CONSO', n, `${type} field ${source} is not an amount`);
        out[target] = kind === 'AMOUNT' ? formatPaise(Math.round(Number(value) * 100)) : formatRate(Math.round(Number(value) * 10000));
      } else if (kind === 'DATE') {
        if (!DATE.test(value)) fail('INVALID_CONSO', n, `${type} field ${source} is not a date ddmmyyyy`);
        out[target] = value;
      } else {
        out[target] = value;
      }
    };
    for (const k of regular) if (k !== 9 || type !== 'CD') put(k, k);
    for (const [target, source] of Object.entries(moved)) put(Number(target), source);
    return out;
  }

  /** End of the file: the counts the headers declared, then the statement. */
  finish(): ConsoStatement {
    const last = this.lineNo;
    if (last === 0) fail('INVALID_CONSO', 1, 'the file is empty');
    if (!this.bh) fail('CONSO_TRUNCATED', last, 'the file ends before its batch header');
    const c = this.current;
    if (c && c.deductees.length < c.declared) {
      fail('CONSO_TRUNCATED', last, `the file ends after ${c.deductees.length} of the ${c.declared} deductee records challan ${c.record} (line ${c.line}) declares`);
    }
    const declared = Number(this.bh![4]);
    if (this.challans.length < declared) fail('CONSO_TRUNCATED', last, `the file ends after ${this.challans.length} of the ${declared} challans the batch header (line ${this.bhLine}) declares`);
    if (this.challans.length > declared) fail('INVALID_CONSO', this.challans[declared]!.line, `the batch header (line ${this.bhLine}) declares ${declared} challans; this is one more`);
    if (this.batches !== 1) fail('INVALID_CONSO', 1, `FH field 9 declares ${this.batches} batches; a conso file holds one`);
    const bh = this.bh!;
    return {
      tan: bh[13]!,
      form: bh[5]!,
      yearCode: bh[17]!,
      quarter: bh[18]!,
      originalToken: bh[8]!,
      hash: this.fh![CONSO_LAYOUT.FH.hash] ?? '',
      batchHeader: bh.slice(0, 43),
      challans: this.challans,
      salary: this.salary,
      lines: last,
    };
  }
}

function need(f: string[], count: number, n: number, type: string): void {
  if (f.length - 1 < count) fail(f.length - 1 < 3 ? 'CONSO_TRUNCATED' : 'INVALID_CONSO', n, `the ${type} record has ${f.length - 1} fields; at least ${count} are needed`);
}

function recordNumber(value: string, n: number, what: string): number {
  if (!DIGITS.test(value) || Number(value) < 1) fail('INVALID_CONSO', n, `${what} is not a positive number`);
  return Number(value);
}

function clip(value: string | undefined): string {
  const v = value ?? '';
  return v.length > 20 ? `${v.slice(0, 20)}…` : v;
}

/**
 * Hands the lines to the reader: empty lines are allowed at the end only (counted, and refused as soon as a
 * record follows them).
 */
function feed(lines: Iterable<string>, reader: ConsoReader, empty: { count: number }): void {
  for (const line of lines) {
    if (line === '') {
      empty.count++;
      continue;
    }
    for (; empty.count > 0; empty.count--) reader.line('');
    reader.line(line);
  }
}

/**
 * Reads a whole conso file given as text or bytes (latin1: names may hold single-byte non-ASCII), a line at a
 * time: a line past limits.lineBytes, or more lines than limits.consoLines, throws CONVERSION_LIMIT.
 */
export function parseConso(content: string | Uint8Array, expected: ConsoExpectation, limits: LineLimits = DEFAULT_INPUT_LIMITS): ConsoStatement {
  const cutter = new LineCutter(limits, 'conso', 'latin1');
  const reader = new ConsoReader(expected);
  feed(cutter.all(content), reader, { count: 0 });
  return reader.finish();
}

/** Reads a conso file from a byte stream (or a path) one line at a time, with the limits of parseConso(). */
export async function readConso(source: Readable | string, expected: ConsoExpectation, limits: LineLimits = DEFAULT_INPUT_LIMITS): Promise<ConsoStatement> {
  const input = typeof source === 'string' ? createReadStream(source) : source;
  const cutter = new LineCutter(limits, 'conso', 'latin1');
  const reader = new ConsoReader(expected);
  const empty = { count: 0 };
  try {
    for await (const chunk of input) feed(cutter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : (chunk as Uint8Array)), reader, empty);
    feed(cutter.end(), reader, empty);
  } finally {
    if (typeof source === 'string') input.destroy();
  }
  return reader.finish();
}
