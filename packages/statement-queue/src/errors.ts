import type { JobStatus } from './model.js';

/** Failures inside the statement queue that are not caller errors; `code` is stable for operators and tests. */
export class StatementQueueError extends Error {
  override readonly name: string = 'StatementQueueError';
  constructor(readonly code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A status change the state machine does not allow (e.g. a second upload moving a queued job again). */
export class IllegalTransitionError extends StatementQueueError {
  override readonly name = 'IllegalTransitionError';
  constructor(readonly jobId: string, readonly from: JobStatus, readonly to: JobStatus) {
    super('ILLEGAL_TRANSITION', `Job ${jobId} cannot move from ${from} to ${to}`);
  }
}

export class JobMissingError extends StatementQueueError {
  override readonly name = 'JobMissingError';
  constructor(readonly jobId: string) {
    super('JOB_MISSING', `Job ${jobId} does not exist`);
  }
}
