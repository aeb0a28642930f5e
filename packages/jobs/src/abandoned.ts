import { QueueEvents } from 'bullmq';
import {
  closeWithin, duplicateConnection, logUnlessRedisUnavailable, silentLogger, systemClock, watchRedisConnection,
  type ClosableWorker, type Clock, type Logger, type RedisConnection, type SatyapanMetrics,
} from '@satyapan/core';
import { createJobQueue } from './queue.js';
import type { JobRef } from './refs.js';

export interface AbandonedJobsOptions {
  connection: RedisConnection;
  queueName: string;
  bullPrefix: string;
  /** `statement`, `bulk`: names the connection and the log lines. */
  label: string;
  logger: Logger;
  /** Ends the job's record as failed (and whatever follows: a webhook); a record that ended already is no error. */
  settle(ref: JobRef, reason: string): Promise<void>;
}

/**
 * BullMQ fails a job that stalled more often than `maxStalledCount` (its workers kept dying) without calling any
 * processor, and only QueueEvents hears of it. Such a job must still end as failed in its record; every worker
 * process listens, and the record's checked transition lets exactly one of them do it.
 */
export function settleAbandonedJobs(options: AbandonedJobsOptions): { ready(): Promise<unknown>; close(): Promise<void> } {
  const { connection, queueName, bullPrefix, label, logger } = options;
  const eventsConnection = watchRedisConnection(duplicateConnection(connection, { connectionName: `satyapan-${label}-events` }), logger);
  const events = new QueueEvents(queueName, { connection: eventsConnection, prefix: bullPrefix });
  const queue = createJobQueue<JobRef>(queueName, connection, bullPrefix, logger, `${label} queue`);
  events.on('error', logUnlessRedisUnavailable(logger, `${label} queue events error`));
  events.on('failed', ({ jobId, failedReason }) => {
    void queue.getJob(jobId)
      .then(async (job) => {
        if (job && (await job.getState()) === 'failed') await options.settle({ owner: job.data.owner, jobId: job.data.jobId }, failedReason);
      })
      .catch((error: unknown) => logger.warn(`could not settle a failed ${label} job`, { job_id: jobId, error: (error as Error).message }));
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

/** What every family's worker gives its host: readiness, a check for health endpoints, and a bounded close. */
export interface JobWorkerHandle {
  /** Resolves once BullMQ is connected and waiting for jobs, and the worker's warm child processes listen. */
  ready(): Promise<void>;
  /**
   * Whether the workers run and the Redis connection they were given is up now (for a readiness check): no
   * command is sent, so it answers at once while Redis is away.
   */
  connected(): Promise<boolean>;
  /**
   * Stops taking jobs and waits for the running ones; past `timeoutMs` (default 30 s) running jobs are stopped
   * and handed back to the queue for another worker. Does not close the connection it was given.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/** What a family's worker is made of, for {@link workerHandle}. */
export interface WorkerParts {
  /** The connection the host gave (never closed here). */
  connection: RedisConnection;
  /** The family's BullMQ workers: its job worker and its webhook worker (null when webhooks are off). */
  workers: ReadonlyArray<ClosableWorker & { waitUntilReady(): Promise<unknown>; isRunning(): boolean } | null>;
  abandoned: { ready(): Promise<unknown>; close(): Promise<void> };
  /** The warm child processes starting with the worker (ChildProcessPool.warm()): ready() waits for them. */
  warming?: Promise<void>;
  /** Stopped together with the workers (sweeps): the time a running job is given counts from the call to close. */
  stop: ReadonlyArray<() => Promise<void>>;
  /** Closed once the workers are (queues, conversion processes, scratch folders), in order. */
  release: ReadonlyArray<() => Promise<void>>;
}

/** The handle of a family's worker from its parts. */
export function workerHandle(parts: WorkerParts): JobWorkerHandle {
  const workers = parts.workers.filter((worker) => worker !== null);
  return {
    async ready() {
      await Promise.all([...workers.map((worker) => worker.waitUntilReady()), parts.abandoned.ready(), parts.warming]);
    },
    async connected() {
      return workers.every((worker) => worker.isRunning()) && parts.connection.status === 'ready';
    },
    async close({ timeoutMs = 30_000 } = {}) {
      await Promise.all([
        ...parts.stop.map((stop) => stop()), parts.abandoned.close(), ...workers.map((worker) => closeWithin(worker, timeoutMs)),
      ]);
      for (const release of parts.release) await release();
    },
  };
}

/** The options every family's worker takes for its basics. */
export interface WorkerBasicsOptions {
  connection: RedisConnection;
  logger?: Logger;
  clock?: Clock;
  metrics?: SatyapanMetrics;
}

/** What a family's worker starts from: its logger and clock (defaults filled), its record store, the connection watched. */
export function workerBasics<S>(options: WorkerBasicsOptions, storeOf: (connection: RedisConnection, metrics?: SatyapanMetrics) => S): { logger: Logger; clock: Clock; store: S } {
  const logger = options.logger ?? silentLogger();
  watchRedisConnection(options.connection, logger);
  return { logger, clock: options.clock ?? systemClock, store: storeOf(options.connection, options.metrics) };
}
