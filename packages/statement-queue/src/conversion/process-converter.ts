import { ChildProcessPool, type ChildLimits } from '@satyapan/jobs';
import { StatementQueueError } from '../errors.js';
import { runConversion } from './run.js';
import { reportToXlsx } from './report-xlsx.js';
import type { ConversionOutcome, ConversionReport, ConversionRequest, Converter } from './types.js';

/**
 * How much one conversion may take before it is ended; each is named in the report of a job that passed it:
 * `timeoutMs`, the wall time of the engine run (not the downloads and uploads around it), and `memoryMb`, the
 * conversion process's V8 heap limit and the resident size it is ended at.
 */
export type ConversionLimits = ChildLimits;

/**
 * Ten minutes is 100x the conversion of the 1M-row bench workbook on a 2-core machine; 1.5 GiB is 8x its peak
 * resident size. A real statement never comes near either; a crafted file meets one of them, not the OOM killer.
 */
export const DEFAULT_CONVERSION_LIMITS: ConversionLimits = { timeoutMs: 10 * 60_000, memoryMb: 1536 };

/** Why a conversion did not come back and may succeed on another try: an infrastructure failure, retried. */
export class ConversionCrashedError extends StatementQueueError {
  override readonly name = 'ConversionCrashedError';
  constructor(message: string) {
    super('CONVERSION_CRASHED', message);
  }
}

export class ConversionAbortedError extends StatementQueueError {
  override readonly name = 'ConversionAbortedError';
  constructor() {
    super('CONVERSION_ABORTED', 'The conversion was stopped');
  }
}

/**
 * The conversion process ended on its input: past a limit, or killed by what it read. The same input would end it
 * again, so the job fails at once with this reason (`CONVERSION_LIMIT`) and is never retried.
 */
export class ConversionLimitError extends StatementQueueError {
  override readonly name = 'ConversionLimitError';
  constructor(message: string) {
    super('CONVERSION_LIMIT', message);
  }
}

/**
 * Conversions in child processes (`child.ts`), one at a time each, through the job framework's
 * {@link ChildProcessPool}: a workbook of a million rows keeps a CPU busy without stalling the event loop that
 * renews BullMQ locks, and a crafted workbook that exhausts memory, trips a V8 fatal error or never ends takes down
 * only its own process. Processes are kept between jobs; one that dies, runs past its limits or is stopped
 * (shutdown, abort) is replaced at once when `warm()` keeps a count, else by the next job.
 */
export class ProcessConverter implements Converter {
  private readonly pool: ChildProcessPool<ConversionRequest, ConversionOutcome>;
  private closed = false;

  constructor(limits: Partial<ConversionLimits> = {}) {
    this.pool = new ChildProcessPool({
      entry: { from: import.meta.url, name: './child' },
      noun: 'conversion',
      limits: { ...DEFAULT_CONVERSION_LIMITS, ...limits },
      errors: {
        limit: (message) => new ConversionLimitError(message),
        crashed: (message) => new ConversionCrashedError(message),
        aborted: () => new ConversionAbortedError(),
      },
    });
  }

  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (this.closed) throw new ConversionCrashedError('The converter is closed');
    return this.pool.run(request, signal);
  }

  /**
   * Keeps `count` processes started (idle, busy or starting), so that no conversion waits for Node to start and
   * load the engine: the first ones, and the one after a process was ended. Resolves once they listen (never rejects).
   */
  warm(count = 1): Promise<void> {
    return this.pool.warm(count);
  }

  /** Small reports (written by the worker itself) do not need a process. */
  reportXlsx(report: ConversionReport): Promise<Uint8Array> {
    return reportToXlsx(report);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close();
  }
}

/** Runs conversions on the calling thread: for hosts that do not want processes, and for comparison in benchmarks. */
export class InlineConverter implements Converter {
  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (signal?.aborted) throw new ConversionAbortedError();
    return runConversion(request);
  }

  reportXlsx(report: ConversionReport): Promise<Uint8Array> {
    return reportToXlsx(report);
  }

  async close(): Promise<void> {}
}
