// The rows of a worksheet, built from its elements as a tokenizer meets them: `<row>`, `<c>` and the value,
// formula, rich-text run and phonetic elements in a cell. Both tokenizers of a worksheet (the fast one over its
// bytes, scan.ts, and saxes, worksheet.ts) drive this one builder, so a cell reads the same whichever read it.
// Cell values come out as exceljs's whole-file reader gave them (FORMAT_NOTES §14); the limits on rows,
// columns and text are checked here as the elements arrive.

import { StatementEngineError } from '../errors.js';
import { limitExceeded, type InputLimits } from '../limits.js';
import { columnLetters, EXCEL_EPOCH_SERIAL, excelDateToEpoch, excelMsToEpoch } from './layout.js';

export type CellValue = string | number | boolean | null;

export interface Row {
  /** Excel row number (1-based). */
  number: number;
  /** Cells 1..n (index 0 = column A), trailing empty cells dropped. */
  cells: CellValue[];
  /** Columns (1 = A) of formulas with no cached result (their cells are null): a writer that does not calculate. */
  uncalculated: number[];
}

export interface WorksheetPart {
  name: string;
  part: string;
}

/** How a style's number format changes a number as it is read: a date serial, a percentage (0.1 shown as 10%), or neither. */
export type StyleKind = 'date' | 'percent' | null;

export interface WorksheetContext {
  sharedStrings: string[];
  styleKinds: StyleKind[];
  date1904: boolean;
  limits: InputLimits;
  /** Rows with a value read from all worksheets so far (limits.workbookRows). */
  rowsRead: number;
  /** Which tokenizer reads the worksheets: the fast one, giving way to saxes where it must (default), or saxes alone. */
  tokenizer?: 'fast' | 'saxes';
  /** Worksheet reads the fast tokenizer gave way in, so far. */
  fallbacks?: number;
}

const unreadable = (message: string) => new StatementEngineError('INVALID_XLSX', `The .xlsx workbook cannot be read: ${message}`);

/** `_x000D_` escapes of a text element (`<t>`), as Excel writes characters XML cannot hold. */
export const unescapeText = (text: string) => text.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** XML entities left in a `str` formula result, decoded as exceljs did. */
const xmlDecode = (text: string) =>
  text.replace(/&([a-z]*);/g, (c) => ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&apos;': "'", '&quot;': '"' })[c] ?? c);

/** `F12` -> 6 (column F); 0 when the reference has no letters. */
export function columnOf(reference: string): number {
  let n = 0;
  for (let i = 0; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code >= 65 && code <= 90) n = n * 26 + (code - 64);
    else if (code >= 97 && code <= 122) n = n * 26 + (code - 96);
    else break;
  }
  return n;
}

const DAY_MS = 86_400_000;

/** 0.1 -> 10: the decimal point moved two places in the number's shortest text, so no 10.000000000000002. */
function percentOf(fraction: number): number {
  const [mantissa, exponent = '0'] = String(fraction).split('e');
  return Number(`${mantissa}e${Number(exponent) + 2}`);
}

/** Where a text goes: nowhere, the cell's value (`<v>`, an inline `<t>`), or its formula (`<f>`). */
const enum Into {
  Nothing,
  Value,
  Formula,
}

/**
 * The cell being read. One object, reused from cell to cell (`open` says whether a cell is being read): two
 * million cells made two million objects for the collector. A value given as a number (number(): the fast
 * tokenizer's digits) is held in `number`, its text being String(number).
 */
class CellState {
  open = false;
  column = 0;
  type = 'n';
  style: StyleKind = null;
  formula = false;
  /** The `<v>` text, or the inline string's text. */
  value: string | null = null;
  /** The value when it came as a whole number (value is then null); NaN otherwise. */
  number = NaN;
}

export class RowBuilder {
  /** Rows complete and not yet taken. */
  ready: Row[] = [];
  private rowNumber = 0;
  private rowElements = 0;
  /** Characters of the row's text cells so far (shared strings too: the row is written out as JSON text). */
  private rowChars = 0;
  private cells: CellValue[] = [];
  private uncalculated: number[] = [];
  private hasValue = false;
  private lastColumn = 0;
  private readonly cell = new CellState();
  private into = Into.Nothing;
  private inRun = false;
  private runText: string[] = [];
  private phonetic = 0;
  /** Characters of the cell's value (all its runs) so far. */
  private valueChars = 0;
  private hasFormulaText = false;
  private readonly where: string;
  private readonly limits: InputLimits;

  constructor(
    private readonly sheet: WorksheetPart,
    private readonly ctx: WorksheetContext,
  ) {
    this.where = `worksheet ${sheet.name} (${sheet.part})`;
    this.limits = ctx.limits;
  }

  /** Whether a text met now would be kept: the tokenizer need not decode the others. */
  get wantsText(): boolean {
    return (this.into === Into.Value && this.cell.open) || this.into === Into.Formula;
  }

  /** The rows complete so far, handed over. */
  take(): Row[] {
    const rows = this.ready;
    this.ready = [];
    return rows;
  }

  /** `<row>`: `stated` is its `r` as parseInt read it (NaN when there is none). */
  openRow(stated: number): void {
    const { limits } = this;
    this.rowNumber = Number.isFinite(stated) && stated > 0 ? stated : this.rowNumber + 1;
    // By number and by count: rows repeating one number are as costly as rows of their own.
    if (this.rowNumber > limits.sheetRows || ++this.rowElements > limits.sheetRows) throw limitExceeded('sheetRows', limits.sheetRows, this.where, `a row past row ${limits.sheetRows}`);
    this.cells = [];
    this.uncalculated = [];
    this.hasValue = false;
    this.lastColumn = 0;
    this.rowChars = 0;
  }

  /**
   * `<c>`: `stated` is the column of its `r` (columnOf, 0 when none), `reference` the `r` itself (named when
   * refused), `style` its `s` as parseInt read it (0 when none), `type` its `t` (`n` when none).
   */
  openCell(stated: number, reference: string | undefined, style: number, type: string): void {
    const { limits, cell } = this;
    const column = stated > 0 ? stated : this.lastColumn + 1;
    if (column > limits.sheetColumns) throw limitExceeded('sheetColumns', limits.sheetColumns, this.where, `a cell beyond column ${columnLetters(limits.sheetColumns)} (${(reference ?? '').slice(0, 20)})`);
    this.lastColumn = column;
    cell.open = true;
    cell.column = column;
    cell.type = type;
    cell.style = this.ctx.styleKinds[style] ?? null;
    cell.formula = false;
    cell.value = null;
    cell.number = NaN;
    this.valueChars = 0;
    this.hasFormulaText = false;
  }

  /** `<v>` */
  openValue(): void {
    if (this.cell.open) this.into = Into.Value;
  }

  /** `<f>`: `shared` when its `t` is `shared` (a shared formula's other cells have no formula text). */
  openFormula(shared: boolean): void {
    if (!this.cell.open) return;
    this.into = Into.Formula;
    if (shared) this.cell.formula = true;
  }

  /** `<r>`, a rich-text run. */
  openRun(): void {
    if (!this.cell.open) return;
    this.inRun = true;
    this.runText = [];
  }

  /** `<rPh>`, a phonetic run: its text is left out. */
  openPhonetic(): void {
    this.phonetic++;
  }

  /** `<t>` */
  openText(): void {
    if (this.cell.open && this.phonetic === 0) this.into = Into.Value;
  }

  text(text: string): void {
    const { cell } = this;
    if (this.into === Into.Value && cell.open) {
      this.countValueChars(text.length);
      if (this.inRun) this.runText.push(text);
      else if (cell.value === null && Number.isNaN(cell.number)) cell.value = text;
      else cell.value = this.valueText() + text;
    } else if (this.into === Into.Formula && text !== '') this.hasFormulaText = true;
  }

  /**
   * A text that is a whole number written without leading zeros (`0`, `27`, at most 15 digits): the same as
   * text(String(number)), without making the string (most cells of a worksheet are such numbers or indexes).
   */
  number(number: number, digits: number): void {
    const { cell } = this;
    if (this.into !== Into.Value || !cell.open || this.inRun || cell.value !== null || !Number.isNaN(cell.number)) {
      this.text(String(number));
      return;
    }
    this.countValueChars(digits);
    cell.number = number;
  }

  /** `</v>` or `</t>` */
  closeValue(): void {
    this.into = Into.Nothing;
  }

  /** `</f>` */
  closeFormula(): void {
    this.into = Into.Nothing;
    if (this.cell.open && this.hasFormulaText) this.cell.formula = true;
  }

  /** `</r>` */
  closeRun(): void {
    const { cell } = this;
    if (!cell.open || !this.inRun) return;
    // A rich-text run's text, `_xHHHH_` escapes decoded (exceljs's run reader did).
    const run = unescapeText(this.runText.join(''));
    if (run !== '') cell.value = (Number.isNaN(cell.number) ? cell.value ?? '' : this.valueText()) + run;
    this.inRun = false;
  }

  /** `</rPh>` */
  closePhonetic(): void {
    this.phonetic--;
  }

  /** `</c>`: the cell's value goes into the row. */
  closeCell(): void {
    const { cell, limits } = this;
    if (!cell.open) return;
    const value = this.finishCell(cell);
    if (typeof value === 'string' && (this.rowChars += value.length) > limits.rowChars) {
      throw limitExceeded('rowChars', limits.rowChars, this.where, `row ${this.rowNumber} holds more than ${limits.rowChars} characters of text`);
    }
    if (value !== null) {
      this.hasValue = true;
      const { cells } = this;
      while (cells.length < cell.column - 1) cells.push(null);
      cells[cell.column - 1] = value;
    }
    cell.open = false;
  }

  /** `</row>`: a row with a value (or a formula not calculated) is ready. */
  closeRow(): void {
    const { limits, cells } = this;
    if ((this.hasValue || this.uncalculated.length > 0) && this.rowNumber > 0) {
      if (++this.ctx.rowsRead > limits.workbookRows) throw limitExceeded('workbookRows', limits.workbookRows, this.where, `more than ${limits.workbookRows} rows with a value in the workbook`);
      while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
      this.ready.push({ number: this.rowNumber, cells, uncalculated: this.uncalculated });
    }
    this.cells = [];
    this.uncalculated = [];
    this.hasValue = false;
  }

  private countValueChars(length: number): void {
    this.valueChars += length;
    if (this.valueChars > this.limits.cellChars) {
      throw limitExceeded('cellChars', this.limits.cellChars, `${this.sheet.name}!${columnLetters(this.cell.column)}${this.rowNumber} (${this.sheet.part})`, `the cell's text is longer than ${this.limits.cellChars} characters`);
    }
  }

  /** The value's text, a number given whole made text again (then held as text). */
  private valueText(): string {
    const { cell } = this;
    if (!Number.isNaN(cell.number)) {
      cell.value = String(cell.number);
      cell.number = NaN;
    }
    return cell.value ?? '';
  }

  private toDate(serial: number): CellValue {
    const ms = Math.round((serial - EXCEL_EPOCH_SERIAL + (this.ctx.date1904 ? 1462 : 0)) * DAY_MS);
    const epoch = excelMsToEpoch(ms);
    return Number.isFinite(epoch) ? epoch : null;
  }

  /** A number as its format shows it: a date serial as its date, a percent-formatted 0.1 as 10. */
  private styledNumber(c: CellState, number: number): CellValue {
    if (c.style === 'date') return this.toDate(number);
    return c.style === 'percent' ? percentOf(number) : number;
  }

  /** A number given whole, for the types that read it as a number (the others read its text). */
  private wholeNumber(c: CellState): CellValue | undefined {
    const n = c.number;
    if (c.formula) {
      if (c.type === 'b') return n !== 0;
      if (c.type === 'str' || c.type === 'e') return undefined;
      return this.styledNumber(c, n);
    }
    switch (c.type) {
      case 's':
        return this.sharedString(c, n);
      case 'b':
        return n !== 0;
      case 'str':
      case 'inlineStr':
      case 'e':
      case 'd':
        return undefined;
      default:
        return this.styledNumber(c, n);
    }
  }

  private sharedString(c: CellState, index: number): string {
    const text = this.ctx.sharedStrings[index];
    if (text === undefined) {
      const stated = c.value ?? String(c.number);
      throw unreadable(`${this.sheet.name}!${columnLetters(c.column)}${this.rowNumber} refers to shared string ${stated}, which ${this.sheet.part.replace(/worksheets\/.*/, 'sharedStrings.xml')} does not have`);
    }
    return text;
  }

  private finishCell(c: CellState): CellValue {
    if (!Number.isNaN(c.number)) {
      const whole = this.wholeNumber(c);
      if (whole !== undefined) return whole;
      this.valueText();
    }
    if (c.formula) {
      // A formula gives its cached result (none: an empty cell, noted as not calculated).
      if (!c.value) {
        this.uncalculated.push(c.column);
        return null;
      }
      let result: CellValue;
      if (c.type === 'str') result = xmlDecode(c.value);
      else if (c.type === 'b') result = parseInt(c.value, 10) !== 0;
      else if (c.type === 'e') result = c.value;
      else result = parseFloat(c.value);
      if (typeof result !== 'number') return result;
      return Number.isFinite(result) ? this.styledNumber(c, result) : null;
    }
    if (c.value === null) return null;
    switch (c.type) {
      case 's':
        return this.sharedString(c, parseInt(c.value, 10));
      case 'str':
        return xmlDecode(c.value);
      case 'inlineStr':
        return c.value;
      case 'b':
        return parseInt(c.value, 10) !== 0;
      case 'e':
        return c.value;
      case 'd': {
        // An ISO 8601 date cell (strict files): its wall-clock time, like an Excel date.
        const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?/.exec(c.value);
        if (!m) return null;
        const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), Math.round(Number(`0.${m[7] ?? '0'}`) * 1000));
        return excelDateToEpoch(new Date(ms));
      }
      default: {
        const number = parseFloat(c.value);
        return Number.isFinite(number) ? this.styledNumber(c, number) : null;
      }
    }
  }
}
