// The self-check of the deductee records, done as their fields are written (records/field-writer.ts): the
// writers hand every field to this check with the value they write, so a million DD records are checked
// without scanning their bytes again. Numbers are checked as values (a whole number of paise, its digits
// within the width); text is checked character by character. The first mismatch is kept and raised when the
// TXT is produced (the report may still have errors then, and a workbook error is never a self-check error).

import { TxtLayoutError } from '../errors.js';
import { dayOf, monthOf, type CivilDate } from '../dates.js';
import type { ResolvedOptions } from '../options.js';
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

/** Digits of a non-negative whole number. */
function digitCount(value: number): number {
  let digits = 1;
  for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
  return digits;
}

const PAN_PATTERN = /^[A-Z]{3}[PCHFATBLJG][A-Z][0-9]{4}[A-Z]$/;
const TAN_PATTERN = /^[A-Z]{4}[0-9]{5}[A-Z]$/;

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
  /** Records written so far per parent (challan record number), to check the running numbers. */
  private readonly perParent = new Map<number, number>();
  private readonly strings: ReadonlyArray<ReadonlySet<string> | null>;

  constructor(record: CompiledRecord) {
    this.record = record;
    this.strings = record.values.map((list) => (list ? new Set(list.map((v) => Buffer.from(v).toString('latin1'))) : null));
  }

  /** Starts a record under `parent`; returns the record's expected running number. */
  start(parent: number): void {
    this.parent = parent;
    this.serial = (this.perParent.get(parent) ?? 0) + 1;
    this.perParent.set(parent, this.serial);
  }

  private fail(n: number, reason: string): void {
    this.failure ??= { parent: this.parent, serial: this.serial, field: n, reason };
  }

  /** Fields from..to-1 are left empty. */
  empty(from: number, to: number): void {
    const presence = this.record.presence;
    for (let n = from; n < to; n++) if (presence[n] === MANDATORY) this.fail(n, 'mandatory, but empty');
  }

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

  text(n: number, value: string): void {
    if (value.length === 0) return this.empty(n, n + 1);
    const r = this.record;
    const kind = r.kind[n]!;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      const ok = kind === CHAR ? c >= 0x20 && c <= 0x7e && c !== CARET : c >= 0x30 && c <= 0x39;
      if (!ok) return this.fail(n, c < 0x20 || c > 0x7e ? `character ${c} is not printable ASCII` : `'${value[i]}' in a ${KIND_NAMES[kind]} field`);
    }
    if (!this.filled(n, kind, value.length)) return;
    const flags = r.flags[n]!;
    const values = this.strings[n];
    if (flags & FLAG_PAN) {
      if (!PAN_PATTERN.test(value) && !values?.has(value)) this.fail(n, 'not a PAN (5 letters, 4 digits, a letter) nor an allowed placeholder');
    } else if (flags & FLAG_TAN) {
      if (!TAN_PATTERN.test(value)) this.fail(n, 'not a TAN');
    } else if (values && !values.has(value)) {
      this.fail(n, `not one of the layout's values (${values.size <= 12 ? [...values].join(', ') : `${values.size} codes`})`);
    }
  }

  int(n: number, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) return this.fail(n, `${value} is not a whole number`);
    if (!this.filled(n, INT, digitCount(value))) return;
    const { parent, serial } = this.record.numbering;
    if (n === parent && value !== this.parent) this.fail(n, `refers to challan ${value}, but it is written under challan ${this.parent}`);
    if (n === serial && value !== this.serial) this.fail(n, `running number ${value}, expected ${this.serial}`);
    const values = this.strings[n];
    if (values && !values.has(String(value))) this.fail(n, `${value} is not one of the layout's values`);
  }

  /** An amount in paise; null leaves the field empty. */
  paise(n: number, value: number | null): void {
    if (value === null) return this.empty(n, n + 1);
    if (!Number.isSafeInteger(value)) return this.fail(n, `${value} paise is not a whole number of paise`);
    const flags = this.record.flags[n]!;
    if (value < 0 && !(flags & FLAG_SIGNED)) return this.fail(n, 'a negative amount where the layout has none');
    const magnitude = Math.abs(value);
    const length = (value < 0 ? 1 : 0) + Math.max(digitCount(Math.floor(magnitude / 100)), 1) + 3;
    if (!this.filled(n, AMOUNT, length)) return;
    if (flags & FLAG_WHOLE && magnitude % 100 !== 0) this.fail(n, 'not whole rupees (.00)');
  }

  /** A rate in ten-thousandths of a percent. */
  rate(n: number, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) return this.fail(n, `${value} is not a rate with four decimals`);
    this.filled(n, RATE, digitCount(Math.floor(value / 10000)) + 5);
  }

  /** A date; null or 0 leaves the field empty. */
  date(n: number, value: CivilDate | null): void {
    if (value === null || value === 0) return this.empty(n, n + 1);
    const day = dayOf(value);
    const month = monthOf(value);
    if (!(day >= 1 && day <= 31 && month >= 1 && month <= 12)) return this.fail(n, 'not a date');
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

/** The deductee-record check of the statement the options describe. */
export function deducteeCheckFor(options: ResolvedOptions): RecordFieldCheck {
  const records = compiledRecords(layoutVersion(options.form.family, options.period.yearCode), options.form.formNumber);
  const dd = records.find((r) => r.type === 'DD');
  if (!dd) throw new Error(`no DD layout for Form ${options.form.formNumber}`);
  return new RecordFieldCheck(dd);
}
