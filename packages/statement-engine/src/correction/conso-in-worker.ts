// A conso file read in a worker thread (conso-worker.ts) while the correction compares: the same challans,
// statement and refusals as ConsoStream gives in this thread, the reading and checking of the file on the
// other core. A correction converts the workbook first (on both cores: the records are written in a worker
// thread) and then compares it with the conso file in one thread, while the other core is idle; reading the
// file there takes that work off the comparison.

import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { ConsoFileError, StatementEngineError, type ConsoErrorCode, type EngineErrorCode } from '../errors.js';
import type { LineLimits } from '../lines.js';
import { revive } from '../stream/thread-errors.js';
import { ConsoDeductee, deducteeLayoutFor, type ConsoChallan, type ConsoExpectation, type ConsoSource, type ConsoStatement } from './conso.js';
import type { DeducteeLayout } from './conso-fields.js';
import type { ConsoWorkerData, ConsoWorkerMessage, DeducteeRows, FailureData } from './conso-worker.js';

/**
 * The worker's script: built, the JavaScript next to this file; run from the TypeScript sources (the tests,
 * under tsx), a shim that first gives the worker the loader that runs them.
 */
const WORKER_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './conso-worker-source.mjs' : './conso-worker.js', import.meta.url);

function failure(data: FailureData): Error {
  if (data.kind === 'conso') return Object.assign(new ConsoFileError(data.code as ConsoErrorCode, data.line, ''), { message: data.message });
  if (data.kind === 'engine') return new StatementEngineError(data.code as EngineErrorCode, data.message);
  return revive(data.error);
}

export class ConsoStreamInWorker implements ConsoSource {
  private readonly worker: Worker;
  private readonly exited: Promise<unknown>;
  private readonly layout: DeducteeLayout;
  private readonly messages: ConsoWorkerMessage[] = [];
  private ended: Error | null = null;
  private wake: (() => void) | null = null;
  private started = false;
  /** Every challan received, in the file's order: the statement's challans, as next() gave them. */
  private readonly challans: ConsoChallan[] = [];
  private readonly ready: ConsoChallan[] = [];
  private statement: ConsoStatement | null = null;
  private failed: Error | null = null;

  constructor(path: string, expected: ConsoExpectation, limits: LineLimits) {
    this.layout = deducteeLayoutFor(expected);
    const workerData: ConsoWorkerData = { path, expected, limits };
    this.worker = new Worker(WORKER_SCRIPT, { workerData });
    this.exited = once(this.worker, 'exit');
    this.worker.on('message', (message: ConsoWorkerMessage) => {
      this.messages.push(message);
      this.signal();
    });
    this.worker.once('error', (error) => {
      this.ended ??= error;
      this.signal();
    });
    this.worker.once('exit', (code) => {
      this.ended ??= new Error(`the conso file's reader thread ended (exit code ${code}) without an answer`);
      this.signal();
    });
  }

  async start(): Promise<void> {
    while (!this.started && !this.statement) await this.receive();
  }

  get exhausted(): boolean {
    return this.statement !== null && this.ready.length === 0;
  }

  async next(): Promise<ConsoChallan | null> {
    while (this.ready.length === 0 && !this.statement) await this.receive();
    return this.ready.shift() ?? null;
  }

  async end(): Promise<ConsoStatement> {
    while (!this.statement) await this.receive();
    return this.statement;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }

  /** A challan's rows from the worker's packing: each line a flat string of its own. */
  private unpack(rows: DeducteeRows): ConsoDeductee[] {
    const text = Buffer.from(rows.text.buffer, rows.text.byteOffset, rows.text.byteLength);
    const counters = rows.counters.split('\n');
    const out = new Array<ConsoDeductee>(rows.modes.length);
    let start = 0;
    for (let i = 0; i < out.length; i++) {
      const end = text.indexOf(0x0a, start);
      out[i] = new ConsoDeductee(rows.numbers[2 * i]!, rows.numbers[2 * i + 1]!, rows.modes[i]!, counters[i]!, text.toString('latin1', start, end), this.layout);
      start = end + 1;
    }
    return out;
  }

  private signal(): void {
    this.wake?.();
    this.wake = null;
  }

  /** Takes the worker's next message (waiting for one); a refusal is thrown, every time it is asked again. */
  private async receive(): Promise<void> {
    if (this.failed) throw this.failed;
    let message = this.messages.shift();
    while (message === undefined) {
      if (this.ended) throw (this.failed = this.ended);
      await new Promise<void>((resolve) => (this.wake = resolve));
      message = this.messages.shift();
    }
    switch (message.type) {
      case 'started':
        this.started = true;
        return;
      case 'challan': {
        // Received, the worker may read on. Only next() and end() receive a challan: next() when it has none
        // left (so the worker stays at most READ_AHEAD_CHALLANS ahead of it), end() when the whole file is wanted.
        this.worker.postMessage('taken');
        const { deductees, ...rest } = message.challan;
        const challan: ConsoChallan = { ...rest, deductees: this.unpack(deductees) };
        this.challans.push(challan);
        this.ready.push(challan);
        return;
      }
      case 'end':
        this.statement = { ...message.statement, challans: this.challans };
        return;
      case 'failed':
        throw (this.failed = failure(message.failure));
    }
  }
}
