// Reads just enough of a workbook file to learn its name and the deductor's TAN (for tools that convert
// workbooks without being told the form or the TAN). Stops as soon as both are known.

import { createReadStream } from 'node:fs';
import { JsonScanner, type ScanHandler } from './json-scanner.js';

export interface WorkbookPeek {
  /** The workbook's `name` (e.g. form26q_workbook), or null. */
  name: string | null;
  /** The `tan` of the payer list, or null. */
  tan: string | null;
}

class Found extends Error {}

function tanOf(items: unknown): string | null {
  if (!Array.isArray(items)) return null;
  for (const item of items) {
    if (Array.isArray(item) && item[0] === 'tan' && typeof item[1] === 'string') return item[1];
    const tan = item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>).tan : undefined;
    if (typeof tan === 'string') return tan;
  }
  return null;
}

/** Name and TAN of a workbook file; nulls when the file is unreadable, not JSON or lacks them. */
export async function peekWorkbook(path: string): Promise<WorkbookPeek> {
  const result: WorkbookPeek = { name: null, tan: null };
  let block: Record<string, unknown> = {};
  const noop = () => {};
  const check = () => {
    if (result.name !== null && result.tan !== null) throw new Found();
  };
  const handler: ScanHandler = {
    rootValue: (key, value) => {
      if (key === 'name' && typeof value === 'string') result.name = value;
      check();
    },
    sheetStart: noop,
    sheetValue: noop,
    sheetEnd: noop,
    sheetOther: noop,
    blockStart: () => (block = {}),
    blockValue: (key, value) => (block[key] = value),
    blockEnd: () => {
      if (block.name === 'payer_list' && result.tan === null) result.tan = tanOf(block.items);
      check();
    },
    blockOther: noop,
    rowsStart: noop,
    rows: noop,
    rowsEnd: noop,
  };
  const scanner = new JsonScanner(handler);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) scanner.push(chunk as Buffer);
    scanner.end();
  } catch {
    // Found (both known), a syntax error or an unreadable file: report what is known.
  }
  return result;
}
