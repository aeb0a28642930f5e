import type { Queue } from 'bullmq';
import { FsStorage, readAtMost, scoredEntries, type Clock, type Logger, type ObjectStorage, type RedisConnection } from '@satyapan/core';
import type { BulkFairness } from './fairness.js';
import { BulkJobStateError, type BulkJobStore } from './store.js';
import { bulkStorageKeys, parseRefMember, refMember, type BulkJobRef, type BulkKeys } from './keys.js';
import { RUN_JOB, bulkJobOptions, type BulkJobData, type BulkRetryOptions } from './queue.js';

export interface BulkDispatcherOptions {
  redis: RedisConnection;
  storage: ObjectStorage;
  store: BulkJobStore;
  keys: BulkKeys;
  queue: Queue<BulkJobData>;
  clock: Clock;
  logger: Logger;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  /** Renews a queued job's place in its client's count of jobs waiting or running. */
  fairness: BulkFairness;
  retry?: BulkRetryOptions;
}

/** After the upload URL expired, a job still waiting for its file is given up on after this much more. */
export const UPLOAD_GRACE_MS = 3600 * 1000;
/** A pending entry whose record is not there yet is dropped only past this (its submit failed half way). */
const SUBMIT_GRACE_MS = 60 * 1000;

/**
 * Moves jobs from `created` to the queue once their CSV is in storage, as the statement queue's dispatcher
 * does: a job stays in the pending set until its BullMQ job is confirmed added (the BullMQ id is the job id, so
 * adding twice is harmless), and the upload is copied where no URL reaches before the job is queued.
 */
export class BulkDispatcher {
  constructor(private readonly options: BulkDispatcherOptions) {}

  async markPending(ref: BulkJobRef, createdAt: number): Promise<void> {
    await this.options.redis.zadd(this.options.keys.pending, createdAt, refMember(ref));
  }

  async dispatch(ref: BulkJobRef): Promise<boolean> {
    const record = await this.options.store.get(ref);
    if (!record) return this.settle(ref);
    if (record.status === 'created') {
      const upload = await this.options.storage.head(bulkStorageKeys.upload(ref));
      if (!upload) return false;
      await this.freeze(ref, upload.size);
      try {
        await this.options.store.transition(ref, 'queued', this.options.clock.now());
      } catch (error) {
        if (!(error instanceof BulkJobStateError)) throw error;
      }
      await this.options.fairness.renew(ref, this.options.clock.now());
      await this.enqueue(ref);
    } else if (record.status === 'queued') {
      await this.enqueue(ref);
    }
    return this.settle(ref);
  }

  async sweep(limit: number): Promise<number> {
    const { redis, keys, clock, store, logger } = this.options;
    const entries = scoredEntries(await redis.zrange(keys.pending, 0, String(limit - 1), 'WITHSCORES'));
    const now = clock.now();
    const giveUpBefore = now - this.options.uploadTtlSeconds * 1000 - UPLOAD_GRACE_MS;
    for (const { member, score: createdAt } of entries) {
      const ref = parseRefMember(member);
      if (!ref) {
        await redis.zrem(keys.pending, member);
        continue;
      }
      try {
        if (!(await store.get(ref))) {
          if (createdAt < now - SUBMIT_GRACE_MS) await this.settle(ref);
          continue;
        }
        const done = await this.dispatch(ref);
        if (!done && createdAt < giveUpBefore) await this.settle(ref);
      } catch (error) {
        logger.warn('dispatching a pending bulk job failed', { bulk_job: ref.jobId, error: (error as Error).message });
      }
    }
    return entries.length;
  }

  private async enqueue(ref: BulkJobRef): Promise<void> {
    await this.options.queue.add(RUN_JOB, { ...ref }, bulkJobOptions(ref.jobId, this.options.retry));
  }

  private async settle(ref: BulkJobRef): Promise<true> {
    await this.options.redis.zrem(this.options.keys.pending, refMember(ref));
    return true;
  }

  /**
   * The copy the worker reads, where no URL reaches; an upload over the limit is not copied (the worker fails the
   * job on its size). On FsStorage a hard link (no byte copied in the API process); elsewhere the bytes are read
   * only up to the limit, since a pre-signed PUT may have replaced the object since head().
   */
  private async freeze(ref: BulkJobRef, size: number): Promise<void> {
    const { storage, maxUploadBytes } = this.options;
    if (size > maxUploadBytes) return;
    if (storage instanceof FsStorage) {
      await storage.copy(bulkStorageKeys.upload(ref), bulkStorageKeys.frozenInput(ref));
      return;
    }
    const copy = await readAtMost(await storage.get(bulkStorageKeys.upload(ref)), maxUploadBytes);
    if (copy === null) return;
    await storage.put(bulkStorageKeys.frozenInput(ref), copy, { contentType: 'text/csv' });
  }
}
