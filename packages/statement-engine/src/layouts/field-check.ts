// The self-check of the deductee records, done as their fields are written (records/field-writer.ts): the
// writers hand every field to this check with the value they write, so a million DD records are checked
// without scanning their bytes again. Numbers are checked as values (a whole number of paise, its digits
// within the width); text is checked character by character. The first mismatch is kept and raised when the
// TXT is produced (the report may still have errors then, and a workbook error is never a self-check error).

import { TxtLayoutError } from '../errors.js';
import type { CivilDate } from '../dates.js';
import type { ResolvedOptions } from '../options.js';
import type { Family } from '../period.js';
import type { FormName } from '../types.js';
import * as compiled from './compile.js';
import { compiledRecords, layoutVersion, type CompiledRecord } from './compile.js';

const INT = compiled.KIND.INT;
const CHAR = compiled.KIND.CHAR;
const DATE = compiled.KIND.DATE;
const AMOUNT = compiled.KIND.AMOUNT;
const RATE = compiled.KIND.RATE;
const MANDATORY = compiled.PRESENCE.M;
const NOT_APPLICABLE = compiled.PRESENCE.NA;
const FLAG_WHOLE = compiled.FLAG_WHOLE;
const FLAG_SIGNED = compiled.FLAG_SIGNED;
const FLAG_PAN = compiled.FLAG_PAN;
const FLAG_TAN = compiled.FLAG_TAN;
const FLAG_EXACT = compiled.FLAG_EXACT;
const CARET = 0x5e;

/** Bytes a field of each kind may hold (CHAR: printable ASCII without the caret); index by char code. */
const ALLOWED: readonly Uint8Array[] = [INT, CHAR, DATE, AMOUNT, RATE].map((kind) => {
  const table = new Uint8Array(256);
  for (let c = 0x20; c <= 0x7e; c++) table[c] = kind === CHAR ? (c === CARET ? 0 : 1) : c >= 0x30 && c <= 0x39 ? 1 : 0;
  return table;
});
const NOTHING = new Uint8Array(256);
/** Writer calls as bits, one per field kind (a text may go in a CHAR or an INT field, an int too). */
const CALL_INT = 1 << INT;
const CALL_TEXT = 1 << CHAR;
const CALL_AMOUNT = 1 << AMOUNT;
const CALL_RATE = 1 << RATE;
const CALL_DATE = 1 << DATE;

const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const PAN_FOURTH = new Set('PCHFATBLJG'.split('').map((c) => c.charCodeAt(0)));

function isPan(s: string): boolean {
  if (s.length !== 10) return false;
  for (let i = 0; i < 5; i++) if (!isUpper(s.charCodeAt(i))) return false;
  for (let i = 5; i < 9; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return isUpper(s.charCodeAt(9)) && PAN_FOURTH.has(s.charCodeAt(3));
}

function isTan(s: string): boolean {
  if (s.length !== 10) return false;
  for (let i = 0; i < 4; i++) if (!isUpper(s.charCodeAt(i))) return false;
  for (let i = 4; i < 9; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return isUpper(s.charCodeAt(9));
}

/** How a field's values are checked beyond kind, presence and width (RecordFieldCheck.special). */
const PLAIN = 0;
/** Anything else: the full checks every time (numbering, TAN, whole or signed amounts, exact widths...). */
const FULL = 1;
/** A PAN field with no other rule: the PAN shape passes at once (a placeholder goes through the full check). */
const PAN_SHAPE = 2;
/** A text field whose only rule is a list of codes of up to 6 bytes (packed). */
const CODES = 3;
/** The record's running number or its parent's number, with no other rule: compared at once. */
const NUMBERING = 4;

function specialOf(record: CompiledRecord, n: number): number {
  const flags = record.flags[n]!;
  const { serial, parent } = record.numbering;
  if (flags === 0 && record.values[n] === null && n !== serial && n !== parent) return PLAIN;
  if ((n === serial || n === parent) && flags === 0 && record.values[n] === null) return NUMBERING;
  if (n === serial || n === parent || record.kind[n] !== CHAR) return FULL;
  if (flags === FLAG_PAN) return PAN_SHAPE;
  if (flags === 0 && record.packed[n] && record.values[n]!.every((v) => v.length <= 6)) return CODES;
  return FULL;
}

/** packBytes() of a short text (see compile.ts). */
function packText(value: string): number {
  let key = value.length;
  for (let i = 0; i < value.length; i++) key = key * 256 + value.charCodeAt(i);
  return key;
}

export interface FieldFailure {
  /** The record's parent (the challan) and its running number under it, to find its line when the TXT is written. */
  parent: number;
  serial: number;
  field: number;
  reason: string;
}

export class RecordFieldCheck {
  readonly record: CompiledRecord;
  /** The first mismatch of any record, or null. */
  failure: FieldFailure | null = null;
  private parent = 0;
  private serial = 0;
  /** Records written so far per parent (challan record number, dense from 1), to check the running numbers. */
  private perParent = new Int32Array(1024);
  private readonly strings: ReadonlyArray<ReadonlySet<string> | null>;
  // Fast path: most fields need one or two array lookups; the rest (code lists, identifiers, numbering, exact
  // or whole values, anything wrong) go through the full checks below.
  /** Per field: the bit of each writer call the field takes (0 where nothing may be written). */
  private readonly accepts: Uint8Array;
  /** Per field: PLAIN, or how a value needs more than the fast checks (FULL, or a PAN or code-list test). */
  private readonly special: Uint8Array;
  /** The field holding the record's parent reference (record.numbering.parent), or -1. */
  private readonly parentField: number;
  /** Per field: the packed code list a CODES field is tested against. */
  private readonly codes: Array<ReadonlySet<number> | null>;
  /** Mandatory fields among fields 1..n-1, so that a run of empty fields is checked with one subtraction. */
  private readonly mandatoryBefore: Int32Array;
  private readonly widths: Uint16Array;
  /** Per field: the last code list value that passed. */
  private readonly lastGood: string[];

  constructor(record: CompiledRecord) {
    this.record = record;
    this.strings = record.values.map((list) => (list ? new Set(list.map((v) => Buffer.from(v).toString('latin1'))) : null));
    const size = record.count + 64; // calls beyond the field count read zeros: nothing accepted
    this.accepts = new Uint8Array(size);
    this.special = new Uint8Array(size);
    this.mandatoryBefore = new Int32Array(size + 1);
    this.widths = new Uint16Array(size);
    this.lastGood = new Array<string>(size).fill('\u0000');
    this.codes = new Array<ReadonlySet<number> | null>(size).fill(null);
    this.parentField = record.numbering.parent ?? -1;
    const { serial, parent } = record.numbering;
    for (let n = 1; n < size; n++) {
      const inTable = n <= record.count;
      const kind = inTable ? record.kind[n]! : -1;
      if (inTable && record.presence[n] !== NOT_APPLICABLE) this.accepts[n] = kind === CHAR ? CALL_TEXT | CALL_INT : kind === INT ? CALL_TEXT | CALL_INT : 1 << kind;
      this.special[n] = inTable ? specialOf(record, n) : PLAIN;
      if (this.special[n] === CODES) this.codes[n] = record.packed[n]!;
      this.widths[n] = inTable ? record.width[n]! : 0;
      this.mandatoryBefore[n + 1] = this.mandatoryBefore[n]! + (inTable && record.presence[n] === MANDATORY ? 1 : 0);
    }
  }

  /** 1 when every character of `value` may go in field n. */
  allowedText(n: number, value: string): number {
    const allowed = this.allowed(n);
    let ok = 1;
    for (let i = 0; i < value.length; i++) ok &= allowed[value.charCodeAt(i)]!;
    return ok;
  }

  /** Starts a record under `parent` (its challan). */
  start(parent: number): void {
    this.parent = parent;
    if (parent >= this.perParent.length) {
      const grown = new Int32Array(Math.max(parent + 1, this.perParent.length * 2));
      grown.set(this.perParent);
      this.perParent = grown;
    }
    this.serial = ++this.perParent[parent]!;
  }

  /** The characters field n may hold, for the writer's copy loop. */
  allowed(n: number): Uint8Array {
    return n <= this.record.count ? ALLOWED[this.record.kind[n]!]! : NOTHING;
  }

  private fail(n: number, reason: string): void {
    this.failure ??= { parent: this.parent, serial: this.serial, field: n, reason };
  }

  /** Fields from..to-1 are left empty. */
  empty(from: number, to: number): void {
    if (this.mandatoryBefore[to] !== this.mandatoryBefore[from]) this.emptyMandatory(from, to);
  }

  private emptyMandatory(from: number, to: number): void {
    const presence = this.record.presence;
    for (let n = from; n < to; n++) if (presence[n] === MANDATORY) this.fail(n, 'mandatory, but empty');
  }

  /** Field n holds `length` characters of a value of `kind`: presence, type and width. */
  private filled(n: number, kind: number, length: number): boolean {
    const r = this.record;
    if (n > r.count) return this.failed(n, `more than the layout's ${r.count} fields`);
    if (r.presence[n] === NOT_APPLICABLE) return this.failed(n, 'not applicable, but it holds a value');
    const expected = r.kind[n]!;
    if (expected !== kind && !(expected === CHAR && kind === INT)) return this.failed(n, `a ${KIND_NAMES[kind]} written where the layout has ${KIND_NAMES[expected]}`);
    if (length > r.width[n]!) return this.failed(n, r.width[n] === 0 ? 'a filler the layout leaves without type or size, but it holds a value' : `${length} characters, the layout allows ${r.width[n]}`);
    if (r.flags[n]! & FLAG_EXACT && length !== r.width[n]) return this.failed(n, `${length} characters, the layout wants exactly ${r.width[n]}`);
    return true;
  }

  private failed(n: number, reason: string): false {
    this.fail(n, reason);
    return false;
  }

  /** A text a writer writes in field n. */
  text(n: number, value: string): void {
    const length = value.length;
    if (length === 0) return this.empty(n, n + 1);
    if (value === this.lastGood[n]) return; // the same code as the last record's (DD, O, a section code)
    const ok = this.allowedText(n, value);
    if (ok === 1 && (this.accepts[n]! & CALL_TEXT) !== 0 && length <= this.widths[n]! && (this.special[n] === 0 || value === this.lastGood[n])) return;
    this.fullText(n, value, ok, length);
  }

  /**
   * A text the byte writer has copied into field n, checking each character against allowed(n) as it went
   * (`ok`: 1 when every one was allowed): the same checks as text(), without a second pass over the value.
   */
  copiedText(n: number, value: string, ok: number): void {
    const length = value.length;
    if (ok === 1 && (this.accepts[n]! & CALL_TEXT) !== 0 && length <= this.widths[n]!) {
      const special = this.special[n]!;
      if (special === PLAIN || value === this.lastGood[n]) return;
      // What fullText() would find, for the fields whose only rule is the PAN shape or a short code list.
      if (special === PAN_SHAPE && isPan(value)) return;
      if (special === CODES && length <= 6 && this.codes[n]!.has(packText(value))) return;
    }
    this.fullText(n, value, ok, length);
  }

  // The full checks, apart from the fast paths so that those stay small enough to be inlined into the writers.
  private fullText(n: number, value: string, ok: number, length: number): void {
    if (length === 0) return this.empty(n, n + 1);
    if (ok === 0) return this.fail(n, `'${value.slice(0, 20)}' has a character this ${KIND_NAMES[this.record.kind[n] ?? CHAR]} field cannot hold (only printable ASCII, no caret)`);
    const r = this.record;
    if (!this.filled(n, r.kind[n]!, length)) return;
    const flags = r.flags[n]!;
    if (flags & FLAG_PAN) {
      if (!isPan(value) && !this.strings[n]?.has(value)) return this.fail(n, 'not a PAN (5 letters, 4 digits, a letter) nor an allowed placeholder');
    } else if (flags & FLAG_TAN) {
      if (!isTan(value)) return this.fail(n, 'not a TAN');
    } else if (r.values[n] !== null) {
      const packed = r.packed[n];
      const known = packed && length <= 6 ? packed.has(packText(value)) : this.strings[n]!.has(value);
      if (!known) return this.fail(n, `not one of the layout's values (${r.values[n]!.length <= 12 ? [...this.strings[n]!].join(', ') : `${r.values[n]!.length} codes`})`);
    }
    // Codes repeat from record to record (DD, O, a section code): the last good one passes at once next time.
    this.lastGood[n] = value;
  }

  /** A whole number written in `length` digits. */
  int(n: number, value: number, length: number): void {
    if ((this.accepts[n]! & CALL_INT) !== 0 && length <= this.widths[n]! && value >= 0 && Number.isSafeInteger(value)) {
      const special = this.special[n]!;
      if (special === PLAIN) return;
      // What fullInt() would find for a running number or a parent reference that is right.
      if (special === NUMBERING && value === (n === this.parentField ? this.parent : this.serial)) return;
    }
    this.fullInt(n, value, length);
  }

  private fullInt(n: number, value: number, length: number): void {
    if (!Number.isSafeInteger(value) || value < 0) return this.fail(n, `${value} is not a whole number`);
    if (!this.filled(n, INT, length)) return;
    const { parent, serial } = this.record.numbering;
    if (n === parent && value !== this.parent) this.fail(n, `refers to challan ${value}, but it is written under challan ${this.parent}`);
    if (n === serial && value !== this.serial) this.fail(n, `running number ${value}, expected ${this.serial}`);
    if (this.strings[n] && !this.strings[n]!.has(String(value))) this.fail(n, `${value} is not one of the layout's values`);
  }

  /** An amount in paise written in `length` characters; null left the field empty. */
  paise(n: number, value: number | null, length: number): void {
    if (value === null) return this.empty(n, n + 1);
    if ((this.accepts[n]! & CALL_AMOUNT) !== 0 && length <= this.widths[n]! && this.special[n] === 0 && value >= 0 && Number.isSafeInteger(value)) return;
    this.fullPaise(n, value, length);
  }

  private fullPaise(n: number, value: number, length: number): void {
    if (!Number.isSafeInteger(value)) return this.fail(n, `${value} paise is not a whole number of paise`);
    const flags = this.record.flags[n] ?? 0;
    if (value < 0 && !(flags & FLAG_SIGNED)) return this.fail(n, 'a negative amount where the layout has none');
    if (!this.filled(n, AMOUNT, length)) return;
    if (flags & FLAG_WHOLE && value % 100 !== 0) this.fail(n, 'not whole rupees (.00)');
  }

  /** A rate in ten-thousandths of a percent written in `length` characters. */
  rate(n: number, value: number, length: number): void {
    if ((this.accepts[n]! & CALL_RATE) !== 0 && length <= this.widths[n]! && this.special[n] === 0 && value >= 0 && Number.isSafeInteger(value)) return;
    this.fullRate(n, value, length);
  }

  private fullRate(n: number, value: number, length: number): void {
    if (!Number.isSafeInteger(value) || value < 0) return this.fail(n, `${value} is not a rate with four decimals`);
    this.filled(n, RATE, length);
  }

  /** A date; null or 0 left the field empty. */
  date(n: number, value: CivilDate | null): void {
    if (value === null || value === 0) return this.empty(n, n + 1);
    const day = value % 100;
    const month = Math.floor(value / 100) % 100;
    if ((this.accepts[n]! & CALL_DATE) !== 0 && this.special[n] === 0 && day >= 1 && day <= 31 && month >= 1 && month <= 12 && value >= 10000000 && value < 100000000) return;
    this.fullDate(n, value, day, month);
  }

  private fullDate(n: number, value: number, day: number, month: number): void {
    if (!(day >= 1 && day <= 31 && month >= 1 && month <= 12 && value < 100000000)) return this.fail(n, 'not a date');
    this.filled(n, DATE, 8);
  }

  /** The record is complete at field `last` (the writer's field count). */
  end(last: number): void {
    if (last !== this.record.count) this.fail(last, `the record has ${last} fields, the layout ${this.record.count}`);
  }

  /** Throws the first mismatch, naming its line: the lines before it are FH, BH, and each earlier challan with its records. */
  raise(challans: ReadonlyArray<{ record: number; deductees: number }>): void {
    const f = this.failure;
    if (!f) return;
    let line = 2;
    for (const c of challans) {
      line += 1;
      if (c.record === f.parent) break;
      line += c.deductees;
    }
    line += f.serial;
    throw new TxtLayoutError({ line, recordType: this.record.type, field: f.field, fieldName: this.record.names[f.field] ?? '', reason: f.reason, layout: `${this.record.layout.family} ${this.record.layout.version}` });
  }
}

const KIND_NAMES = ['number', 'text', 'date', 'amount', 'rate'];

/** What picks a statement's DD layout: plain data, so a worker thread can build the same check. */
export interface DeducteeLayoutKey {
  family: Family;
  yearCode: string;
  formNumber: FormName;
}

export function deducteeLayoutKey(options: ResolvedOptions): DeducteeLayoutKey {
  return { family: options.form.family, yearCode: options.period.yearCode, formNumber: options.form.formNumber };
}

/** The deductee-record check of a DD layout. */
export function deducteeCheckOf(key: DeducteeLayoutKey): RecordFieldCheck {
  const records = compiledRecords(layoutVersion(key.family, key.yearCode), key.formNumber);
  const dd = records.find((r) => r.type === 'DD');
  if (!dd) throw new Error(`no DD layout for Form ${key.formNumber}`);
  return new RecordFieldCheck(dd);
}

/** The deductee-record check of the statement the options describe. */
export function deducteeCheckFor(options: ResolvedOptions): RecordFieldCheck {
  return deducteeCheckOf(deducteeLayoutKey(options));
}
