// The worker thread of xlsxAsSheetJsonInWorker (in-worker.ts): reads the .xlsx (inflating, tokenizing, the
// rows made Sheet JSON text) and posts the text, as UTF-8 bytes, piece by piece to the thread that converts
// it, with the reader's own problems found before each piece; at most READ_AHEAD_PIECES pieces ahead of what
// that thread has taken, so memory stays that of a few pieces. At the end it posts where the blocks of each
// worksheet are (to name the cells of problems); when told to stop, it closes the file and ends.

import { parentPort, workerData } from 'node:worker_threads';
import type { InputLimits } from '../limits.js';
import { errorData, type ErrorData } from '../stream/thread-errors.js';
import { xlsxAsSheetJson, type ReaderProblem, type SheetPositions } from './read.js';

export interface ReaderWorkerData {
  path: string;
  limits: InputLimits;
}

export type ReaderWorkerMessage =
  | { type: 'text'; bytes: Uint8Array; notes: ReaderProblem[] }
  | { type: 'done'; sheets: Array<[string, SheetPositions]>; notes: ReaderProblem[] }
  | { type: 'failed'; error: ErrorData & { engineCode?: string } };

/** Pieces posted and not yet taken, at most. */
export const READ_AHEAD_PIECES = 8;

const port = parentPort!;
const { path, limits } = workerData as ReaderWorkerData;
let credit = READ_AHEAD_PIECES;
let stopped = false;
let wake: (() => void) | null = null;
port.on('message', (message: 'taken' | 'stop') => {
  if (message === 'taken') credit++;
  else stopped = true;
  wake?.();
  wake = null;
});

async function run(): Promise<void> {
  const { text, cells } = xlsxAsSheetJson(path, { limits });
  let notes: ReaderProblem[] = [];
  cells.reportTo({ add: (code, place, message) => notes.push({ code, place: place as ReaderProblem['place'], message }) });
  const encoder = new TextEncoder();
  for await (const piece of text) {
    while (credit === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
    // Leaving the loop ends the reading: the zip is closed.
    if (stopped) return;
    credit--;
    // Its own memory (not Buffer's shared pool), so it can be handed over rather than copied.
    const bytes = encoder.encode(piece);
    post({ type: 'text', bytes, notes }, [bytes.buffer as ArrayBuffer]);
    notes = [];
  }
  post({ type: 'done', sheets: [...cells.sheets], notes });
}

function post(message: ReaderWorkerMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

try {
  await run();
} catch (error) {
  const code = (error as { code?: unknown }).code;
  post({ type: 'failed', error: { ...errorData(error), ...(error instanceof Error && error.name === 'StatementEngineError' && typeof code === 'string' ? { engineCode: code } : {}) } });
} finally {
  port.close();
}
