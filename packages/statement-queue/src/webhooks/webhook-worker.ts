import { Worker } from 'bullmq';
import {
  logUnlessRedisUnavailable, silentLogger, systemClock, type Clock, type Logger, type ObjectStorage, type SatyapanMetrics, type Sealer, type RedisConnection,
} from '@satyapan/core';
import { JobStore } from '../job-store.js';
import { StatementKeys } from '../keys.js';
import { WEBHOOK_QUEUE, type DeliveryJobData } from '../queues.js';
import { DEFAULTS } from '../defaults.js';
import { WebhookSender, webhookBackoff, type DeliveryOutcome, type WebhookOptions } from './delivery.js';

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
  /** BullMQ lock and stall settings (defaults 30 s / 30 s): how soon a dead worker's delivery is tried again. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** A BullMQ worker on the webhook queue: one delivery job per finished statement job, retried for a day or more. */
export function createWebhookWorker(options: WebhookWorkerOptions): Worker<DeliveryJobData, DeliveryOutcome> {
  const keys = new StatementKeys(options.keyPrefix);
  const logger = options.logger ?? silentLogger();
  const sender = new WebhookSender({
    ...options,
    store: new JobStore(options.connection, keys, options.metrics),
    clock: options.clock ?? systemClock,
    logger,
    downloadTtlSeconds: options.downloadTtlSeconds ?? DEFAULTS.downloadTtlSeconds,
  });
  const worker = new Worker<DeliveryJobData, DeliveryOutcome>(WEBHOOK_QUEUE, (job) => sender.deliver(job), {
    connection: options.connection,
    prefix: keys.bullPrefix,
    concurrency: options.concurrency ?? 10,
    ...(options.name ? { name: options.name } : {}),
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
    settings: { backoffStrategy: (attemptsMade: number) => webhookBackoff(attemptsMade, options.retry) },
  });
  worker.on('error', logUnlessRedisUnavailable(logger, 'webhook worker error'));
  worker.on('failed', (job, error) => {
    const givenUp = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
    options.metrics?.webhookDeliveries.inc({ outcome: givenUp ? 'given_up' : 'failed' });
    if (givenUp) logger.error('webhook given up', { job_id: job.data.jobId, webhook_id: job.data.webhookId, error: error.message });
  });
  if (options.metrics) {
    const { webhookDeliveries } = options.metrics;
    worker.on('completed', (_job, result) => webhookDeliveries.inc({ outcome: result.delivered ? 'delivered' : 'skipped' }));
  }
  return worker;
}

