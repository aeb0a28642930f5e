import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DelayedError, WaitingError, type Job } from 'bullmq';
import {
  isServiceError, isTerminal, readAll, serviceError, type BulkRunOutcome, type Clock, type Logger, type ObjectStorage, type SatyapanMetrics, type Sealer,
  type ServiceError,
} from '@satyapan/core';
import { cellsOf, countCsvRows, csvLine, csvLines, headerOf, parseCells, type CsvLimits, type CsvLine } from './csv.js';
import type { BulkFairness } from './fairness.js';
import { bulkStorageKeys, type BulkJobRef } from './keys.js';
import type { RowCheck, RowCheckContext, RowCheckRegistry, RowResult } from './kinds.js';
import { BULK_FAILURES, zeroCounts, type BulkJobRecord, type OutcomeCounts, type RowOutcome } from './model.js';
import type { BulkJobData } from './queue.js';
import type { UpstreamRateLimiter } from './rate-limit.js';
import { apiKeyContext } from './sealing.js';
import { BulkJobStateError, type BulkJobStore, type JournalEntry } from './store.js';

export interface RunnerOptions {
  store: BulkJobStore;
  storage: ObjectStorage;
  registry: RowCheckRegistry;
  limiter: UpstreamRateLimiter;
  sealer: Sealer;
  clock: Clock;
  logger: Logger;
  /** Rows per committed chunk. */
  chunkSize: number;
  /** Rows checked at once within a job. */
  rowConcurrency: number;
  maxUploadBytes: number;
  maxRows: number;
  /** Columns, cell and line length the file is read under. */
  csv: CsvLimits;
  /** Tries of a row the upstream refused with 429 (it was not charged), after waiting its Retry-After. */
  rateLimitRetries: number;
  /** Where a job's rows are charged to its client's budget, and its place in the client's count renewed. */
  fairness: BulkFairness;
  /** Whether another job waits for a lane: a job that has run a slice then goes to the back of the queue. */
  othersWaiting: () => Promise<boolean>;
  /** Chunks per slice, and the longest a slice runs (checked between chunks). */
  sliceChunks: number;
  sliceMs: number;
  /** Where each run's duration and ending are recorded (`satyapan_bulk_run_duration_seconds`). */
  metrics?: SatyapanMetrics;
  /** Told of every job this runner ended (succeeded or failed), after its record says so: its webhook is queued here. */
  onEnded?: (ref: BulkJobRef, record: BulkJobRecord) => Promise<void>;
}

/** The columns a kind reads (reference, required, optional) and where the header has them (its first such column). */
type Columns = ReadonlyArray<readonly [string, number]>;

/** Maps the header once per run: a row then reads only its kind's cells, however wide the file. */
function columnsOf(check: RowCheck, names: readonly string[]): Columns {
  return ['reference', ...check.required, ...check.optional].flatMap((name) => {
    const at = names.indexOf(name);
    return at === -1 ? [] : [[name, at] as const];
  });
}

/** Where a run stands between chunks: the next chunk's number and its first row. */
interface Position {
  chunk: number;
  from: number;
}

export type BulkRunResult = { outcome: 'succeeded' | 'failed' } | { outcome: 'skipped'; reason: 'job-gone' | 'already-finished' };

/** A job that ended in this run. */
type Ended = { outcome: 'succeeded' | 'failed' };
/** How a run ends: the job ended, or it goes back to the queue with rows left. */
type RunEnd = Ended | 'handed-back' | 'yielded';

/** What every row of a job shares of its check's context. */
type RowContext = Omit<RowCheckContext, 'beforeCall'>;

/** A row as the result file shows it. */
interface RowLine {
  outcome: RowOutcome;
  line: string;
}

/** A value as a masked column echoes it: all but its last four characters as `X`. */
function masked(value: string | undefined): string | undefined {
  return value === undefined ? undefined : `${'X'.repeat(Math.max(0, value.length - 4))}${value.slice(-4)}`;
}

/** Columns of the result file: the row's line number and echoed input, the outcome, then the kind's results. */
export function resultHeader(check: RowCheck): string[] {
  return ['line', 'reference', ...check.required, ...check.optional, 'outcome', 'code', 'message', ...check.resultColumns];
}

/**
 * Runs one bulk job: reads the CSV, checks its rows in chunks, commits each chunk (its result lines to storage,
 * progress and counts to the record), then assembles the result file. Every paid row is journalled in Redis:
 * an in-flight marker before its call, its outcome after, so a job run again after its worker died (BullMQ
 * hands a stalled job to another worker) skips the rows done and never repeats a paid call; a row that was in
 * flight when the worker died is reported `interrupted` rather than called twice. Bad rows are outcomes, never
 * a reason to fail the job; only a file that cannot be read as a whole fails it.
 */
export class BulkRunner {
  constructor(private readonly options: RunnerOptions) {}

  async process(job: Job<BulkJobData>, token?: string, signal?: AbortSignal): Promise<BulkRunResult> {
    const ref: BulkJobRef = { owner: job.data.owner, jobId: job.data.jobId };
    const { store } = this.options;
    const record = await store.get(ref);
    if (!record) return { outcome: 'skipped', reason: 'job-gone' };
    if (isTerminal(record.status)) {
      // Ended in an earlier run whose webhook may not have been queued (its worker died between the two): queued
      // again here, and the framework's delivery id makes it one delivery.
      await this.options.onEnded?.(ref, record);
      return { outcome: 'skipped', reason: 'already-finished' };
    }
    try {
      const running = await store.transition(ref, 'in_progress', this.options.clock.now());
      const result = await this.timed(() => this.run(ref, running, signal));
      if (result === 'handed-back') return this.handBack(job, token);
      if (result === 'yielded') return this.yieldLane(job, token);
      return result;
    } catch (error) {
      if (error instanceof WaitingError || error instanceof DelayedError) throw error;
      if (error instanceof BulkJobStateError && error.from !== null && isTerminal(error.from)) return { outcome: 'skipped', reason: 'already-finished' };
      if (signal?.aborted) return this.handBack(job, token);
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.failAfterError(ref, error);
      throw error;
    }
  }

  /** Marks a job failed when BullMQ gave up on it without this processor seeing the last failure (stalls). */
  async failAbandoned(ref: BulkJobRef, reason: string): Promise<void> {
    const record = await this.options.store.get(ref);
    if (!record || isTerminal(record.status)) return;
    await this.failAfterError(ref, new Error(reason));
  }

  /** One run, its duration recorded by how it ended; a thrown error is `error` (BullMQ retries the job). */
  private async timed(run: () => Promise<RunEnd>): Promise<RunEnd> {
    const started = performance.now();
    let outcome: BulkRunOutcome = 'error';
    try {
      const result = await run();
      outcome = result === 'handed-back' ? 'handed_back' : result === 'yielded' ? 'yielded' : result.outcome;
      return result;
    } finally {
      this.options.metrics?.bulkRunDuration.observe({ outcome }, (performance.now() - started) / 1000);
    }
  }

  private async run(ref: BulkJobRef, record: BulkJobRecord, signal?: AbortSignal): Promise<RunEnd> {
    const { registry, clock, logger } = this.options;
    const check = registry.get(record.kind);
    if (!check) throw new Error(`This worker has no row check of kind ${record.kind}`);
    const key = await this.inputKey(ref);
    if (typeof key !== 'string') return this.fail(ref, key);
    const names = await this.readHeader(key);
    if (!Array.isArray(names)) return this.fail(ref, names);
    const missing = check.required.filter((name) => !names.includes(name));
    if (missing.length > 0) return this.fail(ref, serviceError('UNPROCESSABLE', `Missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`));
    const columns = columnsOf(check, names);
    const rowsTotal = record.rowsTotal ?? (await this.countAndCharge(ref, key));
    if (typeof rowsTotal !== 'number') return this.fail(ref, rowsTotal);
    const apiKey = this.options.sealer.unsealText(record.apiKeySealed, apiKeyContext(record.jobId));
    const context = { apiKey, acceptCache: record.acceptCache, logger: logger.child({ bulk_job: record.jobId, kind: check.kind }) };
    const started = clock.now();
    // A run goes on from the rows committed so far, whatever chunk size the run before it had: chunks are
    // numbered in order, each starts where the last ended, and the first one covers every journalled row.
    let at: Position = { chunk: record.chunksDone, from: record.rowsDone };
    while (at.from < rowsTotal) {
      const next = await this.runSlice(ref, key, check, columns, at, context, signal);
      if (next === 'aborted') return 'handed-back';
      at = next;
      // Round robin: a job with rows left lets a waiting job (another tenant's, most often) have the lane.
      if (at.from < rowsTotal && (await this.options.othersWaiting())) return 'yielded';
    }
    await this.assemble(ref, check, at.chunk);
    const ended = await this.end(ref, 'succeeded', { result_key: bulkStorageKeys.result(ref) });
    logger.info('bulk job run', {
      bulk_job: record.jobId, kind: check.kind, rows: rowsTotal, ...ended.counts, resumed_at_chunk: record.chunksDone,
      duration_ms: clock.now() - started,
    });
    return { outcome: 'succeeded' };
  }

  /**
   * One slice of the job: chunks read from one storage stream (opened at the file's start, the rows before
   * `at.from` skipped unparsed) until `sliceChunks` chunks or `sliceMs` have passed, or the rows end.
   */
  private async runSlice(
    ref: BulkJobRef, key: string, check: RowCheck, columns: Columns, at: Position, context: RowContext, signal?: AbortSignal,
  ): Promise<Position | 'aborted'> {
    const { store, storage, clock, chunkSize } = this.options;
    const rows = this.rowsFrom(await storage.get(key), at.from);
    const sliceEnds = clock.now() + this.options.sliceMs;
    let { chunk, from } = at;
    try {
      for (let done = 0; done < this.options.sliceChunks && clock.now() < sliceEnds; done++) {
        const journal = await store.journal(ref);
        const journalled = Math.max(-1, ...journal.keys()) + 1;
        const lines = await take(rows, Math.max(chunkSize, journalled - from));
        if (lines.length === 0) break;
        const results = await this.checkChunk(ref, check, columns, lines, from, journal, context, signal);
        if (results === 'aborted') return 'aborted';
        const counts = zeroCounts();
        for (const row of results) counts[row.outcome] += 1;
        await storage.put(bulkStorageKeys.part(ref, chunk), `${results.map((row) => row.line).join('\n')}\n`, { contentType: 'text/csv' });
        await store.commitChunk(ref, chunk, lines.length, counts, clock.now());
        await this.options.fairness.renew(ref, clock.now());
        chunk += 1;
        from += lines.length;
        // Rows answered locally (IFSC) settle without I/O: let the process serve others between chunks.
        await nextTurn();
      }
    } finally {
      await rows.return(undefined);
    }
    if (chunk === at.chunk) throw new Error(`The input of bulk job ${ref.jobId} has fewer rows than counted`);
    return { chunk, from };
  }

  /** The data rows of the file from the `from`-th (0-based) on; the header and the rows before are only counted. */
  private rowsFrom(stream: Readable, from: number): AsyncGenerator<CsvLine> {
    return csvLines(stream, this.options.csv.maxLineBytes, from + 1);
  }

  /** The header's column names, or why the file cannot be read as a whole; only the first line is read. */
  private async readHeader(key: string): Promise<string[] | ServiceError> {
    const lines = csvLines(await this.options.storage.get(key), this.options.csv.maxLineBytes);
    try {
      return headerOf((await lines.next()).value ?? undefined, this.options.csv);
    } finally {
      await lines.return(undefined);
    }
  }

  /**
   * The file's data rows, counted before any is checked (the count stops past `maxRows`), and charged to the
   * client's row budget: a file over either fails before its first call.
   */
  private async countAndCharge(ref: BulkJobRef, key: string): Promise<number | ServiceError> {
    const { maxRows, store, fairness, clock } = this.options;
    const rows = await countCsvRows(await this.options.storage.get(key), this.options.csv.maxLineBytes, maxRows);
    if (rows > maxRows) return serviceError('BULK_TOO_MANY_ROWS', maxRows);
    const over = await fairness.charge(ref, rows, clock.now());
    if (over) return over;
    await store.setRowsTotal(ref, rows);
    return rows;
  }

  /** The chunk's rows, `rowConcurrency` at a time; 'aborted' when shutdown asked to stop (outcomes so far are journalled). */
  private async checkChunk(
    ref: BulkJobRef, check: RowCheck, columns: Columns, rows: CsvLine[], from: number, journal: Map<number, JournalEntry>,
    context: RowContext, signal?: AbortSignal,
  ): Promise<RowLine[] | 'aborted'> {
    const results: RowLine[] = new Array(rows.length);
    let next = 0;
    let failure: unknown = null;
    const lane = async (): Promise<void> => {
      while (next < rows.length && failure === null && !signal?.aborted) {
        const i = next++;
        const index = from + i;
        try {
          results[i] = await this.checkRow(ref, check, columns, rows[i] as CsvLine, index, journal.get(index), context, signal);
        } catch (error) {
          failure ??= error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.rowConcurrency, rows.length) }, lane));
    if (signal?.aborted) return 'aborted';
    if (failure !== null) throw failure;
    return results;
  }

  private async checkRow(
    ref: BulkJobRef, check: RowCheck, columns: Columns, row: CsvLine, index: number, entry: JournalEntry | undefined,
    context: RowContext, signal?: AbortSignal,
  ): Promise<RowLine> {
    const cells = cellsOf(row, this.options.csv);
    const byName: Record<string, string> = {};
    if (Array.isArray(cells)) for (const [name, i] of columns) byName[name] = cells[i] ?? '';
    const echoed = (name: string): string | undefined => (check.masked?.includes(name) ? masked(byName[name]) : byName[name]);
    const echo = [row.line, byName['reference'], ...check.required.map(echoed), ...check.optional.map(echoed)];
    const line = (outcome: RowOutcome, code: string, message: string | undefined, result: RowResult = {}): RowLine => ({
      outcome, line: csvLine([...echo, outcome, code, message, ...check.resultColumns.map((column) => result[column])]),
    });
    if (entry && !entry.inFlight) return { outcome: entry.outcome, line: entry.line };
    if (entry?.inFlight) return this.journalled(ref, index, line('interrupted', 'BULK_ROW_INTERRUPTED', serviceError('BULK_ROW_INTERRUPTED').message));
    if (!Array.isArray(cells)) return line('invalid', cells.code, cells.message);
    let input: unknown;
    try {
      input = check.parse(byName);
    } catch (error) {
      if (!isServiceError(error)) throw error;
      return line('invalid', error.code, error.message);
    }
    // The call's journal entry is written by `beforeCall`, right before the provider is asked (after the rate
    // limit let it go); a row answered from the cache or from another caller's flight makes no call and has none.
    let marked = false;
    const beforeCall = async (): Promise<void> => {
      if (check.upstream !== null) await this.options.limiter.acquire(check.upstream, signal);
      if (!check.paid || marked) return;
      // A marker already there means an earlier run of this job may have made the call.
      if (!(await this.options.store.markInFlight(ref, index))) throw serviceError('BULK_ROW_INTERRUPTED');
      marked = true;
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await check.check(input, { ...context, beforeCall });
        return await this.settle(ref, index, check, line('ok', 'OK', answer.message, answer.result));
      } catch (error) {
        if (signal?.aborted && !marked) throw error;
        if (!isServiceError(error) || error.code === 'SERVICE_UNAVAILABLE') throw error;
        if (error.code === 'TOO_MANY_REQUESTS' && attempt <= this.options.rateLimitRetries && !signal?.aborted) {
          // Refused before any work: not charged, so trying again is no repeat of a paid call.
          await sleep(retryAfterMs(error));
          continue;
        }
        // Another run's marker (or outcome) is in the journal: leave it there, report the row interrupted.
        if (error.code === 'BULK_ROW_INTERRUPTED' && !marked) return line('interrupted', error.code, error.message);
        return await this.settle(ref, index, check, line('error', error.code, error.message));
      }
    }
  }

  /** A paid row's outcome goes to the journal before the worker moves on; a free row's is simply redone after a crash. */
  private async settle(ref: BulkJobRef, index: number, check: RowCheck, row: RowLine): Promise<RowLine> {
    return check.paid ? this.journalled(ref, index, row) : row;
  }

  private async journalled(ref: BulkJobRef, index: number, row: RowLine): Promise<RowLine> {
    await this.options.store.recordRow(ref, index, row.outcome, row.line);
    return row;
  }

  /** The key of the upload (the copy taken at queueing, else the upload), or a ServiceError for a file over the limit. */
  private async inputKey(ref: BulkJobRef): Promise<string | ServiceError> {
    const { storage, maxUploadBytes } = this.options;
    for (const key of [bulkStorageKeys.frozenInput(ref), bulkStorageKeys.upload(ref)]) {
      const head = await storage.head(key);
      if (!head) continue;
      if (head.size > maxUploadBytes) return serviceError('PAYLOAD_TOO_LARGE', `${maxUploadBytes} bytes (the file is ${head.size} bytes)`);
      return key;
    }
    throw new Error(`The upload of bulk job ${ref.jobId} is not in storage`);
  }

  /**
   * The result file: the header, then every chunk's lines in order; and the summary file, rows by outcome, code
   * and message, most frequent first. The parts are deleted once both are written.
   */
  private async assemble(ref: BulkJobRef, check: RowCheck, chunks: number): Promise<void> {
    const { storage } = this.options;
    const outcomeColumn = 2 + check.required.length + check.optional.length;
    const tally = new Map<string, { cells: string[]; rows: number }>();
    async function* lines(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${csvLine(resultHeader(check))}\n`);
      for (let chunk = 0; chunk < chunks; chunk++) {
        const part = await readAll(await storage.get(bulkStorageKeys.part(ref, chunk)));
        for (const text of part.toString('utf8').split('\n')) {
          if (text === '') continue;
          const cells = parseCells(text);
          const key = Array.isArray(cells) ? cells.slice(outcomeColumn, outcomeColumn + 3) : ['', '', ''];
          const entry = tally.get(key.join('\u0000')) ?? { cells: key, rows: 0 };
          entry.rows += 1;
          tally.set(key.join('\u0000'), entry);
        }
        yield part;
      }
    }
    await storage.put(bulkStorageKeys.result(ref), Readable.from(lines()), { contentType: 'text/csv' });
    const summary = [...tally.values()].sort((a, b) => b.rows - a.rows || a.cells.join().localeCompare(b.cells.join()));
    const text = [csvLine(['outcome', 'code', 'message', 'rows']), ...summary.map(({ cells, rows }) => csvLine([...cells, rows]))].join('\n');
    await storage.put(bulkStorageKeys.summary(ref), `${text}\n`, { contentType: 'text/csv' });
    for (let chunk = 0; chunk < chunks; chunk++) await storage.delete(bulkStorageKeys.part(ref, chunk));
  }

  /** The file cannot be read as a whole: the job fails with the error's code and message (naming the limit broken). */
  private async fail(ref: BulkJobRef, error: ServiceError): Promise<Ended> {
    await this.end(ref, 'failed', { message: error.message, code: error.code });
    return { outcome: 'failed' };
  }

  /** Ends the job in its record, then tells `onEnded` (the webhook); a job ends once, so it is told once. */
  private async end(ref: BulkJobRef, to: 'succeeded' | 'failed', fields: Record<string, string>): Promise<BulkJobRecord> {
    const record = await this.options.store.transition(ref, to, this.options.clock.now(), fields);
    await this.options.onEnded?.(ref, record);
    return record;
  }

  private async failAfterError(ref: BulkJobRef, error: unknown): Promise<void> {
    this.options.logger.error('bulk job failed after its last attempt', { bulk_job: ref.jobId, error: (error as Error).message });
    try {
      await this.end(ref, 'failed', { message: BULK_FAILURES.processing });
    } catch (endError) {
      this.options.logger.error('could not mark the bulk job failed', { bulk_job: ref.jobId, error: (endError as Error).message });
    }
  }

  /**
   * A slice is done and another job waits: this one goes to the back of the queue (a delayed job is promoted to
   * the far end of the wait list), not counted as an attempt; the next run goes on from its committed chunks.
   */
  private async yieldLane(job: Job<BulkJobData>, token?: string): Promise<never> {
    await job.moveToDelayed(Date.now(), token);
    throw new DelayedError();
  }

  /** Shutdown ran out of time: the job goes back to the queue; its journal lets the next run go on from here. */
  private async handBack(job: Job<BulkJobData>, token?: string): Promise<never> {
    await job.moveToWait(token);
    throw new WaitingError();
  }
}

function retryAfterMs(error: ServiceError): number {
  const header = Object.entries(error.headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  const seconds = header === undefined ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 60_000) : 1_000;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Up to `count` more items of an iterator. */
async function take<T>(items: AsyncIterator<T>, count: number): Promise<T[]> {
  const taken: T[] = [];
  while (taken.length < count) {
    const next = await items.next();
    if (next.done) break;
    taken.push(next.value);
  }
  return taken;
}

export type { OutcomeCounts };
