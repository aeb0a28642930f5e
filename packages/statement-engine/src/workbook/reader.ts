// Reads the blocks of a workbook, in whatever order they come, against a WorkbookSpec: list items in either
// encoding, table headers by name (aliases included), rows checked with the ajv row schema. A cell of the wrong
// JSON type is read as its column's type where that is unambiguous, and text is trimmed (coerce.ts), each with a
// warning naming the cell. Hands clean records to a sink.

import type { Place, ProblemCollector } from '../problems.js';
import { coerceCell, needsTidying, tidyText, type Coercion } from './coerce.js';
import { ListRecord, TableLayout, type ListEntry, type TableRow } from './records.js';
import { rowValidator, valueValidator, type ErrorObject, type ValidateFunction } from './schemas.js';
import { fieldIndex, type BlockSpec, type FieldSpec, type ListSpec, type SheetSpec, type TableSpec, type WorkbookSpec } from './spec.js';

export interface WorkbookSink {
  list(record: ListRecord): void;
  tableStart(layout: TableLayout): void;
  row(layout: TableLayout, row: TableRow): void;
  tableEnd(layout: TableLayout): void;
}

/** Receives the rows of one table. */
export interface RowReceiver {
  row(index: number, raw: unknown): void;
  end(): void;
}

const IGNORE: RowReceiver = { row() {}, end() {} };

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}

function expected(spec: FieldSpec): string {
  const what = { integer: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', epoch: 'a date (epoch milliseconds)' }[spec.type];
  return spec.nullable ? `${what} or null` : what;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

export interface ReaderOptions {
  /** Sheets that are read for this statement (e.g. salary_detail_sheet only in 24Q Q4). */
  readsSheet(sheet: SheetSpec): boolean;
}

export class WorkbookReader {
  private readonly seenSheets = new Set<string>();
  private readonly seenBlocks = new Set<string>();
  private readonly ignoredRows = new Map<string, number>();

  constructor(
    private readonly spec: WorkbookSpec,
    private readonly sink: WorkbookSink,
    private readonly problems: ProblemCollector,
    private readonly options: ReaderOptions,
  ) {}

  /** Checks the workbook's name; false means it is the wrong workbook and nothing else should be read. */
  checkName(name: unknown, expectedFor: string): boolean {
    if (name === this.spec.name) return true;
    const what = typeof name === 'string' ? `'${name.slice(0, 60)}'` : 'missing';
    this.problems.add('WORKBOOK_WRONG_FORM', { sheet: null, row: null, column: null }, `The workbook name is ${what}; ${expectedFor} needs ${this.spec.name}`);
    return false;
  }

  /** Called once per sheet object, in document order. False: skip its blocks (unknown or repeated). */
  sheet(name: string): boolean {
    const sheetSpec = this.spec.sheets.find((s) => s.name === name);
    if (!sheetSpec) {
      this.problems.add('SHEET_UNKNOWN', { sheet: name, row: null, column: null }, `Sheet '${name}' is not part of ${this.spec.name}; it is ignored`);
      return false;
    }
    if (this.seenSheets.has(name)) {
      this.problems.add('SHEET_DUPLICATE', { sheet: name, row: null, column: null }, `Sheet '${name}' appears more than once; only the first is read`);
      return false;
    }
    this.seenSheets.add(name);
    return true;
  }

  private blockSpec(sheetName: string, blockName: string, kind: 'list' | 'table'): BlockSpec | null {
    const sheetSpec = this.spec.sheets.find((s) => s.name === sheetName);
    const block = sheetSpec?.blocks.find((b) => b.block === blockName);
    const place = { sheet: sheetName, row: null, column: null, block: blockName };
    if (!sheetSpec || !block) {
      this.problems.add('BLOCK_UNKNOWN', place, `Block '${blockName}' is not part of sheet '${sheetName}'; it is ignored`);
      return null;
    }
    if (this.seenBlocks.has(`${sheetName}/${blockName}`)) {
      this.problems.add('SHEET_DUPLICATE', place, `Block '${blockName}' appears more than once; only the first is read`);
      return null;
    }
    if (block.kind !== kind) {
      this.problems.add('WORKBOOK_SHAPE', place, `Block '${blockName}' must be a ${block.kind}, not a ${kind}`);
      return null;
    }
    this.seenBlocks.add(`${sheetName}/${blockName}`);
    return block;
  }

  list(sheetName: string, blockName: string, items: readonly unknown[]): void {
    const spec = this.blockSpec(sheetName, blockName, 'list') as ListSpec | null;
    if (!spec) return;
    const index = fieldIndex(spec.fields);
    const entries = new Map<string, ListEntry>();
    items.forEach((item, i) => {
      const row = i + 1;
      const pairs = this.listPairs(item, spec, row);
      for (const [key, value] of pairs) this.listValue(spec, index, entries, key, value, row);
    });
    for (const f of spec.fields) {
      if (!f.nullable && isEmpty(entries.get(f.key)?.value)) {
        this.problems.add('VALUE_REQUIRED', { sheet: spec.sheet, row: entries.get(f.key)?.row ?? null, column: `${spec.block}.${f.key}` }, `${spec.block}: '${f.key}' is required`);
      }
    }
    this.sink.list(new ListRecord(spec, entries));
  }

  private listPairs(item: unknown, spec: ListSpec, row: number): Array<[string, unknown]> {
    if (Array.isArray(item) && item.length === 2 && typeof item[0] === 'string') return [[item[0], item[1]]];
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) return Object.entries(item);
    this.problems.add('LIST_ITEM_INVALID', { sheet: spec.sheet, row, column: spec.block }, `${spec.block} item ${row} must be {"key": value} or ["key", value]`);
    return [];
  }

  private listValue(spec: ListSpec, index: Map<string, number>, entries: Map<string, ListEntry>, key: string, value: unknown, row: number): void {
    const position = index.get(key);
    const place = { sheet: spec.sheet, row, column: `${spec.block}.${key}` };
    if (position === undefined) {
      this.problems.add('LIST_KEY_UNKNOWN', place, `${spec.block}: key '${key}' is not used by ${this.spec.name}; ignored`);
      return;
    }
    const f = spec.fields[position]!;
    if (entries.has(f.key)) {
      this.problems.add('LIST_KEY_DUPLICATE', place, `${spec.block}: '${f.key}' is given more than once`);
      return;
    }
    let read = value;
    if (read !== null && read !== undefined && !valueValidator(f)(read)) {
      const coerced = coerceCell(f, read);
      if (coerced) this.reportCoercion(coerced, place, `${spec.block}: '${f.key}'`);
      if (!coerced || coerced.code === 'NUMBER_GROUPED') {
        if (!coerced) this.problems.add('CELL_TYPE', place, `${spec.block}: '${f.key}' must be ${expected(f)}, not ${typeName(read)}`);
        entries.set(f.key, { value: null, row });
        return;
      }
      read = coerced.value;
    }
    if (typeof read === 'string' && needsTidying(f, read)) read = this.tidy(f, read, place, `${spec.block}: '${f.key}'`);
    entries.set(f.key, { value: read, row });
  }

  private reportCoercion(c: Coercion, place: Place, what: string): void {
    this.problems.add(c.code, place, `${what} ${c.note}`);
  }

  private tidy(spec: FieldSpec, text: string, place: Place, what: string): string {
    const { value, changes } = tidyText(spec, text);
    for (const c of changes) this.reportCoercion(c, place, what);
    return value;
  }

  /** Starts a table; returns the receiver for its rows. */
  table(sheetName: string, blockName: string, header: readonly unknown[]): RowReceiver {
    const spec = this.blockSpec(sheetName, blockName, 'table') as TableSpec | null;
    if (!spec) return IGNORE;
    const sheetSpec = this.spec.sheets.find((s) => s.name === sheetName)!;
    if (!this.options.readsSheet(sheetSpec)) return this.countIgnored(sheetName);
    const mapped = this.mapHeader(spec, sheetName, header);
    if (!mapped) return IGNORE;
    const { layout, headerColumns, positions } = mapped;
    const validate = rowValidator(headerColumns);
    this.sink.tableStart(layout);
    const width = spec.columns.length;
    const inOrder = positions.every((p, h) => p === h);
    // Header positions of the text columns, checked on every row for spaces (and case, for codes).
    const textColumns = headerColumns.flatMap((c, h) => (c?.type === 'string' && positions[h]! >= 0 ? [h] : []));
    return {
      row: (i: number, given: unknown) => {
        const number = i + 2;
        // JSON has no undefined, but in-memory callers may leave holes: read them as null.
        const holeless = Array.isArray(given) && given.includes(undefined) ? given.map((v) => (v === undefined ? null : v)) : given;
        // The usual row passes its type check at once; only one that fails is read again (checkRow).
        const valid: boolean = validate(holeless);
        const checked = valid ? null : this.checkRow(layout, headerColumns, positions, validate, holeless, number);
        const raw = checked ? checked.raw : (holeless as unknown[]);
        const damaged = checked !== null && checked.damaged;
        if (!raw) return;
        const row = this.tidyRow(layout, headerColumns, positions, textColumns, raw, given, number);
        // A header in the spec's own order (the usual case) needs no reordering: the row is the cells.
        let cells: unknown[];
        if (inOrder && !damaged) {
          cells = row;
        } else {
          cells = new Array<unknown>(width).fill(null);
          for (let h = 0; h < positions.length; h++) {
            const p = positions[h]!;
            if (p < 0 || h >= row.length) continue;
            cells[p] = row[h];
          }
          if (damaged) this.nullOutBadCells(cells, spec);
        }
        this.sink.row(layout, { number, cells, damaged });
      },
      end: () => this.sink.tableEnd(layout),
    };
  }

  private countIgnored(sheetName: string): RowReceiver {
    return {
      row: () => this.ignoredRows.set(sheetName, (this.ignoredRows.get(sheetName) ?? 0) + 1),
      end: () => {},
    };
  }

  private mapHeader(spec: TableSpec, sheetName: string, header: readonly unknown[]) {
    const index = fieldIndex(spec.columns);
    const names: string[] = spec.columns.map((c) => c.key);
    const positions: number[] = [];
    const headerColumns: Array<FieldSpec | null> = [];
    const seen = new Set<number>();
    let ok = true;
    header.forEach((h, col) => {
      const name = String(h);
      const p = index.get(name);
      const place = { sheet: sheetName, row: 1, column: name };
      if (p === undefined) {
        this.problems.add('HEADER_COLUMN_UNKNOWN', place, `Column '${name}' (column ${col + 1}) is not used by ${this.spec.name}; ignored`);
      } else if (seen.has(p)) {
        this.problems.add('HEADER_MISMATCH', place, `Column '${spec.columns[p]!.key}' appears twice in the header`);
        ok = false;
      } else {
        seen.add(p);
        names[p] = name;
      }
      positions.push(p === undefined || !ok ? -1 : p);
      headerColumns.push(p === undefined ? null : spec.columns[p]!);
    });
    spec.columns.forEach((c, p) => {
      if (!seen.has(p) && !c.nullable) {
        this.problems.add('HEADER_MISMATCH', { sheet: sheetName, row: 1, column: c.key }, `The header of ${spec.block} lacks column '${c.key}'`);
        ok = false;
      }
    });
    if (!ok) return null;
    return { layout: new TableLayout(spec, sheetName, names), headerColumns, positions };
  }

  /**
   * A row that failed its type check, read again with its cells coerced (coerceRow); what still fails is
   * reported. `raw` is null when the row is not a list of cells at all.
   */
  private checkRow(layout: TableLayout, columns: ReadonlyArray<FieldSpec | null>, positions: readonly number[], validate: ValidateFunction, given: unknown, number: number): { raw: unknown[] | null; damaged: boolean } {
    const passes = (row: unknown): boolean => validate(row);
    let raw = given;
    let reported = new Set<number>();
    if (Array.isArray(given)) {
      const coerced = this.coerceRow(layout, columns, positions, given, number);
      if (coerced) {
        raw = coerced.row;
        reported = coerced.reported;
        if (passes(raw)) return { raw: coerced.row, damaged: false };
      }
    }
    this.rowProblems(layout, columns, positions, raw, number, validate.errors ?? [], reported);
    return { raw: Array.isArray(raw) ? raw : null, damaged: true };
  }

  /**
   * A copy of a row that failed its type check, with each cell of the wrong type read as its column's type
   * where that is unambiguous (a warning each); null when no cell could be. `reported` holds the header
   * positions whose problem is already reported (digit grouping), so the type check does not repeat it.
   */
  private coerceRow(layout: TableLayout, columns: ReadonlyArray<FieldSpec | null>, positions: readonly number[], raw: readonly unknown[], number: number): { row: unknown[]; reported: Set<number> } | null {
    let row: unknown[] | null = null;
    const reported = new Set<number>();
    const end = Math.min(raw.length, columns.length);
    for (let h = 0; h < end; h++) {
      const spec = columns[h];
      const value = raw[h];
      if (!spec || value === null || valueValidator(spec)(value)) continue;
      const coerced = coerceCell(spec, value);
      if (!coerced) continue;
      const p = positions[h]!;
      this.reportCoercion(coerced, layout.place(number, p), `'${layout.columnName(p)}'`);
      if (coerced.code === 'NUMBER_GROUPED') {
        reported.add(h);
        continue;
      }
      row ??= raw.slice();
      row[h] = coerced.value;
    }
    return row || reported.size > 0 ? { row: row ?? (raw as unknown[]), reported } : null;
  }

  /** The row with its text cells trimmed (and codes upper-cased); the given row itself when nothing changes. */
  private tidyRow(layout: TableLayout, columns: ReadonlyArray<FieldSpec | null>, positions: readonly number[], textColumns: readonly number[], raw: unknown[], given: unknown, number: number): unknown[] {
    let row = raw;
    for (let k = 0; k < textColumns.length; k++) {
      const h = textColumns[k]!;
      const value = row[h];
      if (typeof value !== 'string' || !needsTidying(columns[h]!, value)) continue;
      // Never change the caller's own row object (convert() is given the caller's workbook).
      if (row === given) row = row.slice();
      const p = positions[h]!;
      row[h] = this.tidy(columns[h]!, value, layout.place(number, p), `'${layout.columnName(p)}'`);
    }
    return row;
  }

  private rowProblems(layout: TableLayout, columns: ReadonlyArray<FieldSpec | null>, positions: readonly number[], raw: unknown, number: number, errors: ErrorObject[], reported: Set<number>): void {
    if (!Array.isArray(raw)) {
      this.problems.add('ROW_SHAPE', layout.place(number, null), `Row ${number} must be a list of cells, not ${typeName(raw)}`);
      return;
    }
    for (const error of errors) {
      const m = /^\/(\d+)$/.exec(error.instancePath);
      if (!m) {
        if (error.keyword === 'maxItems') {
          this.problems.add('ROW_SHAPE', layout.place(number, null), `Row ${number} has ${raw.length} cells; the header has ${columns.length}`);
        } else if (error.keyword === 'minItems') {
          this.reportMissingTail(layout, columns, positions, raw, number, reported);
        }
        continue;
      }
      const h = Number(m[1]);
      if (reported.has(h)) continue;
      reported.add(h);
      const spec = columns[h]!;
      const p = positions[h]!;
      const value = raw[h];
      if (value === null || value === undefined) {
        this.problems.add('VALUE_REQUIRED', layout.place(number, p), `'${layout.columnName(p)}' is required`);
      } else {
        this.problems.add('CELL_TYPE', layout.place(number, p), `'${layout.columnName(p)}' must be ${expected(spec)}, not ${typeName(value)}`);
      }
    }
  }

  private reportMissingTail(layout: TableLayout, columns: ReadonlyArray<FieldSpec | null>, positions: readonly number[], raw: unknown[], number: number, reported: Set<number>): void {
    for (let h = raw.length; h < columns.length; h++) {
      const c = columns[h];
      if (c && !c.nullable && !reported.has(h)) {
        reported.add(h);
        const p = positions[h]!;
        this.problems.add('VALUE_REQUIRED', layout.place(number, p), `'${layout.columnName(p)}' is required (the row ends early)`);
      }
    }
  }

  /** Cells that fail their type are dropped so builders never see a wrong type. */
  private nullOutBadCells(cells: unknown[], spec: TableSpec): void {
    spec.columns.forEach((c, p) => {
      const v = cells[p];
      if (v !== null && !valueValidator(c)(v)) cells[p] = null;
    });
  }

  /** Problems for sheets and blocks that never came, and for ignored rows. */
  finish(): void {
    for (const sheetSpec of this.spec.sheets) {
      if (!this.options.readsSheet(sheetSpec)) {
        const ignored = this.ignoredRows.get(sheetSpec.name) ?? 0;
        if (ignored > 0) {
          this.problems.add('SHEET_NOT_EXPECTED', { sheet: sheetSpec.name, row: null, column: null }, `${ignored} row(s) of ${sheetSpec.name} are ignored: salary details are read only for Q4`);
        }
        continue;
      }
      if (!this.seenSheets.has(sheetSpec.name)) {
        // The one optional sheet (24Q salary details) is read in Q4 only, where the statement carries Annexure II.
        const why = sheetSpec.optional ? ': a Q4 statement carries the salary details of the year (Annexure II)' : '';
        this.problems.add('SHEET_MISSING', { sheet: sheetSpec.name, row: null, column: null }, `Sheet '${sheetSpec.name}' is missing${why}`);
        continue;
      }
      for (const block of sheetSpec.blocks) {
        if (!this.seenBlocks.has(`${sheetSpec.name}/${block.block}`)) {
          this.problems.add('BLOCK_MISSING', { sheet: sheetSpec.name, row: null, column: null }, `Block '${block.block}' is missing from sheet '${sheetSpec.name}'`);
        }
      }
    }
  }
}
