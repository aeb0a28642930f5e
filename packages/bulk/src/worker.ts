import { QueueEvents, Worker } from 'bullmq';
import {
  closeWithin, duplicateConnection, logUnlessRedisUnavailable, repeatEvery, silentLogger, systemClock, watchQueueDepth, watchRedisConnection,
  type Clock, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics, type Sealer,
} from '@satyapan/core';
import { BULK_DEFAULTS } from './defaults.js';
import { BulkDispatcher } from './dispatch.js';
import { BulkFairness } from './fairness.js';
import { BulkKeys } from './keys.js';
import type { RowCheckRegistry } from './kinds.js';
import { BULK_QUEUE, createBulkQueue, type BulkJobData, type BulkRetryOptions } from './queue.js';
import { UpstreamRateLimiter } from './rate-limit.js';
import { BulkRetention } from './retention.js';
import { BulkRunner, type BulkRunResult } from './runner.js';
import { BulkJobStore } from './store.js';

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
}

export interface BulkWorker {
  readonly worker: Worker<BulkJobData, BulkRunResult>;
  ready(): Promise<void>;
  /** Whether the worker runs and its Redis connection is up (no command sent). */
  connected(): Promise<boolean>;
  /** Stops taking jobs; a running job past `timeoutMs` (default 30 s) stops between rows and goes back to the queue. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** The bulk worker: jobs from the queue, the upload sweep and retention. */
export function createBulkWorker(options: BulkWorkerOptions): BulkWorker {
  const keys = new BulkKeys(options.keyPrefix);
  const logger = options.logger ?? silentLogger();
  const clock = options.clock ?? systemClock;
  watchRedisConnection(options.connection, logger);
  const store = new BulkJobStore(options.connection, keys, options.metrics);
  const queue = createBulkQueue(options.connection, keys.bullPrefix, logger);
  const fairness = new BulkFairness(options.connection, keys, {
    maxJobsPerClient: BULK_DEFAULTS.maxJobsPerClient,
    rowBudget: options.rowBudget ?? BULK_DEFAULTS.rowBudget,
    rowBudgetWindowHours: options.rowBudgetWindowHours ?? BULK_DEFAULTS.rowBudgetWindowHours,
  });
  const runner = new BulkRunner({
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
  const abandoned = settleAbandonedJobs(options.connection, keys, runner, logger);
  watchQueueDepth(options.metrics, queue);
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
  return {
    worker,
    async ready() {
      await Promise.all([worker.waitUntilReady(), abandoned.ready()]);
    },
    async connected() {
      return worker.isRunning() && options.connection.status === 'ready';
    },
    async close({ timeoutMs = 30_000 } = {}) {
      await Promise.all(loops.map((loop) => loop.stop()));
      await abandoned.close();
      await closeWithin(worker, timeoutMs);
      await queue.close();
    },
  };
}

/** A job BullMQ failed itself (stalled past the limit) still ends failed in its record; one worker's transition wins. */
function settleAbandonedJobs(connection: RedisConnection, keys: BulkKeys, runner: BulkRunner, logger: Logger): { ready(): Promise<unknown>; close(): Promise<void> } {
  const eventsConnection = watchRedisConnection(duplicateConnection(connection, { connectionName: 'satyapan-bulk-events' }), logger);
  const events = new QueueEvents(BULK_QUEUE, { connection: eventsConnection, prefix: keys.bullPrefix });
  const queue = createBulkQueue(connection, keys.bullPrefix, logger);
  events.on('error', logUnlessRedisUnavailable(logger, 'bulk queue events error'));
  events.on('failed', ({ jobId, failedReason }) => {
    void queue.getJob(jobId)
      .then(async (job) => {
        if (job && (await job.getState()) === 'failed') await runner.failAbandoned({ owner: job.data.owner, jobId: job.data.jobId }, failedReason);
      })
      .catch((error: unknown) => logger.warn('could not settle a failed bulk job', { bulk_job: jobId, error: (error as Error).message }));
  });
  return {
    ready: () => events.waitUntilReady(),
    async close() {
      await events.close();
      await queue.close();
      eventsConnection.disconnect();
    },
  };
}
