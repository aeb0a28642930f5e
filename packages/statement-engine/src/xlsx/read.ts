// An .xlsx workbook (layout.ts) read with exceljs and handed to the engine as the Sheet JSON text it would have
// been, row by row, through the same streaming conversion as JSON input. Where each block sits is remembered, to name the Excel cell
// of every problem afterwards (`payment_sheet!F12`).

import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import type { Problem } from '../types.js';
import { columnLetters, EXCEL_EPOCH_SERIAL, excelDateToEpoch, LISTS_WORKSHEET, MAX_EXCEL_SERIAL, WORKBOOK_WORKSHEET } from './layout.js';

type CellValue = string | number | boolean | null;

interface TablePosition {
  headerRow: number;
  header: string[];
}

interface SheetPositions {
  /** The sheet's table (the Sheet JSON workbooks have one per sheet). */
  table: TablePosition | null;
  /** list block -> Excel row of each item. */
  listRows: Map<string, number[]>;
}

/** Where the blocks of each worksheet are, to turn a problem's sheet / row / column into an Excel cell. */
export class CellMap {
  readonly sheets = new Map<string, SheetPositions>();

  cellOf(p: Pick<Problem, 'sheet' | 'row' | 'column'>): string | null {
    const sheet = p.sheet === null ? undefined : this.sheets.get(p.sheet);
    if (!sheet || p.row === null) return null;
    const dot = p.column?.indexOf('.') ?? -1;
    if (p.column && dot > 0) {
      const row = sheet.listRows.get(p.column.slice(0, dot))?.[p.row - 1];
      return row === undefined ? null : `${p.sheet}!B${row}`;
    }
    if (!sheet.table) return null;
    const row = sheet.table.headerRow + p.row - 1;
    const position = p.column === null ? -1 : sheet.table.header.indexOf(p.column);
    return `${p.sheet}!${position < 0 ? 'A' : columnLetters(position + 1)}${row}`;
  }

  /** Adds `cell` to every problem that has a place in the workbook. */
  annotate(problems: Problem[]): void {
    for (const p of problems) {
      const cell = this.cellOf(p);
      if (cell !== null) p.cell = cell;
    }
  }
}

/** A cell as the JSON value the Sheet JSON workbook would hold. */
export function jsonValue(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return excelDateToEpoch(value);
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text: string }>; result?: unknown; formula?: unknown; text?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('formula' in v || 'sharedFormula' in v) return jsonValue(v.result);
    if (typeof v.text === 'string') return v.text;
    if (typeof v.error === 'string') return v.error;
  }
  return String(value);
}

/**
 * A date column's number that can only be an Excel date serial (1 .. 2958465, up to 31-12-9999; as epoch
 * milliseconds it would fall in the first hour of 1970) is read as that date: files whose styles come after
 * their worksheets (as exceljs writes them) give date cells to the streaming reader as bare serials.
 */
function dateCell(key: string, value: CellValue): CellValue {
  if (typeof value !== 'number' || !key.endsWith('_epoch') || value < 1 || value > MAX_EXCEL_SERIAL) return value;
  return excelDateToEpoch(new Date(Math.round((value - EXCEL_EPOCH_SERIAL) * 86_400_000)));
}

const isBlank = (cells: CellValue[]) => cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

/** Cells 1..n of an exceljs row (its `values` array is 1-based and sparse). */
function rowCells(values: unknown): CellValue[] {
  const list = Array.isArray(values) ? values : [];
  const cells: CellValue[] = [];
  for (let i = 1; i < list.length; i++) cells.push(jsonValue(list[i]));
  while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
  return cells;
}

type Block = { kind: 'list'; rows: number[] } | { kind: 'table'; name: string; header: string[] | null; headerRow: number };

/** The Sheet JSON text of one worksheet's blocks, row by row. */
class WorksheetTranslator {
  private block: Block | null = null;
  private first = { block: true, row: true };
  private lastRow = 0;

  constructor(
    private readonly name: string,
    private readonly positions: SheetPositions,
  ) {}

  /** Text for one Excel row (an empty string when the row only closes or opens nothing). */
  row(number: number, cells: CellValue[]): string {
    // The streaming reader skips rows with no cells at all: a gap is an empty row.
    let text = number > this.lastRow + 1 ? this.closeBlock() : '';
    this.lastRow = number;
    if (isBlank(cells)) return text + this.closeBlock();
    if (!this.block) return text + this.openBlock(number, cells);
    if (this.block.kind === 'list') {
      this.block.rows.push(number);
      const key = cells[0] === null ? '' : String(cells[0]);
      text += `${this.separator()}${JSON.stringify([key, dateCell(key, cells[1] ?? null)])}`;
      return text;
    }
    if (this.block.header === null) {
      this.block.header = cells.map((c) => (c === null ? '' : String(c)));
      this.block.headerRow = number;
      this.positions.table = { headerRow: number, header: this.block.header };
      return `${text}"header":${JSON.stringify(this.block.header)},"rows":[`;
    }
    const width = Math.max(this.block.header.length, cells.length);
    const header = this.block.header;
    const padded = Array.from({ length: width }, (_, i) => dateCell(header[i] ?? '', cells[i] ?? null));
    return `${text}${this.separator()}${JSON.stringify(padded)}`;
  }

  private separator(): string {
    if (this.first.row) {
      this.first.row = false;
      return '';
    }
    return ',';
  }

  private openBlock(number: number, cells: CellValue[]): string {
    const name = String(cells[0] ?? '');
    const stated = typeof cells[1] === 'string' ? cells[1].trim().toLowerCase() : '';
    const kind = stated === 'list' || stated === 'table' ? stated : name.endsWith('_table') ? 'table' : 'list';
    const comma = this.first.block ? '' : ',';
    this.first.block = false;
    this.first.row = true;
    if (kind === 'list') {
      const rows: number[] = [];
      this.positions.listRows.set(name, rows);
      this.block = { kind: 'list', rows };
      return `${comma}{"name":${JSON.stringify(name)},"@entity":"list","items":[`;
    }
    this.block = { kind: 'table', name, header: null, headerRow: number + 1 };
    return `${comma}{"name":${JSON.stringify(name)},"@entity":"table",`;
  }

  closeBlock(): string {
    const block = this.block;
    if (!block) return '';
    this.block = null;
    if (block.kind === 'list') return ']}';
    // A table whose header row never came: an empty header, which the reader reports.
    return block.header === null ? '"header":[],"rows":[]}' : ']}';
  }

  open(): string {
    return `{"name":${JSON.stringify(this.name)},"@entity":"sheet","blocks":[`;
  }

  close(): string {
    return `${this.closeBlock()}]}`;
  }
}

type Row = { number: number; cells: CellValue[] };

/** The rows of a worksheet that hold any cell, with their Excel row numbers. */
function* worksheetRows(worksheet: ExcelJS.Worksheet): Generator<Row> {
  for (let number = 1; number <= worksheet.rowCount; number++) {
    const row = worksheet.getRow(number);
    if (row.hasValues) yield { number, cells: rowCells(row.values) };
  }
}

/**
 * Reads an .xlsx (a file path or a stream of its bytes) and yields the Sheet JSON text of the workbook, row by
 * row, into the engine's streaming conversion; `cells` is complete once the text has been consumed.
 * The .xlsx is loaded whole with exceljs's reader: its streaming reader (4.4) was seen to stop before the end
 * of files exceljs itself writes (worksheet names, styles and so dates lost); FORMAT_NOTES §14.
 */
export function xlsxAsSheetJson(input: string | Readable): { text: AsyncIterable<string>; cells: CellMap } {
  const cells = new CellMap();
  async function* text(): AsyncGenerator<string> {
    const book = new ExcelJS.Workbook();
    if (typeof input === 'string') await book.xlsx.readFile(input);
    else await book.xlsx.read(input);
    let workbookName: CellValue = null;
    let sheets = 0;
    yield '{"@entity":"workbook","sheets":[';
    for (const worksheet of book.worksheets) {
      if (worksheet.name === WORKBOOK_WORKSHEET) {
        for (const { cells: [key, value] } of worksheetRows(worksheet)) if (key === 'name') workbookName = value ?? null;
        continue;
      }
      if (worksheet.name === LISTS_WORKSHEET) continue;
      const positions: SheetPositions = { table: null, listRows: new Map() };
      cells.sheets.set(worksheet.name, positions);
      const translator = new WorksheetTranslator(worksheet.name, positions);
      yield `${sheets++ === 0 ? '' : ','}${translator.open()}`;
      for (const row of worksheetRows(worksheet)) {
        const piece = translator.row(row.number, row.cells);
        if (piece !== '') yield piece;
      }
      yield translator.close();
    }
    yield `]${workbookName === null ? '' : `,"name":${JSON.stringify(workbookName)}`}}`;
  }
  return { text: text(), cells };
}

/** The whole Sheet JSON workbook of an .xlsx, parsed, for `convert()` / `validate()`, with its cell map. */
export async function readXlsxWorkbook(input: string | Readable): Promise<{ workbook: unknown; cells: CellMap }> {
  const { text, cells } = xlsxAsSheetJson(input);
  let json = '';
  for await (const piece of text) json += piece;
  return { workbook: JSON.parse(json) as unknown, cells };
}
