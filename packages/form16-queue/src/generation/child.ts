// Entry of a Form 16 generation child process: one job's PDFs at a time, asked and answered over the IPC channel.
// Whatever a workbook does to this process (a V8 fatal error, running out of heap, looping past the time limit)
// ends this process only; the worker that forked it fails the job and forks another.
import { serveRequests } from '@satyapan/jobs';
import { generateForm16s } from './run.js';
import type { GenerationOutcome, GenerationRequest } from './types.js';

serveRequests<GenerationRequest, GenerationOutcome>(generateForm16s);
