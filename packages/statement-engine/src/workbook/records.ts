// What the reader hands to the statement builder: list values and table rows in the spec's column order,
// each with the coordinates a person sees (row numbers and header names as written in the workbook).

import type { Place } from '../problems.js';
import type { ListSpec, TableSpec } from './spec.js';

export interface ListEntry {
  value: unknown;
  /** items[i] is row i + 1. */
  row: number;
}

export class ListRecord {
  constructor(
    readonly spec: ListSpec,
    private readonly entries: ReadonlyMap<string, ListEntry>,
  ) {}

  /** The value under a key (null when absent). */
  get(key: string): unknown {
    return this.entries.get(key)?.value ?? null;
  }

  /** The form's list has this key (whether or not the workbook gives a value). */
  declares(key: string): boolean {
    return this.spec.fields.some((f) => f.key === key);
  }

  /** The workbook gives a value under the key. */
  has(key: string): boolean {
    const v = this.entries.get(key)?.value;
    return v !== undefined && v !== null && v !== '';
  }

  place(key: string): Place {
    return { sheet: this.spec.sheet, row: this.entries.get(key)?.row ?? null, column: `${this.spec.block}.${key}` };
  }
}

/** Column names of one table as written in its header, by spec position. */
export class TableLayout {
  constructor(
    readonly spec: TableSpec,
    readonly sheetName: string,
    private readonly names: readonly string[],
  ) {}

  columnName(position: number): string {
    return this.names[position] ?? this.spec.columns[position]!.key;
  }

  place(row: number, position: number | null): Place {
    return { sheet: this.sheetName, row, column: position === null ? null : this.columnName(position) };
  }
}

export interface TableRow {
  /** rows[i] is row i + 2 (the header is row 1). */
  number: number;
  /** Cells in spec column order; null (or past the end) where the header lacks the column or the row is short. */
  cells: unknown[];
  /** The row failed the shape check: cells of a wrong type are null. Builders only register its keys. */
  damaged: boolean;
}
