import { hostname } from 'node:os';
import { resolveLimits, type InputLimits } from '@satyapan/statement-engine';
import { Worker, type Queue } from 'bullmq';
import { settleAbandonedJobs, workerBasics, workerHandle, type JobWorkerHandle } from '@satyapan/jobs';
import {
  logUnlessRedisUnavailable, repeatEvery,
  type Clock, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics, type Sealer,
} from '@satyapan/core';
import { InlineConverter, ProcessConverter, type ConversionLimits } from './conversion/process-converter.js';
import type { Converter } from './conversion/types.js';
import { DEFAULTS } from './defaults.js';
import { Dispatcher } from './dispatch.js';
import { JobStore } from './job-store.js';
import { StatementKeys } from './keys.js';
import { StatementProcessor, type ProcessResult } from './processor.js';
import { ScratchSpace } from './scratch.js';
import {
  STATEMENT_QUEUE, createStatementQueue, createWebhookQueue, watchQueueDepth,
  type ConversionRetryOptions, type ConvertJobData, type DeliveryJobData,
} from './queues.js';
import { Retention } from './retention.js';
import type { DeliveryOutcome, WebhookOptions } from '@satyapan/jobs';
import { createWebhookWorker } from './webhooks.js';

export interface StatementWorkerOptions {
  /** A worker-flavour connection (`createRedisConnection({ flavour: 'worker' })`); BullMQ duplicates it as needed. */
  connection: RedisConnection;
  storage: ObjectStorage;
  /** Same keys as the service's: it opens the webhook secrets the service sealed. */
  sealer: Sealer;
  /** Same prefix as the service's (the router's `keyPrefix`); default `satyapan`. */
  keyPrefix?: string;
  /** Conversions at once in this process; default 1. */
  concurrency?: number;
  /**
   * `process` (default): each conversion runs in a child process of this worker, so no workbook can end, stall or
   * exhaust the worker itself; `inline`: on the event loop, with no limits (trusted, small inputs only).
   */
  conversion?: 'process' | 'inline';
  /** Wall time and memory of one conversion (`process` only); defaults in DEFAULT_CONVERSION_LIMITS. */
  conversionLimits?: Partial<ConversionLimits>;
  /**
   * The engine's input limits over its defaults (DEFAULT_INPUT_LIMITS of @satyapan/statement-engine: Excel's own
   * where Excel has one); an unknown name or a value that is no positive whole number is refused here, at start.
   */
  inputLimits?: Partial<InputLimits>;
  /** Parent of the workers' scratch folders; default the OS temp directory. */
  tmpDir?: string;
  /** A scratch folder whose owner gave no sign of life for this long is a dead worker's and removed; default 15 min. */
  scratchStaleAfterMs?: number;
  /** How often this worker renews its own scratch heartbeat and removes dead workers' folders; default 1 min. */
  scratchSweepIntervalMs?: number;
  clock?: Clock;
  logger?: Logger;
  maxUploadBytes?: number;
  downloadTtlSeconds?: number;
  uploadTtlSeconds?: number;
  retentionDays?: number;
  /** Tries and backoff for infrastructure failures; a workbook with errors is never retried. */
  retry?: ConversionRetryOptions;
  /** Webhook delivery options, or `false` to neither queue nor send webhooks from this process. */
  webhooks?: WebhookOptions | false;
  /**
   * This worker's name in BullMQ: the `processedBy` of every conversion and delivery it takes (shown by the queue
   * dashboard; tells which process ran a job). Default `<hostname>:<pid>`.
   */
  name?: string;
  /**
   * BullMQ lock and stall settings (defaults 30 s / 30 s / 1); shorter values find a dead worker's job sooner. The
   * lock and stall settings apply to webhook deliveries too.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  /** How often to look for uploads to queue (the S3 poll, and crash recovery); default 5 s, 0 turns it off. */
  sweepIntervalMs?: number;
  /** How often to delete jobs past retention; default 1 h, 0 turns it off. */
  retentionIntervalMs?: number;
  /**
   * Where this worker reports (`createMetrics()` from @satyapan/core): jobs entering each state, conversion
   * durations, webhook deliveries, and the depth of the statement and webhook queues.
   */
  metrics?: SatyapanMetrics;
  /**
   * How often to walk storage for job files whose record is gone (Redis lost data) and delete them; default
   * 24 h, 0 turns it off. Needs a storage with `list` (FsStorage, S3Storage).
   */
  orphanSweepIntervalMs?: number;
}

/** The framework's worker handle (@satyapan/jobs JobWorkerHandle): running conversions are handed back on close. */
export interface StatementWorker extends JobWorkerHandle {
  readonly worker: Worker<ConvertJobData, ProcessResult>;
  readonly webhookWorker: Worker<DeliveryJobData, DeliveryOutcome> | null;
}

/** The statement worker: conversions from the queue, webhooks, the upload sweep and retention. */
export function createStatementWorker(options: StatementWorkerOptions): StatementWorker {
  const keys = new StatementKeys(options.keyPrefix);
  const { logger, clock, store } = workerBasics(options, (connection, metrics) => new JobStore(connection, keys, metrics));
  // Checked here, so that a worker with a misspelt limit does not start; each conversion gets them whole.
  const inputLimits = options.inputLimits && resolveLimits(options.inputLimits);
  const converter: Converter = options.conversion === 'inline' ? new InlineConverter() : new ProcessConverter(options.conversionLimits);
  // A process per conversion lane, started with the worker (ready() waits for them).
  const warming = converter instanceof ProcessConverter ? converter.warm(options.concurrency ?? 1) : undefined;
  const webhookQueue: Queue<DeliveryJobData> | null = options.webhooks === false ? null : createWebhookQueue(options.connection, keys.bullPrefix, logger);
  const scratch = new ScratchSpace({
    ...(options.tmpDir ? { tmpDir: options.tmpDir } : {}),
    ...(options.scratchStaleAfterMs ? { staleAfterMs: options.scratchStaleAfterMs } : {}),
  });
  const processor = new StatementProcessor({
    store, storage: options.storage, converter, clock, logger, webhookQueue, scratch,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULTS.maxUploadBytes,
    ...(options.webhooks && options.webhooks.retry ? { webhookRetry: options.webhooks.retry } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(inputLimits ? { inputLimits } : {}),
  });
  if (webhookQueue) watchQueueDepth(options.metrics, webhookQueue);
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const worker = new Worker<ConvertJobData, ProcessResult>(
    STATEMENT_QUEUE,
    (job, token, signal) => processor.process(job, token, signal),
    {
      connection: options.connection,
      prefix: keys.bullPrefix,
      name,
      concurrency: options.concurrency ?? 1,
      ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
      ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
      ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
    },
  );
  worker.on('error', logUnlessRedisUnavailable(logger, 'statement worker error'));
  // A job BullMQ failed itself (its workers kept dying) still ends failed in its record, with its webhook.
  const abandoned = settleAbandonedJobs({
    connection: options.connection, queueName: STATEMENT_QUEUE, bullPrefix: keys.bullPrefix, label: 'statement', logger,
    settle: (ref, reason) => processor.failAbandoned(ref, reason),
  });
  const webhookWorker = options.webhooks === false ? null : createWebhookWorker({
    ...options.webhooks, connection: options.connection, storage: options.storage, sealer: options.sealer,
    ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
    ...(options.downloadTtlSeconds ? { downloadTtlSeconds: options.downloadTtlSeconds } : {}),
    clock, logger, name,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.lockDurationMs ? { lockDurationMs: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledIntervalMs: options.stalledIntervalMs } : {}),
  });
  const sweeps = startSweeps(options, { keys, store, clock, logger, scratch });
  const handle = workerHandle({
    connection: options.connection, workers: [worker, webhookWorker], abandoned, ...(warming ? { warming } : {}),
    stop: [() => sweeps.stop()],
    release: [() => converter.close(), () => scratch.close(), async () => webhookQueue?.close()],
  });
  return { worker, webhookWorker, ...handle };
}

interface SweepContext {
  keys: StatementKeys;
  store: JobStore;
  clock: Clock;
  logger: Logger;
  scratch: ScratchSpace;
}

/** The periodic pending-upload sweep, retention purge and scratch sweep, each one run at a time, timers unref'd. */
function startSweeps(options: StatementWorkerOptions, ctx: SweepContext): { stop(): Promise<void> } {
  const queue = createStatementQueue(options.connection, ctx.keys.bullPrefix, ctx.logger);
  watchQueueDepth(options.metrics, queue);
  const dispatcher = new Dispatcher({
    redis: options.connection, storage: options.storage, store: ctx.store, keys: ctx.keys, queue, clock: ctx.clock, logger: ctx.logger,
    uploadTtlSeconds: options.uploadTtlSeconds ?? DEFAULTS.uploadTtlSeconds,
    maxUploadBytes: options.maxUploadBytes ?? DEFAULTS.maxUploadBytes,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const retention = new Retention(options.connection, options.storage, ctx.store, ctx.keys, ctx.clock, ctx.logger);
  const loops = [
    repeatEvery(options.sweepIntervalMs ?? 5_000, () => dispatcher.sweep(500), ctx.logger, 'upload sweep'),
    repeatEvery(options.retentionIntervalMs ?? 3_600_000, () => retention.purge(500), ctx.logger, 'retention purge'),
    repeatEvery(options.orphanSweepIntervalMs ?? 24 * 3_600_000, () => retention.purgeOrphans(500), ctx.logger, 'orphaned files sweep'),
    // Also at once: a worker restarted after a kill removes what its predecessor left.
    repeatEvery(options.scratchSweepIntervalMs ?? 60_000, () => ctx.scratch.sweep(), ctx.logger, 'scratch sweep', { now: true }),
  ];
  return {
    async stop() {
      await Promise.all(loops.map((loop) => loop.stop()));
      await queue.close();
    },
  };
}
