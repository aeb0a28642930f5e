import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker as Thread } from 'node:worker_threads';
import { StatementQueueError } from '../errors.js';
import { runConversion } from './run.js';
import { reportToXlsx } from './report-xlsx.js';
import type { ConversionOutcome, ConversionReport, ConversionRequest, Converter } from './types.js';

interface Reply {
  ok: boolean;
  outcome?: ConversionOutcome;
  error?: string;
}

/** Why a conversion did not come back: an infrastructure failure, retried like any other. */
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
 * Conversions in worker threads, so a workbook of a million rows keeps a CPU busy without stalling the event loop
 * that renews BullMQ locks and serves other jobs. Threads are kept between jobs; one that crashes or is stopped
 * (shutdown, abort) is replaced by a fresh one on the next job.
 */
export class ThreadConverter implements Converter {
  private readonly idle: Thread[] = [];
  private readonly busy = new Set<Thread>();
  private closed = false;

  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (this.closed) throw new ConversionCrashedError('The converter is closed');
    if (signal?.aborted) throw new ConversionAbortedError();
    const thread = this.idle.pop() ?? spawnThread();
    this.busy.add(thread);
    return new Promise<ConversionOutcome>((resolve, reject) => {
      const cleanup = (): void => {
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        this.busy.delete(thread);
      };
      const discard = (): void => {
        cleanup();
        void thread.terminate();
      };
      const onMessage = (reply: Reply): void => {
        cleanup();
        if (this.closed) void thread.terminate();
        else this.idle.push(thread);
        if (reply.ok && reply.outcome) resolve(reply.outcome);
        else reject(new ConversionCrashedError(reply.error ?? 'The conversion failed'));
      };
      const onError = (error: Error): void => {
        discard();
        reject(new ConversionCrashedError(`The conversion thread failed: ${error.message}`));
      };
      const onExit = (code: number): void => {
        cleanup();
        reject(new ConversionCrashedError(`The conversion thread exited with code ${code}`));
      };
      const onAbort = (): void => {
        discard();
        reject(new ConversionAbortedError());
      };
      thread.on('message', onMessage);
      thread.once('error', onError);
      thread.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      thread.postMessage(request);
    });
  }

  /** Small reports (written by the worker itself) do not need a thread. */
  reportXlsx(report: ConversionReport): Promise<Uint8Array> {
    return reportToXlsx(report);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle.splice(0), ...this.busy].map((thread) => thread.terminate()));
  }
}

/** Runs conversions on the calling thread: for hosts that do not want threads, and for comparison in benchmarks. */
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

/**
 * From the built package the thread runs `thread.js` next to this file. From TypeScript sources (tests, benches
 * under tsx) a thread does not inherit tsx's loader, so it registers tsx first and then loads `thread.ts`.
 */
function spawnThread(): Thread {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Thread(new URL('./thread.js', here));
  const entry = new URL('./thread.ts', here).href;
  const tsx = tsxEsmApi(here);
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return new Thread(bootstrap, { eval: true });
}

/** URL of tsx's ESM register API, found through its package.json (works whether this file runs as ESM or CJS). */
function tsxEsmApi(from: string): string {
  const manifestPath = createRequire(from).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const api = manifest.exports['./esm/api'];
  if (!api) throw new Error('tsx has no ./esm/api export');
  return pathToFileURL(join(dirname(manifestPath), api.import.default)).href;
}
