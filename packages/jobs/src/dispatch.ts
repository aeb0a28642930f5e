import type { Queue } from 'bullmq';
import { scoredEntries, type Clock, type JobStatus, type Logger, type ObjectStorage, type RedisConnection } from '@satyapan/core';
import { freezeUpload } from './freeze.js';
import { jobOptions, type JobRetryOptions } from './queue.js';
import { parseRefMember, refMember, type JobRef } from './refs.js';

/** One file a job waits for: where the caller's URL puts it, and where it is copied before the job is queued. */
export interface UploadSlot {
  /** The slot's name (`workbook`, `csi`, `conso`, `rows`): what an oversize upload is reported as. */
  name: string;
  upload: string;
  frozen: string;
  contentType: string;
}

/** What the dispatcher needs to know of a family's jobs; the family keeps its own records and keys. */
export interface DispatchedFamily<R extends { status: JobStatus }> {
  /** `statement`, `bulk`: for log lines. */
  label: string;
  /** Where the family's records are read. */
  store: { get(ref: JobRef): Promise<R | null> };
  /** The files this job waits for, every one of which must have arrived (in any order) before it is queued. */
  slotsOf(ref: JobRef, record: R): UploadSlot[];
  /** An upload over the size limit was not copied; the family leaves what its worker fails the job on. */
  onOversize(ref: JobRef, slot: UploadSlot, size: number): Promise<void>;
  /** Moves the record to `queued`. */
  markQueued(ref: JobRef, record: R): Promise<unknown>;
  /** True for what `markQueued` throws when another process queued the job first: adding it is still right. */
  queuedAlready(error: unknown): boolean;
  /** The family's bookkeeping once the record is queued (bulk renews the job's place in its client's count). */
  afterQueued?(ref: JobRef): Promise<void>;
  /** The BullMQ job's name and data: references only, never rows or identities (BullMQ data is clear text). */
  work(ref: JobRef, record: R): { name: string; data: object };
}

export interface UploadDispatcherOptions<R extends { status: JobStatus }> {
  redis: RedisConnection;
  storage: ObjectStorage;
  queue: Queue;
  /** The family's set of jobs whose uploads or dispatch are outstanding (score: created_at). */
  pendingKey: string;
  family: DispatchedFamily<R>;
  clock: Clock;
  logger: Logger;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  retry?: JobRetryOptions;
}

/** After the upload URL expired, a job still waiting for its files is given up on after this much more. */
export const UPLOAD_GRACE_MS = 3600 * 1000;

/**
 * A submit marks its job pending before it writes the record, so a sweep can meet an entry whose record is not
 * there yet. Only entries older than this (far beyond a producer command's timeout) are taken for a submit that
 * failed half way and dropped; a younger one is left for the next sweep.
 */
const SUBMIT_GRACE_MS = 60 * 1000;

/**
 * Moves jobs from `created` to the queue once all their uploads are in storage. A job stays in the pending set
 * until its BullMQ job is confirmed added, so a crash or a Redis hiccup between the two is repaired by the next
 * sweep; adding is idempotent because the BullMQ id is the job id.
 */
export class UploadDispatcher<R extends { status: JobStatus }> {
  constructor(private readonly options: UploadDispatcherOptions<R>) {}

  async markPending(ref: JobRef, createdAt: number): Promise<void> {
    await this.options.redis.zadd(this.options.pendingKey, createdAt, refMember(ref));
  }

  /** Queues the job if its uploads have arrived; true when the job needs nothing more from the dispatcher. */
  async dispatch(ref: JobRef): Promise<boolean> {
    const record = await this.options.family.store.get(ref);
    return record ? this.dispatchRecord(ref, record) : this.settle(ref);
  }

  /** One pass over the pending set, oldest first. Returns how many entries were looked at. */
  async sweep(limit: number): Promise<number> {
    const { redis, pendingKey, clock, family } = this.options;
    const entries = scoredEntries(await redis.zrange(pendingKey, 0, String(limit - 1), 'WITHSCORES'));
    const now = clock.now();
    const giveUpBefore = now - this.options.uploadTtlSeconds * 1000 - UPLOAD_GRACE_MS;
    for (const { member, score: createdAt } of entries) {
      const ref = parseRefMember(member);
      if (!ref) {
        await redis.zrem(pendingKey, member);
        continue;
      }
      try {
        const record = await family.store.get(ref);
        if (!record) {
          // Its submit is still writing the record (keep the entry), or it failed half way (drop the entry).
          if (createdAt < now - SUBMIT_GRACE_MS) await this.settle(ref);
          continue;
        }
        const done = await this.dispatchRecord(ref, record);
        if (!done && createdAt < giveUpBefore) await this.settle(ref);
      } catch (error) {
        this.options.logger.warn(`dispatching a pending ${family.label} job failed`, { job_id: ref.jobId, error: (error as Error).message });
      }
    }
    return entries.length;
  }

  private async dispatchRecord(ref: JobRef, record: R): Promise<boolean> {
    const { family } = this.options;
    if (record.status === 'created') {
      const slots = family.slotsOf(ref, record);
      const sizes = await this.uploadedSizes(slots);
      if (sizes === null) return false;
      for (const [i, slot] of slots.entries()) await this.freeze(ref, slot, sizes[i] as number);
      await this.markQueued(ref, record);
      await this.enqueue(ref, record);
    } else if (record.status === 'queued') {
      await this.enqueue(ref, record);
    }
    return this.settle(ref);
  }

  private async markQueued(ref: JobRef, record: R): Promise<void> {
    const { family } = this.options;
    try {
      await family.markQueued(ref, record);
    } catch (error) {
      if (!family.queuedAlready(error)) throw error;
    }
    await family.afterQueued?.(ref);
  }

  /** The size of each slot's upload, or null while one has not arrived. */
  private async uploadedSizes(slots: readonly UploadSlot[]): Promise<number[] | null> {
    const sizes: number[] = [];
    for (const slot of slots) {
      const head = await this.options.storage.head(slot.upload);
      if (!head) return null;
      sizes.push(head.size);
    }
    return sizes;
  }

  private async freeze(ref: JobRef, slot: UploadSlot, headSize: number): Promise<void> {
    const { storage, maxUploadBytes, family } = this.options;
    const frozen = await freezeUpload(storage, slot.upload, slot.frozen, headSize, maxUploadBytes, slot.contentType);
    if (!frozen.copied) await family.onOversize(ref, slot, frozen.size);
  }

  private async enqueue(ref: JobRef, record: R): Promise<void> {
    const { name, data } = this.options.family.work(ref, record);
    await this.options.queue.add(name, data, jobOptions(ref.jobId, this.options.retry));
  }

  private async settle(ref: JobRef): Promise<true> {
    await this.options.redis.zrem(this.options.pendingKey, refMember(ref));
    return true;
  }
}
