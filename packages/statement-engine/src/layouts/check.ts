// The self-check: every line the engine writes is compared with the published layout before the TXT is handed
// out. A mismatch is a bug in the engine, never a problem of the workbook: it throws TxtLayoutError (code
// TXT_LAYOUT_MISMATCH) naming the line, the record type, the field and the reason.
//
// One pass over the bytes of each line, with the compiled tables (./compile.ts): no allocation per field or
// per line while the lines are right.

import { TxtLayoutError } from '../errors.js';
import type { Family } from '../period.js';
import type { FormName } from '../types.js';
import * as compiled from './compile.js';
import { compiledRecords, layoutVersion, packBytes, type CompiledRecord } from './compile.js';
import type { LayoutVersion, UploadType } from './types.js';

// Module-local copies: the hot loop reads plain constants, not imported bindings.
const FLAG_WHOLE = compiled.FLAG_WHOLE;
const FLAG_SIGNED = compiled.FLAG_SIGNED;
const FLAG_PAN = compiled.FLAG_PAN;
const FLAG_TAN = compiled.FLAG_TAN;
const FLAG_EXACT = compiled.FLAG_EXACT;
const TYPE_COUNT = compiled.RECORD_TYPES.length;
const BH = compiled.typeIndex('BH');

const CARET = 0x5e;
const CR = 0x0d;
const LF = 0x0a;
const DOT = 0x2e;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const INT = compiled.KIND.INT;
const CHAR = compiled.KIND.CHAR;
const DATE = compiled.KIND.DATE;
const AMOUNT = compiled.KIND.AMOUNT;
const RATE = compiled.KIND.RATE;
const MANDATORY = compiled.PRESENCE.M;
const NOT_APPLICABLE = compiled.PRESENCE.NA;
/** Most count fields a record has (legacy BH: CD, SD and 94P records). */
const MAX_COUNTS = 4;

/** Bytes each field type may contain (CHAR: printable ASCII without the caret). */
const ALLOWED: readonly Uint8Array[] = (() => {
  const table = [0, 1, 2, 3, 4].map(() => new Uint8Array(256));
  for (let c = ZERO; c <= NINE; c++) for (const k of [INT, DATE, AMOUNT, RATE]) table[k]![c] = 1;
  for (let c = 0x20; c <= 0x7e; c++) if (c !== CARET) table[CHAR]![c] = 1;
  table[AMOUNT]![DOT] = 1;
  table[AMOUNT]![MINUS] = 1;
  table[RATE]![DOT] = 1;
  return table;
})();

const PAN_FOURTH = new Set('PCHFATBLJG'.split('').map((c) => c.charCodeAt(0)));
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number) => c >= ZERO && c <= NINE;

function isPan(b: Uint8Array, p: number, e: number): boolean {
  if (e - p !== 10) return false;
  for (let i = 0; i < 5; i++) if (!isUpper(b[p + i]!)) return false;
  for (let i = 5; i < 9; i++) if (!isDigit(b[p + i]!)) return false;
  return isUpper(b[p + 9]!) && PAN_FOURTH.has(b[p + 3]!);
}

function isTan(b: Uint8Array, p: number, e: number): boolean {
  if (e - p !== 10) return false;
  for (let i = 0; i < 4; i++) if (!isUpper(b[p + i]!)) return false;
  for (let i = 4; i < 9; i++) if (!isDigit(b[p + i]!)) return false;
  return isUpper(b[p + 9]!);
}

function equals(v: Uint8Array, b: Uint8Array, p: number, e: number): boolean {
  if (v.length !== e - p) return false;
  for (let i = 0; i < v.length; i++) if (v[i] !== b[p + i]) return false;
  return true;
}

function isOneOf(list: readonly Uint8Array[], b: Uint8Array, p: number, e: number): boolean {
  for (const v of list) if (equals(v, b, p, e)) return true;
  return false;
}

/** Why a decimal or date value is malformed, or null. */
function shapeProblem(kind: number, flags: number, b: Uint8Array, p: number, e: number): string | null {
  const length = e - p;
  if (kind === DATE) {
    const day = (b[p]! - ZERO) * 10 + b[p + 1]! - ZERO;
    const month = (b[p + 2]! - ZERO) * 10 + b[p + 3]! - ZERO;
    return length === 8 && day >= 1 && day <= 31 && month >= 1 && month <= 12 ? null : 'not a date ddmmyyyy';
  }
  const decimals = kind === AMOUNT ? 2 : 4;
  const point = e - decimals - 1;
  const first = b[p] === MINUS ? p + 1 : p;
  if (first !== p && !(flags & FLAG_SIGNED)) return 'a negative amount where the layout has none';
  if (point <= first || b[point] !== DOT) return `not a number with ${decimals} decimals`;
  for (let i = first; i < e; i++) if (i !== point && !isDigit(b[i]!)) return `not a number with ${decimals} decimals`;
  if (flags & FLAG_WHOLE && (b[e - 1] !== ZERO || b[e - 2] !== ZERO)) return 'not whole rupees (.00)';
  return null;
}

/** Checks the lines of one statement in file order; throws TxtLayoutError at the first mismatch. */
export class TxtSelfCheck {
  private readonly records: readonly CompiledRecord[];
  private readonly version: LayoutVersion;
  private line = 0;
  /** Integer value of each INT field of the current line (-1 when empty). */
  private readonly ints = new Float64Array(128);
  /** Per record type: the running number of its last record, and how many it has under the current parent. */
  private readonly serial = new Float64Array(TYPE_COUNT);
  private readonly siblings = new Float64Array(TYPE_COUNT);
  /** Per record type: the own number (numbering.own) of its last record under the current parent. */
  private readonly lastOwn = new Float64Array(TYPE_COUNT);
  /** Per level: the open record (FH, BH, CD/SD/94P, DD...), its line and the counts it declared (checked when it closes). */
  private readonly open: Array<CompiledRecord | null> = [null, null, null, null];
  private readonly openLine = new Float64Array(4);
  private readonly declared = new Float64Array(4 * MAX_COUNTS);
  private scratch = Buffer.allocUnsafe(4096);

  constructor(
    private readonly family: Family,
    private readonly form: FormName,
    yearCode: string,
    private readonly upload: UploadType = 'R',
  ) {
    this.version = layoutVersion(family, yearCode);
    this.records = compiledRecords(this.version, form, upload);
  }

  /** One line as text (with or without its CRLF). */
  text(line: string): void {
    if (line.length * 3 > this.scratch.length) this.scratch = Buffer.allocUnsafe(line.length * 3);
    const end = this.scratch.write(line, 0, 'utf8');
    this.bytes(this.scratch, 0, end, line.endsWith('\r\n'));
  }

  /** One line as bytes b[start, end); `terminated`: the range ends with CRLF, which is checked too. */
  bytes(b: Uint8Array, start: number, end: number, terminated = true): void {
    this.line++;
    let stop = end;
    if (terminated) {
      if (end - start < 2 || b[end - 2] !== CR || b[end - 1] !== LF) this.fail(null, 0, 'the line does not end with CRLF');
      stop = end - 2;
    }
    const record = this.recordOf(b, start, stop);
    this.fields(record, b, start, stop);
    this.sequence(record);
  }

  /**
   * A line whose fields were checked as they were written (the DD records, layouts/field-check.ts): only its
   * place in the file is checked here, from its first fields (line number, type, batch, running numbers).
   */
  placed(b: Uint8Array, start: number, end: number): void {
    this.line++;
    if (end - start < 2 || b[end - 2] !== CR || b[end - 1] !== LF) this.fail(null, 0, 'the line does not end with CRLF');
    this.placedFields(b, start, end - 2);
  }

  /** placed() for a line given as text (with its CRLF). */
  placedText(line: string): void {
    this.line++;
    if (!line.endsWith('\r\n')) this.fail(null, 0, 'the line does not end with CRLF');
    // The first fields are all this needs: they fit in the scratch buffer whatever the line's length.
    const written = this.scratch.write(line, 0, Math.min(line.length - 2, 256), 'latin1');
    this.placedFields(this.scratch, 0, written);
  }

  private placedFields(b: Uint8Array, start: number, stop: number): void {
    // Fields 1-5 (line number, type, batch, the two running numbers): one pass, digits read as they come.
    const ints = this.ints;
    let n = 1;
    let value = 0;
    let empty = true;
    let typeStart = start;
    let typeEnd = start;
    for (let p = start; n <= 5; p++) {
      const c = p < stop ? b[p]! : CARET;
      if (c === CARET) {
        ints[n] = empty ? -1 : value;
        if (n === 1) typeStart = p + 1;
        else if (n === 2) typeEnd = p;
        n++;
        value = 0;
        empty = true;
        if (p >= stop) break;
      } else if (n !== 2) {
        if (c < ZERO || c > NINE) this.fail(this.recordOf(b, start, stop), n, `'${String.fromCharCode(c)}' in a numeric field`);
        value = value * 10 + c - ZERO;
        empty = false;
      }
    }
    // The usual case: one more record of the type just seen (the next DD of a challan).
    const previous = this.open[3] ?? null;
    if (previous !== null && equals(previous.typeBytes, b, typeStart, typeEnd) && this.nextSibling(previous)) return;
    this.sequence(this.recordOf(b, start, stop));
  }

  /** sequence() for a record that follows one of its own type under the same parent; false if anything is off. */
  private nextSibling(r: CompiledRecord): boolean {
    const ints = this.ints;
    const { serial, parent } = r.numbering;
    const i = r.typeIndex;
    const next = this.siblings[i]! + 1;
    if (ints[1] !== this.line || ints[3] !== this.serial[BH] || (serial !== undefined && ints[serial] !== next) || (parent !== undefined && ints[parent] !== this.serial[r.parentIndex])) return false;
    this.siblings[i] = next;
    this.serial[i] = next;
    this.openLine[3] = this.line;
    return true;
  }

  /** End of the file: the counts of the records still open. */
  finish(): void {
    if (this.line === 0) this.fail(null, 0, 'the file is empty');
    this.closeFrom(0);
  }

  private recordOf(b: Uint8Array, start: number, stop: number): CompiledRecord {
    let p = start;
    while (p < stop && b[p] !== CARET) p++;
    const typeStart = p + 1;
    let e = typeStart;
    while (e < stop && b[e] !== CARET) e++;
    for (const r of this.records) if (equals(r.typeBytes, b, typeStart, e)) return r;
    return this.fail(null, 2, `unknown record type '${Buffer.from(b.subarray(typeStart, Math.min(e, typeStart + 8))).toString('latin1')}' for Form ${this.form}`);
  }

  private fields(r: CompiledRecord, b: Uint8Array, start: number, stop: number): void {
    const ints = this.ints;
    const kinds = r.kind;
    const widths = r.width;
    const presences = r.presence;
    const count = r.count;
    let n = 1;
    let p = start;
    for (;;) {
      const kind = kinds[n]!;
      const fieldStart = p;
      let value = 0;
      if (kind === INT) {
        for (let c = b[p]!; p < stop && c !== CARET; c = b[++p]!) {
          if (c < ZERO || c > NINE) this.badByte(r, n, c, kind);
          value = value * 10 + c - ZERO;
        }
      } else if (kind === CHAR) {
        for (let c = b[p]!; p < stop && c !== CARET; c = b[++p]!) if (c < 0x20 || c > 0x7e) this.badByte(r, n, c, kind);
      } else {
        const allowed = ALLOWED[kind]!;
        for (let c = b[p]!; p < stop && c !== CARET; c = b[++p]!) if (allowed[c] === 0) this.badByte(r, n, c, kind);
      }
      const length = p - fieldStart;
      if (length === 0) {
        if (presences[n] === MANDATORY) this.fail(r, n, 'mandatory, but empty');
        ints[n] = -1;
      } else {
        if (presences[n] === NOT_APPLICABLE) this.fail(r, n, 'not applicable, but it holds a value');
        if (length > widths[n]!) this.tooWide(r, n, length);
        if (kind !== INT && kind !== CHAR) this.shape(r, n, kind, b, fieldStart, p);
        if (r.flags[n] !== 0 || r.values[n] !== null) this.value(r, n, b, fieldStart, p, length);
        ints[n] = value;
      }
      if (p >= stop) break;
      p++; // the caret
      if (++n > count) this.fail(r, count, `more than the layout's ${count} fields`);
    }
    if (n !== count) this.fail(r, n, `the record has ${n} fields, the layout ${count}`);
  }

  private badByte(r: CompiledRecord, n: number, c: number, kind: number): never {
    return this.fail(r, n, c < 0x20 || c > 0x7e ? `byte 0x${c.toString(16)} is not printable ASCII` : `'${String.fromCharCode(c)}' in a ${kindName(kind)} field`);
  }

  private tooWide(r: CompiledRecord, n: number, length: number): never {
    return this.fail(r, n, r.width[n] === 0 ? 'a filler the layout leaves without type or size, but it holds a value' : `${length} characters, the layout allows ${r.width[n]}`);
  }

  private shape(r: CompiledRecord, n: number, kind: number, b: Uint8Array, p: number, e: number): void {
    const problem = shapeProblem(kind, r.flags[n]!, b, p, e);
    if (problem) this.fail(r, n, problem);
  }

  /** Exact width, PAN/TAN shape and code lists. */
  private value(r: CompiledRecord, n: number, b: Uint8Array, p: number, e: number, length: number): void {
    const flags = r.flags[n]!;
    if (flags & FLAG_EXACT && length !== r.width[n]) this.fail(r, n, `${length} characters, the layout wants exactly ${r.width[n]}`);
    const values = r.values[n];
    if (flags & FLAG_PAN) {
      if (!isPan(b, p, e) && !(values && isOneOf(values, b, p, e))) this.fail(r, n, 'not a PAN (5 letters, 4 digits, a letter) nor an allowed placeholder');
    } else if (flags & FLAG_TAN) {
      if (!isTan(b, p, e)) this.fail(r, n, 'not a TAN (4 letters, 5 digits, a letter)');
    } else if (values) {
      const packed = r.packed[n];
      const known = packed ? packed.has(packBytes(b, p, e)) : isOneOf(values, b, p, e);
      if (!known) this.fail(r, n, `not one of the layout's values (${values.length <= 12 ? values.map((v) => Buffer.from(v).toString('latin1')).join(', ') : `${values.length} codes`})`);
    }
  }

  /** Line numbers, record order, running numbers, parent references and counts (§3 "Numbering rules", §5). */
  private sequence(r: CompiledRecord): void {
    const ints = this.ints;
    const level = r.level;
    if (ints[1] !== this.line) this.fail(r, 1, `line number ${ints[1]}, expected ${this.line}`);
    if (r.parentIndex < 0 ? this.line !== 1 : this.open[level - 1]?.typeIndex !== r.parentIndex) {
      this.fail(r, 2, r.parentIndex < 0 ? 'the file header must be the first line' : `a ${r.type} record must follow its ${compiled.RECORD_TYPES[r.parentIndex]}`);
    }
    const before = this.open[level];
    if (before && before !== r && before.rank > r.rank) this.fail(r, 2, `a ${r.type} record after the ${before.type} records`);
    this.closeFrom(level);
    const i = r.typeIndex;
    const siblings = ++this.siblings[i]!;
    const { serial, parent, own } = r.numbering;
    if (serial !== undefined && ints[serial] !== siblings) this.fail(r, serial, `running number ${ints[serial]}, expected ${siblings}`);
    if (own !== undefined) {
      if (ints[own]! < 1) this.fail(r, own, 'the record number is empty or 0');
      if (siblings > 1 && ints[own]! <= this.lastOwn[i]!) this.fail(r, own, `record number ${ints[own]} after ${this.lastOwn[i]}: the numbers must rise`);
      this.lastOwn[i] = ints[own]!;
    }
    if (parent !== undefined && ints[parent] !== this.serial[r.parentIndex]) {
      this.fail(r, parent, `refers to ${compiled.RECORD_TYPES[r.parentIndex]} ${ints[parent]}, but it follows ${compiled.RECORD_TYPES[r.parentIndex]} ${this.serial[r.parentIndex]}`);
    }
    if (level >= 2 && ints[3] !== this.serial[BH]) this.fail(r, 3, `batch number ${ints[3]}, the batch is ${this.serial[BH]}`);
    this.serial[i] = own !== undefined ? ints[own]! : siblings;
    const children = r.childIndices;
    for (let k = 0; k < children.length; k++) this.siblings[children[k]!] = 0;
    this.open[level] = r;
    this.openLine[level] = this.line;
    const counts = r.countFields;
    for (let k = 0; k < counts.length; k++) this.declared[level * MAX_COUNTS + k] = ints[counts[k]!]!;
  }

  /** Closes the open records from `level` down, checking the counts they declared. */
  private closeFrom(level: number): void {
    for (let l = this.open.length - 1; l >= level; l--) {
      const record = this.open[l];
      if (!record) continue;
      this.open[l] = null;
      const fields = record.countFields;
      for (let k = 0; k < fields.length; k++) {
        const child = record.countChildren[k]!;
        const declared = this.declared[l * MAX_COUNTS + k]!;
        const actual = this.siblings[child]!;
        const name = compiled.RECORD_TYPES[child];
        if (declared >= 0 && declared !== actual) this.failAt(this.openLine[l]!, record, fields[k]!, `says ${declared} ${name} records, the file has ${actual}`);
        if (declared < 0 && actual > 0) this.failAt(this.openLine[l]!, record, fields[k]!, `is empty, but ${actual} ${name} records follow`);
      }
    }
  }

  private fail(r: CompiledRecord | null, n: number, reason: string): never {
    return this.failAt(this.line, r, n, reason);
  }

  private failAt(line: number, r: CompiledRecord | null, n: number, reason: string): never {
    throw new TxtLayoutError({
      line,
      recordType: r?.type ?? null,
      field: n,
      fieldName: r?.names[n] ?? (n === 2 ? 'Record Type' : ''),
      reason,
      layout: `${this.family} ${this.version.version}${this.upload === 'C' ? ' (correction)' : ''}`,
    });
  }
}

function kindName(kind: number): string {
  return ['numeric', 'text', 'date', 'amount', 'rate'][kind]!;
}

/** Checks a whole TXT (tests, tools): throws TxtLayoutError at the first mismatch. */
export function checkTxt(txt: string, family: Family, form: FormName, yearCode: string, upload: UploadType = 'R'): void {
  const check = new TxtSelfCheck(family, form, yearCode, upload);
  const bytes = Buffer.from(txt, 'utf8');
  let start = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(LF, start);
    end = end < 0 ? bytes.length : end + 1;
    check.bytes(bytes, start, end);
    start = end;
  }
  check.finish();
}
