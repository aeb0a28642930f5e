import type { Queue } from 'bullmq';
import { silentLogger, type Logger, type RedisConnection } from '@satyapan/core';
import { createJobQueue, type JobRetryOptions, type WebhookJobData } from '@satyapan/jobs';
import type { BulkJobRef } from './keys.js';

// Queue names carry a hash tag so that all of a queue's BullMQ keys share one Redis Cluster slot.
export const BULK_QUEUE = '{bulk}';
export const BULK_WEBHOOK_QUEUE = '{bulk-webhooks}';
export const RUN_JOB = 'run';

/** What a queued bulk job carries: references only, never rows (BullMQ data is clear text). */
export type BulkJobData = BulkJobRef;

/** A bulk job's webhook delivery: the framework's data as it is. */
export type BulkDeliveryJobData = WebhookJobData;

/** Tries for infrastructure failures (storage, Redis), default 5, from a 2 s backoff; a run picks up where the last one stopped. */
export type BulkRetryOptions = JobRetryOptions;

export function createBulkQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<BulkJobData> {
  return createJobQueue<BulkJobData>(BULK_QUEUE, connection, bullPrefix, logger, 'bulk queue');
}

export function createBulkWebhookQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<BulkDeliveryJobData> {
  return createJobQueue<BulkDeliveryJobData>(BULK_WEBHOOK_QUEUE, connection, bullPrefix, logger, 'bulk webhook queue');
}
