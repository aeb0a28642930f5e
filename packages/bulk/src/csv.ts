import { readCsvRows } from '@satyapan/bank';
import { serviceError, type ServiceError } from '@satyapan/core';

/** One data line of the upload: its line number in the file (the header is line 1) and its text. */
export interface CsvLine {
  line: number;
  text: string;
}

/**
 * The upload split into lines: the header and the non-blank data lines. A row is one line (a quoted cell may
 * not span lines), so that a malformed line is that row's problem and never the whole file's.
 */
export function splitLines(text: string): { header: string | null; lines: CsvLine[] } {
  const all = text.replace(/^\uFEFF/, '').split('\n');
  let header: string | null = null;
  const lines: CsvLine[] = [];
  all.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    if (header === null) header = line;
    else lines.push({ line: i + 1, text: line });
  });
  return { header, lines };
}

/** The cells of one line (RFC 4180 quoting), with the bank package's reader; a ServiceError for a malformed line. */
export async function cellsOf(text: string): Promise<string[] | ServiceError> {
  try {
    const rows: string[][] = [];
    for await (const row of readCsvRows(once(`${text}\n`))) rows.push(row);
    if (rows.length !== 1) return serviceError('UNPROCESSABLE', 'Malformed CSV line: a quoted cell spans lines');
    return rows[0] as string[];
  } catch (error) {
    return serviceError('UNPROCESSABLE', `Malformed CSV line: ${(error as Error).message.replace(/^line \d+: /, '')}`);
  }
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

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}
