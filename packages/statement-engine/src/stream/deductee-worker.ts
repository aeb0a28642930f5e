// The worker thread of a WorkerDeducteeStore (worker-deductees.ts): replays the DD records' field calls from
// the tape on a SpilledDeducteeStore of its own, which writes their bytes, checks them against the layout and
// spills them, while the thread that started it reads and builds the next rows. When told to finish, it seals
// the store and answers with where each challan's records are and the self-check's first mismatch; when told
// to stop, or when it fails, it closes its file and ends all the same.

import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { deducteeCheckOf, type DeducteeLayoutKey, type FieldFailure } from '../layouts/field-check.js';
import { ABORT, FINISH, TapeReader, type TapeMemory } from './field-tape.js';
import { SpilledDeducteeStore, type DeducteeSpillIndex } from './spill.js';
import { errorData, type ErrorData } from './thread-errors.js';

export interface DeducteeWorkerData {
  memory: TapeMemory;
  /** The conversion's temporary directory. */
  dir: string;
  fieldCount: number;
  budget: number | undefined;
  layout: DeducteeLayoutKey;
}

export type DeducteeWorkerMessage =
  | { type: 'sealed'; index: DeducteeSpillIndex; failure: FieldFailure | null }
  | { type: 'stopped' }
  | { type: 'failed'; error: ErrorData };

async function run(tape: TapeReader, store: SpilledDeducteeStore, failure: () => FieldFailure | null): Promise<DeducteeWorkerMessage> {
  // A promise of Atomics.waitAsync does not keep a thread's event loop alive: this timer does, until the end.
  const alive = setInterval(() => undefined, 1 << 30);
  try {
    return await replayAll(tape, store, failure);
  } finally {
    clearInterval(alive);
  }
}

async function replayAll(tape: TapeReader, store: SpilledDeducteeStore, failure: () => FieldFailure | null): Promise<DeducteeWorkerMessage> {
  for (;;) {
    if (tape.replay()) continue;
    const command = tape.command();
    // FINISH is given after the last calls are published: one more replay() sees them all.
    if (command === FINISH && !tape.replay()) {
      store.seal();
      await store.settled();
      return { type: 'sealed', index: store.index(), failure: failure() };
    }
    if (command === ABORT) return { type: 'stopped' };
    await tape.published();
  }
}

async function main(data: DeducteeWorkerData): Promise<void> {
  let store: SpilledDeducteeStore | null = null;
  const tape = new TapeReader(data.memory, (challanRecord) => store!.record(challanRecord));
  let message: DeducteeWorkerMessage;
  try {
    const check = deducteeCheckOf(data.layout);
    store = new SpilledDeducteeStore({ file: (name) => join(data.dir, name) }, data.fieldCount, data.budget, check);
    message = await run(tape, store, () => check.failure);
  } catch (error) {
    tape.fail();
    message = { type: 'failed', error: errorData(error) };
  } finally {
    // Once its background writes are done (they keep this thread alive until then).
    store?.close();
  }
  parentPort!.postMessage(message);
}

await main(workerData as DeducteeWorkerData);
