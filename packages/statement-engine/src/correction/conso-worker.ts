// The worker thread of ConsoStreamInWorker (conso-in-worker.ts): reads a conso file with ConsoStream (cutting,
// checking, each deductee row kept as its line) and posts each challan, with its rows as plain data, as soon as
// it is complete, at most READ_AHEAD_CHALLANS ahead of what the correction has taken; then the statement
// without its challans (the other side has them). A challan's rows are let go once posted, so the worker never
// holds the file. A refusal travels as its code, line and message.

import { parentPort, workerData } from 'node:worker_threads';
import { ConsoFileError, StatementEngineError } from '../errors.js';
import type { LineLimits } from '../lines.js';
import { errorData, type ErrorData } from '../stream/thread-errors.js';
import { ConsoStream, type ConsoChallan, type ConsoExpectation, type ConsoStatement } from './conso.js';

export interface ConsoWorkerData {
  path: string;
  expected: ConsoExpectation;
  limits: LineLimits;
}

/** A conso deductee row as it crosses: ConsoDeductee without its layout (the other side has it). */
export interface DeducteeData {
  line: number;
  record: number;
  mode: string;
  panCounter: string;
  text: string;
}

export type ChallanData = Omit<ConsoChallan, 'deductees'> & { deductees: DeducteeData[] };

/** A refusal: a ConsoFileError or StatementEngineError by its code (and line), any other error as data. */
export type FailureData = { kind: 'conso'; code: string; line: number; message: string } | { kind: 'engine'; code: string; message: string } | { kind: 'other'; error: ErrorData };

export type ConsoWorkerMessage =
  | { type: 'started' }
  | { type: 'challan'; challan: ChallanData }
  | { type: 'end'; statement: Omit<ConsoStatement, 'challans'> }
  | { type: 'failed'; failure: FailureData };

/** Challans posted and not yet taken, at most. */
export const READ_AHEAD_CHALLANS = 4;

const port = parentPort!;
const { path, expected, limits } = workerData as ConsoWorkerData;
let credit = READ_AHEAD_CHALLANS;
let wake: (() => void) | null = null;
port.on('message', (message: 'taken') => {
  if (message === 'taken') credit++;
  wake?.();
  wake = null;
});

function failureOf(error: unknown): FailureData {
  if (error instanceof ConsoFileError) return { kind: 'conso', code: error.code, line: error.line, message: error.message };
  if (error instanceof StatementEngineError) return { kind: 'engine', code: error.code, message: error.message };
  return { kind: 'other', error: errorData(error) };
}

function post(message: ConsoWorkerMessage): void {
  port.postMessage(message);
}

async function run(stream: ConsoStream): Promise<void> {
  await stream.start();
  post({ type: 'started' });
  let challan: ConsoChallan | null;
  while ((challan = await stream.next())) {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit--;
    const deductees = challan.deductees.map(({ line, record, mode, panCounter, text }) => ({ line, record, mode, panCounter, text }));
    post({ type: 'challan', challan: { ...challan, deductees } });
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
  post({ type: 'failed', failure: failureOf(error) });
} finally {
  stream.close();
  port.close();
}
