// The published record layouts as data. One RecordLayout per family, version and record type; every field
// says what the FVU layout says about it. The tables are written from the reference files named in each
// layout's `source` (not from our writers), so the self-check (./check.ts) compares our output with the
// published layout rather than with itself. FORMAT_NOTES.md §12 says how to add a new FVU version.

import type { Family } from '../period.js';
import type { FormName } from '../types.js';

/**
 * Field types as the layouts name them: INT (digits only), CHAR (printable ASCII, no caret), DATE (ddmmyyyy),
 * AMOUNT (decimal with exactly 2 places; "DEC 15", or "INT 15" for whole-rupee challan amounts written NNN.00),
 * RATE (decimal with exactly 4 places).
 */
export type FieldType = 'INT' | 'CHAR' | 'DATE' | 'AMOUNT' | 'RATE';

/** M mandatory (never empty), O optional, NA not applicable (always empty): general note 6 of every layout. */
export type Presence = 'M' | 'O' | 'NA';

/** Identifier shapes the layouts require of a CHAR field (reference §7). */
export type FieldFormat = 'PAN' | 'TAN';

/** A value that differs by form: the form's own entry, else `other`. */
export type PerForm<T> = { readonly other: T } & { readonly [form in FormName]?: T };

export interface FieldSpec {
  /** 1-based, as the layouts number fields (field 1 is the line number). */
  readonly n: number;
  readonly name: string;
  readonly type: FieldType;
  /** Maximum width in characters (an amount's width counts its digits, the point and the decimals). */
  readonly width: number;
  /** Identifiers of fixed length (BSR code 7, PIN 6, ...): the value is exactly `width` characters. */
  readonly exact?: boolean;
  readonly presence: Presence | PerForm<Presence>;
  /** The code list the layout names for this field (an annexure, Y/N, a constant). */
  readonly values?: readonly string[] | PerForm<readonly string[] | undefined>;
  /** Whole rupees: an AMOUNT whose paise are .00 (challan amounts, the batch total). */
  readonly whole?: boolean;
  /** An AMOUNT that may be negative (shortfall/excess, income with a house-property loss). */
  readonly signed?: boolean;
  readonly format?: FieldFormat;
  /** Where the field's entry differs from the main table (a correction, an inference, a condition). */
  readonly note?: string;
  /** A form whose layout gives this field another type, size or code list (Forms 143/144 in the 140 fillers). */
  readonly byForm?: { readonly [form in FormName]?: Partial<Omit<FieldSpec, 'n' | 'byForm'>> };
  /**
   * The field's entry in a correction statement (upload type C), where it differs from the regular one: the
   * correction slots (transaction type, updation indicators, tokens, the "last" values of the verification
   * keys) that a regular statement leaves empty (tds-corrections.md §2).
   */
  readonly correction?: Partial<Omit<FieldSpec, 'n' | 'byForm' | 'correction'>>;
}

/** R: a regular statement; C: a correction statement (FH field 4). */
export type UploadType = 'R' | 'C';

export type RecordType = 'FH' | 'BH' | 'CD' | 'DD' | 'SD' | 'S16' | 'C6A' | '94P' | 'P16' | 'P6A';

export interface RecordLayout {
  readonly family: Family;
  readonly recordType: RecordType;
  /** The format versions and FVU release the table describes. */
  readonly version: string;
  /** File and section of the reference the table is written from, and any correction applied. */
  readonly source: string;
  /** The forms this record occurs in. */
  readonly forms: readonly FormName[];
  /** fields[0] is field 1; fields.length is the record's field count. */
  readonly fields: readonly FieldSpec[];
  /** How the record is numbered and counted (tds-txt-format.md §3 "Numbering rules", §5). */
  readonly numbering?: Numbering;
  /**
   * Numbering in a correction statement, where it differs: records carry their numbers in the regular/latest
   * statement (and added ones continue after the last), so they do not run 1..n in the batch
   * (tds-corrections.md §1.3). Counts still count the records of the batch.
   */
  readonly correctionNumbering?: Numbering;
}

export interface Numbering {
  /** The field holding the record's running number: 1..n among its siblings under the same parent record. */
  readonly serial?: number;
  /**
   * The field holding the record's own number where it does not run 1..n (a correction: the number in the
   * latest statement). Children refer to it; among siblings the numbers must rise (so none repeats).
   */
  readonly own?: number;
  /** The field holding the parent record's running number (a DD's challan, an S16's salary detail). */
  readonly parent?: number;
  /** Fields that count the records of a child type under this record (BH 4 = number of CD, CD 5 = number of DD). */
  readonly counts?: ReadonlyArray<{ readonly field: number; readonly child: RecordType }>;
}

/** One version of a family's layouts: which statements it applies to and its record tables. */
export interface LayoutVersion {
  readonly family: Family;
  readonly version: string;
  /** First financial/tax year (BH field 17 code, e.g. '202526') the version applies to. */
  readonly appliesFrom: string;
  readonly records: readonly RecordLayout[];
}

// Builders that keep the tables one line per field.

export function field(n: number, name: string, type: FieldType, width: number, presence: FieldSpec['presence'], extra: Partial<FieldSpec> = {}): FieldSpec {
  return { n, name, type, width, presence, ...extra };
}

/** A field that must stay empty. */
export function na(n: number, name: string, note?: string): FieldSpec {
  return { n, name, type: 'CHAR', width: 0, presence: 'NA', ...(note ? { note } : {}) };
}

/** Fields a..b that must stay empty, named `${name} k`. */
export function naRange(a: number, b: number, name: string): FieldSpec[] {
  const out: FieldSpec[] = [];
  for (let n = a; n <= b; n++) out.push(na(n, `${name} ${n - a + 1}`));
  return out;
}

/** Checks that a table numbers its fields 1..count with no gap: a typo in a table is caught when the module loads. */
export function layout(spec: Omit<RecordLayout, 'fields'> & { fields: readonly FieldSpec[]; count: number }): RecordLayout {
  const { count, ...rest } = spec;
  spec.fields.forEach((f, i) => {
    if (f.n !== i + 1) throw new Error(`${spec.family} ${spec.recordType} table: entry ${i + 1} is numbered ${f.n}`);
  });
  if (spec.fields.length !== count) throw new Error(`${spec.family} ${spec.recordType} table has ${spec.fields.length} fields, the layout ${count}`);
  return rest;
}

export const YES_NO: readonly string[] = ['Y', 'N'];
