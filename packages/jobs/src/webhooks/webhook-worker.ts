import { Worker, type Job } from 'bullmq';
import {
  logUnlessRedisUnavailable, silentLogger, systemClock, type Clock, type Logger, type Sealer, type RedisConnection,
} from '@satyapan/core';
import { WebhookSender, webhookBackoff, type DeliveryOutcome, type WebhookJobData, type WebhookOptions, type WebhookSource } from './delivery.js';

/** What the worker needs of a prom-client counter. */
export interface DeliveryCounter {
  inc(labels: { outcome: string }, value?: number): void;
}

export interface WebhookWorkerOptions extends WebhookOptions {
  /** A worker-flavour connection (`maxRetriesPerRequest: null`). */
  connection: RedisConnection;
  /** The family's webhook queue (`{statement-webhooks}`, `{bulk-webhooks}`) and BullMQ prefix. */
  queueName: string;
  bullPrefix: string;
  /** Where the sender finds each job's URL, sealed secret and body. */
  source: WebhookSource;
  sealer: Sealer;
  /** Deliveries in flight at once; default 10 (they mostly wait on the network). */
  concurrency?: number;
  clock?: Clock;
  logger?: Logger;
  /**
   * Where delivery attempts are counted by outcome (`delivered`, `skipped`, `failed`, `given_up`): the family's
   * counter (`satyapan_webhook_deliveries_total` for statements, `satyapan_bulk_webhook_deliveries_total`).
   */
  deliveries?: DeliveryCounter;
  /** `statement`, `bulk`: names the log lines. */
  family: string;
  /** This worker's name in BullMQ: the `processedBy` of the deliveries it takes. */
  name?: string;
  /** BullMQ lock and stall settings (defaults 30 s / 30 s): how soon a dead worker's delivery is tried again. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** A BullMQ worker on a webhook queue: one delivery job per finished job, retried for a day or more. */
export function createDeliveryWorker<T extends WebhookJobData = WebhookJobData>(options: WebhookWorkerOptions): Worker<T, DeliveryOutcome> {
  const logger = options.logger ?? silentLogger();
  const sender = new WebhookSender({ ...options, clock: options.clock ?? systemClock, logger });
  const worker = new Worker<T, DeliveryOutcome>(options.queueName, (job) => sender.deliver(job as unknown as Job<WebhookJobData>), {
    connection: options.connection,
    prefix: options.bullPrefix,
    concurrency: options.concurrency ?? 10,
    ...(options.name ? { name: options.name } : {}),
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
    settings: { backoffStrategy: (attemptsMade: number) => webhookBackoff(attemptsMade, options.retry) },
  });
  worker.on('error', logUnlessRedisUnavailable(logger, `${options.family} webhook worker error`));
  worker.on('failed', (job, error) => {
    const givenUp = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
    options.deliveries?.inc({ outcome: givenUp ? 'given_up' : 'failed' });
    if (givenUp) logger.error('webhook given up', { job_id: job.data.jobId, webhook_id: job.data.webhookId, error: error.message });
  });
  const { deliveries } = options;
  if (deliveries) worker.on('completed', (_job, result) => deliveries.inc({ outcome: result.delivered ? 'delivered' : 'skipped' }));
  return worker;
}
