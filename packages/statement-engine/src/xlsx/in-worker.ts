// The .xlsx reader in a worker thread (reader-worker.ts), for a large workbook file: the thread that converts
// takes the Sheet JSON text as the worker makes it, so reading the workbook (inflating, tokenizing, rows made
// text) and converting the text run on two cores, as the JSON input's records are written on a second one.
// The conversion's report is the one it makes reading the .xlsx in its own thread (readXlsxInto): the reader's
// problems in the same order among the conversion's, with their cells; a refusal is the same StatementEngineError.

import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { StatementEngineError, type EngineErrorCode } from '../errors.js';
import type { InputLimits } from '../limits.js';
import { revive, type ErrorData } from '../stream/thread-errors.js';
import { CellMap } from './read.js';
import type { ReaderWorkerData, ReaderWorkerMessage } from './reader-worker.js';

/**
 * The worker's script: built, the JavaScript next to this file; run from the TypeScript sources (the tests,
 * under tsx), a shim that first gives the worker the loader that runs them.
 */
const WORKER_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './reader-worker-source.mjs' : './reader-worker.js', import.meta.url);

/** The worker's error as this thread's: a StatementEngineError again with its code. */
function reviveError(error: ErrorData & { engineCode?: string }): Error {
  return error.engineCode === undefined ? revive(error) : new StatementEngineError(error.engineCode as EngineErrorCode, error.message);
}

/** The Sheet JSON text of a workbook file (SheetJsonWriter of readXlsxInto()), read in a worker thread, as UTF-8 bytes. */
export function xlsxAsSheetJsonInWorker(path: string, limits: InputLimits): { text: AsyncIterable<Uint8Array>; cells: CellMap } {
  const cells = new CellMap();
  async function* text(): AsyncGenerator<Uint8Array> {
    const workerData: ReaderWorkerData = { path, limits };
    const worker = new Worker(WORKER_SCRIPT, { workerData });
    const exited = once(worker, 'exit');
    const messages: ReaderWorkerMessage[] = [];
    let ended: Error | null = null;
    let wake: (() => void) | null = null;
    const signal = () => {
      wake?.();
      wake = null;
    };
    worker.on('message', (message: ReaderWorkerMessage) => {
      messages.push(message);
      signal();
    });
    worker.once('error', (error) => {
      ended ??= error;
      signal();
    });
    worker.once('exit', (code) => {
      ended ??= new Error(`the .xlsx reader's worker ended (exit code ${code}) without an answer`);
      signal();
    });
    let finished = false;
    try {
      for (;;) {
        const message = messages.shift();
        if (message === undefined) {
          if (ended) throw ended;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (message.type === 'failed') throw reviveError(message.error);
        if (message.type === 'done') {
          for (const [name, positions] of message.sheets) cells.sheets.set(name, positions);
          finished = true;
          return;
        }
        worker.postMessage('taken');
        for (const part of message.parts) {
          for (const note of part.notes) cells.note(note);
          if (part.bytes.length > 0) yield part.bytes;
        }
      }
    } finally {
      // Stopped early (the conversion failed, or was given up): the worker closes the file and ends.
      if (!finished) worker.postMessage('stop');
      await exited;
    }
  }
  return { text: text(), cells };
}
