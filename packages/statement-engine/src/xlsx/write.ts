// A Sheet JSON workbook written as .xlsx in the layout xlsx/layout.ts describes: what `to-xlsx` and
// `template --xlsx` write. Values are written as they are (text stays text, so leading zeros survive); a date
// column's epoch that is an IST midnight becomes an Excel date, any other stays the number it is.

import ExcelJS from 'exceljs';
import { StatementEngineError } from '../errors.js';
import { epochToExcelDate, WORKBOOK_WORKSHEET } from './layout.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DATE_FORMAT = 'dd-mm-yyyy';

/** Where a column with a fixed list of values sits, for data validation. */
export interface EnumColumn {
  worksheet: string;
  /** Excel range of the cells to validate, e.g. `E3:E1000`. */
  range: string;
  values: readonly string[];
}

function put(row: ExcelJS.Row, position: number, key: string, value: unknown): void {
  if (value === null || value === undefined) return;
  const cell = row.getCell(position);
  const date = key.endsWith('_epoch') ? epochToExcelDate(value) : null;
  if (date) {
    cell.value = date;
    cell.numFmt = DATE_FORMAT;
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    cell.value = value;
  } else {
    // Objects and arrays have no cell form: kept as their JSON text (the engine reports the cell's type).
    cell.value = JSON.stringify(value);
  }
}

function listItems(block: Json): Array<[string, unknown]> {
  const items = Array.isArray(block.items) ? block.items : [];
  return items.map((item): [string, unknown] => {
    if (Array.isArray(item)) return [String(item[0]), item[1]];
    if (isObject(item)) {
      const [entry] = Object.entries(item);
      return entry ? [entry[0], entry[1]] : ['', null];
    }
    return [String(item), null];
  });
}

function writeBlock(sheet: ExcelJS.Worksheet, block: Json): void {
  const kind = block['@entity'] === 'table' ? 'table' : 'list';
  sheet.addRow([String(block.name ?? ''), kind]).font = { bold: true };
  if (kind === 'list') {
    for (const [key, value] of listItems(block)) {
      const row = sheet.addRow([key]);
      put(row, 2, key, value);
    }
    return;
  }
  const header = Array.isArray(block.header) ? block.header.map(String) : [];
  sheet.addRow(header).font = { italic: true };
  for (const cells of Array.isArray(block.rows) ? block.rows : []) {
    const row = sheet.addRow([]);
    (Array.isArray(cells) ? cells : []).forEach((value, i) => put(row, i + 1, header[i] ?? '', value));
  }
}

/** The .xlsx workbook of a Sheet JSON workbook object. */
export function sheetJsonToXlsx(workbook: unknown): ExcelJS.Workbook {
  if (!isObject(workbook) || !Array.isArray(workbook.sheets)) {
    throw new StatementEngineError('INVALID_OPTIONS', 'The input is not a Sheet JSON workbook (an object with sheets)');
  }
  const book = new ExcelJS.Workbook();
  const own = book.addWorksheet(WORKBOOK_WORKSHEET);
  own.addRow(['name', String(workbook.name ?? '')]);
  for (const sheet of workbook.sheets) {
    if (!isObject(sheet)) continue;
    const worksheet = book.addWorksheet(String(sheet.name ?? ''));
    const blocks = Array.isArray(sheet.blocks) ? sheet.blocks : [];
    blocks.forEach((block, i) => {
      if (i > 0) worksheet.addRow([]);
      if (isObject(block)) writeBlock(worksheet, block);
    });
  }
  return book;
}

/** Writes the .xlsx of a Sheet JSON workbook to a file. */
export async function writeSheetJsonXlsx(workbook: unknown, path: string): Promise<void> {
  await sheetJsonToXlsx(workbook).xlsx.writeFile(path);
}
