/**
 * Test-side reader for Sheet JSON workbooks: lists (both item encodings, {"key": value} and [key, value])
 * and tables, indexed by block name. Used to check fixtures and to build the model a TXT must parse back to.
 */

export type Cell = string | number | boolean | null;

export interface WorkbookTable {
  readonly sheet: string;
  readonly name: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly Cell[])[];
}

export interface WorkbookList {
  readonly sheet: string;
  readonly name: string;
  readonly values: ReadonlyMap<string, Cell>;
}

export interface ReadWorkbook {
  readonly name: string;
  readonly lists: ReadonlyMap<string, WorkbookList>;
  readonly tables: ReadonlyMap<string, WorkbookTable>;
}

interface RawBlock { name: string; '@entity': string; items?: unknown[]; header?: string[]; rows?: Cell[][] }
interface RawSheet { name: string; blocks: RawBlock[] }
interface RawWorkbook { name: string; sheets: RawSheet[] }

function listEntry(item: unknown): [string, Cell] {
  if (Array.isArray(item) && item.length === 2 && typeof item[0] === 'string') return [item[0], item[1] as Cell];
  if (item !== null && typeof item === 'object') {
    const entries = Object.entries(item);
    if (entries.length === 1) return entries[0] as [string, Cell];
  }
  throw new Error(`list item is neither {"key": value} nor [key, value]: ${JSON.stringify(item)}`);
}

export function readWorkbook(input: unknown): ReadWorkbook {
  const raw = input as RawWorkbook;
  const lists = new Map<string, WorkbookList>();
  const tables = new Map<string, WorkbookTable>();
  for (const sheet of raw.sheets) {
    for (const block of sheet.blocks) {
      if (block['@entity'] === 'list') {
        lists.set(block.name, { sheet: sheet.name, name: block.name, values: new Map((block.items ?? []).map(listEntry)) });
      } else {
        tables.set(block.name, { sheet: sheet.name, name: block.name, header: block.header ?? [], rows: block.rows ?? [] });
      }
    }
  }
  return { name: raw.name, lists, tables };
}

/** Reads a table row as a header-keyed record; short rows read as null for the missing trailing columns. */
export function rowRecord(table: WorkbookTable, row: readonly Cell[]): Record<string, Cell> {
  const record: Record<string, Cell> = {};
  table.header.forEach((column, index) => {
    record[column] = row[index] ?? null;
  });
  return record;
}
