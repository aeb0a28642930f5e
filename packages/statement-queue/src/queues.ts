import { Queue, type JobsOptions } from 'bullmq';
import { logUnlessRedisUnavailable, silentLogger, type Logger, type RedisConnection } from '@satyapan/core';
import type { JobRef } from './keys.js';
import type { JobStatus, StatementDomain } from './model.js';

// Queue names carry a hash tag so that all of a queue's BullMQ keys share one Redis Cluster slot.
export const STATEMENT_QUEUE = '{statements}';
export const WEBHOOK_QUEUE = '{statement-webhooks}';
export const CONVERT_JOB = 'convert';
export const DELIVER_JOB = 'deliver';

/** What a conversion job carries: references only, never workbook data or identities (BullMQ data is clear text). */
export interface ConvertJobData extends JobRef {
  domain: StatementDomain;
}

export interface DeliveryJobData extends JobRef {
  domain: StatementDomain;
  status: JobStatus;
  /** The Standard Webhooks message id, the same on every try. */
  webhookId: string;
}

export interface ConversionRetryOptions {
  /** Tries for infrastructure failures (storage, Redis, a crashed conversion thread); default 5. */
  attempts?: number;
  /** First backoff in ms, doubled on each try; default 2000. */
  backoffMs?: number;
}

export function conversionJobOptions(jobId: string, retry: ConversionRetryOptions = {}): JobsOptions {
  return {
    jobId,
    attempts: retry.attempts ?? 5,
    backoff: { type: 'exponential', delay: retry.backoffMs ?? 2_000 },
    // BullMQ ids dedupe only while the job exists: keep finished jobs a week (the records outlive them).
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

export function webhookId(ref: JobRef): string {
  // Standard Webhooks ids must not contain '.'; a job ends once, so its id names the message.
  return `msg_${ref.jobId}`;
}

/** Moved to core (shared with the bulk queue); re-exported for existing importers. */
export { watchQueueDepth } from '@satyapan/core';

/** Every queue gets an error listener: BullMQ prints an unheard error with its stack trace. */
export function createStatementQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<ConvertJobData> {
  const queue = new Queue<ConvertJobData>(STATEMENT_QUEUE, { connection, prefix: bullPrefix });
  queue.on('error', logUnlessRedisUnavailable(logger, 'statement queue error'));
  return queue;
}

export function createWebhookQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<DeliveryJobData> {
  const queue = new Queue<DeliveryJobData>(WEBHOOK_QUEUE, { connection, prefix: bullPrefix });
  queue.on('error', logUnlessRedisUnavailable(logger, 'webhook queue error'));
  return queue;
}
