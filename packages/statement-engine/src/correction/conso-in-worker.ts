// A large conso file read in a worker thread (conso-worker.ts) while the corrected workbook is converted on
// this one: the two take about as long, and the correction waits for both (issue 23). The statement and a
// refusal are those of readConso(): the same ConsoFileError or StatementEngineError, with its code and line.

import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { ConsoFileError, StatementEngineError, type ConsoErrorCode, type EngineErrorCode } from '../errors.js';
import type { InputLimits } from '../limits.js';
import { revive } from '../stream/thread-errors.js';
import { ConsoDeductee, type ConsoExpectation, type ConsoStatement } from './conso.js';
import type { ConsoWorkerData, ConsoWorkerFailure, ConsoWorkerMessage, PackedConso } from './conso-worker.js';

/**
 * The worker's script: built, the JavaScript next to this file; run from the TypeScript sources (the tests,
 * under tsx), a shim that first gives the worker the loader that runs them.
 */
const WORKER_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './conso-worker-source.mjs' : './conso-worker.js', import.meta.url);

/** Conso files from this size on are read in a worker by default: below it, starting a thread costs more than it saves. */
export const CONSO_WORKER_MIN_BYTES = 8 * 1024 * 1024;

function reviveError(error: ConsoWorkerFailure): Error {
  if (error.engineCode === undefined) return revive(error);
  if (error.consoLine === undefined) return new StatementEngineError(error.engineCode as EngineErrorCode, error.message);
  // ConsoFileError puts the line before the message it is given.
  const prefix = `conso file line ${error.consoLine}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new ConsoFileError(error.engineCode as ConsoErrorCode, error.consoLine, message);
}

function unpack(packed: PackedConso): ConsoStatement {
  const challans = packed.challans.map(({ rows, ...challan }) => {
    const texts = rows.texts === '' ? [] : rows.texts.split('\n');
    const modes = rows.modes.split('\n');
    const panCounters = rows.panCounters.split('\n');
    const deductees = texts.map((text, i) => new ConsoDeductee(rows.lines[i]!, rows.records[i]!, modes[i]!, panCounters[i]!, text));
    return { ...challan, deductees };
  });
  return { ...packed, challans };
}

/** readConso() of a conso file, in a worker thread. */
export async function readConsoInWorker(path: string, expected: ConsoExpectation, limits: InputLimits): Promise<ConsoStatement> {
  const workerData: ConsoWorkerData = { path, expected, limits };
  const worker = new Worker(WORKER_SCRIPT, { workerData });
  const exited = once(worker, 'exit');
  try {
    const answer = await new Promise<ConsoWorkerMessage>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the conso reader's worker ended (exit code ${code}) without an answer`)));
    });
    if (answer.type === 'failed') throw reviveError(answer.error);
    return unpack(answer.conso);
  } finally {
    await exited;
  }
}
