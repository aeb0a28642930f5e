import { Queue, type JobsOptions } from 'bullmq';
import { logUnlessRedisUnavailable, silentLogger, type Logger, type RedisConnection } from '@satyapan/core';

export interface JobRetryOptions {
  /** Tries for infrastructure failures (storage, Redis, a crashed conversion); default 5. */
  attempts?: number;
  /** First backoff in ms, doubled on each try; default 2000. */
  backoffMs?: number;
}

/** BullMQ options of a family's work job: the job id is the BullMQ id, so adding it twice adds it once. */
export function jobOptions(jobId: string, retry: JobRetryOptions = {}): JobsOptions {
  return {
    jobId,
    attempts: retry.attempts ?? 5,
    backoff: { type: 'exponential', delay: retry.backoffMs ?? 2_000 },
    // BullMQ ids dedupe only while the job exists: keep finished jobs a week (the records outlive them).
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

/**
 * A queue with an error listener (BullMQ prints an unheard error with its stack trace). Queue names carry a
 * hash tag (`{statements}`) so that all of a queue's BullMQ keys share one Redis Cluster slot.
 */
export function createJobQueue<T>(name: string, connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger(), label = name): Queue<T> {
  const queue = new Queue<T>(name, { connection, prefix: bullPrefix });
  queue.on('error', logUnlessRedisUnavailable(logger, `${label} error`));
  return queue;
}
