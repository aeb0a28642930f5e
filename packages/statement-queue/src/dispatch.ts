import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { FsStorage, type Clock, type Logger, type ObjectStorage } from '@satyapan/core';
import { IllegalTransitionError } from './errors.js';
import type { JobStore } from './job-store.js';
import { parseRefMember, refMember, storageKeys, type JobRef, type StatementKeys } from './keys.js';
import { scoredEntries } from './redis-shapes.js';
import { CONVERT_JOB, conversionJobOptions, type ConversionRetryOptions, type ConvertJobData } from './queues.js';

export interface DispatcherOptions {
  redis: Redis;
  storage: ObjectStorage;
  store: JobStore;
  keys: StatementKeys;
  queue: Queue<ConvertJobData>;
  clock: Clock;
  logger: Logger;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  retry?: ConversionRetryOptions;
}

/** After the upload URL expired, a job still waiting for its workbook is given up on after this much more. */
const UPLOAD_GRACE_MS = 3600 * 1000;

/**
 * Moves jobs from `created` to the queue once their workbook is in storage. A job stays in the pending set until
 * its BullMQ job is confirmed added, so a crash or a Redis hiccup between the two is repaired by the next sweep;
 * adding is idempotent because the BullMQ id is the job id.
 */
export class Dispatcher {
  constructor(private readonly options: DispatcherOptions) {}

  async markPending(ref: JobRef, createdAt: number): Promise<void> {
    await this.options.redis.zadd(this.options.keys.pending, createdAt, refMember(ref));
  }

  /** Queues the job if its workbook has arrived; true when the job needs nothing more from the dispatcher. */
  async dispatch(ref: JobRef): Promise<boolean> {
    const { store, storage } = this.options;
    const record = await store.get(ref);
    if (!record) return this.settle(ref);
    if (record.status === 'created') {
      const upload = await storage.head(storageKeys.upload(ref));
      if (!upload) return false;
      await this.freezeInput(ref, upload.size);
      try {
        await store.transition(ref, record.domain, 'queued', this.options.clock.now());
      } catch (error) {
        // Another process queued it first; adding below is still right and harmless.
        if (!(error instanceof IllegalTransitionError)) throw error;
      }
      await this.enqueue(ref, record.domain);
      return this.settle(ref);
    }
    if (record.status === 'queued') await this.enqueue(ref, record.domain);
    return this.settle(ref);
  }

  /** One pass over the pending set, oldest first. */
  async sweep(limit: number): Promise<number> {
    const { redis, keys, clock } = this.options;
    const entries = scoredEntries(await redis.zrange(keys.pending, 0, String(limit - 1), 'WITHSCORES'));
    const giveUpBefore = clock.now() - this.options.uploadTtlSeconds * 1000 - UPLOAD_GRACE_MS;
    for (const { member, score: createdAt } of entries) {
      const ref = parseRefMember(member);
      if (!ref) {
        await redis.zrem(keys.pending, member);
        continue;
      }
      try {
        const done = await this.dispatch(ref);
        if (!done && createdAt < giveUpBefore) await this.settle(ref);
      } catch (error) {
        this.options.logger.warn('dispatching a pending statement job failed', { job_id: ref.jobId, error: (error as Error).message });
      }
    }
    return entries.length;
  }

  private async enqueue(ref: JobRef, domain: ConvertJobData['domain']): Promise<void> {
    await this.options.queue.add(CONVERT_JOB, { ...ref, domain }, conversionJobOptions(ref.jobId, this.options.retry));
  }

  private async settle(ref: JobRef): Promise<true> {
    await this.options.redis.zrem(this.options.keys.pending, refMember(ref));
    return true;
  }

  /**
   * A pre-signed S3 PUT cannot be refused a second time, so the workbook is copied where no URL reaches before
   * the job is queued: a later upload changes nothing. An upload over the size limit (which S3 cannot refuse
   * either) is not copied; a marker records its size, and the worker fails the job on it. FsStorage refuses both
   * the second upload and the oversize one itself.
   */
  private async freezeInput(ref: JobRef, size: number): Promise<void> {
    const { storage } = this.options;
    if (storage instanceof FsStorage) return;
    if (size > this.options.maxUploadBytes) {
      await storage.put(storageKeys.oversizeMarker(ref), JSON.stringify({ size }), { contentType: 'application/json' });
      return;
    }
    await storage.put(storageKeys.frozenInput(ref), await storage.get(storageKeys.upload(ref)), { contentType: 'application/json' });
  }
}
