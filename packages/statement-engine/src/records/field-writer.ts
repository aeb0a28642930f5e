// Writers that receive a record's fields in ascending order. The string writer builds the record text (used
// by convert()); the byte writer puts the record straight into a buffer as ASCII, digits and all, so the
// streaming path creates no string per field or per record.

import { dayOf, formatDdMmYyyy, monthOf, yearOf, type CivilDate } from '../dates.js';
import type { RecordFieldCheck } from '../layouts/field-check.js';
import { formatPaise, formatRate } from '../money.js';

export interface FieldWriter {
  /**
   * Field n (fields come in ascending order, from 2); '' leaves it empty. `key`, when given, is a number that
   * comes with the same text again (a payee's number with its name): a writer that keeps the texts it has
   * seen may file this one under it, without reading its characters (field-tape.ts). Any number is correct.
   */
  text(n: number, value: string, key?: number): void;
  /** A whole number. */
  int(n: number, value: number): void;
  /** An amount in paise as rupees with two decimals; null leaves the field empty. */
  paise(n: number, value: number | null): void;
  /** A rate in ten-thousandths of a percent, four decimals. */
  rate(n: number, value: number): void;
  /** A date as ddmmyyyy; null or 0 leaves the field empty. */
  date(n: number, value: CivilDate | null): void;
  /** Closes the record (trailing empty fields up to the record's field count). */
  end(): void;
}

/** Builds the record text (fields 2..count joined by carets). */
export class StringFieldWriter implements FieldWriter {
  private parts: string[] = [];

  /** @param check the layout self-check that sees every field as it is written (layouts/field-check.ts) */
  constructor(
    private readonly count: number,
    private readonly done: (body: string) => void,
    private readonly check: RecordFieldCheck | null = null,
  ) {}

  private at(n: number): void {
    if (this.check && this.parts.length < n - 2) this.check.empty(this.parts.length + 2, n);
    while (this.parts.length < n - 2) this.parts.push('');
  }

  private put(n: number, value: string): void {
    this.at(n);
    this.parts.push(value);
  }

  // Empty values are not written: the next field's at() (or end()) writes their carets and checks them as empty.
  text(n: number, value: string): void {
    if (value.length === 0) return;
    if (this.check) {
      this.check.text(n, value);
    }
    this.put(n, value);
  }

  int(n: number, value: number): void {
    const text = String(value);
    this.check?.int(n, value, text.length);
    this.put(n, text);
  }

  paise(n: number, value: number | null): void {
    if (value === null) return;
    const text = formatPaise(value);
    this.check?.paise(n, value, text.length);
    this.put(n, text);
  }

  rate(n: number, value: number): void {
    const text = formatRate(value);
    this.check?.rate(n, value, text.length);
    this.put(n, text);
  }

  date(n: number, value: CivilDate | null): void {
    if (value === null || value === 0) return;
    this.check?.date(n, value);
    this.put(n, formatDdMmYyyy(value));
  }

  end(): void {
    this.at(this.count + 1);
    this.check?.end(this.count);
    const body = this.parts.join('^');
    this.parts = [];
    this.done(body);
  }
}

const CARET = 0x5e;
const ZERO = 0x30;
/** Powers of ten up to 10^15 (amounts in paise stay below 10^14), for counting a number's digits. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

/**
 * Writes a whole non-negative number as ASCII digits at `position`; returns the position after them. Counts
 * the digits first and fills them from the right: no recursion, no string.
 */
export function writeDigits(buffer: Uint8Array, position: number, value: number): number {
  let length = 1;
  while (length < 16 && value >= POWERS_OF_TEN[length]!) length++;
  const end = position + length;
  let p = end;
  let v = value;
  while (v >= 10) {
    const q = Math.floor(v / 10);
    buffer[--p] = ZERO + (v - q * 10);
    v = q;
  }
  buffer[--p] = ZERO + v;
  return end;
}

/**
 * Writes a record as bytes into `buffer` from `position`, ending it with '\n'. The caller makes sure the
 * buffer has room for a whole record (records are well under MAX_RECORD_BYTES).
 */
export class ByteFieldWriter implements FieldWriter {
  buffer: Buffer = Buffer.alloc(0);
  position = 0;
  private field = 1;
  private count = 0;

  /**
   * @param finished told where the record ended (its '\n' included)
   * @param check the layout self-check that sees every field as it is written (layouts/field-check.ts)
   */
  constructor(
    private readonly finished: (end: number) => void,
    private readonly check: RecordFieldCheck | null = null,
  ) {}

  start(buffer: Buffer, position: number, count: number): this {
    this.buffer = buffer;
    this.position = position;
    this.count = count;
    this.field = 1;
    return this;
  }

  /** Moves to field n: one caret per field boundary crossed (field 2 opens the body without one). */
  private at(n: number): void {
    const field = this.field;
    if (n > field + 1 && this.check !== null) this.check.empty(field + 1, n);
    let carets = n - (field < 2 ? 2 : field);
    if (carets > 0) {
      const b = this.buffer;
      let p = this.position;
      while (carets-- > 0) b[p++] = CARET;
      this.position = p;
    }
    this.field = n;
  }

  // Empty values are not written: the next field's at() (or end()) writes their carets and checks them as empty.
  // The characters are copied and checked against the field's allowed bytes in the same loop.
  text(n: number, value: string): void {
    const length = value.length;
    if (length === 0) return;
    this.at(n);
    const b = this.buffer;
    let p = this.position;
    const check = this.check;
    if (check === null) {
      for (let i = 0; i < length; i++) b[p++] = value.charCodeAt(i);
    } else {
      const allowed = check.allowed(n);
      let ok = 1;
      for (let i = 0; i < length; i++) {
        const c = value.charCodeAt(i);
        ok &= allowed[c] ?? 0; // beyond 0xff: not allowed (and not written right: the check fails)
        b[p++] = c;
      }
      check.copiedText(n, value, ok);
    }
    this.position = p;
  }

  int(n: number, value: number): void {
    this.at(n);
    const start = this.position;
    this.position = writeDigits(this.buffer, start, value);
    this.check?.int(n, value, this.position - start);
  }

  paise(n: number, value: number | null): void {
    if (value === null) return;
    this.at(n);
    const b = this.buffer;
    const start = this.position;
    let p = start;
    let v = value;
    if (v < 0) {
      b[p++] = 0x2d;
      v = -v;
    }
    const rupees = Math.floor(v / 100);
    const rest = v - rupees * 100;
    p = writeDigits(b, p, rupees);
    const tens = Math.floor(rest / 10);
    b[p] = 0x2e;
    b[p + 1] = ZERO + tens;
    b[p + 2] = ZERO + (rest - tens * 10);
    p += 3;
    this.position = p;
    this.check?.paise(n, value, p - start);
  }

  rate(n: number, value: number): void {
    this.at(n);
    const b = this.buffer;
    const start = this.position;
    const whole = Math.floor(value / 10000);
    const rest = value - whole * 10000;
    let p = writeDigits(b, start, whole);
    const d1 = Math.floor(rest / 1000);
    const d2 = Math.floor((rest - d1 * 1000) / 100);
    const d3 = Math.floor((rest - d1 * 1000 - d2 * 100) / 10);
    const d4 = rest - d1 * 1000 - d2 * 100 - d3 * 10;
    b[p] = 0x2e;
    b[p + 1] = ZERO + d1;
    b[p + 2] = ZERO + d2;
    b[p + 3] = ZERO + d3;
    b[p + 4] = ZERO + d4;
    p += 5;
    this.position = p;
    this.check?.rate(n, value, p - start);
  }

  date(n: number, value: CivilDate | null): void {
    if (value === null || value === 0) return;
    this.check?.date(n, value);
    this.at(n);
    const b = this.buffer;
    const p = this.position;
    const d = dayOf(value);
    const m = monthOf(value);
    const y = yearOf(value);
    const y1 = Math.floor(y / 1000);
    const y2 = Math.floor(y / 100) - y1 * 10;
    const y3 = Math.floor(y / 10) - Math.floor(y / 100) * 10;
    const dTens = Math.floor(d / 10);
    const mTens = Math.floor(m / 10);
    b[p] = ZERO + dTens;
    b[p + 1] = ZERO + (d - dTens * 10);
    b[p + 2] = ZERO + mTens;
    b[p + 3] = ZERO + (m - mTens * 10);
    b[p + 4] = ZERO + y1;
    b[p + 5] = ZERO + y2;
    b[p + 6] = ZERO + y3;
    b[p + 7] = ZERO + (y - Math.floor(y / 10) * 10);
    this.position = p + 8;
  }

  end(): void {
    const last = this.field;
    this.at(this.count);
    if (this.check && last < this.count) this.check.empty(this.count, this.count + 1);
    this.check?.end(this.count);
    this.buffer[this.position++] = 0x0a;
    this.finished(this.position);
  }
}

/** Room a store keeps free for one record (the longest DD, a 27Q row with address and contact, is < 1 KiB). */
export const MAX_RECORD_BYTES = 4096;
