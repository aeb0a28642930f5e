// The conso file's fields at the regular layout's positions: where each is read from and as what (Placement), the
// value a field takes there (amounts and rates as the regular TXT writes them), and, for the deductee rows that
// make up nearly all of a large file, the same done in place on the line's text. A conso row is kept as its line
// and checked when read without splitting it; its fields are made only for the rows a correction changes, and
// an unchanged row is compared with the workbook's regular DD line character by character (issue 23: reading a
// 400,000-row conso file used to cost more than converting the workbook).

import { ConsoFileError } from '../errors.js';
import type { FieldType } from '../layouts/types.js';
import { formatPaise, formatRate } from '../money.js';
import type { Fields } from '../records/fields.js';

/** How a record type's fields are read: its regular length, and each conso field read with where it goes and as what. */
export interface Placement {
  length: number;
  puts: ReadonlyArray<{ target: number; source: number; kind: FieldType }>;
}

export const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
export const DATE = /^(0[1-9]|[12][0-9]|3[01])(0[1-9]|1[0-2])[0-9]{4}$/;
export const DIGITS = /^[0-9]+$/;

/** A checked, non-empty conso value as the regular TXT writes it: amounts and rates re-formatted, the rest as is. */
export function regularValue(value: string, kind: FieldType): string {
  if (kind === 'AMOUNT') return formatPaise(Math.round(Number(value) * 100));
  if (kind === 'RATE') return formatRate(Math.round(Number(value) * 10000));
  return value;
}

/** DECIMAL.test(text.slice(s, e)), read in place. */
export function isDecimalAt(text: string, s: number, e: number): boolean {
  let i = text.charCodeAt(s) === 0x2d ? s + 1 : s;
  const whole = i;
  while (i < e && isDigit(text.charCodeAt(i))) i++;
  if (i === whole) return false;
  if (i === e) return true;
  if (text.charCodeAt(i) !== 0x2e) return false;
  const fraction = ++i;
  while (i < e && isDigit(text.charCodeAt(i))) i++;
  return i === e && i > fraction;
}

/** DATE.test(text.slice(s, e)), read in place: ddmmyyyy with day 01-31 and month 01-12. */
export function isDateAt(text: string, s: number, e: number): boolean {
  if (e - s !== 8) return false;
  for (let i = s; i < e; i++) if (!isDigit(text.charCodeAt(i))) return false;
  const day = (text.charCodeAt(s) - 0x30) * 10 + text.charCodeAt(s + 1) - 0x30;
  const month = (text.charCodeAt(s + 2) - 0x30) * 10 + text.charCodeAt(s + 3) - 0x30;
  return day >= 1 && day <= 31 && month >= 1 && month <= 12;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** A value's shape for its kind, checked: an error names the conso's record type and field number. */
function checkValue(value: string, kind: FieldType, n: number, type: string, source: number): void {
  if ((kind === 'AMOUNT' || kind === 'RATE') && !DECIMAL.test(value)) throw new ConsoFileError('INVALID_CONSO', n, `${type} field ${source} is not an amount`);
  if (kind === 'DATE' && !DATE.test(value)) throw new ConsoFileError('INVALID_CONSO', n, `${type} field ${source} is not a date ddmmyyyy`);
}

/**
 * The fields read (`f` from field 0, empty), at their regular positions, with amounts and rates written as the
 * regular TXT writes them; a field the regular layout marks NA for the form stays empty. An error names the
 * conso's field number.
 */
export function normalise(f: readonly string[], placement: Placement, n: number, type: string): Fields {
  const out: Fields = new Array<string>(placement.length).fill('');
  for (const { target, source, kind } of placement.puts) {
    const value = f[source] ?? '';
    if (value === '') continue;
    checkValue(value, kind, n, type, source);
    out[target] = regularValue(value, kind);
  }
  out[1] = f[1] ?? '';
  out[2] = type;
  return out;
}

/**
 * Where the fields of one caret-separated line start (fields numbered from 1), found with indexOf; one instance
 * is reused line after line, so reading a field's place allocates nothing.
 */
export class FieldBounds {
  private starts = new Int32Array(64);
  /** Fields on the line. */
  count = 0;

  scan(text: string): this {
    let k = 1;
    this.starts[1] = 0;
    for (let caret = text.indexOf('^'); caret >= 0; caret = text.indexOf('^', caret + 1)) {
      if (++k + 1 >= this.starts.length) this.grow();
      this.starts[k] = caret + 1;
    }
    this.count = k;
    this.starts[k + 1] = text.length + 1;
    return this;
  }

  /** Start of field n; for a field past the last, the end of the line. */
  start(n: number): number {
    return n <= this.count ? this.starts[n]! : this.starts[this.count + 1]! - 1;
  }

  /** End (exclusive) of field n; a field past the last is empty. */
  end(n: number): number {
    return n <= this.count ? this.starts[n + 1]! - 1 : this.starts[this.count + 1]! - 1;
  }

  /** Field n's text ('' past the last field). */
  value(text: string, n: number): string {
    return text.slice(this.start(n), this.end(n));
  }

  /** Field n as a whole number when it is 1 to 15 digits, else NaN: read in place, no string made. */
  digits(text: string, n: number): number {
    const s = this.start(n);
    const e = this.end(n);
    if (e <= s || e - s > 15) return NaN;
    let value = 0;
    for (let i = s; i < e; i++) {
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) return NaN;
      value = value * 10 + d;
    }
    return value;
  }

  /** Whether field n is `literal` (compared in place). */
  is(text: string, n: number, literal: string): boolean {
    const s = this.start(n);
    return this.end(n) - s === literal.length && text.startsWith(literal, s);
  }

  private grow(): void {
    const bigger = new Int32Array(this.starts.length * 2);
    bigger.set(this.starts);
    this.starts = bigger;
  }
}

/**
 * Whether text[s, e) (not empty) is already what fields() makes of it: an amount as `1234.50` and a rate as
 * `10.0000` (no leading zero, no `-0.00`, up to 15 digits, so exact in a double), a deductee code (DD 8) without
 * zero padding; any other value is kept as it is.
 */
function isRegularForm(text: string, s: number, e: number, how: number): boolean {
  if (how === AS_TEXT) return true;
  if (how === AS_CODE) return !(allDigits(text, s, e) && (e - s > 15 || (e - s > 1 && text.charCodeAt(s) === 0x30)));
  const digitsAfterPoint = how === AS_AMOUNT ? 2 : 4;
  let i = s;
  // A negative amount may be regular; formatRate() is not made for negative rates.
  if (text.charCodeAt(i) === 0x2d) {
    if (how === AS_RATE) return false;
    i++;
  }
  const point = e - digitsAfterPoint - 1;
  if (point <= i || text.charCodeAt(point) !== 0x2e || point - i + digitsAfterPoint > 15) return false;
  // No leading zero, and no "-0.00": regularValue() writes zero as 0.00.
  if (text.charCodeAt(i) === 0x30 && (point - i > 1 || i > s)) return false;
  for (let k = i; k < e; k++) {
    if (k === point) continue;
    if (!isDigit(text.charCodeAt(k))) return false;
  }
  return true;
}

function allDigits(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/** DD 8, the deductee code, is one digit in the regular layout (T-FV-4056): a padded `02` is the same code. */
function unpaddedCode(value: string): string {
  return DIGITS.test(value) ? String(Number(value)) : value;
}

/** How a compared field is read: as it is, as an amount or a rate (zero padding aside), as the deductee code. */
const AS_TEXT = 0;
const AS_AMOUNT = 1;
const AS_RATE = 2;
const AS_CODE = 3;

/** The fields sameAs() compares (regular numbers), each with its conso field (0: none) and how it is read. */
interface ComparePlan {
  compared: readonly number[];
  targets: Int32Array;
  sources: Int32Array;
  how: Uint8Array;
}

/** A regular field's source in the conso line and its kind; null where the regular row is always empty. */
type Source = { source: number; kind: FieldType } | null;

/**
 * The deductee rows of one conso file: what each field of the row is in the regular layout (`placement`), with
 * DD 8 (the deductee code, one digit in the regular layout, T-FV-4056) read without zero padding.
 */
export class DeducteeLayout {
  private readonly sources: Source[];
  private plan: ComparePlan | null = null;

  constructor(private readonly placement: Placement) {
    this.sources = new Array<Source>(placement.length).fill(null);
    for (const { target, source, kind } of placement.puts) this.sources[target] = { source, kind };
  }

  /**
   * Checks the placed fields of a DD line whose fields `bounds` holds, in the order normalise() would: what
   * normalise() would refuse, refused with its message, so fields() of a checked row never throws.
   */
  check(text: string, bounds: FieldBounds, n: number): void {
    for (const { source, kind } of this.placement.puts) {
      if (kind !== 'AMOUNT' && kind !== 'RATE' && kind !== 'DATE') continue;
      const s = bounds.start(source);
      const e = bounds.end(source);
      if (e > s && !(kind === 'DATE' ? isDateAt(text, s, e) : isDecimalAt(text, s, e))) checkValue(text.slice(s, e), kind, n, 'DD', source);
    }
  }

  /** The row's fields at the regular positions (from field 0, empty). */
  fields(text: string, n: number): Fields {
    const f = text.split('^');
    f.unshift('');
    const out = normalise(f, this.placement, n, 'DD');
    out[8] = unpaddedCode(out[8] ?? '');
    return out;
  }

  /**
   * Whether the regular DD line `line` (CRLF cut, from field 1) has, in each of `compared` (ascending), the value
   * fields() gives the conso row `text` there. Both lines are walked once, each field compared in place; a value
   * is made only where the texts differ or the conso's is not in the regular form (a padded amount).
   */
  sameAs(text: string, line: string, compared: readonly number[]): boolean {
    const plan = this.planFor(compared);
    let i = 0;
    let fieldA = 1;
    let j = 0;
    let fieldB = 1;
    for (let k = 0; k < plan.targets.length; k++) {
      const n = plan.targets[k]!;
      j = skipFields(line, j, n - fieldB);
      fieldB = n;
      const source = plan.sources[k]!;
      if (source === 0) {
        if (j < line.length && line.charCodeAt(j) !== CARET) return false;
        continue;
      }
      if (source < fieldA) {
        i = 0;
        fieldA = 1;
      }
      i = skipFields(text, i, source - fieldA);
      fieldA = source;
      const how = plan.how[k]!;
      // TRACES pads amounts with zeros (000000003000.00): an amount is compared without them.
      const from = how === AS_AMOUNT || how === AS_RATE ? withoutLeadingZeros(text, i) : i;
      const end = sameUpToCaret(text, from, line, j);
      if (end === from) {
        if (from === i) continue;
      } else if (end !== -1 && isRegularForm(text, from, end, how)) continue;
      // The texts differ, or the conso's is not in the regular form: the value fields() gives is compared.
      const ae = fieldEnd(text, i);
      const be = fieldEnd(line, j);
      if (ae === i) {
        if (be > j) return false;
        continue;
      }
      const value = regularValue(text.slice(i, ae), this.sources[n]!.kind);
      if ((how === AS_CODE ? unpaddedCode(value) : value) !== line.slice(j, be)) return false;
    }
    return true;
  }

  /** The compared fields' sources and how each is read, worked out once per list of fields. */
  private planFor(compared: readonly number[]): ComparePlan {
    if (this.plan?.compared === compared) return this.plan;
    const targets = Int32Array.from(compared);
    const sources = Int32Array.from(compared, (n) => this.sources[n]?.source ?? 0);
    const how = Uint8Array.from(compared, (n) => {
      const kind = this.sources[n]?.kind;
      return n === 8 ? AS_CODE : kind === 'AMOUNT' ? AS_AMOUNT : kind === 'RATE' ? AS_RATE : AS_TEXT;
    });
    this.plan = { compared, targets, sources, how };
    return this.plan;
  }
}

const CARET = 0x5e;

/**
 * The start of the field `count` fields after the one starting at `at` (past the end when the line has fewer).
 * indexOf, not a loop over the characters: the fields skipped (names, addresses) are most of a conso row, and
 * the loop was a third of the correction's comparing time.
 */
function skipFields(s: string, at: number, count: number): number {
  for (let k = 0; k < count && at <= s.length; k++) {
    const caret = s.indexOf('^', at);
    at = caret < 0 ? s.length + 1 : caret + 1;
  }
  return at;
}

/** Where the field starting at `s` starts past its leading zeros, keeping a zero before a point (an unsigned number). */
function withoutLeadingZeros(text: string, s: number): number {
  while (text.charCodeAt(s) === 0x30 && isDigit(text.charCodeAt(s + 1))) s++;
  return s;
}

/** Where the field starting at `at` ends (its caret, or the end of the line). */
function fieldEnd(s: string, at: number): number {
  if (at >= s.length) return at;
  while (at < s.length && s.charCodeAt(at) !== CARET) at++;
  return at;
}

/**
 * Compares the field of `a` starting at `i` with the field of `b` starting at `j`: the end of a's field when
 * they are the same text, else -1. A field past a line's end is empty.
 */
function sameUpToCaret(a: string, i: number, b: string, j: number): number {
  for (let x = i, y = j; ; x++, y++) {
    const ca = x < a.length ? a.charCodeAt(x) : CARET;
    const cb = y < b.length ? b.charCodeAt(y) : CARET;
    if (ca !== cb) return -1;
    if (ca === CARET) return x;
  }
}
