import type { Queue, Worker } from 'bullmq';
import type { ObjectStorage } from '@satyapan/core';
import { enqueueDelivery, recordWebhooks, type DeliveryOutcome, type WebhookRetryOptions, type WebhookSource } from '@satyapan/jobs';
import type { BulkJobRef } from './keys.js';
import type { BulkJobRecord } from './model.js';
import type { BulkDeliveryJobData } from './queue.js';
import { bulkWebhookSecretContext } from './sealing.js';
import type { BulkJobStore } from './store.js';
import { pollView } from './view.js';

export type BulkWebhookWorker = Worker<BulkDeliveryJobData, DeliveryOutcome>;

/** Queues the webhook of a bulk job that ended, when its client has a webhook URL (one delivery per job). */
export async function enqueueBulkWebhook(queue: Queue<BulkDeliveryJobData>, ref: BulkJobRef, record: BulkJobRecord, retry?: WebhookRetryOptions): Promise<void> {
  if (!record.webhookUrl) return;
  await enqueueDelivery(queue, ref, record.status, {}, retry);
}

/** A bulk job's webhook: its client's URL and sealed secret, and the job as its poll answers it now (fresh result URLs). */
export function bulkWebhooks(store: BulkJobStore, storage: ObjectStorage, downloadTtlSeconds: number): WebhookSource {
  return recordWebhooks((ref) => store.get(ref), (record) => ({
    url: record.webhookUrl, secretSealed: record.webhookSecretSealed, secretContext: bulkWebhookSecretContext(record.jobId),
    body: () => pollView(record, 0, storage, downloadTtlSeconds),
  }));
}
