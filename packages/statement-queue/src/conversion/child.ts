// Entry of a conversion child process: one request at a time from the pool, one reply per request, over the IPC
// channel. Whatever a workbook does to this process (a V8 fatal error, running out of heap, looping past the time
// limit) ends this process only; the worker that forked it reports the job and forks another.
import { runConversion } from './run.js';
import type { ConversionRequest } from './types.js';

const send = process.send?.bind(process);
if (!send) throw new Error('child.ts runs only as a forked conversion process');

process.on('message', (request: ConversionRequest) => {
  runConversion(request).then(
    (outcome) => send({ ok: true, outcome }),
    (error: unknown) => send({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
// The pool holds the other end; when the worker goes away, so does this process.
process.on('disconnect', () => process.exit(0));
// Messages sent before a listener exists are not kept: the pool waits for this before its first request.
send({ ready: true });
