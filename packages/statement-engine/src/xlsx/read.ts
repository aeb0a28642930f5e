// An .xlsx workbook (layout.ts) read as a stream and handed to the engine's streaming conversion as the Sheet
// JSON workbook it would have been: the conversion's streamer is told what the JSON scanner would tell it
// reading that workbook's text, row by row, without the text being made (SheetJsonWriter makes it, for
// readXlsxWorkbook() and the reader's worker thread). The zip is opened by its central
// directory (zip.ts) and each worksheet parsed as it is inflated (parts.ts): memory does not grow with the
// worksheets (only the shared strings are held). Where each block sits is remembered, to name the Excel cell
// of every problem afterwards (`payment_sheet!F12`).

import type { Readable } from 'node:stream';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../limits.js';
import { blockOf, type Place, type ProblemCollector } from '../problems.js';
import { RULES, type RuleCode } from '../rules.js';
import { StatementEngineError } from '../errors.js';
import type { Problem } from '../types.js';
import { columnLetters, EXCEL_EPOCH_SERIAL, excelDateToEpoch, LISTS_WORKSHEET, MAX_EXCEL_SERIAL, WORKBOOK_WORKSHEET } from './layout.js';
import { sharedStrings, styleKinds, workbookParts } from './parts.js';
import type { CellValue, WorksheetContext, WorksheetPart } from './rows.js';
import { worksheetRowBatches } from './worksheet.js';
import { SheetJsonWriter } from './sheet-json-writer.js';
import { IGNORE_ALL, type ScanHandler } from '../stream/json-scanner.js';
import { XlsxZip } from './zip.js';

interface TablePosition {
  headerRow: number;
  header: string[];
  /**
   * Where runs of the table's rows start: rows[index] and the ones after it are at Excel row `row` on. A new
   * run starts after skipped blank rows; a table without blank rows has one run.
   */
  runs: Array<{ index: number; row: number }>;
}

export interface SheetPositions {
  /** The sheet's table (the Sheet JSON workbooks have one per sheet). */
  table: TablePosition | null;
  /** list block -> Excel row of each item. */
  listRows: Map<string, number[]>;
  /** block -> Excel row of its title row. */
  titleRows: Map<string, number>;
}

const newPositions = (): SheetPositions => ({ table: null, listRows: new Map(), titleRows: new Map() });

/** A problem the reader finds itself (a blank row, a formula not calculated), with its cell. */
export interface ReaderProblem {
  code: RuleCode;
  place: Place & { cell: string };
  message: string;
}

/** Reader problems held while no conversion collects them (readXlsxWorkbook): the first ones only. */
const HELD_PROBLEMS = 1000;

/** Excel row of rows[index] of a table (binary search of its runs). */
function tableRowOf(table: TablePosition, index: number): number {
  let low = 0;
  let high = table.runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (table.runs[middle]!.index <= index) low = middle;
    else high = middle - 1;
  }
  const run = table.runs[low]!;
  return run.row + index - run.index;
}

/**
 * Where the blocks of each worksheet are, to turn a problem's sheet / row / column into an Excel cell, and the
 * problems the reader finds itself: added to the conversion's collector once it is given (`reportTo`), held
 * in `problems` until then.
 */
export class CellMap {
  readonly sheets = new Map<string, SheetPositions>();
  readonly problems: Problem[] = [];
  private collector: Pick<ProblemCollector, 'add'> | null = null;

  /** The Excel cell and row of a problem's place, or null when it has none in the workbook. */
  locate(p: Problem | Pick<Problem, 'sheet' | 'row' | 'column'>): { cell: string; row: number } | null {
    const sheet = p.sheet === null ? undefined : this.sheets.get(p.sheet);
    if (!sheet) return null;
    const block = 'code' in p ? blockOf(p) : undefined;
    const title = block === undefined ? undefined : sheet.titleRows.get(block);
    if (title !== undefined) return { cell: `${p.sheet}!A${title}`, row: title };
    if (p.row === null) return null;
    const dot = p.column?.indexOf('.') ?? -1;
    if (p.column && dot > 0) {
      const row = sheet.listRows.get(p.column.slice(0, dot))?.[p.row - 1];
      return row === undefined ? null : { cell: `${p.sheet}!B${row}`, row };
    }
    if (!sheet.table) return null;
    // Row 1 is the header, rows[i] is row i + 2 (Problem.row).
    const row = p.row <= 1 ? sheet.table.headerRow : tableRowOf(sheet.table, p.row - 2);
    const position = p.column === null ? -1 : sheet.table.header.indexOf(p.column);
    return { cell: `${p.sheet}!${position < 0 ? 'A' : columnLetters(position + 1)}${row}`, row };
  }

  /** The Excel cell of a problem's place (`payment_sheet!F12`), or null. */
  cellOf(p: Pick<Problem, 'sheet' | 'row' | 'column'>): string | null {
    return this.locate(p)?.cell ?? null;
  }

  /**
   * Gives every problem that has a place in the workbook its `cell`, and its Excel row as `row` (the column
   * stays the header key: the cell names the letter). A problem with a cell already is left as it is.
   */
  annotate(problems: Problem[]): void {
    for (const p of problems) {
      if (p.cell !== undefined) continue;
      const located = this.locate(p);
      if (located === null) continue;
      p.cell = located.cell;
      p.row = located.row;
    }
  }

  /** A problem the reader found: to the collector, or held until one is given. */
  note(problem: ReaderProblem): void {
    const { code, place, message } = problem;
    if (this.collector) this.collector.add(code, place, message);
    else if (this.problems.length < HELD_PROBLEMS) {
      this.problems.push({ sheet: place.sheet, row: place.row, column: place.column, cell: place.cell, code, message, severity: RULES[code].severity });
    }
  }

  /** From now on the reader's problems go to this collector (those held so far first: a Problem is its own place). */
  reportTo(collector: Pick<ProblemCollector, 'add'>): void {
    this.collector = collector;
    for (const problem of this.problems) collector.add(problem.code as RuleCode, problem, problem.message);
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

function isBlank(cells: CellValue[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c !== null && (typeof c !== 'string' || c.trim() !== '')) return false;
  }
  return true;
}

/**
 * A cell value as the JSON scanner would give it back from the value's JSON text: a number that is not
 * finite is null (JSON.stringify writes null), and -0 is 0 (it writes 0).
 */
function asJsonValue(value: CellValue | undefined): CellValue {
  if (value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  return value;
}

/**
 * A table row as the scanner gives it: `header`'s width at least, each date column's cell read by
 * dateCell(). The row's own cells array is used (the row builder makes one per row).
 */
function tableRow(cells: CellValue[], header: string[], dateColumns: boolean[]): CellValue[] {
  const width = Math.max(header.length, cells.length);
  for (let i = 0; i < width; i++) {
    const cell = cells[i];
    cells[i] = dateColumns[i] === true ? asJsonValue(dateCell(header[i]!, cell ?? null)) : asJsonValue(cell);
  }
  return cells;
}

/** A block's name in a title row without its kind: one word with an underscore (`payer_list`, `payment_table`). */
const BLOCK_NAME = /^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)+$/;

/**
 * Whether a row after blank rows inside a block is the title row of the next block rather than another row of
 * the block: its B cell says `list` or `table` (as the template writes it), or it holds only a block name in A.
 */
function isBlockTitle(cells: CellValue[]): boolean {
  const stated = typeof cells[1] === 'string' ? cells[1].trim().toLowerCase() : '';
  if (stated === 'list' || stated === 'table') return true;
  return cells.length === 1 && typeof cells[0] === 'string' && BLOCK_NAME.test(cells[0].trim());
}

type TableBlock = { kind: 'table'; name: string; header: string[] | null; dateColumns: boolean[]; headerRow: number; position: TablePosition | null; rowCount: number };
type Block = { kind: 'list'; name: string; rows: number[]; items: CellValue[][] } | TableBlock;

/** Table rows handed to the handler at once, at most: few enough to die young (the JSON scanner's reason too). */
const ROWS_PER_BATCH = 512;

/**
 * One worksheet's blocks told to a ScanHandler, row by row, as the JSON scanner tells it the Sheet JSON text
 * of that worksheet. Blocks are separated by blank rows. Inside a list or a table (once its header came),
 * blank rows do not end it: it ends at the next block's title row (isBlockTitle) or at the end of the
 * worksheet; blank rows before another row of the block are skipped with an XLSX_BLANK_ROW warning.
 */
class WorksheetTranslator {
  private block: Block | null = null;
  private lastRow = 0;
  /** The first of the blank rows since the last row with a value, when the table may go on after them. */
  private blankFrom: number | null = null;
  /** Table rows not yet handed over. */
  private batch: CellValue[][] = [];
  /** The list item the last row was (list name, key, value), else null. */
  lastItem: { list: string; key: string; value: CellValue } | null = null;

  constructor(
    private readonly name: string,
    private readonly positions: SheetPositions,
    private readonly handler: ScanHandler,
    private readonly report: (problem: ReaderProblem) => void,
  ) {}

  /** One Excel row. */
  row(number: number, cells: CellValue[], uncalculated: number[] = []): void {
    // The streaming reader skips rows with no cells at all: a gap is blank rows.
    if (number > this.lastRow + 1) this.blank(this.lastRow + 1);
    this.lastRow = number;
    this.lastItem = null;
    if (uncalculated.length > 0) this.noteUncalculated(number, uncalculated);
    if (isBlank(cells) && uncalculated.length === 0) return this.blank(number);
    if (this.block && this.blankFrom !== null) {
      if (isBlockTitle(cells)) this.closeBlock();
      else this.skipBlankRows(this.block, number);
    }
    this.blankFrom = null;
    if (!this.block) return this.openBlock(number, cells);
    if (this.block.kind === 'list') {
      this.block.rows.push(number);
      const key = cells[0] === null ? '' : String(cells[0]);
      const value = asJsonValue(dateCell(key, cells[1] ?? null));
      this.lastItem = { list: this.block.name, key, value };
      this.block.items.push([key, value]);
      return;
    }
    if (this.block.header === null) {
      const header = cells.map((c) => (c === null ? '' : String(c)));
      this.block.header = header;
      this.block.dateColumns = header.map((key) => key.endsWith('_epoch'));
      this.block.headerRow = number;
      this.block.position = { headerRow: number, header, runs: [{ index: 0, row: number + 1 }] };
      this.positions.table = this.block.position;
      this.handler.blockValue('header', [...header]);
      this.handler.rowsStart();
      return;
    }
    this.block.rowCount++;
    this.batch.push(tableRow(cells, this.block.header, this.block.dateColumns));
    if (this.batch.length >= ROWS_PER_BATCH) this.flush();
  }

  /** Hands over the table rows held. */
  flush(): void {
    if (this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    this.handler.rows(rows);
  }

  /** A problem, after the rows before it (so the problems of a workbook come in the order of its rows). */
  private note(problem: ReaderProblem): void {
    this.flush();
    this.report(problem);
  }

  /** A blank row (or the first of a gap): ends a table before its header; a list or a table may go on after it. */
  private blank(number: number): void {
    if (this.block?.kind === 'list' || (this.block?.kind === 'table' && this.block.header !== null)) {
      this.blankFrom ??= number;
      return;
    }
    this.closeBlock();
  }

  /** The blank rows before a row of the block: one warning at the first, and (a table) a new run of Excel rows. */
  private skipBlankRows(block: Block, next: number): void {
    const from = this.blankFrom!;
    const rows = from === next - 1 ? `Row ${from} is blank` : `Rows ${from}-${next - 1} are blank`;
    const cell = `${this.name}!A${from}`;
    this.note({
      code: 'XLSX_BLANK_ROW',
      place: { sheet: this.name, row: from, column: null, cell },
      message: `${rows} inside ${block.kind} ${block.name}; skipped, the ${block.kind} goes on at row ${next} (blank rows end a block only before the next block's title row)`,
    });
    if (block.kind === 'table') block.position?.runs.push({ index: block.rowCount, row: next });
  }

  /** One error per formula cell without a calculated value. */
  private noteUncalculated(number: number, columns: number[]): void {
    const header = this.block?.kind === 'table' ? this.block.header : null;
    for (const column of columns) {
      const cell = `${this.name}!${columnLetters(column)}${number}`;
      this.note({
        code: 'XLSX_FORMULA_NOT_CALCULATED',
        place: { sheet: this.name, row: number, column: header?.[column - 1] ?? null, cell },
        message: `${cell} holds a formula without a calculated value (the program that wrote the file does not calculate); open the file in Excel or LibreOffice and save it, so every formula has its value`,
      });
    }
  }

  private openBlock(number: number, cells: CellValue[]): void {
    const name = String(cells[0] ?? '');
    const stated = typeof cells[1] === 'string' ? cells[1].trim().toLowerCase() : '';
    const kind = stated === 'list' || stated === 'table' ? stated : name.endsWith('_table') ? 'table' : 'list';
    this.positions.titleRows.set(name, number);
    this.handler.blockStart();
    this.handler.blockValue('name', name);
    this.handler.blockValue('@entity', kind);
    if (kind === 'list') {
      const rows: number[] = [];
      this.positions.listRows.set(name, rows);
      this.block = { kind: 'list', name, rows, items: [] };
      return;
    }
    this.block = { kind: 'table', name, header: null, dateColumns: [], headerRow: number + 1, position: null, rowCount: 0 };
  }

  private closeBlock(): void {
    const block = this.block;
    this.blankFrom = null;
    if (!block) return;
    this.block = null;
    if (block.kind === 'list') {
      this.handler.blockValue('items', block.items);
    } else if (block.header === null) {
      // A table whose header row never came: an empty header, which the reader reports.
      this.handler.blockValue('header', []);
      this.handler.rowsStart();
      this.handler.rowsEnd();
    } else {
      this.flush();
      this.handler.rowsEnd();
    }
    this.handler.blockEnd();
  }

  open(): void {
    this.handler.sheetStart();
    this.handler.sheetValue('name', this.name);
    this.handler.sheetValue('@entity', 'sheet');
  }

  close(): void {
    this.closeBlock();
    this.handler.sheetEnd();
  }
}

/** The worksheets of an open .xlsx with what their cells need (shared strings, date and percent styles). */
async function openWorkbook(zip: XlsxZip, limits: InputLimits): Promise<{ worksheets: WorksheetPart[]; ctx: WorksheetContext }> {
  const parts = await workbookParts(zip, limits);
  const ctx: WorksheetContext = {
    styleKinds: await styleKinds(zip, parts.styles, limits),
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
 * A failure of the reader that is not the engine's own (a stream's, a library's) as INVALID_XLSX with its
 * first line; the engine's errors (limits, INVALID_XLSX, INPUT_UNREADABLE) as they are.
 */
export function asXlsxFailure(error: unknown): never {
  if (error instanceof StatementEngineError) throw error;
  throw new StatementEngineError('INVALID_XLSX', `The .xlsx workbook cannot be read: ${String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200)}`);
}

/**
 * The reader's own iteration, its failures made asXlsxFailure(): a handler's error (thrown in the loop that
 * takes the rows, not in here) is left as it is.
 */
async function* read<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    asXlsxFailure(error);
  }
}

/**
 * Reads an .xlsx (a file path or a stream of its bytes) and tells `handler` the Sheet JSON workbook it stands
 * for, as the JSON scanner tells it reading that workbook's text (the engine's streaming conversion reads an
 * .xlsx this way, without the text); `cells` learns where each block is and takes the reader's own problems.
 * It yields, with the workbook's bytes read so far, after each batch of worksheet rows. The zip is opened by
 * its central directory, so the order of its entries does not matter (FORMAT_NOTES §14); a file that is no
 * readable .xlsx throws StatementEngineError INVALID_XLSX.
 */
export async function* readXlsxInto(input: string | Readable, handler: ScanHandler, cells: CellMap, options: XlsxReadOptions = {}): AsyncGenerator<number> {
  const zip = await openZip(input, options).catch(asXlsxFailure);
  try {
    const { worksheets, ctx } = await openWorkbook(zip, options.limits ?? DEFAULT_INPUT_LIMITS).catch(asXlsxFailure);
    let workbookName: CellValue = null;
    handler.rootValue('@entity', 'workbook');
    for (const worksheet of worksheets) {
      if (worksheet.name === WORKBOOK_WORKSHEET) {
        for await (const rows of read(worksheetRowBatches(zip, worksheet, ctx))) for (const { cells: [key, value] } of rows) if (key === 'name') workbookName = value ?? null;
        continue;
      }
      if (worksheet.name === LISTS_WORKSHEET) continue;
      const positions = newPositions();
      cells.sheets.set(worksheet.name, positions);
      const translator = new WorksheetTranslator(worksheet.name, positions, handler, (problem) => cells.note(problem));
      translator.open();
      for await (const rows of read(worksheetRowBatches(zip, worksheet, ctx))) {
        for (const row of rows) translator.row(row.number, row.cells, row.uncalculated);
        translator.flush();
        yield zip.bytesRead;
      }
      translator.close();
    }
    if (workbookName !== null) handler.rootValue('name', asJsonValue(workbookName));
  } finally {
    zip.close();
  }
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
      // Only the TAN is looked for here: the conversion reports the workbook's problems.
      const translator = new WorksheetTranslator(worksheet.name, newPositions(), IGNORE_ALL, () => {});
      for await (const rows of worksheetRowBatches(zip, worksheet, ctx)) {
        for (const row of rows) {
          translator.row(row.number, row.cells);
          const item = translator.lastItem;
          if (item && item.list === block && item.key === key) return item.value;
        }
      }
    }
    return null;
  } finally {
    zip.close();
  }
}

/** The whole Sheet JSON workbook of an .xlsx, parsed, for `convert()` / `validate()`, with its cell map. */
export async function readXlsxWorkbook(input: string | Readable, options: XlsxReadOptions = {}): Promise<{ workbook: unknown; cells: CellMap }> {
  const cells = new CellMap();
  const writer = new SheetJsonWriter();
  let json = '';
  for await (const _bytesRead of readXlsxInto(input, writer, cells, options)) json += writer.take();
  writer.end();
  return { workbook: JSON.parse(json + writer.take()) as unknown, cells };
}
