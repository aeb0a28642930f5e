// A conso file read in a worker thread (conso-worker.ts) while the correction compares: the same challans,
// statement and refusals as ConsoStream gives in this thread, the reading and checking of the file on the
// other core. A correction converts the workbook first (on both cores: the records are written in a worker
// thread) and then compares it with the conso file in one thread, while the other core is idle; reading the
// file there takes that work off the comparison.

import type { Worker } from 'node:worker_threads';
import type { LineLimits } from '../lines.js';
import { revive } from '../stream/thread-errors.js';
import { startWorker, WorkerInbox, type CreditMessage } from '../stream/worker-threads.js';
import { ConsoDeductee, deducteeLayoutFor, type ConsoChallan, type ConsoExpectation, type ConsoSource, type ConsoStatement } from './conso.js';
import type { DeducteeLayout } from './conso-fields.js';
import type { ConsoWorkerData, ConsoWorkerMessage, DeducteeRows } from './conso-worker.js';

export class ConsoStreamInWorker implements ConsoSource {
  private readonly worker: Worker;
  private readonly inbox: WorkerInbox<ConsoWorkerMessage>;
  private readonly layout: DeducteeLayout;
  private started = false;
  /** Every challan received, in the file's order: the statement's challans, as next() gave them. */
  private readonly challans: ConsoChallan[] = [];
  private readonly ready: ConsoChallan[] = [];
  private statement: ConsoStatement | null = null;
  private failed: Error | null = null;

  constructor(path: string, expected: ConsoExpectation, limits: LineLimits) {
    this.layout = deducteeLayoutFor(expected);
    const workerData: ConsoWorkerData = { path, expected, limits };
    this.worker = startWorker(import.meta.url, 'conso-worker', { workerData });
    this.inbox = new WorkerInbox(this.worker, "the conso file's reader thread");
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
    await this.inbox.exited;
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

  /** Takes the worker's next message (waiting for one); a refusal is thrown, every time it is asked again. */
  private async receive(): Promise<void> {
    if (this.failed) throw this.failed;
    let message: ConsoWorkerMessage;
    try {
      message = await this.inbox.take();
    } catch (error) {
      throw (this.failed = error as Error);
    }
    switch (message.type) {
      case 'started':
        this.started = true;
        return;
      case 'challan': {
        // Received, the worker may read on. Only next() and end() receive a challan: next() when it has none
        // left (so the worker stays at most READ_AHEAD_CHALLANS ahead of it), end() when the whole file is wanted.
        this.worker.postMessage('taken' satisfies CreditMessage);
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
        throw (this.failed = revive(message.error));
    }
  }
}
