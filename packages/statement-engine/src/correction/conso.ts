// The TRACES consolidated ("conso") file of a statement: the `.tds` text file TRACES issues with the latest
// accepted state of a statement (regular + processed corrections), on which a correction must be prepared
// (tds-corrections.md §4). Read line by line (lines.ts), so a large file is never held as one string; a file that is
// malformed, cut short, or of another TAN or period is refused with the line and a code of the engine's error
// registry (ConsoFileError).
//
// The layout is the real file's: CONSO_LAYOUT below is read from a conso file TRACES issued (a 26Q of FY 2014-15,
// test/fixtures/conso/) and the conso importer of a desktop TDS product, each position with its source
// (FORMAT_NOTES.md §15). It differs from the regular TXT in the FH, the BH tail, the CD tail and the DD before the
// section code; the reader moves what it reads to the regular positions, so the comparison with the corrected
// workbook's regular records is field by field.

import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { ConsoFileError, type ConsoErrorCode } from '../errors.js';
import { DEFAULT_INPUT_LIMITS } from '../limits.js';
import { LineCutter, type LineLimits } from '../lines.js';
import { fieldForForm, layoutVersion } from '../layouts/compile.js';
import type { FieldType, Presence, RecordType } from '../layouts/types.js';
import type { FormName } from '../types.js';
import type { Fields } from '../records/fields.js';
import { DATE, DECIMAL, DeducteeLayout, DIGITS, FieldBounds, normalise, type Placement } from './conso-fields.js';

/**
 * Where the conso file keeps what a correction needs (1-based fields, line number = 1, record type = 2).
 * `same` lists the regular-layout fields read at the same position, `moved` regular field -> conso field for the
 * ones read elsewhere; the other numbers are the conso's own fields (no regular counterpart). A field the regular
 * layout marks NA for the form (DD 25 outside 24Q, CD 21) is read as empty: the correction repeats the regular
 * layout, not the conso.
 */
export const CONSO_LAYOUT = {
  FH: {
    /** 18 fields in the real file; 15 (the hash) is the last one read. */
    minFields: 15,
    batches: 9,
    /** Number of lines of the file: a file cut short has fewer. */
    lines: 10,
    /** "Data as on" date (ddmmyyyy): the state of TRACES the file reflects. */
    dataAsOn: 11,
    hash: 15,
    source: 'real file (FH: 3 NS1, 4 R, 5 date, 7 T, 8 empty, 9 batches, 10 lines, 11 data as on, 15 hash); TDSMAN T_FileHeader (8 TFC id / organisation id, 10 count of lines, 11 data as on, 15 file hash)',
  },
  BH: {
    /** 69 fields in the real file; 53 (last deductor type) is the last one a correction needs. */
    minFields: 53,
    same: [...range(1, 7), 13, 15, 16, 17, 18, ...range(19, 42), ...range(44, 47), ...range(49, 51), ...range(53, 69)],
    /** The responsible person's mobile: regular 43, conso 48 (43 is a remark there). */
    moved: { 43: 48 } as Readonly<Record<number, number>>,
    originalToken: 8,
    /** The token of the last processed correction, else the original's: BH 9 of the next correction. */
    previousToken: 9,
    /** The record number the next added challan (C9) must take. */
    nextChallan: 14,
    source: 'real file; TDSMAN T_BatchHeader (8 original RRR, 9 previous RRR, 14 expected challan record number, 43 remark, 48 mobile, 53 last deductor type, 54-58 as regular); 59-69 at the regular positions (inference: the real file has the regular BH\'s 69 fields before the s.194P fields)',
  },
  CD: {
    /** 41 fields in the real file. */
    minFields: 41,
    same: [...range(1, 6), 12, 14, 16, 18, ...range(22, 27), ...range(29, 35), 37],
    /** Fee u/s 234E and minor head sit one field later than in the regular CD: 38 is the pending amount. */
    moved: { 39: 40, 40: 41 } as Readonly<Record<number, number>>,
    /** The record number the next deductee row added under this challan must take. */
    nextDeductee: 8,
    /** Booking status at TRACES: M matched, U unmatched, P provisionally booked. */
    status: 9,
    /** Challan balance (amount not yet claimed by any statement). */
    pending: 38,
    source: 'real file (CD: 8 next deductee serial, 9 M, 38 0.00, 40 0.00, 41 200); TDSMAN T_Challan_detail (8 expected deductee serial, 9 challan matching indicator, 38 pending amount)',
  },
  DD: {
    /** 39 fields in the real file; 34 (the section code) is the last one read. */
    minFields: 34,
    same: range(1, 30),
    /** The section code: regular 33, conso 34 (31 and 32 are the PAN flag and counter). */
    moved: { 33: 34 } as Readonly<Record<number, number>>,
    panFlag: 31,
    /** How many times the row's PAN was changed (1 in the real file's uncorrected rows). */
    panCounter: 32,
    source: 'real file (DD: 8 one digit, 25 date of deposit filled, 31 Y, 32 1, 34 section); TDSMAN T_deductee_detail (31 PAN flag, 32 PAN counter); traces-app, EY (section at 34)',
  },
  SD: {
    minFields: 23,
    /** TDSMAN's T_SalaryDetail has PAN 7, name 9, gross total income 19 at the regular positions; the rest is inference. */
    same: [1, 2, 3, 4, 5, 7, 9, 13, 19, 23],
    moved: {} as Readonly<Record<number, number>>,
    source: 'TDSMAN T_SalaryDetail (7, 9, 19); the others the regular 24Q Q4 SD positions (inference)',
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
const TOKEN = /^[0-9]{15}$/;
const CHALLAN_STATUS = new Set(['M', 'U', 'P', '']);

export class ConsoDeductee {
  constructor(
    /** Line of the conso file. */
    readonly line: number,
    /** Deductee record number in the latest statement (DD 5). */
    readonly record: number,
    /** DD 6: O in a regular row; F for a row locked by Form 26A/27BA. */
    readonly mode: string,
    /** DD 32: how many times the row's PAN was changed ('' when the file leaves it empty). */
    readonly panCounter: string,
    /** The row's line as the file has it (CR cut): a row is kept as one string, so a large conso file stays small. */
    readonly text: string,
    private readonly layout: DeducteeLayout,
  ) {}

  /** The row in regular-layout positions (amounts without zero padding); fields the conso does not locate are empty. Made on each call. */
  get fields(): Fields {
    return this.layout.fields(this.text, this.line);
  }

  /** Whether the regular DD line `line` (from field 1, CRLF cut) has this row's values in `compared` (fields as in `fields`). */
  sameAs(line: string, compared: readonly number[]): boolean {
    return this.layout.sameAs(this.text, line, compared);
  }
}

export interface ConsoChallan {
  line: number;
  /** Challan record number in the latest statement (CD 4). */
  record: number;
  /** Booking status at TRACES: M matched, U unmatched, P provisionally booked; '' when the file leaves it empty. */
  status: string;
  /** CD 8: the record number the next row added under this challan takes; null when the file leaves it empty. */
  nextDeductee: number | null;
  /** CD 38: the challan's balance not claimed by any statement ('' when empty). */
  pending: string;
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
  /** BH 9: the token of the last processed correction (the original's when there was none); '' if empty. */
  previousToken: string;
  /** BH 14: the record number the next added challan takes; null when the file leaves it empty. */
  nextChallan: number | null;
  /** FH 11: the date (ddmmyyyy) whose state of TRACES the file holds; '' if empty. */
  dataAsOn: string;
  /** FH 15: copied into FH 18 of the correction; '' if absent. */
  hash: string;
  /** The BH in regular positions (1-72; the conso-only fields 8, 9, 12, 14 and 52 empty). */
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

/** Type and presence of each field of a regular legacy record, to put conso values in regular form. */
interface RegularFields {
  types: readonly FieldType[];
  presence: readonly Presence[];
}

function regularFields(recordType: RecordType, form: FormName, yearCode: string): RegularFields {
  const layout = layoutVersion('legacy', yearCode).records.find((r) => r.recordType === recordType && r.forms.includes(form));
  const types: FieldType[] = ['CHAR'];
  const presence: Presence[] = ['M'];
  for (const spec of layout?.fields ?? []) {
    const field = fieldForForm(spec, form);
    types.push(field.type);
    presence.push(field.presence);
  }
  return { types, presence };
}

type Mapped = { same: readonly number[]; moved: Readonly<Record<number, number>> };

/** The placement of a record type: `same` then `moved`, skipping fields the regular layout lacks or marks NA. */
function placement(map: Mapped, regular: RegularFields): Placement {
  const pairs: Array<[number, number]> = [...map.same.map((k): [number, number] => [k, k]), ...Object.entries(map.moved).map(([target, source]): [number, number] => [Number(target), source])];
  const puts = pairs.flatMap(([target, source]) => {
    const kind = regular.types[target];
    return kind === undefined || regular.presence[target] === 'NA' ? [] : [{ target, source, kind }];
  });
  return { length: regular.types.length, puts };
}

/** Where the fields of the expected statement's conso DD rows are, in the regular layout. */
export function deducteeLayoutFor(expected: ConsoExpectation): DeducteeLayout {
  return new DeducteeLayout(placement(CONSO_LAYOUT.DD, regularFields('DD', expected.form, expected.yearCode)));
}

/**
 * Reads a conso file one line at a time (`line()`), then `finish()`. Each line is checked as it comes: line
 * numbers consecutive from 1, a known record type, enough fields, the read fields of the right shape, each DD
 * under its CD, record numbers unique. `finish()` checks the counts the headers declared (FH 10 lines, BH 4
 * challans, CD 5 rows: a shortfall at the end is a truncated file) and that the file is the expected statement.
 */
export class ConsoReader {
  private lineNo = 0;
  private fh: string[] | null = null;
  private bh: string[] | null = null;
  private bhLine = 0;
  private batchHeader: Fields = [];
  private readonly challans: ConsoChallan[] = [];
  private readonly challanRecords = new Set<number>();
  private readonly salary: ConsoSalary[] = [];
  private current: ConsoChallan | null = null;
  private deducteeRecords = new Set<number>();
  private salaryOpen = false;
  /** Worked out once the batch header gives the form: a conso file has as many lines as the statement has rows. */
  private placements: { BH: Placement; CD: Placement; SD: Placement } | null = null;
  private deducteeLayout: DeducteeLayout | null = null;
  private readonly bounds = new FieldBounds();

  /**
   * `onChallan` is given each challan as soon as its rows are complete (the next challan or salary record, or the
   * end of the file): a correction compares it then, so a large file is never held whole (ConsoStream).
   */
  constructor(
    private readonly expected: ConsoExpectation,
    private readonly onChallan?: (challan: ConsoChallan) => void,
  ) {}

  /** Whether the batch header has been read: the file is then known to be the expected statement's. */
  get started(): boolean {
    return this.bh !== null;
  }

  line(raw: string): void {
    const n = ++this.lineNo;
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // A byte-order mark (decoded text, or UTF-8's three bytes read as latin1) is not part of the first record.
    if (n === 1) text = text.replace(/^(\uFEFF|\u00EF\u00BB\u00BF)/, '');
    if (text === '') fail('INVALID_CONSO', n, 'an empty line');
    // Deductee rows, nearly all of a large file, are read in place; the few other records are split.
    const b = this.bounds.scan(text);
    // Read in place first: a deductee row's fields are looked at without making their strings.
    if (b.digits(text, 1) !== n) {
      const lineNumber = b.value(text, 1);
      if (lineNumber !== String(n) && Number(lineNumber) !== n) fail('INVALID_CONSO', n, `line number '${clip(lineNumber)}' where ${n} belongs (a line is missing or the file is not a conso file)`);
    }
    const type = b.is(text, 2, 'DD') ? 'DD' : b.value(text, 2);
    if (!KNOWN.has(type)) fail('INVALID_CONSO', n, `unknown record type '${clip(type)}'`);
    if (n === 1 && type !== 'FH') fail('INVALID_CONSO', n, 'the first line is not the file header (FH)');
    if (type !== 'FH' && type !== 'BH' && !this.bh) fail('INVALID_CONSO', n, `a ${type} record before the batch header`);
    if (type === 'DD') return this.deductee(text, b, n);
    const f = text.split('^');
    f.unshift('');
    if (type === 'FH') return this.fileHeader(f, n);
    if (type === 'BH') return this.batchHeaderLine(f, n);
    if (type === 'CD') return this.challan(f, n);
    if (type === 'SD' || type === '94P') return this.salaryDetail(f, n, type);
    if (CHILDREN_OF_SALARY.has(type) && !this.salaryOpen) fail('INVALID_CONSO', n, `a ${type} record outside a salary detail`);
  }

  private fileHeader(f: string[], n: number): void {
    if (n !== 1) fail('INVALID_CONSO', n, 'a second file header');
    const L = CONSO_LAYOUT.FH;
    need(f.length - 1, L.minFields, n, 'FH');
    if (!DIGITS.test(f[L.batches]!) || Number(f[L.batches]) < 1) fail('INVALID_CONSO', n, `FH field ${L.batches} (number of batches) is not a positive number`);
    if (Number(f[L.batches]) !== 1) fail('INVALID_CONSO', n, `FH field ${L.batches} declares ${clip(f[L.batches])} batches; a conso file holds one`);
    if (!DIGITS.test(f[L.lines]!) || Number(f[L.lines]) < 2) fail('INVALID_CONSO', n, `FH field ${L.lines} (number of lines) is not a number of lines`);
    if (f[L.dataAsOn] !== '' && !DATE.test(f[L.dataAsOn]!)) fail('INVALID_CONSO', n, `FH field ${L.dataAsOn} (data as on) is not a date ddmmyyyy`);
    this.fh = f;
  }

  private batchHeaderLine(f: string[], n: number): void {
    if (this.bh) fail('INVALID_CONSO', n, 'a second batch header: a conso file holds one statement');
    const L = CONSO_LAYOUT.BH;
    need(f.length - 1, L.minFields, n, 'BH');
    const tan = f[13]!;
    if (!TAN.test(tan)) fail('INVALID_CONSO', n, 'BH field 13 is not a TAN');
    if (!DIGITS.test(f[4]!)) fail('INVALID_CONSO', n, 'BH field 4 (count of challans) is not a number');
    for (const [k, what] of [[L.originalToken, 'original token'], [L.previousToken, 'previous token']] as const) {
      if (f[k] !== '' && !TOKEN.test(f[k]!)) fail('INVALID_CONSO', n, `BH field ${k} (${what}) is not 15 digits`);
    }
    if (f[L.nextChallan] !== '') recordNumber(f[L.nextChallan]!, n, `BH field ${L.nextChallan} (next challan record number)`);
    if (!/^[0-9]{6}$/.test(f[17]!)) fail('INVALID_CONSO', n, 'BH field 17 (financial year) is not a year code like 202526');
    if (!/^Q[1-4]$/.test(f[18]!)) fail('INVALID_CONSO', n, 'BH field 18 (quarter) is not Q1..Q4');
    const e = this.expected;
    if (tan !== e.tan) fail('CONSO_OTHER_TAN', n, 'the conso file is for another TAN than the correction statement');
    if (f[5] !== e.form || f[17] !== e.yearCode || f[18] !== e.quarter) {
      fail('CONSO_OTHER_PERIOD', n, `the conso file is for Form ${clip(f[5])} ${clip(f[17])} ${clip(f[18])}, the correction for Form ${e.form} ${e.yearCode} ${e.quarter}`);
    }
    this.bh = f;
    this.bhLine = n;
    this.placements = {
      BH: placement(L, regularFields('BH', e.form, e.yearCode)),
      CD: placement(CONSO_LAYOUT.CD, regularFields('CD', e.form, e.yearCode)),
      SD: placement(CONSO_LAYOUT.SD, e.form === '24Q' ? regularFields('SD', e.form, e.yearCode) : { types: [], presence: [] }),
    };
    this.deducteeLayout = deducteeLayoutFor(e);
    this.batchHeader = normalise(f, this.placements.BH, n, 'BH');
  }

  private challan(f: string[], n: number): void {
    if (this.salaryOpen) fail('INVALID_CONSO', n, 'a challan record after the salary details');
    this.closeChallan();
    const L = CONSO_LAYOUT.CD;
    need(f.length - 1, L.minFields, n, 'CD');
    const record = recordNumber(f[4]!, n, 'CD field 4 (challan record number)');
    if (this.challanRecords.has(record)) fail('INVALID_CONSO', n, `challan record number ${record} appears twice`);
    if (!DIGITS.test(f[5]!)) fail('INVALID_CONSO', n, 'CD field 5 (count of deductee records) is not a number');
    const status = f[L.status]!;
    if (!CHALLAN_STATUS.has(status)) fail('INVALID_CONSO', n, `CD field ${L.status} (booking status) is '${clip(status)}', not M, U or P`);
    const next = f[L.nextDeductee] === '' ? null : recordNumber(f[L.nextDeductee]!, n, `CD field ${L.nextDeductee} (next deductee record number)`);
    const pending = f[L.pending]!;
    if (pending !== '' && !DECIMAL.test(pending)) fail('INVALID_CONSO', n, `CD field ${L.pending} (pending amount) is not an amount`);
    const fields = normalise(f, this.placements!.CD, n, 'CD');
    this.challanRecords.add(record);
    this.current = { line: n, record, status, nextDeductee: next, pending, fields, deductees: [], declared: Number(f[5]) };
    this.deducteeRecords = new Set();
    this.challans.push(this.current);
  }

  private deductee(text: string, b: FieldBounds, n: number): void {
    const challan = this.current;
    if (!challan) fail('INVALID_CONSO', n, 'a deductee record that follows no challan');
    const L = CONSO_LAYOUT.DD;
    need(b.count, L.minFields, n, 'DD');
    if (b.digits(text, 4) !== challan!.record) {
      const challanRecord = b.value(text, 4);
      if (recordNumber(challanRecord, n, 'DD field 4 (challan record number)') !== challan!.record) fail('INVALID_CONSO', n, `DD field 4 names challan ${clip(challanRecord)}, but the row follows challan ${challan!.record}`);
    }
    const inPlace = b.digits(text, 5);
    const record = inPlace >= 1 ? inPlace : recordNumber(b.value(text, 5), n, 'DD field 5 (deductee record number)');
    if (this.deducteeRecords.has(record)) fail('INVALID_CONSO', n, `deductee record number ${record} appears twice under challan ${challan!.record}`);
    if (challan!.nextDeductee !== null && record >= challan!.nextDeductee) fail('INVALID_CONSO', n, `deductee record number ${record} is not below the next record number challan ${challan!.record} (line ${challan!.line}) gives in CD field ${CONSO_LAYOUT.CD.nextDeductee} (${challan!.nextDeductee})`);
    const mode = b.value(text, 6);
    if (!/^[A-Z]$/.test(mode)) fail('INVALID_CONSO', n, 'DD field 6 (mode) is not a letter');
    const pan = b.value(text, 10);
    if (!PAN.test(pan) && !PLACEHOLDERS.has(pan)) fail('INVALID_CONSO', n, 'DD field 10 is neither a PAN nor a PAN placeholder');
    const counter = b.value(text, L.panCounter);
    if (counter !== '' && !DIGITS.test(counter)) fail('INVALID_CONSO', n, `DD field ${L.panCounter} (PAN counter) is not a number`);
    if (challan!.deductees.length >= challan!.declared) fail('INVALID_CONSO', n, `challan ${challan!.record} (line ${challan!.line}) declares ${challan!.declared} deductee records, this is one more`);
    this.deducteeLayout!.check(text, b, n);
    this.deducteeRecords.add(record);
    challan!.deductees.push(new ConsoDeductee(n, record, mode, counter, text, this.deducteeLayout!));
  }

  private salaryDetail(f: string[], n: number, type: string): void {
    this.closeChallan();
    this.salaryOpen = true;
    if (type !== 'SD') return;
    if (this.expected.form !== '24Q' || this.expected.quarter !== 'Q4') fail('INVALID_CONSO', n, 'a salary detail record outside a 24Q Q4 statement');
    need(f.length - 1, CONSO_LAYOUT.SD.minFields, n, 'SD');
    const record = recordNumber(f[4]!, n, 'SD field 4 (salary record number)');
    this.salary.push({ line: n, record, fields: normalise(f, this.placements!.SD, n, 'SD') });
  }

  /** The deductees a challan declared must all have come before the next challan (or the end). */
  private closeChallan(): void {
    const c = this.current;
    if (!c) return;
    if (c.deductees.length < c.declared) {
      fail('INVALID_CONSO', c.line, `challan ${c.record} declares ${c.declared} deductee records but ${c.deductees.length} follow it`);
    }
    this.current = null;
    this.onChallan?.(c);
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
    this.closeChallan();
    const declared = Number(this.bh![4]);
    if (this.challans.length < declared) fail('CONSO_TRUNCATED', last, `the file ends after ${this.challans.length} of the ${declared} challans the batch header (line ${this.bhLine}) declares`);
    if (this.challans.length > declared) fail('INVALID_CONSO', this.challans[declared]!.line, `the batch header (line ${this.bhLine}) declares ${declared} challans; this is one more`);
    const FH = CONSO_LAYOUT.FH;
    const lines = Number(this.fh![FH.lines]);
    if (last < lines) fail('CONSO_TRUNCATED', last, `the file ends after ${last} of the ${lines} lines FH field ${FH.lines} declares`);
    if (last > lines) fail('INVALID_CONSO', lines + 1, `FH field ${FH.lines} declares ${lines} lines; this is one more`);
    const bh = this.bh!;
    const B = CONSO_LAYOUT.BH;
    const nextChallan = bh[B.nextChallan] === '' ? null : Number(bh[B.nextChallan]);
    const highest = this.challans.reduce((max, ch) => Math.max(max, ch.record), 0);
    if (nextChallan !== null && nextChallan <= highest) fail('INVALID_CONSO', this.bhLine, `BH field ${B.nextChallan} (next challan record number) is ${nextChallan}, not above the highest challan record number ${highest}`);
    return {
      tan: bh[13]!,
      form: bh[5]!,
      yearCode: bh[17]!,
      quarter: bh[18]!,
      originalToken: bh[B.originalToken]!,
      previousToken: bh[B.previousToken]!,
      nextChallan,
      dataAsOn: this.fh![FH.dataAsOn] ?? '',
      hash: this.fh![FH.hash] ?? '',
      batchHeader: this.batchHeader,
      challans: this.challans,
      salary: this.salary,
      lines: last,
    };
  }
}

function need(fields: number, count: number, n: number, type: string): void {
  if (fields < count) fail(fields < 3 ? 'CONSO_TRUNCATED' : 'INVALID_CONSO', n, `the ${type} record has ${fields} fields; at least ${count} are needed`);
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

/** What a correction reads a conso file through: ConsoStream, or ConsoStreamInWorker (conso-in-worker.ts). */
export interface ConsoSource {
  start(): Promise<void>;
  readonly exhausted: boolean;
  next(): Promise<ConsoChallan | null>;
  end(): Promise<ConsoStatement>;
  close(): void | Promise<void>;
}

/**
 * A conso file read from a byte stream (or a path) as a correction needs it, with the limits of parseConso():
 * start() reads through the batch header (a file of another TAN or period is refused before anything else is
 * done), next() gives the challans one at a time as their rows are complete, end() reads the rest and gives the
 * statement. A consumer that is done with a challan's rows may drop them, so the file is never held whole.
 * close() ends the reading early (on an error).
 */
export class ConsoStream implements ConsoSource {
  private readonly reader: ConsoReader;
  private readonly cutter: LineCutter;
  private readonly input: Readable;
  private readonly chunks: AsyncIterator<unknown>;
  private readonly ready: ConsoChallan[] = [];
  private taken = 0;
  private readonly empty = { count: 0 };
  private statement: ConsoStatement | null = null;

  constructor(
    private readonly source: Readable | string,
    expected: ConsoExpectation,
    limits: LineLimits = DEFAULT_INPUT_LIMITS,
  ) {
    this.input = typeof source === 'string' ? createReadStream(source) : source;
    this.chunks = this.input[Symbol.asyncIterator]();
    this.cutter = new LineCutter(limits, 'conso', 'latin1');
    this.reader = new ConsoReader(expected, (challan) => this.ready.push(challan));
  }

  async start(): Promise<void> {
    while (!this.reader.started && !this.statement) await this.pump();
  }

  /** Whether every challan of the file has been given by next(). */
  get exhausted(): boolean {
    return this.statement !== null && this.taken === this.ready.length;
  }

  /** The next challan of the file with its rows, or null after the last. */
  async next(): Promise<ConsoChallan | null> {
    while (this.taken === this.ready.length && !this.statement) await this.pump();
    if (this.taken === this.ready.length) return null;
    const challan = this.ready[this.taken]!;
    this.ready[this.taken++] = undefined as unknown as ConsoChallan;
    return challan;
  }

  async end(): Promise<ConsoStatement> {
    while (!this.statement) await this.pump();
    return this.statement;
  }

  close(): void {
    if (typeof this.source === 'string') this.input.destroy();
  }

  private async pump(): Promise<void> {
    try {
      const chunk = await this.chunks.next();
      if (chunk.done) {
        feed(this.cutter.end(), this.reader, this.empty);
        this.statement = this.reader.finish();
        this.close();
        return;
      }
      const value = chunk.value as string | Uint8Array;
      feed(this.cutter.push(typeof value === 'string' ? Buffer.from(value, 'latin1') : value), this.reader, this.empty);
    } catch (error) {
      this.close();
      throw error;
    }
  }
}

/** Reads a conso file from a byte stream (or a path) one line at a time, with the limits of parseConso(). */
export async function readConso(source: Readable | string, expected: ConsoExpectation, limits: LineLimits = DEFAULT_INPUT_LIMITS): Promise<ConsoStatement> {
  return new ConsoStream(source, expected, limits).end();
}
