import { Worker, type Queue } from 'bullmq';
import {
  logUnlessRedisUnavailable, repeatEvery, watchQueueDepth,
  type Clock, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics, type Sealer,
} from '@satyapan/core';
import { createDeliveryWorker, settleAbandonedJobs, workerBasics, workerHandle, type JobWorkerHandle, type WebhookOptions } from '@satyapan/jobs';
import { BULK_DEFAULTS } from './defaults.js';
import { BulkDispatcher } from './dispatch.js';
import { BulkFairness } from './fairness.js';
import { BulkKeys } from './keys.js';
import type { RowCheckRegistry } from './kinds.js';
import { BULK_QUEUE, BULK_WEBHOOK_QUEUE, createBulkQueue, createBulkWebhookQueue, type BulkDeliveryJobData, type BulkJobData, type BulkRetryOptions } from './queue.js';
import { UpstreamRateLimiter } from './rate-limit.js';
import { BulkRetention } from './retention.js';
import { BulkRunner, type BulkRunResult } from './runner.js';
import { BulkJobStore } from './store.js';
import { bulkWebhooks, enqueueBulkWebhook, type BulkWebhookWorker } from './webhooks.js';

export interface BulkWorkerOptions {
  /** A worker-flavour connection (`createRedisConnection({ flavour: 'worker' })`). */
  connection: RedisConnection;
  storage: ObjectStorage;
  /** Same keys as the service's: it opens the API keys the service sealed. */
  sealer: Sealer;
  /** The row checks, as the service has them (with their providers configured in this process). */
  registry: RowCheckRegistry;
  keyPrefix?: string;
  /**
   * Calls per second to each upstream (`penny_drop`, `penny_less`, `pan_verification`), shared by every worker on
   * the Redis; over `BULK_DEFAULTS.rateLimits` (penny drop 5/s, penny-less and PAN 10/s); `Infinity` turns one off.
   */
  rateLimits?: Readonly<Record<string, number>>;
  /** Jobs at once in this process; default 1. */
  concurrency?: number;
  /** Rows checked at once within a job; default 8. */
  rowConcurrency?: number;
  /** Rows per committed chunk; default 100. */
  chunkSize?: number;
  maxUploadBytes?: number;
  maxRows?: number;
  /** CSV limits (docs/OPERATIONS.md "Limits"): header columns (64), characters per cell (1,024), bytes per line (65,536). */
  maxColumns?: number;
  maxCellLength?: number;
  maxLineBytes?: number;
  /** Round robin: chunks (default 10) or ms (default 30 s) a job runs before a waiting job gets the lane. */
  sliceChunks?: number;
  sliceMs?: number;
  /** The per-client row budget, as the service has it (default 1,000,000 rows per 24 h). */
  rowBudget?: number;
  rowBudgetWindowHours?: number;
  uploadTtlSeconds?: number;
  rateLimitRetries?: number;
  retry?: BulkRetryOptions;
  clock?: Clock;
  logger?: Logger;
  metrics?: SatyapanMetrics;
  /** BullMQ lock and stall settings (defaults 30 s / 30 s / 10): a job is safe to resume, so stalls are allowed often. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  /** How often to look for uploads to queue; default 5 s, 0 turns it off. */
  sweepIntervalMs?: number;
  /** How often to delete jobs past retention; default 1 h, 0 turns it off. */
  retentionIntervalMs?: number;
  /**
   * Webhooks of ended jobs to their clients' URLs (Standard Webhooks, signed as statement webhooks are), or
   * `false` to neither queue nor send them from this process.
   */
  webhooks?: WebhookOptions | false;
  /** Validity of `result_url` and `summary_url` in a webhook's body; default 1 h. */
  downloadTtlSeconds?: number;
}

/** The framework's worker handle (@satyapan/jobs JobWorkerHandle): a running job stops between rows on close. */
export interface BulkWorker extends JobWorkerHandle {
  readonly worker: Worker<BulkJobData, BulkRunResult>;
  /** Deliveries of ended jobs' webhooks; null when `webhooks: false`. */
  readonly webhookWorker: BulkWebhookWorker | null;
}

/** The bulk worker: jobs from the queue, the upload sweep and retention. */
export function createBulkWorker(options: BulkWorkerOptions): BulkWorker {
  const keys = new BulkKeys(options.keyPrefix);
  const { logger, clock, store } = workerBasics(options, (connection, metrics) => new BulkJobStore(connection, keys, metrics));
  const queue = createBulkQueue(options.connection, keys.bullPrefix, logger);
  const fairness = new BulkFairness(options.connection, keys, {
    maxJobsPerClient: BULK_DEFAULTS.maxJobsPerClient,
    rowBudget: options.rowBudget ?? BULK_DEFAULTS.rowBudget,
    rowBudgetWindowHours: options.rowBudgetWindowHours ?? BULK_DEFAULTS.rowBudgetWindowHours,
  });
  const webhookQueue: Queue<BulkDeliveryJobData> | null = options.webhooks === false ? null : createBulkWebhookQueue(options.connection, keys.bullPrefix, logger);
  const webhookRetry = options.webhooks ? options.webhooks.retry : undefined;
  const runner = new BulkRunner({
    ...(webhookQueue ? { onEnded: (ref, record) => enqueueBulkWebhook(webhookQueue, ref, record, webhookRetry) } : {}),
    store, storage: options.storage, registry: options.registry, sealer: options.sealer, clock, logger, fairness,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    limiter: new UpstreamRateLimiter(options.connection, keys, { ...BULK_DEFAULTS.rateLimits, ...options.rateLimits }),
    chunkSize: options.chunkSize ?? BULK_DEFAULTS.chunkSize,
    rowConcurrency: options.rowConcurrency ?? BULK_DEFAULTS.rowConcurrency,
    maxUploadBytes: options.maxUploadBytes ?? BULK_DEFAULTS.maxUploadBytes,
    maxRows: options.maxRows ?? BULK_DEFAULTS.maxRows,
    csv: {
      maxColumns: options.maxColumns ?? BULK_DEFAULTS.maxColumns,
      maxCellLength: options.maxCellLength ?? BULK_DEFAULTS.maxCellLength,
      maxLineBytes: options.maxLineBytes ?? BULK_DEFAULTS.maxLineBytes,
    },
    rateLimitRetries: options.rateLimitRetries ?? BULK_DEFAULTS.rateLimitRetries,
    sliceChunks: options.sliceChunks ?? BULK_DEFAULTS.sliceChunks,
    sliceMs: options.sliceMs ?? BULK_DEFAULTS.sliceMs,
    // A job that gave up its lane waits among the delayed until a worker next takes a job: count it as waiting.
    othersWaiting: async () => (await queue.getJobCountByTypes('wait', 'prioritized', 'delayed')) > 0,
  });
  const worker = new Worker<BulkJobData, BulkRunResult>(BULK_QUEUE, (job, token, signal) => runner.process(job, token, signal), {
    connection: options.connection,
    prefix: keys.bullPrefix,
    concurrency: options.concurrency ?? 1,
    maxStalledCount: options.maxStalledCount ?? 10,
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
  });
  worker.on('error', logUnlessRedisUnavailable(logger, 'bulk worker error'));
  const abandoned = settleAbandonedJobs({
    connection: options.connection, queueName: BULK_QUEUE, bullPrefix: keys.bullPrefix, label: 'bulk', logger,
    settle: (ref, reason) => runner.failAbandoned(ref, reason),
  });
  watchQueueDepth(options.metrics, queue);
  if (webhookQueue) watchQueueDepth(options.metrics, webhookQueue);
  const webhookWorker = options.webhooks === false ? null : createDeliveryWorker<BulkDeliveryJobData>({
    ...options.webhooks, connection: options.connection, queueName: BULK_WEBHOOK_QUEUE, bullPrefix: keys.bullPrefix, family: 'bulk',
    source: bulkWebhooks(store, options.storage, options.downloadTtlSeconds ?? BULK_DEFAULTS.downloadTtlSeconds),
    sealer: options.sealer, clock, logger,
    ...(options.metrics ? { deliveries: options.metrics.bulkWebhookDeliveries } : {}),
    ...(options.lockDurationMs ? { lockDurationMs: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledIntervalMs: options.stalledIntervalMs } : {}),
  });
  const dispatcher = new BulkDispatcher({
    redis: options.connection, storage: options.storage, store, keys, queue, clock, logger, fairness,
    uploadTtlSeconds: options.uploadTtlSeconds ?? BULK_DEFAULTS.uploadTtlSeconds,
    maxUploadBytes: options.maxUploadBytes ?? BULK_DEFAULTS.maxUploadBytes,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const retention = new BulkRetention(options.connection, options.storage, store, keys, clock);
  const loops = [
    repeatEvery(options.sweepIntervalMs ?? 5_000, () => dispatcher.sweep(500), logger, 'bulk upload sweep'),
    repeatEvery(options.retentionIntervalMs ?? 3_600_000, () => retention.purge(500), logger, 'bulk retention purge'),
  ];
  const handle = workerHandle({
    connection: options.connection, workers: [worker, webhookWorker], abandoned,
    stop: loops.map((loop) => () => loop.stop()),
    release: [() => queue.close(), async () => webhookQueue?.close()],
  });
  return { worker, webhookWorker, ...handle };
}
