// An .xlsx workbook (layout.ts) read as a stream and handed to the engine as the Sheet JSON text it would have
// been, row by row, through the same streaming conversion as JSON input. The zip is opened by its central
// directory (zip.ts) and each worksheet parsed as it is inflated (parts.ts): memory does not grow with the
// worksheets (only the shared strings are held). Where each block sits is remembered, to name the Excel cell
// of every problem afterwards (`payment_sheet!F12`).

import type { Readable } from 'node:stream';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../limits.js';
import type { Problem } from '../types.js';
import { columnLetters, EXCEL_EPOCH_SERIAL, excelDateToEpoch, LISTS_WORKSHEET, MAX_EXCEL_SERIAL, WORKBOOK_WORKSHEET } from './layout.js';
import { dateStyles, sharedStrings, workbookParts, worksheetRows, type CellValue, type WorksheetContext, type WorksheetPart } from './parts.js';
import { XlsxZip } from './zip.js';

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

/**
 * A date column's number that can only be an Excel date serial (1 .. 2958465, up to 31-12-9999; as epoch
 * milliseconds it would fall in the first hour of 1970) is read as that date: a date cell without a date
 * format (some writers, or a format lost) is a bare serial.
 */
function dateCell(key: string, value: CellValue): CellValue {
  if (typeof value !== 'number' || !key.endsWith('_epoch') || value < 1 || value > MAX_EXCEL_SERIAL) return value;
  return excelDateToEpoch(new Date(Math.round((value - EXCEL_EPOCH_SERIAL) * 86_400_000)));
}

const isBlank = (cells: CellValue[]) => cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

type Block = { kind: 'list'; name: string; rows: number[] } | { kind: 'table'; name: string; header: string[] | null; headerRow: number };

/** The Sheet JSON text of one worksheet's blocks, row by row. */
class WorksheetTranslator {
  private block: Block | null = null;
  private first = { block: true, row: true };
  private lastRow = 0;
  /** The list item the last row was (list name, key, value), else null. */
  lastItem: { list: string; key: string; value: CellValue } | null = null;

  constructor(
    private readonly name: string,
    private readonly positions: SheetPositions,
  ) {}

  /** Text for one Excel row (an empty string when the row only closes or opens nothing). */
  row(number: number, cells: CellValue[]): string {
    // The streaming reader skips rows with no cells at all: a gap is an empty row.
    let text = number > this.lastRow + 1 ? this.closeBlock() : '';
    this.lastRow = number;
    this.lastItem = null;
    if (isBlank(cells)) return text + this.closeBlock();
    if (!this.block) return text + this.openBlock(number, cells);
    if (this.block.kind === 'list') {
      this.block.rows.push(number);
      const key = cells[0] === null ? '' : String(cells[0]);
      const value = dateCell(key, cells[1] ?? null);
      this.lastItem = { list: this.block.name, key, value };
      text += `${this.separator()}${JSON.stringify([key, value])}`;
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
      this.block = { kind: 'list', name, rows };
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

/** The worksheets of an open .xlsx with what their cells need (shared strings, date styles). */
async function openWorkbook(zip: XlsxZip, limits: InputLimits): Promise<{ worksheets: WorksheetPart[]; ctx: WorksheetContext }> {
  const parts = await workbookParts(zip, limits);
  const ctx: WorksheetContext = {
    dateStyles: await dateStyles(zip, parts.styles, limits),
    sharedStrings: await sharedStrings(zip, parts.sharedStrings, limits),
    date1904: parts.date1904,
    limits,
    rowsRead: 0,
  };
  return { worksheets: parts.worksheets, ctx };
}

/** Options of the .xlsx reader. */
export interface XlsxReadOptions {
  /** Where a workbook given as a stream is written while it is read (a zip is read from its end); default the OS temp dir. */
  tmpDir?: string;
  /** The input limits (default DEFAULT_INPUT_LIMITS): a workbook past one throws CONVERSION_LIMIT naming it. */
  limits?: InputLimits;
}

/** Opens the zip with the limits of the options. */
const openZip = (input: string | Readable, options: XlsxReadOptions) => XlsxZip.open(input, options.tmpDir, options.limits ?? DEFAULT_INPUT_LIMITS);

/**
 * Reads an .xlsx (a file path or a stream of its bytes) and yields the Sheet JSON text of the workbook, row by
 * row, into the engine's streaming conversion; `cells` is complete once the text has been consumed. The zip is
 * opened by its central directory, so the order of its entries does not matter (FORMAT_NOTES §14); a file that
 * is no readable .xlsx throws StatementEngineError INVALID_XLSX.
 */
export function xlsxAsSheetJson(input: string | Readable, options: XlsxReadOptions = {}): { text: AsyncIterable<string>; cells: CellMap } {
  const cells = new CellMap();
  async function* text(): AsyncGenerator<string> {
    const zip = await openZip(input, options);
    try {
      const { worksheets, ctx } = await openWorkbook(zip, options.limits ?? DEFAULT_INPUT_LIMITS);
      let workbookName: CellValue = null;
      let sheets = 0;
      yield '{"@entity":"workbook","sheets":[';
      for (const worksheet of worksheets) {
        if (worksheet.name === WORKBOOK_WORKSHEET) {
          for await (const { cells: [key, value] } of worksheetRows(zip, worksheet, ctx)) if (key === 'name') workbookName = value ?? null;
          continue;
        }
        if (worksheet.name === LISTS_WORKSHEET) continue;
        const positions: SheetPositions = { table: null, listRows: new Map() };
        cells.sheets.set(worksheet.name, positions);
        const translator = new WorksheetTranslator(worksheet.name, positions);
        yield `${sheets++ === 0 ? '' : ','}${translator.open()}`;
        // Pieces are gathered per batch of rows: fewer, larger strings for the JSON scanner.
        let batch = '';
        for await (const row of worksheetRows(zip, worksheet, ctx)) {
          batch += translator.row(row.number, row.cells);
          if (batch.length >= 1 << 16) {
            yield batch;
            batch = '';
          }
        }
        yield batch + translator.close();
      }
      yield `]${workbookName === null ? '' : `,"name":${JSON.stringify(workbookName)}`}}`;
    } finally {
      zip.close();
    }
  }
  return { text: text(), cells };
}

/**
 * The value of one list item (`payer_list` / `tan`) of an .xlsx workbook, read until it is found (the command
 * line's TAN of a workbook): null when the workbook has no such item.
 */
export async function xlsxListItem(input: string | Readable, block: string, key: string, options: XlsxReadOptions = {}): Promise<CellValue> {
  const zip = await openZip(input, options);
  try {
    const { worksheets, ctx } = await openWorkbook(zip, options.limits ?? DEFAULT_INPUT_LIMITS);
    for (const worksheet of worksheets) {
      if (worksheet.name === WORKBOOK_WORKSHEET || worksheet.name === LISTS_WORKSHEET) continue;
      const translator = new WorksheetTranslator(worksheet.name, { table: null, listRows: new Map() });
      for await (const row of worksheetRows(zip, worksheet, ctx)) {
        translator.row(row.number, row.cells);
        const item = translator.lastItem;
        if (item && item.list === block && item.key === key) return item.value;
      }
    }
    return null;
  } finally {
    zip.close();
  }
}

/** The whole Sheet JSON workbook of an .xlsx, parsed, for `convert()` / `validate()`, with its cell map. */
export async function readXlsxWorkbook(input: string | Readable, options: XlsxReadOptions = {}): Promise<{ workbook: unknown; cells: CellMap }> {
  const { text, cells } = xlsxAsSheetJson(input, options);
  let json = '';
  for await (const piece of text) json += piece;
  return { workbook: JSON.parse(json) as unknown, cells };
}
