// The worker thread of readConsoInWorker (conso-in-worker.ts): reads a conso file with readConso() and posts
// the statement back packed, each challan's rows as one text (cloning one string per challan costs far less
// than cloning an object per row); a refusal is posted as the error's data.

import { parentPort, workerData } from 'node:worker_threads';
import type { InputLimits } from '../limits.js';
import { errorData, type ErrorData } from '../stream/thread-errors.js';
import { readConso, type ConsoChallan, type ConsoExpectation, type ConsoStatement } from './conso.js';

export interface ConsoWorkerData {
  path: string;
  expected: ConsoExpectation;
  limits: InputLimits;
}

/** A challan's rows, packed: their texts, modes and PAN counters joined by LF (none holds one), and their numbers. */
export interface PackedRows {
  texts: string;
  modes: string;
  panCounters: string;
  lines: Float64Array;
  records: Float64Array;
}

export type PackedConso = Omit<ConsoStatement, 'challans'> & { challans: Array<Omit<ConsoChallan, 'deductees'> & { rows: PackedRows }> };

/** A refusal: a StatementEngineError (ConsoFileError with its line) is made again with its code. */
export type ConsoWorkerFailure = ErrorData & { engineCode?: string; consoLine?: number };

export type ConsoWorkerMessage = { type: 'done'; conso: PackedConso } | { type: 'failed'; error: ConsoWorkerFailure };

function pack(statement: ConsoStatement): PackedConso {
  const challans = statement.challans.map(({ deductees, ...challan }) => ({
    ...challan,
    rows: {
      texts: deductees.map((d) => d.text).join('\n'),
      modes: deductees.map((d) => d.mode).join('\n'),
      panCounters: deductees.map((d) => d.panCounter).join('\n'),
      lines: Float64Array.from(deductees, (d) => d.line),
      records: Float64Array.from(deductees, (d) => d.record),
    },
  }));
  return { ...statement, challans };
}

const port = parentPort!;
const { path, expected, limits } = workerData as ConsoWorkerData;
try {
  const conso = pack(await readConso(path, expected, limits));
  const transfer = conso.challans.flatMap((c) => [c.rows.lines.buffer as ArrayBuffer, c.rows.records.buffer as ArrayBuffer]);
  port.postMessage({ type: 'done', conso } satisfies ConsoWorkerMessage, transfer);
} catch (error) {
  const e = error as { name?: unknown; code?: unknown; line?: unknown };
  const failure: ConsoWorkerFailure = { ...errorData(error) };
  if ((e.name === 'StatementEngineError' || e.name === 'ConsoFileError') && typeof e.code === 'string') failure.engineCode = e.code;
  if (e.name === 'ConsoFileError' && typeof e.line === 'number') failure.consoLine = e.line;
  port.postMessage({ type: 'failed', error: failure } satisfies ConsoWorkerMessage);
} finally {
  port.close();
}
