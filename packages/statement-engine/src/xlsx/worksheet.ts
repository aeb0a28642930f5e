// The rows of one worksheet part, read as it is inflated: memory stays that of one chunk of the part, whatever
// the worksheet's size. The fast tokenizer (scan.ts) reads it first; where it gives way (XML it does not read,
// or anything to refuse), the part is read again from its start by saxes (parts.ts), the rows handed over
// already skipped: what saxes reads or refuses, and the message it refuses with, are what the reader always
// gave. Both drive the same row builder (rows.ts).

import { partParser, type SaxHandlers } from './parts.js';
import { columnOf, RowBuilder, type Row, type WorksheetContext, type WorksheetPart } from './rows.js';
import { SheetScanner } from './scan.js';
import type { XlsxZip } from './zip.js';

/** The bytes of a worksheet part, as many times as they are asked for. */
export interface PartSource {
  /** A fresh read of the part from its start. */
  read(): AsyncIterable<Buffer>;
  /** A read given up after `bytes`, to be read again: its bytes are not counted twice (xlsxInflatedBytes). */
  abandon?(bytes: number): void;
}

/** A read of the fast tokenizer given up: the rows it handed over and the bytes it read. */
interface GaveWay {
  rows: number;
  bytes: number;
}

/**
 * The rows of one worksheet part that hold any value, with their Excel row numbers, a chunk's rows at a time.
 * Rows past limits.sheetRows (by number or by count), cells past limits.sheetColumns or longer than
 * limits.cellChars, a row of more text than limits.rowChars, and more rows with a value than
 * limits.workbookRows in all worksheets are refused as they are read.
 */
export function worksheetRowBatches(zip: XlsxZip, sheet: WorksheetPart, ctx: WorksheetContext): AsyncGenerator<Row[]> {
  return rowBatchesOf({ read: () => zip.read(sheet.part), abandon: (bytes) => zip.abandoned(bytes) }, sheet, ctx);
}

/** worksheetRowBatches() a row at a time. */
export async function* worksheetRows(zip: XlsxZip, sheet: WorksheetPart, ctx: WorksheetContext): AsyncGenerator<Row> {
  for await (const rows of worksheetRowBatches(zip, sheet, ctx)) yield* rows;
}

/** The rows of any source of the part's bytes, a row at a time (the tests give theirs, chunked as they choose). */
export async function* rowsOf(source: PartSource, sheet: WorksheetPart, ctx: WorksheetContext): AsyncGenerator<Row> {
  for await (const rows of rowBatchesOf(source, sheet, ctx)) yield* rows;
}

/**
 * worksheetRowBatches() of any source of the part's bytes. Batches rather than rows: an await per row through
 * the generators cost a tenth of the reader's time at 200,000 rows.
 */
async function* rowBatchesOf(source: PartSource, sheet: WorksheetPart, ctx: WorksheetContext): AsyncGenerator<Row[]> {
  if (ctx.tokenizer === 'saxes') {
    yield* saxesRows(source, sheet, ctx, 0);
    return;
  }
  const rowsRead = ctx.rowsRead;
  const gaveWay = yield* fastRows(source, sheet, ctx);
  if (gaveWay === null) return;
  source.abandon?.(gaveWay.bytes);
  ctx.rowsRead = rowsRead;
  ctx.fallbacks = (ctx.fallbacks ?? 0) + 1;
  yield* saxesRows(source, sheet, ctx, gaveWay.rows);
}

/**
 * The fast tokenizer's rows, handed over chunk by chunk once a chunk is read whole (as saxes's are: a chunk
 * it gives way in hands over none); null at the end, or what it read when it gave way.
 */
async function* fastRows(source: PartSource, sheet: WorksheetPart, ctx: WorksheetContext): AsyncGenerator<Row[], GaveWay | null> {
  const builder = new RowBuilder(sheet, ctx);
  const scanner = new SheetScanner(builder, ctx.limits);
  let rows = 0;
  let bytes = 0;
  for await (const chunk of source.read()) {
    bytes += chunk.length;
    if (!scanner.write(chunk)) return { rows, bytes };
    const taken = builder.take();
    rows += taken.length;
    if (taken.length > 0) yield taken;
  }
  if (!scanner.end()) return { rows, bytes };
  const taken = builder.take();
  if (taken.length > 0) yield taken;
  return null;
}

/** saxes's rows, the first `skip` left out (the fast tokenizer handed them over). */
async function* saxesRows(source: PartSource, sheet: WorksheetPart, ctx: WorksheetContext, skip: number): AsyncGenerator<Row[]> {
  const builder = new RowBuilder(sheet, ctx);
  const parser = partParser(sheet.part, saxesHandlers(builder), ctx.limits);
  let skipped = 0;
  const handOver = (): Row[] => {
    const taken = builder.take();
    const from = Math.min(skip - skipped, taken.length);
    skipped += from;
    return from === 0 ? taken : taken.slice(from);
  };
  for await (const chunk of source.read()) {
    parser.write(chunk);
    const rows = handOver();
    if (rows.length > 0) yield rows;
  }
  parser.end();
  const rows = handOver();
  if (rows.length > 0) yield rows;
}

/** saxes's events as the row builder's: elements by their local name (partParser gives it), the attributes it reads. */
function saxesHandlers(builder: RowBuilder): SaxHandlers {
  return {
    open(name, a) {
      switch (name) {
        case 'row':
          builder.openRow(a.r === undefined ? NaN : parseInt(a.r, 10));
          return;
        case 'c':
          builder.openCell(a.r === undefined ? 0 : columnOf(a.r), a.r, a.s === undefined ? 0 : parseInt(a.s, 10), a.t ?? 'n');
          return;
        case 'v':
          builder.openValue();
          return;
        case 'f':
          builder.openFormula(a.t === 'shared');
          return;
        case 'r':
          builder.openRun();
          return;
        case 'rPh':
          builder.openPhonetic();
          return;
        case 't':
          builder.openText();
          return;
        default:
      }
    },
    text(text) {
      builder.text(text);
    },
    close(name) {
      switch (name) {
        case 'v':
        case 't':
          builder.closeValue();
          return;
        case 'f':
          builder.closeFormula();
          return;
        case 'r':
          builder.closeRun();
          return;
        case 'rPh':
          builder.closePhonetic();
          return;
        case 'c':
          builder.closeCell();
          return;
        case 'row':
          builder.closeRow();
          return;
        default:
      }
    },
  };
}
