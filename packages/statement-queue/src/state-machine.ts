import { JOB_STATUSES, type JobStatus } from './model.js';

/**
 * created -> queued -> in_progress -> succeeded | failed. `in_progress -> in_progress` is a new attempt after a
 * worker crashed or an infrastructure error was retried. Terminal states never change.
 */
const NEXT: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  created: ['queued'],
  queued: ['in_progress'],
  in_progress: ['in_progress', 'succeeded', 'failed'],
  succeeded: [],
  failed: [],
};

export function canMove(from: JobStatus, to: JobStatus): boolean {
  return NEXT[from].includes(to);
}

/** The states a job may be in to move to `to`. */
export function sourcesOf(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((from) => canMove(from, to));
}
