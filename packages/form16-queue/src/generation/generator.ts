import { ChildProcessPool, type ChildLimits } from '@satyapan/jobs';
import { generateForm16s } from './run.js';
import type { GenerationOutcome, GenerationRequest } from './types.js';

/**
 * How much one job's generation (workbook read, PDFs made and signed; not the downloads and the zip around it)
 * may take: `timeoutMs` of wall time, `memoryMb` of the generation process (its V8 heap limit and the resident
 * size it is ended at).
 */
export type GenerationLimits = ChildLimits;

/**
 * Sized for 10,000 employees signed, the largest employer the bench makes: 10,000 unsigned took 255 s in one
 * makeForm16s() job and 158 s as a Form 16 job on this project's 2-core machine at load average 5 (`npm run bench
 * -- form16 --employees 10000 --signed 0 --job 10000 --signed-job 0`), the whole bench process peaking at 585 MB
 * resident; a signature per PDF adds to the time, little to the memory. An hour is some 14x that time and 2 GiB
 * 3.5x that peak: room for signing, a slower or busier machine and a larger workbook, while a crafted workbook
 * meets one of them instead of the OOM killer or a worker stalled for ever.
 */
export const DEFAULT_GENERATION_LIMITS: GenerationLimits = { timeoutMs: 60 * 60_000, memoryMb: 2048 };

/**
 * The generation process ended on its input: past a limit, or killed by what it read. The same input would end it
 * again, so the job fails at once with this reason (`CONVERSION_LIMIT`, as statement jobs) and is never retried.
 */
export class GenerationLimitError extends Error {
  override readonly name = 'GenerationLimitError';
  readonly code = 'CONVERSION_LIMIT';
}

/** The generation did not come back and may on another try (its process did not start, or failed): retried. */
export class GenerationCrashedError extends Error {
  override readonly name = 'GenerationCrashedError';
  readonly code = 'CONVERSION_CRASHED';
}

/** Makes one job's Form 16s: `process` in a child process of the worker, `inline` on the calling thread. */
export interface Form16Generator {
  /** An abort (a worker's shutdown out of time) stops the generation: its process is killed. */
  generate(request: GenerationRequest, signal?: AbortSignal): Promise<GenerationOutcome>;
  close(): Promise<void>;
}

/** On the calling thread, with no limits: for a processor built without a worker (and comparisons). */
export const inlineGenerator: Form16Generator = { generate: generateForm16s, close: async () => {} };

/**
 * Each job's generation in a child process (`child.ts`) through the job framework's {@link ChildProcessPool}:
 * a workbook that exhausts memory, trips a V8 fatal error or never ends takes down only that process, the job
 * fails with `CONVERSION_LIMIT` naming the limit, and the worker goes on with the next job. Processes are kept
 * between jobs; `warm()` starts them ahead.
 */
export class ProcessGenerator implements Form16Generator {
  private readonly pool: ChildProcessPool<GenerationRequest, GenerationOutcome>;

  constructor(limits: Partial<GenerationLimits> = {}) {
    this.pool = new ChildProcessPool({
      entry: { from: import.meta.url, name: './child' },
      noun: 'Form 16 generation',
      limits: { ...DEFAULT_GENERATION_LIMITS, ...limits },
      errors: {
        limit: (message) => new GenerationLimitError(message),
        crashed: (message) => new GenerationCrashedError(message),
        aborted: () => new GenerationCrashedError('The Form 16 generation was stopped'),
      },
    });
  }

  generate(request: GenerationRequest, signal?: AbortSignal): Promise<GenerationOutcome> {
    return this.pool.run(request, signal);
  }

  warm(count = 1): Promise<void> {
    return this.pool.warm(count);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
