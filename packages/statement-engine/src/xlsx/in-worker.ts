// The .xlsx reader in a worker thread (reader-worker.ts), for a large workbook file: the thread that converts
// takes the Sheet JSON text as the worker makes it, so reading the workbook (inflating, tokenizing, rows made
// text) and converting the text run on two cores, as the JSON input's records are written on a second one.
// The conversion's report is the one it makes reading the .xlsx in its own thread (readXlsxInto): the reader's
// problems in the same order among the conversion's, with their cells; a refusal is the same StatementEngineError.

import type { InputLimits } from '../limits.js';
import { revive } from '../stream/thread-errors.js';
import { startWorker, WorkerInbox, type CreditMessage } from '../stream/worker-threads.js';
import { CellMap } from './read.js';
import type { ReaderWorkerData, ReaderWorkerMessage } from './reader-worker.js';

/** The Sheet JSON text of a workbook file (SheetJsonWriter of readXlsxInto()), read in a worker thread, as UTF-8 bytes. */
export function xlsxAsSheetJsonInWorker(path: string, limits: InputLimits): { text: AsyncIterable<Uint8Array>; cells: CellMap } {
  const cells = new CellMap();
  async function* text(): AsyncGenerator<Uint8Array> {
    const workerData: ReaderWorkerData = { path, limits };
    const worker = startWorker(import.meta.url, 'reader-worker', { workerData });
    const inbox = new WorkerInbox<ReaderWorkerMessage>(worker, "the .xlsx reader's worker");
    const tell = (message: CreditMessage) => worker.postMessage(message);
    let finished = false;
    try {
      for (;;) {
        const message = await inbox.take();
        if (message.type === 'failed') throw revive(message.error);
        if (message.type === 'done') {
          for (const [name, positions] of message.sheets) cells.sheets.set(name, positions);
          finished = true;
          return;
        }
        tell('taken');
        for (const part of message.parts) {
          for (const note of part.notes) cells.note(note);
          if (part.bytes.length > 0) yield part.bytes;
        }
      }
    } finally {
      // Stopped early (the conversion failed, or was given up): the worker closes the file and ends.
      if (!finished) tell('stop');
      await inbox.exited;
    }
  }
  return { text: text(), cells };
}
