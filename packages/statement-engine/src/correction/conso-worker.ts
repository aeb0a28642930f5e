// The worker thread of ConsoStreamInWorker (conso-in-worker.ts): reads a conso file with ConsoStream (cutting,
// checking, each deductee row kept as its line) and posts each challan, with its rows packed, as soon as
// it is complete, at most READ_AHEAD_CHALLANS ahead of what the correction has received; then the statement
// without its challans (the other side has them). A challan's rows are let go once posted, so the worker never
// holds the file. A refusal travels as its code, line and message (thread-errors.ts).

import { parentPort, workerData } from 'node:worker_threads';
import type { LineLimits } from '../lines.js';
import { errorData, type ErrorData } from '../stream/thread-errors.js';
import { PostCredit } from '../stream/worker-threads.js';
import { ConsoStream, type ConsoChallan, type ConsoDeductee, type ConsoExpectation, type ConsoStatement } from './conso.js';

export interface ConsoWorkerData {
  path: string;
  expected: ConsoExpectation;
  limits: LineLimits;
}

/**
 * A challan's deductee rows as they cross, packed: cloning a row object with its line string cost about as much
 * as comparing it (135 ms for 400,000 rows on the receiving side; 29 ms to cut strings from one buffer).
 */
export interface DeducteeRows {
  /** The rows' lines (latin1), each ended by a line feed; transferred, not copied. */
  text: Uint8Array;
  /** Line of the file and record number (DD 5) of each row (doubles: a record number may pass 2^31). */
  numbers: Float64Array;
  /** DD 6 of each row, one letter each. */
  modes: string;
  /** DD 32 of each row, each ended by a line feed. */
  counters: string;
}

export type ChallanData = Omit<ConsoChallan, 'deductees'> & { deductees: DeducteeRows };

export type ConsoWorkerMessage =
  | { type: 'started' }
  | { type: 'challan'; challan: ChallanData }
  | { type: 'end'; statement: Omit<ConsoStatement, 'challans'> }
  | { type: 'failed'; error: ErrorData };

/** Challans posted and not yet received, at most. */
export const READ_AHEAD_CHALLANS = 4;

const port = parentPort!;
const { path, expected, limits } = workerData as ConsoWorkerData;
// The other thread never says stop: it ends this worker.
const credit = new PostCredit(port, READ_AHEAD_CHALLANS);

function pack(rows: readonly ConsoDeductee[]): DeducteeRows {
  const numbers = new Float64Array(rows.length * 2);
  let text = '';
  let modes = '';
  let counters = '';
  rows.forEach((row, i) => {
    numbers[2 * i] = row.line;
    numbers[2 * i + 1] = row.record;
    text += `${row.text}\n`;
    modes += row.mode;
    counters += `${row.panCounter}\n`;
  });
  // Its own memory (not Buffer's shared pool), so it can be transferred.
  const bytes = new Uint8Array(text.length);
  Buffer.from(bytes.buffer).write(text, 'latin1');
  return { text: bytes, numbers, modes, counters };
}

function post(message: ConsoWorkerMessage): void {
  port.postMessage(message);
}

async function run(stream: ConsoStream): Promise<void> {
  await stream.start();
  post({ type: 'started' });
  let challan: ConsoChallan | null;
  while ((challan = await stream.next())) {
    await credit.take();
    const deductees = pack(challan.deductees);
    port.postMessage({ type: 'challan', challan: { ...challan, deductees } } satisfies ConsoWorkerMessage, [deductees.text.buffer as ArrayBuffer]);
    // Posted (cloned): the rows are the other side's now.
    challan.deductees = [];
  }
  const { challans: _challans, ...statement } = await stream.end();
  post({ type: 'end', statement });
}

const stream = new ConsoStream(path, expected, limits);
try {
  await run(stream);
} catch (error) {
  post({ type: 'failed', error: errorData(error) });
} finally {
  stream.close();
  port.close();
}
