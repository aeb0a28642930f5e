import { Queue, type JobsOptions } from 'bullmq';
import { logUnlessRedisUnavailable, silentLogger, type Logger, type RedisConnection } from '@satyapan/core';
import type { BulkJobRef } from './keys.js';

// The queue name carries a hash tag so that all of the queue's BullMQ keys share one Redis Cluster slot.
export const BULK_QUEUE = '{bulk}';
export const RUN_JOB = 'run';

/** What a queued bulk job carries: references only, never rows (BullMQ data is clear text). */
export type BulkJobData = BulkJobRef;

export interface BulkRetryOptions {
  /** Tries for infrastructure failures (storage, Redis); default 5. A run picks up where the last one stopped. */
  attempts?: number;
  /** First backoff in ms, doubled on each try; default 2000. */
  backoffMs?: number;
}

export function bulkJobOptions(jobId: string, retry: BulkRetryOptions = {}): JobsOptions {
  return {
    jobId,
    attempts: retry.attempts ?? 5,
    backoff: { type: 'exponential', delay: retry.backoffMs ?? 2_000 },
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

export function createBulkQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<BulkJobData> {
  const queue = new Queue<BulkJobData>(BULK_QUEUE, { connection, prefix: bullPrefix });
  queue.on('error', logUnlessRedisUnavailable(logger, 'bulk queue error'));
  return queue;
}
