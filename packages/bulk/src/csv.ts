import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { serviceError, type ServiceError } from '@satyapan/core';

/** The CSV limits a bulk job's file is read under (docs/OPERATIONS.md "Limits", "Bulk jobs"). */
export interface CsvLimits {
  /** Most columns in the header. */
  maxColumns: number;
  /** Most characters in one cell. */
  maxCellLength: number;
  /** Most bytes in one line (without its line end). */
  maxLineBytes: number;
}

/**
 * One non-blank line of the upload: its line number in the file (the header is line 1) and its text, or only
 * the number of a line longer than `maxLineBytes` (its bytes were skipped, never held).
 */
export type CsvLine = { line: number; text: string } | { line: number; tooLong: true };

const NEWLINE = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A line whose first byte is a visible ASCII character is not blank, whatever follows. */
function startsVisible(bytes: Buffer | undefined, at = 0): boolean {
  const byte = bytes?.[at];
  return byte !== undefined && byte > 0x20 && byte < 0x7f;
}

/**
 * The upload's non-blank lines, read from a byte stream with at most one line (`maxLineBytes`) held at a time.
 * A row is one line (a quoted cell may not span lines), so that a malformed line is that row's problem and never
 * the whole file's. Between input chunks it lets the event loop run, so a large file never stalls the process.
 * The first `skip` non-blank lines are only counted (a resumed job's rows done): one that starts with a visible
 * ASCII character is not even decoded.
 */
export async function* csvLines(chunks: AsyncIterable<Buffer | string>, maxLineBytes: number, skip = 0): AsyncGenerator<CsvLine> {
  let skipping = skip;
  let parts: Buffer[] = [];
  let held = 0;
  let tooLong = false;
  let line = 1;
  let first = true;
  const take = (): CsvLine | null => {
    const number = line++;
    const atStart = first;
    first = false;
    if (skipping > 0 && (tooLong || startsVisible(parts[0]))) {
      skipping--;
      return null;
    }
    if (tooLong) return { line: number, tooLong: true };
    let bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, held);
    if (atStart && bytes.subarray(0, 3).equals(BOM)) bytes = bytes.subarray(3);
    const raw = bytes.toString('utf8');
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return null;
    if (skipping > 0) {
      skipping--;
      return null;
    }
    return { line: number, text };
  };
  const reset = (): void => {
    parts = [];
    held = 0;
    tooLong = false;
  };
  const hold = (piece: Buffer): void => {
    if (tooLong || piece.length === 0) return;
    held += piece.length;
    // A `\r` before the line end is not part of the line's length; allow its byte here.
    if (held > maxLineBytes + 1) {
      tooLong = true;
      parts = [];
      return;
    }
    parts.push(piece);
  };
  for await (const chunk of chunks) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      // A skipped line wholly in this chunk that starts visible: counted with no slice taken.
      if (skipping > 0 && held === 0 && !tooLong && startsVisible(buffer, start)) {
        skipping--;
        line++;
        first = false;
        start = end + 1;
        continue;
      }
      hold(buffer.subarray(start, end));
      const next = take();
      reset();
      if (next) yield next;
      start = end + 1;
    }
    hold(buffer.subarray(start));
    await nextTurn();
  }
  if (held > 0 || tooLong) {
    const last = take();
    if (last) yield last;
  }
}

/** ASCII whitespace, as `String.prototype.trim` removes it; any other byte below 0x80 is visible or a control. */
const isAsciiSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

/**
 * How many rows `csvLines(chunks, maxLineBytes, 1)` would give (the non-blank lines after the header), counted
 * without decoding a line that shows a visible ASCII character before any other non-space byte: a 2 MB file of
 * 200,000 rows costs the event loop a few milliseconds, not the 100 ms of decoding every line. Stops reading once
 * the count passes `stopAfter`. Yields to the event loop between input chunks.
 */
export async function countCsvRows(chunks: AsyncIterable<Buffer | string>, maxLineBytes: number, stopAfter = Infinity): Promise<number> {
  let nonBlank = 0;
  // The current line: its length so far; whether it is a row already (a visible ASCII byte came first, or it is
  // too long); else the bytes from its first byte that needs decoding (a BOM, a no-break space), decided at its end.
  let length = 0;
  let row = false;
  let held: Buffer[] = [];
  const add = (buffer: Buffer, from: number, to: number): void => {
    length += to - from;
    if (row) return;
    if (length > maxLineBytes + 1) {
      // csvLines gives a line this long as a row (BULK_LINE_TOO_LONG), whatever it holds, and holds none of it.
      row = true;
      held = [];
      return;
    }
    if (held.length > 0) {
      held.push(buffer.subarray(from, to));
      return;
    }
    for (let i = from; i < to; i++) {
      const byte = buffer[i]!;
      if (isAsciiSpace(byte)) continue;
      if (byte > 0x20 && byte < 0x7f) row = true;
      else held.push(buffer.subarray(i, to));
      return;
    }
  };
  const end = (): void => {
    if (row || (held.length > 0 && Buffer.concat(held).toString('utf8').trim() !== '')) nonBlank++;
    length = 0;
    row = false;
    held = [];
  };
  for await (const chunk of chunks) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = buffer.indexOf(NEWLINE); newline !== -1; newline = buffer.indexOf(NEWLINE, start)) {
      add(buffer, start, newline);
      end();
      start = newline + 1;
    }
    add(buffer, start, buffer.length);
    if (nonBlank - 1 > stopAfter) return nonBlank - 1;
    await nextTurn();
  }
  if (length > 0) end();
  return Math.max(0, nonBlank - 1);
}

const PARSE_OPTIONS = { relax_column_count: true, record_delimiter: '\n', skip_empty_lines: false, bom: false } as const;

/** What csv-parse's refusals of a single line mean to the caller (the result file's `message`). */
const MALFORMED: Readonly<Record<string, string>> = {
  INVALID_OPENING_QUOTE: 'quote inside an unquoted cell',
  CSV_INVALID_CLOSING_QUOTE: 'text after a closing quote',
  CSV_QUOTE_NOT_CLOSED: 'unterminated quoted cell',
};

/** The cells of one line of CSV text (RFC 4180 quoting, csv-parse), or why it is not CSV. */
export function parseCells(text: string): string[] | { malformed: string } {
  try {
    return (parse(text, PARSE_OPTIONS) as string[][])[0] ?? [''];
  } catch (error) {
    return { malformed: MALFORMED[(error as { code?: string }).code ?? ''] ?? 'not CSV' };
  }
}

/**
 * The cells of one line of the upload, or a ServiceError naming what is wrong with it: not CSV, longer than
 * `maxLineBytes`, or a cell longer than `maxCellLength`.
 */
export function cellsOf(line: CsvLine, limits: CsvLimits): string[] | ServiceError {
  if ('tooLong' in line || Buffer.byteLength(line.text) > limits.maxLineBytes) return serviceError('BULK_LINE_TOO_LONG', line.line, limits.maxLineBytes);
  const cells = parseCells(line.text);
  if (!Array.isArray(cells)) return serviceError('UNPROCESSABLE', `Malformed CSV line: ${cells.malformed}`);
  const long = cells.findIndex((cell) => cell.length > limits.maxCellLength);
  if (long !== -1) return serviceError('BULK_CELL_TOO_LONG', `Line ${line.line}, column ${long + 1}`, limits.maxCellLength);
  return cells;
}

/**
 * The header's column names (trimmed, lower case), or why the file cannot be read as a whole: no header line,
 * a header that is not CSV, too long, or wider than `maxColumns`.
 */
export function headerOf(line: CsvLine | undefined, limits: CsvLimits): string[] | ServiceError {
  if (!line) return serviceError('UNPROCESSABLE', 'The file has no header line');
  const cells = cellsOf(line, limits);
  if (!Array.isArray(cells)) return cells.code === 'UNPROCESSABLE' ? serviceError('UNPROCESSABLE', 'The file has no header line') : cells;
  if (cells.length > limits.maxColumns) return serviceError('BULK_TOO_MANY_COLUMNS', cells.length, limits.maxColumns);
  return cells.map((name) => name.trim().toLowerCase());
}

/**
 * One cell of the result file: quoted when it needs to be, and a leading `=`, `+`, `-` or `@` defused with a
 * quote mark so that a spreadsheet never runs a value the bank or the caller supplied as a formula.
 */
export function csvCell(value: string | number | boolean | undefined | null): string {
  if (value === undefined || value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: ReadonlyArray<string | number | boolean | undefined | null>): string {
  return values.map(csvCell).join(',');
}
