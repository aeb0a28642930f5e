// A record is built as an array indexed by field number (1-based, as in the layout tables), so each line of
// a writer reads "field 23 = payment date". Index 0 is unused.

export type Fields = string[];

/** Field counts per record type and family (reference §0 and §4). */
export const FIELD_COUNTS = {
  legacy: { FH: 18, BH: 72, CD: 41, DD: 54, SD: 88, S16: 8, C6A: 10, '94P': 28, P16: 8, P6A: 10 },
  new: { FH: 18, BH: 72, CD: 30, DD: 45 },
} as const;

export function blank(count: number): Fields {
  return new Array<string>(count + 1).fill('');
}

/**
 * Fields 2..n joined by carets: the record without its line number. Array.join gives a flat string; building
 * it with += would leave a rope of ~50 pieces per record, many times its size while records wait to be
 * written.
 */
export function body(fields: Fields): string {
  return fields.join('^').slice(2);
}

export const CRLF = '\r\n';

/** A complete line: line number, carets, CRLF. */
export function line(lineNumber: number, recordBody: string): string {
  return `${lineNumber}^${recordBody}${CRLF}`;
}
