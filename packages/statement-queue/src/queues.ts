import type { Queue } from 'bullmq';
import { silentLogger, type Logger, type RedisConnection } from '@satyapan/core';
import { createJobQueue, type JobRef, type JobRetryOptions, type WebhookJobData } from '@satyapan/jobs';
import type { StatementDomain } from './model.js';

// Queue names carry a hash tag so that all of a queue's BullMQ keys share one Redis Cluster slot.
export const STATEMENT_QUEUE = '{statements}';
export const WEBHOOK_QUEUE = '{statement-webhooks}';
export const CONVERT_JOB = 'convert';
export { DELIVER_JOB } from '@satyapan/jobs';

/** What a conversion job carries: references only, never workbook data or identities (BullMQ data is clear text). */
export interface ConvertJobData extends JobRef {
  domain: StatementDomain;
}

/** A statement job's delivery: the framework's data plus the domain its poll is answered under. */
export interface DeliveryJobData extends WebhookJobData {
  domain: StatementDomain;
}

/** Tries and backoff for infrastructure failures (storage, Redis, a crashed conversion thread); defaults 5 and 2 s. */
export type ConversionRetryOptions = JobRetryOptions;

/** Moved to core (shared with the bulk queue); re-exported for existing importers. */
export { watchQueueDepth } from '@satyapan/core';

export function createStatementQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<ConvertJobData> {
  return createJobQueue<ConvertJobData>(STATEMENT_QUEUE, connection, bullPrefix, logger, 'statement queue');
}

export function createWebhookQueue(connection: RedisConnection, bullPrefix: string, logger: Logger = silentLogger()): Queue<DeliveryJobData> {
  return createJobQueue<DeliveryJobData>(WEBHOOK_QUEUE, connection, bullPrefix, logger, 'webhook queue');
}
