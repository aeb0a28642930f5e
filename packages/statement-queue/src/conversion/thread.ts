// Entry of a conversion thread: one request at a time from the pool, one reply per request.
import { parentPort } from 'node:worker_threads';
import { runConversion } from './run.js';
import type { ConversionRequest } from './types.js';

const port = parentPort;
if (!port) throw new Error('thread.ts runs only as a worker thread');

port.on('message', (request: ConversionRequest) => {
  runConversion(request).then(
    (outcome) => port.postMessage({ ok: true, outcome }, outcome.reportXlsx ? [outcome.reportXlsx.buffer as ArrayBuffer] : []),
    (error: unknown) => port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
