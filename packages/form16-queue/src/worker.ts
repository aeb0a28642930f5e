import { Worker, type Queue } from 'bullmq';
import {
  logUnlessRedisUnavailable, repeatEvery, watchQueueDepth,
  type Clock, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics, type Sealer,
} from '@satyapan/core';
import {
  createDeliveryWorker, createJobQueue, enqueueDelivery, recordWebhooks, settleAbandonedJobs, workerBasics, workerHandle,
  type DeliveryOutcome, type JobRef, type JobRetryOptions, type JobWorkerHandle, type WebhookJobData, type WebhookOptions,
} from '@satyapan/jobs';
import { FORM16_DEFAULTS } from './defaults.js';
import { FORM16_QUEUE, FORM16_WEBHOOK_QUEUE, form16Dispatcher } from './dispatch.js';
import { ProcessGenerator, type GenerationLimits } from './generation/generator.js';
import { Form16Keys } from './keys.js';
import { Form16Processor, type Form16RunResult } from './processor.js';
import { form16Retention } from './retention.js';
import { form16WebhookSecretContext } from './sealing.js';
import { Form16JobStore } from './store.js';
import { pollView } from './view.js';

export interface Form16WorkerOptions {
  /** A worker-flavour connection (`createRedisConnection({ flavour: 'worker' })`). */
  connection: RedisConnection;
  storage: ObjectStorage;
  /** Same keys as the service's: it opens the certificate passwords and webhook secrets the service sealed. */
  sealer: Sealer;
  keyPrefix?: string;
  /** Jobs at once in this process; default 1 (a job is CPU-bound: a PDF, and its signature, at a time). */
  concurrency?: number;
  /** Parent of each job's scratch folder; default the OS temp directory. */
  tmpDir?: string;
  /**
   * Wall time and memory of one job's generation (workbook read, PDFs made and signed), which runs in a child
   * process of this worker; defaults in DEFAULT_GENERATION_LIMITS (60 min, 2048 MB). A job past one fails with
   * `CONVERSION_LIMIT` naming it, and is not retried.
   */
  generationLimits?: Partial<GenerationLimits>;
  clock?: Clock;
  logger?: Logger;
  metrics?: SatyapanMetrics;
  uploadTtlSeconds?: number;
  maxUploadBytes?: number;
  downloadTtlSeconds?: number;
  retry?: JobRetryOptions;
  /** Webhooks of ended jobs, or `false` to neither queue nor send them from this process. */
  webhooks?: WebhookOptions | false;
  /** BullMQ lock and stall settings (defaults 30 s / 30 s / 1). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  /** How often to look for uploads to queue; default 5 s, 0 turns it off. */
  sweepIntervalMs?: number;
  /** How often to delete jobs past retention; default 1 h, 0 turns it off. */
  retentionIntervalMs?: number;
}

export interface Form16Worker extends JobWorkerHandle {
  readonly worker: Worker<JobRef, Form16RunResult>;
  readonly webhookWorker: Worker<WebhookJobData, DeliveryOutcome> | null;
}

/** The Form 16 worker: jobs from the `{form16}` queue, their webhooks, the upload sweep and retention. */
export function createForm16Worker(options: Form16WorkerOptions): Form16Worker {
  const keys = new Form16Keys(options.keyPrefix);
  const { logger, clock, store } = workerBasics(options, (connection, metrics) => new Form16JobStore(connection, keys, metrics));
  const downloadTtlSeconds = options.downloadTtlSeconds ?? FORM16_DEFAULTS.downloadTtlSeconds;
  const webhookQueue: Queue<WebhookJobData> | null = options.webhooks === false ? null : createJobQueue<WebhookJobData>(FORM16_WEBHOOK_QUEUE, options.connection, keys.bullPrefix, logger, 'form16 webhook queue');
  const webhookRetry = options.webhooks ? options.webhooks.retry : undefined;
  const generator = new ProcessGenerator(options.generationLimits);
  // A process per job lane, started with the worker (ready() waits for them).
  const warming = generator.warm(options.concurrency ?? 1);
  const processor = new Form16Processor({
    store, storage: options.storage, sealer: options.sealer, clock, logger, generator, ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
    ...(webhookQueue ? { onEnded: async (ref: JobRef, record) => { if (record.webhookUrl) await enqueueDelivery(webhookQueue, ref, record.status, {}, webhookRetry); } } : {}),
  });
  const worker = new Worker<JobRef, Form16RunResult>(FORM16_QUEUE, (job, token, signal) => processor.process(job, token, signal), {
    connection: options.connection, prefix: keys.bullPrefix, concurrency: options.concurrency ?? 1,
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
    ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
  });
  worker.on('error', logUnlessRedisUnavailable(logger, 'form16 worker error'));
  const abandoned = settleAbandonedJobs({
    connection: options.connection, queueName: FORM16_QUEUE, bullPrefix: keys.bullPrefix, label: 'form16', logger,
    settle: (ref, reason) => processor.failAbandoned(ref, reason),
  });
  const webhookWorker = options.webhooks === false ? null : createDeliveryWorker({
    ...options.webhooks, connection: options.connection, queueName: FORM16_WEBHOOK_QUEUE, bullPrefix: keys.bullPrefix, family: 'form16',
    source: recordWebhooks((ref) => store.get(ref), (record) => ({
      url: record.webhookUrl, secretSealed: record.webhookSecretSealed, secretContext: form16WebhookSecretContext(record.jobId),
      body: () => pollView(record, options.storage, downloadTtlSeconds),
    })),
    sealer: options.sealer, clock, logger,
  });
  const queue = createJobQueue<JobRef>(FORM16_QUEUE, options.connection, keys.bullPrefix, logger, 'form16 queue');
  watchQueueDepth(options.metrics, queue);
  const dispatcher = form16Dispatcher({
    redis: options.connection, storage: options.storage, store, keys, queue, clock, logger,
    uploadTtlSeconds: options.uploadTtlSeconds ?? FORM16_DEFAULTS.uploadTtlSeconds, maxUploadBytes: options.maxUploadBytes ?? FORM16_DEFAULTS.maxUploadBytes,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const retention = form16Retention(options.connection, options.storage, store, keys, clock);
  const loops = [
    repeatEvery(options.sweepIntervalMs ?? 5_000, () => dispatcher.sweep(500), logger, 'form16 upload sweep'),
    repeatEvery(options.retentionIntervalMs ?? 3_600_000, () => retention.purge(500), logger, 'form16 retention purge'),
  ];
  const handle = workerHandle({
    connection: options.connection, workers: [worker, webhookWorker], abandoned, warming,
    stop: loops.map((loop) => () => loop.stop()),
    release: [() => generator.close(), () => queue.close(), async () => webhookQueue?.close()],
  });
  return { worker, webhookWorker, ...handle };
}
