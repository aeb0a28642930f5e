// The tables turned into typed arrays per (form, record type), once per form and version, so that checking a
// record is a loop over its bytes with array lookups and no allocation.

import type { Family } from '../period.js';
import type { FormName } from '../types.js';
import { LEGACY_LAYOUTS } from './legacy.js';
import { NEW_LAYOUTS } from './new-forms.js';
import type { FieldSpec, FieldType, LayoutVersion, Numbering, PerForm, Presence, RecordLayout, RecordType, UploadType } from './types.js';

export const LAYOUT_VERSIONS: readonly LayoutVersion[] = [LEGACY_LAYOUTS, NEW_LAYOUTS];

export const KIND: Readonly<Record<FieldType, number>> = { INT: 0, CHAR: 1, DATE: 2, AMOUNT: 3, RATE: 4 };
export const PRESENCE: Readonly<Record<Presence, number>> = { O: 0, M: 1, NA: 2 };
export const FLAG_WHOLE = 1;
export const FLAG_SIGNED = 2;
export const FLAG_PAN = 4;
export const FLAG_TAN = 8;
export const FLAG_EXACT = 16;

/** Where records sit in the file: FH > BH > (CD > DD | SD > S16, C6A | 94P > P16, P6A). */
export const PLACEMENT: Readonly<Record<RecordType, { level: number; parent: RecordType | null; rank: number }>> = {
  FH: { level: 0, parent: null, rank: 0 },
  BH: { level: 1, parent: 'FH', rank: 0 },
  CD: { level: 2, parent: 'BH', rank: 0 },
  SD: { level: 2, parent: 'BH', rank: 1 },
  '94P': { level: 2, parent: 'BH', rank: 2 },
  DD: { level: 3, parent: 'CD', rank: 0 },
  S16: { level: 3, parent: 'SD', rank: 0 },
  C6A: { level: 3, parent: 'SD', rank: 1 },
  P16: { level: 3, parent: '94P', rank: 0 },
  P6A: { level: 3, parent: '94P', rank: 1 },
};

export const RECORD_TYPES = Object.keys(PLACEMENT) as RecordType[];
export const typeIndex = (t: RecordType): number => RECORD_TYPES.indexOf(t);
/** Per record type index: its parent's index (-1 for FH) and its children's indices. */
export const PARENT_INDEX: readonly number[] = RECORD_TYPES.map((t) => (PLACEMENT[t].parent ? typeIndex(PLACEMENT[t].parent!) : -1));
export const CHILD_INDICES: ReadonlyArray<readonly number[]> = RECORD_TYPES.map((t) => RECORD_TYPES.filter((c) => PLACEMENT[c].parent === t).map(typeIndex));

export interface CompiledRecord {
  readonly layout: RecordLayout;
  readonly type: RecordType;
  readonly typeIndex: number;
  readonly typeBytes: Uint8Array;
  readonly count: number;
  readonly names: readonly string[];
  readonly kind: Uint8Array;
  readonly width: Uint16Array;
  readonly presence: Uint8Array;
  readonly flags: Uint8Array;
  /** Allowed values per field as bytes; null where the layout names no list. */
  readonly values: ReadonlyArray<readonly Uint8Array[] | null>;
  readonly numbering: Numbering;
  /** Codes of up to 6 bytes packed into one number (see packBytes): an allowed-value test is one Set lookup. */
  readonly packed: ReadonlyArray<ReadonlySet<number> | null>;
  /** Where the record sits (PLACEMENT), as indices for the checker. */
  readonly level: number;
  readonly rank: number;
  readonly parentIndex: number;
  readonly childIndices: readonly number[];
  /** numbering.counts with the child type as an index. */
  readonly countFields: readonly number[];
  readonly countChildren: readonly number[];
}

/** A value of up to 6 bytes as one number (bytes base 256, plus the length so that codes do not collide); -1 if longer. */
export function packBytes(b: Uint8Array, p: number, e: number): number {
  const length = e - p;
  if (length > 6) return -1;
  let key = length;
  for (let i = p; i < e; i++) key = key * 256 + b[i]!;
  return key;
}

function pick<T>(value: T | PerForm<T>, form: FormName): T {
  if (value !== null && typeof value === 'object' && 'other' in (value as object)) {
    const perForm = value as PerForm<T>;
    return (Object.prototype.hasOwnProperty.call(perForm, form) ? perForm[form] : perForm.other) as T;
  }
  return value as T;
}

/** The field as it applies to one form: per-form presence, values and (Forms 143/144) the designed fields. */
export function fieldForForm(spec: FieldSpec, form: FormName, upload: UploadType = 'R'): Omit<FieldSpec, 'presence' | 'values'> & { presence: Presence; values: readonly string[] | undefined } {
  const merged = { ...spec, ...(spec.byForm?.[form] ?? {}), ...(upload === 'C' ? (spec.correction ?? {}) : {}) };
  return { ...merged, presence: pick(merged.presence, form), values: pick(merged.values, form) as readonly string[] | undefined };
}

function compileRecord(layout: RecordLayout, form: FormName, upload: UploadType): CompiledRecord {
  const count = layout.fields.length;
  const kind = new Uint8Array(count + 1);
  const width = new Uint16Array(count + 1);
  const presence = new Uint8Array(count + 1);
  const flags = new Uint8Array(count + 1);
  const values: Array<Uint8Array[] | null> = [null];
  const names: string[] = [''];
  for (const spec of layout.fields) {
    const field = fieldForForm(spec, form, upload);
    const n = spec.n;
    kind[n] = KIND[field.type];
    width[n] = field.width;
    presence[n] = PRESENCE[field.presence];
    flags[n] = (field.whole ? FLAG_WHOLE : 0) | (field.signed ? FLAG_SIGNED : 0) | (field.format === 'PAN' ? FLAG_PAN : 0) | (field.format === 'TAN' ? FLAG_TAN : 0) | (field.exact ? FLAG_EXACT : 0);
    values.push(field.values ? field.values.map((v) => Buffer.from(v, 'latin1')) : null);
    names.push(field.name);
  }
  return {
    layout,
    type: layout.recordType,
    typeIndex: RECORD_TYPES.indexOf(layout.recordType),
    typeBytes: Buffer.from(layout.recordType, 'latin1'),
    count,
    names,
    kind,
    width,
    presence,
    flags,
    values,
    numbering: (upload === 'C' ? (layout.correctionNumbering ?? layout.numbering) : layout.numbering) ?? {},
    packed: values.map((list) => (list && list.every((v) => v.length <= 6) ? new Set(list.map((v) => packBytes(v, 0, v.length))) : null)),
    level: PLACEMENT[layout.recordType].level,
    rank: PLACEMENT[layout.recordType].rank,
    parentIndex: PARENT_INDEX[typeIndex(layout.recordType)]!,
    childIndices: CHILD_INDICES[typeIndex(layout.recordType)]!,
    countFields: (layout.numbering?.counts ?? []).map((c) => c.field),
    countChildren: (layout.numbering?.counts ?? []).map((c) => typeIndex(c.child)),
  };
}

/** The version in force for a statement year: the latest of the family that applies from that year or earlier. */
export function layoutVersion(family: Family, yearCode: string): LayoutVersion {
  const candidates = LAYOUT_VERSIONS.filter((v) => v.family === family && v.appliesFrom <= yearCode).sort((a, b) => (a.appliesFrom < b.appliesFrom ? 1 : -1));
  const version = candidates[0] ?? LAYOUT_VERSIONS.find((v) => v.family === family);
  if (!version) throw new Error(`no record layouts for the ${family} family`);
  return version;
}

const compiled = new Map<string, readonly CompiledRecord[]>();

/** The records a form's statement may contain, compiled for that form (cached). */
export function compiledRecords(version: LayoutVersion, form: FormName, upload: UploadType = 'R'): readonly CompiledRecord[] {
  const key = `${version.family}|${version.version}|${form}|${upload}`;
  let records = compiled.get(key);
  if (!records) {
    records = version.records.filter((r) => r.forms.includes(form)).map((r) => compileRecord(r, form, upload));
    compiled.set(key, records);
  }
  return records;
}

const widths = new Map<string, number>();

/**
 * The width the layout in force gives one field of a form's record: input checks use it instead of a number of
 * their own, so that a new FVU version changes both the check of the workbook and of the TXT.
 */
export function fieldWidth(family: Family, form: FormName, recordType: RecordType, n: number): number {
  const key = `${family}|${form}|${recordType}|${n}`;
  let width = widths.get(key);
  if (width === undefined) {
    const version = LAYOUT_VERSIONS.filter((v) => v.family === family).sort((a, b) => (a.appliesFrom < b.appliesFrom ? 1 : -1))[0];
    const spec = version?.records.find((r) => r.recordType === recordType && r.forms.includes(form))?.fields[n - 1];
    if (!spec) throw new Error(`no ${family} ${recordType} field ${n} for Form ${form}`);
    width = fieldForForm(spec, form).width;
    widths.set(key, width);
  }
  return width;
}
