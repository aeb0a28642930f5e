// DD records written in a worker thread: the building thread only records each record's field calls on a
// shared tape (field-tape.ts) and goes on reading rows, while the worker (deductee-worker.ts) writes the
// bytes, checks them against the layout and spills them, as SpilledDeducteeStore does in one thread. Once
// sealed, the records are read back here from the worker's file, and the self-check's first mismatch is
// taken over by this thread's check, which raises it when the TXT is written, as before.

import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import type { FieldWriter } from '../records/field-writer.js';
import type { DeducteeLayoutKey, RecordFieldCheck } from '../layouts/field-check.js';
import type { DeducteeWorkerData, DeducteeWorkerMessage } from './deductee-worker.js';
import { errorData, revive } from './thread-errors.js';
import { startWorker } from './worker-threads.js';
import { ABORT, FINISH, TapeWriter, tapeMemory } from './field-tape.js';
import { DEDUCTEE_SPILL_FILE, DeducteeSpillReader, type DeducteeSpill, type SpillDirectory } from './spill.js';

const WORKER_YOUNG_GENERATION_MB = 4;

export class WorkerDeducteeStore implements DeducteeSpill {
  private readonly tape: TapeWriter;
  private readonly worker: Worker;
  /** The worker's answer: sealed, stopped or failed (a worker that ends without answering has failed). */
  private readonly answer: Promise<DeducteeWorkerMessage>;
  private readonly exited: Promise<unknown>;
  private reader: DeducteeSpillReader | null = null;
  private running = true;

  /**
   * @param check this thread's check of the same layout: it takes over the worker's first mismatch
   */
  constructor(
    private readonly dir: SpillDirectory,
    fieldCount: number,
    private readonly budget: number | undefined,
    layout: DeducteeLayoutKey,
    private readonly check: RecordFieldCheck,
  ) {
    const memory = tapeMemory();
    this.tape = new TapeWriter(memory);
    const workerData: DeducteeWorkerData = { memory, dir: dir.path, fieldCount, budget, layout };
    // Its garbage is short-lived (the texts of each record): a small young generation keeps it from adding
    // tens of MiB to the peak RSS (issue 13: at most 1.5x the input), at no measurable cost in time.
    this.worker = startWorker(import.meta.url, 'deductee-worker', { workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    this.exited = once(this.worker, 'exit');
    this.answer = new Promise((resolve) => {
      this.worker.once('message', resolve);
      // An error the worker could not catch (it could not start, say), or an end without an answer.
      this.worker.once('error', (error) => resolve({ type: 'failed', error: errorData(error) }));
      this.worker.once('exit', (code) => resolve({ type: 'failed', error: errorData(new Error(`the deductee worker ended (exit code ${code}) without an answer`)) }));
    });
  }

  record(challanRecord: number): FieldWriter {
    return this.tape.record(challanRecord);
  }

  seal(): void {
    this.tape.command(FINISH);
  }

  /** Waits for the worker to write the last records and end; then they can be read back. */
  async settled(): Promise<void> {
    const answer = await this.ended();
    if (answer.type === 'failed') throw revive(answer.error);
    if (answer.type !== 'sealed') throw new Error('the deductee worker stopped before it was sealed');
    // The worker's check saw every field; this thread's check raises what it found when the TXT is written.
    this.check.failure = answer.failure;
    this.reader = DeducteeSpillReader.open(this.dir.file(DEDUCTEE_SPILL_FILE), answer.index, this.budget);
  }

  private async ended(): Promise<DeducteeWorkerMessage> {
    const answer = await this.answer;
    await this.exited;
    this.running = false;
    return answer;
  }

  raw(challanRecord: number): Iterable<Buffer> {
    return this.reader!.raw(challanRecord);
  }

  bodies(challanRecord: number): Iterable<string> {
    return this.reader!.bodies(challanRecord);
  }

  close(): void {
    this.reader?.close();
    this.reader = null;
    if (this.running) this.tape.command(ABORT);
  }

  async abandon(): Promise<Error | null> {
    this.close();
    if (!this.running) return null;
    const answer = await this.ended();
    return answer.type === 'failed' ? revive(answer.error) : null;
  }
}
