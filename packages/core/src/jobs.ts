// What every job queue of ours shares (statement jobs, bulk verification jobs): the job lifecycle, the shape of
// sorted-set replies, periodic sweeps and the bounded shutdown of a BullMQ worker. Moved here from
// @satyapan/statement-queue so that each queue package uses one copy.
import { sha256Hex } from './crypto.js';
import type { Logger } from './logger.js';
import type { SatyapanMetrics } from './metrics.js';

/** A job id as we mint them (randomUUID); checked before any key or storage path is built from one. */
export const JOB_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The owner segment of a client's job keys and storage paths (see jobOwnerOf). */
export const JOB_OWNER_PATTERN = /^[0-9a-f]{24}$/;

/**
 * The owner of a client's jobs of one family (`statement`, `bulk`): a hash of the client id, so client ids of any
 * shape make safe key and path segments, and one family's owner says nothing of another's.
 */
export function jobOwnerOf(family: string, clientId: string): string {
  return sha256Hex(`${family}-owner:${clientId}`).slice(0, 24);
}

/** created -> queued -> in_progress -> succeeded | failed. */
export type JobStatus = 'created' | 'queued' | 'in_progress' | 'succeeded' | 'failed';
export const JOB_STATUSES: readonly JobStatus[] = ['created', 'queued', 'in_progress', 'succeeded', 'failed'];

/**
 * `in_progress -> in_progress` is a new attempt after a worker crashed or an infrastructure error was retried.
 * Terminal states never change.
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

export function isTerminal(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed';
}

/**
 * `WITHSCORES` answers are flat (`[member, score, ...]`) over RESP2 and pairs (`[[member, score], ...]`) over
 * RESP3; ioredis 6 may speak either. Both become entries here.
 */
export function scoredEntries(reply: unknown): Array<{ member: string; score: number }> {
  const items = reply as unknown[];
  if (items.length > 0 && Array.isArray(items[0])) {
    return (items as Array<[string, string | number]>).map(([member, score]) => ({ member, score: Number(score) }));
  }
  const entries: Array<{ member: string; score: number }> = [];
  for (let i = 0; i < items.length; i += 2) entries.push({ member: String(items[i]), score: Number(items[i + 1]) });
  return entries;
}

/**
 * Runs `task` every `intervalMs` (one run at a time; the timer is unref'd), logging failures under `name`;
 * `now` runs it at once too. An interval of 0 or less turns it off. `stop()` waits for a run in progress.
 */
export function repeatEvery(intervalMs: number, task: () => Promise<unknown>, logger: Logger, name: string, { now = false } = {}): { stop(): Promise<void> } {
  if (intervalMs <= 0) return { stop: async () => {} };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = (): void => {
    running = task()
      .then(() => undefined, (error: unknown) => {
        logger.warn(`${name} failed`, { error: (error as Error).message });
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  timer = setTimeout(tick, now ? 0 : intervalMs).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** What {@link closeWithin} needs of a BullMQ Worker (core does not depend on BullMQ). */
export interface ClosableWorker {
  close(): Promise<void>;
  cancelAllJobs(reason?: string): void;
}

/** Waits for running jobs; when time is up, aborts them (processors hand their jobs back) and finishes closing. */
export async function closeWithin(worker: ClosableWorker, timeoutMs: number): Promise<void> {
  const closing = worker.close();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  if ((await Promise.race([closing, timedOut])) === 'timeout') {
    worker.cancelAllJobs('shutdown');
    await closing;
  }
  clearTimeout(timer);
}

/** What {@link watchQueueDepth} needs of a BullMQ Queue. */
export interface CountableQueue {
  readonly name: string;
  getJobCounts(...states: string[]): Promise<Record<string, number>>;
}

/** The BullMQ states that make a queue's depth; finished jobs are kept for a while and counted too. */
const DEPTH_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;

/** Reports the queue's jobs by state (`satyapan_queue_jobs`) at each scrape of `metrics`, when given. */
export function watchQueueDepth(metrics: SatyapanMetrics | undefined, queue: CountableQueue): void {
  metrics?.watchQueue(queue.name, () => queue.getJobCounts(...DEPTH_STATES));
}
