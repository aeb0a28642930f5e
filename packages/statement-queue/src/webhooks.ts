import type { Queue, Worker } from 'bullmq';
import type { Clock, Logger, ObjectStorage, RedisConnection, SatyapanMetrics, Sealer } from '@satyapan/core';
import {
  createDeliveryWorker, enqueueDelivery, recordWebhooks,
  type DeliveryOutcome, type WebhookOptions, type WebhookRetryOptions, type WebhookSource,
} from '@satyapan/jobs';
import { DEFAULTS } from './defaults.js';
import { JobStore } from './job-store.js';
import { StatementKeys, type JobRef } from './keys.js';
import type { JobRecord } from './model.js';
import { WEBHOOK_QUEUE, type DeliveryJobData } from './queues.js';
import { webhookSecretContext } from './sealing.js';
import { pollView } from './view.js';

/** Queues the webhook of a statement job that reached a final state, when its client has a webhook URL. */
export async function enqueueWebhook(queue: Queue<DeliveryJobData>, record: JobRecord, ref: JobRef, retry?: WebhookRetryOptions): Promise<void> {
  if (!record.webhookUrl) return;
  await enqueueDelivery(queue, ref, record.status, { domain: record.domain }, retry);
}

/** A statement job's webhook: its client's URL and sealed secret, and the job as its poll answers it now. */
export function statementWebhooks(store: JobStore, storage: ObjectStorage, downloadTtlSeconds: number): WebhookSource {
  return recordWebhooks((ref) => store.get(ref), (record) => ({
    url: record.webhookUrl, secretSealed: record.webhookSecretSealed, secretContext: webhookSecretContext(record.jobId),
    body: () => pollView(record, { storage, downloadTtlSeconds }),
  }));
}

export interface WebhookWorkerOptions extends WebhookOptions {
  /** A worker-flavour connection (`maxRetriesPerRequest: null`). */
  connection: RedisConnection;
  storage: ObjectStorage;
  sealer: Sealer;
  keyPrefix?: string;
  /** Deliveries in flight at once; default 10 (they mostly wait on the network). */
  concurrency?: number;
  downloadTtlSeconds?: number;
  clock?: Clock;
  logger?: Logger;
  /** Where delivery attempts are counted by outcome (`satyapan_webhook_deliveries_total`). */
  metrics?: SatyapanMetrics;
  /** This worker's name in BullMQ: the `processedBy` of the deliveries it takes. */
  name?: string;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** The framework's delivery worker on the statement webhook queue: one delivery per finished statement job. */
export function createWebhookWorker(options: WebhookWorkerOptions): Worker<DeliveryJobData, DeliveryOutcome> {
  const keys = new StatementKeys(options.keyPrefix);
  const store = new JobStore(options.connection, keys, options.metrics);
  return createDeliveryWorker<DeliveryJobData>({
    ...options,
    queueName: WEBHOOK_QUEUE,
    bullPrefix: keys.bullPrefix,
    family: 'statement',
    source: statementWebhooks(store, options.storage, options.downloadTtlSeconds ?? DEFAULTS.downloadTtlSeconds),
    ...(options.metrics ? { deliveries: options.metrics.webhookDeliveries } : {}),
  });
}
