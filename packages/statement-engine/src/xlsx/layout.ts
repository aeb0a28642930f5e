// The Excel form of a Sheet JSON workbook (README "Excel workbooks", FORMAT_NOTES §14): one worksheet per
// sheet, named as the sheet; in it the sheet's blocks one after another, separated by at least one empty row.
// A block starts with a title row (A = block name, B = `list` or `table`); a table continues with its header
// row (the column keys) and its rows; a list with key / value rows (A = key, B = value). The workbook's name is
// the `name` row of a worksheet named `workbook`.

/** The worksheet holding the workbook's own keys (its name). */
export const WORKBOOK_WORKSHEET = 'workbook';

/** The hidden worksheet of drop-down values `template --xlsx` adds; not a sheet of the workbook. */
export const LISTS_WORKSHEET = 'lists';

/** The first bytes of a zip file (an .xlsx is one). */
export const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;

/** Serial of 1970-01-01 in Excel's 1900 date system, and of 31-12-9999, the last date Excel has. */
export const EXCEL_EPOCH_SERIAL = 25569;
export const MAX_EXCEL_SERIAL = 2958465;

const IST_OFFSET_MS = 5.5 * 3600 * 1000;
const DAY_MS = 86_400_000;

/** Excel dates carry no time zone: their wall-clock time is read as India Standard Time, like the vendor's epochs. */
export function excelDateToEpoch(date: Date): number {
  return date.getTime() - IST_OFFSET_MS;
}

/**
 * excelDateToEpoch(new Date(ms)) without the Date (a date column of 200,000 rows made as many): the time a
 * Date would hold (TimeClip: whole milliseconds, NaN past 8.64e15), as India Standard Time.
 */
export function excelMsToEpoch(ms: number): number {
  return Math.abs(ms) <= 8.64e15 ? Math.trunc(ms) + 0 - IST_OFFSET_MS : NaN;
}

/** The Excel date for an epoch that is a midnight in IST (the vendor's dates), else null (kept as a number). */
export function epochToExcelDate(value: unknown): Date | null {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return null;
  return (value + IST_OFFSET_MS) % DAY_MS === 0 ? new Date(value + IST_OFFSET_MS) : null;
}

/** A: 1, Z: 26, AA: 27. */
export function columnLetters(position: number): string {
  let n = position;
  let text = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    text = String.fromCharCode(65 + rest) + text;
    n = Math.floor((n - 1) / 26);
  }
  return text;
}

export function startsWithZipMagic(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((b, i) => bytes[i] === b);
}
