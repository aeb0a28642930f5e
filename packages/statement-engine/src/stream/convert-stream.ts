// The streaming form: a workbook read from a byte stream or a file, TXT lines produced after the whole input
// has been validated. Memory holds the payee and challan tables and the totals; deductee and salary records
// wait in temporary files.

import { once } from 'node:events';
import { createWriteStream, statSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import type { Statement } from '../assembly/assembler.js';
import { MemoryDeducteeStore, MemoryLateRows, MemorySalaryStore, type RowTrail } from '../assembly/stores.js';
import { StatementEngineError, inputUnreadable } from '../errors.js';
import { resolveOptions, type ResolvedOptions } from '../options.js';
import { statementLines } from '../output.js';
import { NOWHERE, type ProblemCollector } from '../problems.js';
import { createPipeline } from '../statement.js';
import type { ConvertOptions, ValidationReport } from '../types.js';
import { validateEnvelope } from '../workbook/schemas.js';
import { walkWorkbook } from '../workbook/walk.js';
import { WORKBOOKS } from '../workbook/dialects.js';
import { JsonScanner, JsonSyntaxError, type ScanHandler } from './json-scanner.js';
import { SpillDirectory, SpilledDeducteeStore, SpilledLateRows, SpilledSalaryStore, type DeducteeSpill } from './spill.js';
import { WorkerDeducteeStore } from './worker-deductees.js';
import { TapeStopped } from './field-tape.js';
import { WorkbookStreamer } from './workbook-stream.js';
import { deducteeFieldCount } from '../records/deductee.js';
import { deducteeCheckFor, deducteeLayoutKey } from '../layouts/field-check.js';
import { writeStatementBytes, type ChunkSink } from './byte-writer.js';
import { startsWithZipMagic } from '../xlsx/layout.js';
import { asXlsxFailure, CellMap, readXlsxInto, type XlsxReadOptions } from '../xlsx/read.js';
import { xlsxAsSheetJsonInWorker } from '../xlsx/in-worker.js';
import { resolveLimits, type InputLimits } from '../limits.js';

export interface StreamProgress {
  bytesRead: number;
  /** Size of the input when known (files). */
  totalBytes: number | null;
  rowsRead: number;
}

export interface StreamHooks {
  onProgress?(progress: StreamProgress): void;
  /** Parent directory for temporary files (default: the OS temp directory). */
  tmpDir?: string;
  /** Size of the input, for progress reports. */
  totalBytes?: number;
  /** Bytes of built records held in memory before they are written to the temporary files (default 4 MiB). */
  memoryBudget?: number;
  /** Notes the workbook row of every challan and deductee record (and, for .xlsx, how to name cells): correct(). */
  rowTrail?: RowTrail;
  /** Given the conversion's problem collector before the input is read: the .xlsx reader adds its own problems. */
  problemsTo?(collector: ProblemCollector): void;
  /**
   * Writes the deductee records in a worker thread while the workbook is read (default: for input known to
   * be PARALLEL_MIN_BYTES or more, where it saves more than starting a thread costs); an .xlsx file is read
   * in a worker thread while it is converted (only when true). Same TXT and report.
   */
  parallel?: boolean;
}

/** Input size from which the deductee records are written in a worker thread by default. */
export const PARALLEL_MIN_BYTES = 16 * 1024 * 1024;


export interface WriteSummary {
  bytes: number;
  lines: number;
}

export interface StreamConversion {
  /** The complete validation report, known before any line is written. */
  report: ValidationReport;
  /** The TXT line by line (each ends with CRLF), or null when the report has errors. Iterate once. */
  lines: AsyncIterable<string> | null;
  /** Writes the TXT to a file path or a writable stream; resolves when written (the stream is not ended). */
  writeTo(target: string | Writable): Promise<WriteSummary>;
  /** Removes the temporary files. Done automatically once the lines are read or written. */
  dispose(): Promise<void>;
}

/** The lines of a conversion made here, read without awaiting each (Conversion.linesInPlace); null when it has none. */
export function linesInPlace(conversion: StreamConversion): Iterable<string> | null {
  if (!(conversion instanceof Conversion)) throw new TypeError('not a conversion made by convertFile() or convertStream()');
  return conversion.linesInPlace();
}

/** A report for input that could not be read as a workbook at all (same problems convert() would give). */
function documentReport(options: ResolvedOptions, skeleton: unknown, syntax: JsonSyntaxError | null): ValidationReport {
  const fresh = createPipeline(options, new MemoryDeducteeStore(deducteeFieldCount(options.form.family)), new MemorySalaryStore(), new MemoryLateRows());
  if (syntax) fresh.problems.add('INVALID_JSON', NOWHERE, `The workbook is not valid JSON: ${syntax.message}`);
  else walkWorkbook(skeleton, fresh.reader, fresh.problems, fresh.description);
  return fresh.problems.report();
}

function isDocumentBroken(skeleton: unknown, workbookName: string): boolean {
  if (skeleton === null || typeof skeleton !== 'object' || Array.isArray(skeleton)) return true;
  if (validateEnvelope(skeleton).length > 0) return true;
  return (skeleton as { name?: unknown }).name !== workbookName;
}

/**
 * Bytes a TXT file's stream takes before writeTo() waits for the disk: the next chunks are made while earlier
 * ones are written (its buffers are recycled, so this costs no fresh memory after the first few).
 */
const FILE_WRITE_AHEAD = 4 << 20;

async function removePartial(sink: Writable, path: string): Promise<void> {
  sink.destroy();
  if (!sink.closed) await once(sink, 'close').catch(() => undefined);
  await rm(path, { force: true });
}

class Conversion implements StreamConversion {
  lines: AsyncIterable<string> | null = null;
  private consumed = false;
  /** The removal of the temporary directory, once started in the background. */
  private removing: Promise<void> | null = null;

  constructor(
    readonly report: ValidationReport,
    private readonly dir: SpillDirectory,
    private readonly render: (() => Iterable<string>) | null,
    private readonly writer: ((emit: ChunkSink) => Promise<WriteSummary>) | null,
    private readonly close: () => void,
  ) {
    if (render) {
      const self = this;
      this.lines = {
        async *[Symbol.asyncIterator]() {
          try {
            for (const l of self.take()) yield l;
          } finally {
            await self.dispose();
          }
        },
      };
    } else {
      this.cleanup();
    }
  }

  /**
   * The TXT's lines as a synchronous iterable, for the engine's own readers (a correction compares every line):
   * `lines` awaits each line, which costs more than the comparison. The caller disposes when done.
   */
  linesInPlace(): Iterable<string> | null {
    return this.render ? this.take() : null;
  }

  /** The TXT can be produced once: it reads the temporary files, which are removed afterwards. */
  private claim(): void {
    if (this.consumed) throw new StatementEngineError('ALREADY_CONSUMED', 'The TXT of a streaming conversion can be read once');
    this.consumed = true;
  }

  private take(): Iterable<string> {
    this.claim();
    return this.render!();
  }

  async writeTo(target: string | Writable): Promise<WriteSummary> {
    if (!this.writer) throw new StatementEngineError('NO_TXT', 'The workbook has errors; there is no TXT to write');
    this.claim();
    const file = typeof target === 'string';
    const sink = file ? createWriteStream(target, { highWaterMark: FILE_WRITE_AHEAD }) : target;
    try {
      const summary = await this.writer(async (chunk, release) => {
        // A file stream of our own is done with a chunk once it is written (the callback); any other may keep it.
        // Its failure rejects the wait for 'drain' (or 'finish'): chunks written ahead do not change that, as
        // the event loop turns only while one of those waits (the records are read synchronously).
        const room = file ? sink.write(chunk, release) : sink.write(chunk);
        if (!room) await once(sink, 'drain');
      });
      // Every record has been read: the temporary files are removed while the last bytes are written.
      this.cleanupInBackground();
      if (file) {
        sink.end();
        await once(sink, 'finish');
      }
      return summary;
    } catch (error) {
      // A file we created is not left half-written (the self-check stops the writer at the first wrong line).
      if (file) await removePartial(sink, target);
      throw error;
    } finally {
      await this.dispose();
    }
  }

  private cleanup(): void {
    this.close();
    this.dir.dispose();
  }

  /** cleanup() with the directory removed off this thread; dispose() waits for it. */
  private cleanupInBackground(): void {
    this.close();
    this.removing ??= this.dir.disposeInBackground();
    // Its failure is dispose()'s to throw, not an unhandled rejection meanwhile.
    this.removing.catch(() => undefined);
  }

  async dispose(): Promise<void> {
    this.cleanup();
    await this.removing;
  }
}

/**
 * Converts a workbook read from a stream of bytes (or strings): Sheet JSON, or an .xlsx workbook (recognised by
 * the zip signature of its first bytes; README "Excel workbooks").
 */
export async function convertStream(input: AsyncIterable<Uint8Array | string>, options: ConvertOptions, hooks: StreamHooks = {}): Promise<StreamConversion> {
  const sniffed = await sniffXlsx(input);
  if (sniffed.xlsx) return convertXlsx(Readable.from(sniffed.input), options, hooks);
  return convertJsonStream(sniffed.input, options, hooks);
}

/**
 * Tells the workbook's streamer what the workbook holds (the JSON scanner over its text, or the .xlsx reader),
 * reporting the input's bytes read as it goes: the JSON syntax error that ended it, or null.
 */
type WorkbookFeed = (streamer: ScanHandler, maxDepth: number, progress: (bytesRead: number) => void) => Promise<JsonSyntaxError | null>;

/** The feed of Sheet JSON text. */
function jsonText(input: AsyncIterable<Uint8Array | string>): WorkbookFeed {
  return async (streamer, maxDepth, progress) => {
    const scanner = new JsonScanner(streamer, maxDepth);
    let bytesRead = 0;
    try {
      for await (const chunk of input) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        bytesRead += bytes.length;
        scanner.push(bytes);
        progress(bytesRead);
      }
      scanner.end();
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) throw error;
      return error;
    }
    return null;
  };
}

async function convertJsonStream(input: AsyncIterable<Uint8Array | string>, options: ConvertOptions, hooks: StreamHooks): Promise<StreamConversion> {
  return convertWorkbook(jsonText(input), options, hooks);
}

async function convertWorkbook(feed: WorkbookFeed, options: ConvertOptions, hooks: StreamHooks): Promise<StreamConversion> {
  const resolved = resolveOptions(options);
  const dir = new SpillDirectory(hooks.tmpDir);
  const checked = deducteeCheckFor(resolved);
  const fieldCount = deducteeFieldCount(resolved.form.family);
  const parallel = hooks.parallel ?? (hooks.totalBytes ?? 0) >= PARALLEL_MIN_BYTES;
  const deductees: DeducteeSpill = parallel
    ? new WorkerDeducteeStore(dir, fieldCount, hooks.memoryBudget, deducteeLayoutKey(resolved), checked)
    : new SpilledDeducteeStore(dir, fieldCount, hooks.memoryBudget, checked);
  const salary = new SpilledSalaryStore(dir, hooks.memoryBudget);
  const late = new SpilledLateRows(dir, hooks.memoryBudget);
  const close = () => {
    deductees.close();
    salary.close();
    late.close();
  };
  try {
    const pipeline = createPipeline(resolved, deductees, salary, late, hooks.rowTrail ?? null);
    hooks.problemsTo?.(pipeline.problems);
    const workbookName = WORKBOOKS[resolved.form.workbook].name;
    const streamer = new WorkbookStreamer(pipeline.reader, workbookName, dir, resolved.limits.workbookRows, hooks.memoryBudget);
    const syntax = await feed(streamer, resolved.limits.jsonDepth, (bytesRead) => hooks.onProgress?.({ bytesRead, totalBytes: hooks.totalBytes ?? null, rowsRead: streamer.rowCount }));
    if (syntax || isDocumentBroken(streamer.skeleton, workbookName)) {
      const failure = await deductees.abandon();
      if (failure) throw failure;
      return new Conversion(documentReport(resolved, streamer.skeleton, syntax), dir, null, null, close);
    }
    pipeline.reader.finish();
    const statement: Statement = pipeline.assembler.finish();
    deductees.seal();
    await deductees.settled();
    const report = pipeline.problems.report();
    const render = report.valid
      ? () =>
          statementLines(statement, resolved, pipeline.ctx.today, {
            deductees: (record) => deductees.bodies(record),
            salaryGroups: () => salary.groups(),
            checked,
          })
      : null;
    const writer = report.valid
      ? (emit: ChunkSink) =>
          writeStatementBytes(statement, resolved, pipeline.ctx.today, { deductees: (record) => deductees.raw(record), salary: () => salary.raw(), checked }, emit)
      : null;
    return new Conversion(report, dir, render, writer, close);
  } catch (error) {
    // The records' writer may be why it broke off (a worker that failed): then its own error says why.
    const failure = await deductees.abandon();
    close();
    dir.dispose();
    throw error instanceof TapeStopped && failure ? failure : error;
  }
}

/** Converts a workbook file without loading it whole. Unreadable files throw StatementEngineError INPUT_UNREADABLE. */
export async function convertFile(path: string, options: ConvertOptions, hooks: StreamHooks = {}): Promise<StreamConversion> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw inputUnreadable(path, error);
  }
  if (/\.xlsx$/i.test(path)) return convertXlsx(path, options, hooks);
  const chunks = fileChunks(path, chunkBytesFor(size));
  const sniffed = await sniffXlsx(chunks);
  if (sniffed.xlsx) {
    // The .xlsx reader keeps chunks, which fileChunks() reuses: it reads the file itself.
    await chunks.return(undefined);
    return convertXlsx(path, options, hooks);
  }
  try {
    return await convertJsonStream(sniffed.input, options, { totalBytes: size, ...hooks });
  } finally {
    // Reading may have stopped before the end (bad options, a syntax error in the first chunk): the file is
    // closed now, not when the collector finds its handle. (Once read to the end, it is closed already.)
    await chunks.return(undefined);
  }
}

const FILE_CHUNK_BYTES = 1 << 20;
const SMALL_FILE_CHUNK_BYTES = 16 << 10;

/**
 * Chunks of 1 MiB for a big file, of its size (at least 16 KiB) for a small one: two fresh 1 MiB buffers
 * cost a small workbook's conversion more than all its reading (p50 4.5 ms against 2.8 ms for a 5 KB workbook,
 * and the garbage collector's pauses in the mean), and the queue converts mostly small workbooks.
 */
function chunkBytesFor(size: number): number {
  return Math.min(FILE_CHUNK_BYTES, Math.max(SMALL_FILE_CHUNK_BYTES, size));
}

/**
 * A file's bytes in chunks read into two buffers in turn: the next chunk is read while one is scanned, and
 * no memory is allocated per chunk (fresh pages cost more than the copy out of the page cache). A chunk is
 * valid until the next one is asked for: for the JSON scanner only, which keeps none (push()).
 */
async function* fileChunks(path: string, chunkBytes: number): AsyncGenerator<Buffer> {
  const file = await open(path, 'r').catch((error: unknown) => {
    throw inputUnreadable(path, error);
  });
  const buffers = [Buffer.allocUnsafeSlow(chunkBytes), Buffer.allocUnsafeSlow(chunkBytes)] as const;
  let turn = 0;
  let next = file.read(buffers[0], 0, chunkBytes, null);
  try {
    for (;;) {
      const { bytesRead } = await next.catch((error: unknown) => {
        throw inputUnreadable(path, error);
      });
      if (bytesRead === 0) return;
      const chunk = buffers[turn]!.subarray(0, bytesRead);
      turn = 1 - turn;
      next = file.read(buffers[turn]!, 0, chunkBytes, null);
      yield chunk;
    }
  } finally {
    // A read still running when the consumer stops early: close() waits for it; its outcome no longer matters.
    next.catch(() => undefined);
    await file.close();
  }
}

/** The validation report of a workbook file, read as a stream. */
export async function validateFile(path: string, options: ConvertOptions, hooks: StreamHooks = {}): Promise<ValidationReport> {
  const conversion = await convertFile(path, options, hooks);
  await conversion.dispose();
  return conversion.report;
}

/** The input, and whether its first bytes are a zip signature (an .xlsx); the bytes looked at are given back. */
async function sniffXlsx(input: AsyncIterable<Uint8Array | string>): Promise<{ xlsx: boolean; input: AsyncIterable<Uint8Array | string> }> {
  const iterator = input[Symbol.asyncIterator]();
  const first = await iterator.next();
  const rest: AsyncIterable<Uint8Array | string> = {
    [Symbol.asyncIterator]: () => iterator,
  };
  const whole = (async function* () {
    if (!first.done) yield first.value;
    yield* rest;
  })();
  const xlsx = !first.done && typeof first.value !== 'string' && startsWithZipMagic(first.value);
  return { xlsx, input: whole };
}

/**
 * An .xlsx workbook: the reader tells the streaming conversion what its rows hold, as the JSON scanner does
 * with Sheet JSON text (hooks.parallel: the reader runs in a worker thread and hands over that text); every
 * problem then gets its Excel cell. A file that is no readable .xlsx throws INVALID_XLSX.
 */
async function convertXlsx(input: string | Readable, options: ConvertOptions, hooks: StreamHooks): Promise<StreamConversion> {
  const limits = resolveLimits(options?.limits);
  // Opt-in: on this project's shared 2-core machine, under load, the second thread cost more than it saved.
  const inWorker = typeof input === 'string' && hooks.parallel === true;
  const { feed, cellMap } = inWorker ? workerXlsx(input, limits) : xlsxRows(input, { ...(hooks.tmpDir ? { tmpDir: hooks.tmpDir } : {}), limits });
  const xlsxHooks: StreamHooks = { ...hooks, problemsTo: (collector) => cellMap.reportTo(collector) };
  // Progress counts the bytes of the .xlsx file in this thread, the JSON text the rows become from a worker.
  if (inWorker) delete xlsxHooks.totalBytes;
  const conversion = await convertWorkbook(feed, options, xlsxHooks);
  cellMap.annotate(conversion.report.problems);
  if (hooks.rowTrail) hooks.rowTrail.annotate = (problems) => cellMap.annotate(problems);
  return conversion;
}

/** The .xlsx reader as the conversion's feed, in this thread. */
function xlsxRows(input: string | Readable, options: XlsxReadOptions): { feed: WorkbookFeed; cellMap: CellMap } {
  const cellMap = new CellMap();
  const feed: WorkbookFeed = async (streamer, _maxDepth, progress) => {
    for await (const bytesRead of readXlsxInto(input, streamer, cellMap, options)) progress(bytesRead);
    return null;
  };
  return { feed, cellMap };
}

/** The .xlsx reader in a worker thread, its Sheet JSON text scanned here. */
function workerXlsx(path: string, limits: InputLimits): { feed: WorkbookFeed; cellMap: CellMap } {
  const { text, cells } = xlsxAsSheetJsonInWorker(path, limits);
  const guarded = (async function* () {
    try {
      yield* text;
    } catch (error) {
      asXlsxFailure(error);
    }
  })();
  return { feed: jsonText(guarded), cellMap: cells };
}
