// What the engine's worker threads share (the deductee writer, the .xlsx reader, the conso reader): how a worker
// is started from the built JavaScript or the TypeScript sources, the messages a thread takes from its worker
// in order, and the credit a worker posts against, so it stays a bounded number of messages ahead.

import { Worker, type MessagePort, type WorkerOptions } from 'node:worker_threads';
import { once } from 'node:events';

/**
 * Starts the worker whose module is `name` (without extension) next to the module `from` (its import.meta.url):
 * built, the JavaScript; run from the TypeScript sources (the tests, under tsx), through ts-worker.mjs, which
 * first gives the worker the loader that runs them.
 */
export function startWorker(from: string, name: string, options: WorkerOptions): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, from), options);
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), { ...options, argv: [new URL(`./${name}.ts`, from).href] });
}

/**
 * The messages of a worker, taken one at a time in the order it posted them. Once they are all taken, the
 * worker's uncaught error, or its end without a last answer, is thrown (`what` names the worker in that message).
 */
export class WorkerInbox<M> {
  /** Resolves once the worker has ended. */
  readonly exited: Promise<unknown>;
  private readonly messages: M[] = [];
  private ended: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(worker: Worker, what: string) {
    this.exited = once(worker, 'exit');
    worker.on('message', (message: M) => {
      this.messages.push(message);
      this.signal();
    });
    worker.once('error', (error) => {
      this.ended ??= error;
      this.signal();
    });
    worker.once('exit', (code) => {
      this.ended ??= new Error(`${what} ended (exit code ${code}) without an answer`);
      this.signal();
    });
  }

  async take(): Promise<M> {
    for (;;) {
      const message = this.messages.shift();
      if (message !== undefined) return message;
      if (this.ended) throw this.ended;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private signal(): void {
    this.wake?.();
    this.wake = null;
  }
}

/** What the thread that takes a worker's messages tells it: one more may be posted, or stop. */
export type CreditMessage = 'taken' | 'stop';

/**
 * In a worker: the messages it may post ahead of what the other thread has taken (each `'taken'` gives one
 * back), so its memory stays that of a few messages; `'stop'` ends the waiting.
 */
export class PostCredit {
  private left: number;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(port: MessagePort, ahead: number) {
    this.left = ahead;
    port.on('message', (message: CreditMessage) => {
      if (message === 'taken') this.left++;
      else this.stopped = true;
      this.wake?.();
      this.wake = null;
    });
  }

  /** Waits until a message may be posted and counts it: false once told to stop. */
  async take(): Promise<boolean> {
    while (this.left === 0 && !this.stopped) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.stopped) return false;
    this.left--;
    return true;
  }
}
