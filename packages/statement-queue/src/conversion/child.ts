// Entry of a conversion child process: one request at a time from the pool, one reply per request, over the IPC
// channel. Whatever a workbook does to this process (a V8 fatal error, running out of heap, looping past the time
// limit) ends this process only; the worker that forked it reports the job and forks another.
import { serveRequests } from '@satyapan/jobs';
import { runConversion } from './run.js';
import type { ConversionOutcome, ConversionRequest } from './types.js';

serveRequests<ConversionRequest, ConversionOutcome>(runConversion);
