// An .xlsx workbook (layout.ts) read as a stream and handed to the engine as the Sheet JSON text it would have
// been, row by row, through the same streaming conversion as JSON input. The zip is opened by its central
// directory (zip.ts) and each worksheet parsed as it is inflated (parts.ts): memory does not grow with the
// worksheets (only the shared strings are held). Where each block sits is remembered, to name the Excel cell
// of every problem afterwards (`payment_sheet!F12`).

import type { Readable } from 'node:stream';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../limits.js';
import { blockOf, type Place, type ProblemCollector } from '../problems.js';
import { RULES, type RuleCode } from '../rules.js';
import type { Problem } from '../types.js';
import { columnLetters, EXCEL_EPOCH_SERIAL, excelDateToEpoch, LISTS_WORKSHEET, MAX_EXCEL_SERIAL, WORKBOOK_WORKSHEET } from './layout.js';
import { sharedStrings, styleKinds, workbookParts } from './parts.js';
import type { CellValue, WorksheetContext, WorksheetPart } from './rows.js';
import { worksheetRows } from './worksheet.js';
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

/** A cell value as JSON.stringify writes it (a number that is not finite is null). */
function jsonOf(value: CellValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return value ? 'true' : 'false';
}

/**
 * The JSON of a table row, `header`'s width at least, each date column's cell read by dateCell(): written
 * cell by cell, as JSON.stringify of the padded row wrote it, without making that row (a fifth of the
 * reader's time at 200,000 rows went to the padded rows and their JSON.stringify).
 */
function tableRowJson(cells: CellValue[], header: string[], dateColumns: boolean[]): string {
  const width = Math.max(header.length, cells.length);
  let json = '[';
  for (let i = 0; i < width; i++) {
    const cell = cells[i] ?? null;
    json += `${i === 0 ? '' : ','}${jsonOf(dateColumns[i] === true ? dateCell(header[i]!, cell) : cell)}`;
  }
  return `${json}]`;
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
type Block = { kind: 'list'; name: string; rows: number[] } | TableBlock;

/**
 * The Sheet JSON text of one worksheet's blocks, row by row. Blocks are separated by blank rows. Inside a
 * list or a table (once its header came), blank rows do not end it: it ends at the next block's title row
 * (isBlockTitle) or at the end of the worksheet; blank rows before another row of the block are skipped with
 * an XLSX_BLANK_ROW warning.
 */
class WorksheetTranslator {
  private block: Block | null = null;
  private first = { block: true, row: true };
  private lastRow = 0;
  /** The first of the blank rows since the last row with a value, when the table may go on after them. */
  private blankFrom: number | null = null;
  /** The list item the last row was (list name, key, value), else null. */
  lastItem: { list: string; key: string; value: CellValue } | null = null;

  constructor(
    private readonly name: string,
    private readonly positions: SheetPositions,
    private readonly note: (problem: ReaderProblem) => void,
  ) {}

  /** Text for one Excel row (an empty string when the row only closes or opens nothing). */
  row(number: number, cells: CellValue[], uncalculated: number[] = []): string {
    // The streaming reader skips rows with no cells at all: a gap is blank rows.
    let text = number > this.lastRow + 1 ? this.blank(this.lastRow + 1) : '';
    this.lastRow = number;
    this.lastItem = null;
    if (uncalculated.length > 0) this.noteUncalculated(number, uncalculated);
    if (isBlank(cells) && uncalculated.length === 0) return text + this.blank(number);
    if (this.block && this.blankFrom !== null) {
      if (isBlockTitle(cells)) text += this.closeBlock();
      else this.skipBlankRows(this.block, number);
    }
    this.blankFrom = null;
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
      this.block.dateColumns = this.block.header.map((key) => key.endsWith('_epoch'));
      this.block.headerRow = number;
      this.block.position = { headerRow: number, header: this.block.header, runs: [{ index: 0, row: number + 1 }] };
      this.positions.table = this.block.position;
      return `${text}"header":${JSON.stringify(this.block.header)},"rows":[`;
    }
    this.block.rowCount++;
    return `${text}${this.separator()}${tableRowJson(cells, this.block.header, this.block.dateColumns)}`;
  }

  /** A blank row (or the first of a gap): ends a table before its header; a list or a table may go on after it. */
  private blank(number: number): string {
    if (this.block?.kind === 'list' || (this.block?.kind === 'table' && this.block.header !== null)) {
      this.blankFrom ??= number;
      return '';
    }
    return this.closeBlock();
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
    this.positions.titleRows.set(name, number);
    this.first.row = true;
    if (kind === 'list') {
      const rows: number[] = [];
      this.positions.listRows.set(name, rows);
      this.block = { kind: 'list', name, rows };
      return `${comma}{"name":${JSON.stringify(name)},"@entity":"list","items":[`;
    }
    this.block = { kind: 'table', name, header: null, dateColumns: [], headerRow: number + 1, position: null, rowCount: 0 };
    return `${comma}{"name":${JSON.stringify(name)},"@entity":"table",`;
  }

  closeBlock(): string {
    const block = this.block;
    this.blankFrom = null;
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
        const positions = newPositions();
        cells.sheets.set(worksheet.name, positions);
        const translator = new WorksheetTranslator(worksheet.name, positions, (problem) => cells.note(problem));
        yield `${sheets++ === 0 ? '' : ','}${translator.open()}`;
        // Pieces are gathered per batch of rows: fewer, larger strings for the JSON scanner.
        let batch = '';
        for await (const row of worksheetRows(zip, worksheet, ctx)) {
          batch += translator.row(row.number, row.cells, row.uncalculated);
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
      // Only the TAN is looked for here: the conversion reports the workbook's problems.
      const translator = new WorksheetTranslator(worksheet.name, newPositions(), () => {});
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
