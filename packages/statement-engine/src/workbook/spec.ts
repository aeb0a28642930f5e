// Descriptions of the vendor's Sheet JSON workbooks: which sheets and blocks exist and what each list key or
// table column holds. Readers are driven by header names, not positions, so the spellings in which the
// vendor's schemas and sample data disagree are accepted as aliases.

export type CellType = 'integer' | 'number' | 'string' | 'boolean' | 'epoch';

export interface FieldSpec {
  key: string;
  type: CellType;
  /** null (or a missing trailing cell) is allowed. */
  nullable: boolean;
  aliases?: readonly string[];
  /** Our own optional addition to the vendor's layout; never required in a header. */
  extension?: boolean;
  /** A code of exactly this many digits (BSR code 7, challan serial 5, PIN 6): a number loses its leading zeros. */
  digits?: number;
  /** A code written in capitals (mode of payment, Y/N flags, state, country): lower case is upper-cased. */
  upper?: boolean;
}

export interface ListSpec {
  kind: 'list';
  sheet: string;
  block: string;
  fields: readonly FieldSpec[];
}

export interface TableSpec {
  kind: 'table';
  sheet: string;
  block: string;
  columns: readonly FieldSpec[];
}

export type BlockSpec = ListSpec | TableSpec;

export interface SheetSpec {
  name: string;
  /** Only some periods read the sheet (24Q salary details: Q4). */
  optional?: boolean;
  blocks: readonly BlockSpec[];
}

export interface WorkbookSpec {
  name: string;
  sheets: readonly SheetSpec[];
}

export function field(key: string, type: CellType, nullable = false, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { key, type, nullable, ...extra };
}

/** Map from key (and every alias) to the field's position in the spec. */
export function fieldIndex(fields: readonly FieldSpec[]): Map<string, number> {
  const map = new Map<string, number>();
  fields.forEach((f, i) => {
    map.set(f.key, i);
    for (const alias of f.aliases ?? []) map.set(alias, i);
  });
  return map;
}
