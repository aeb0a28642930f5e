import type { Queue } from 'bullmq';
import { FsStorage, readAtMost, scoredEntries, type Clock, type Logger, type ObjectStorage, type RedisConnection } from '@satyapan/core';
import { IllegalTransitionError } from './errors.js';
import type { JobStore } from './job-store.js';
import { parseRefMember, refMember, storageKeys, type JobRef, type StatementKeys } from './keys.js';
import type { JobRecord } from './model.js';
import { CONVERT_JOB, conversionJobOptions, type ConversionRetryOptions, type ConvertJobData } from './queues.js';

export interface DispatcherOptions {
  redis: RedisConnection;
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

/** Which upload an oversize marker is about (markers written before CSI uploads existed have no `file`). */
export type OversizeFile = 'workbook' | 'csi' | 'conso';

/** After the upload URL expired, a job still waiting for its workbook is given up on after this much more. */
const UPLOAD_GRACE_MS = 3600 * 1000;

/**
 * A submit marks its job pending before it writes the record, so a sweep can meet an entry whose record is not
 * there yet. Only entries older than this (far beyond a producer command's timeout) are taken for a submit that
 * failed half way and dropped; a younger one is left for the next sweep.
 */
const SUBMIT_GRACE_MS = 60 * 1000;

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
    const record = await this.options.store.get(ref);
    return record ? this.dispatchRecord(ref, record) : this.settle(ref);
  }

  /** One pass over the pending set, oldest first. */
  async sweep(limit: number): Promise<number> {
    const { redis, keys, clock, store } = this.options;
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
        const record = await store.get(ref);
        if (!record) {
          // Its submit is still writing the record (keep the entry), or it failed half way (drop the entry).
          if (createdAt < now - SUBMIT_GRACE_MS) await this.settle(ref);
          continue;
        }
        const done = await this.dispatchRecord(ref, record);
        if (!done && createdAt < giveUpBefore) await this.settle(ref);
      } catch (error) {
        this.options.logger.warn('dispatching a pending statement job failed', { job_id: ref.jobId, error: (error as Error).message });
      }
    }
    return entries.length;
  }

  private async dispatchRecord(ref: JobRef, record: JobRecord): Promise<boolean> {
    const { store, storage } = this.options;
    if (record.status === 'created') {
      const upload = await storage.head(storageKeys.upload(ref));
      if (!upload) return false;
      // A job that takes a CSI file waits for both uploads, in either order.
      const csi = record.csiExpected ? await storage.head(storageKeys.csiUpload(ref)) : null;
      if (record.csiExpected && !csi) return false;
      // A correction job waits for the conso file as well.
      const conso = record.correction ? await storage.head(storageKeys.consoUpload(ref)) : null;
      if (record.correction && !conso) return false;
      await this.freezeInput(ref, upload.size);
      if (csi) await this.freezeSide(ref, csi.size, 'csi');
      if (conso) await this.freezeSide(ref, conso.size, 'conso');
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

  private async enqueue(ref: JobRef, domain: ConvertJobData['domain']): Promise<void> {
    await this.options.queue.add(CONVERT_JOB, { ...ref, domain }, conversionJobOptions(ref.jobId, this.options.retry));
  }

  private async settle(ref: JobRef): Promise<true> {
    await this.options.redis.zrem(this.options.keys.pending, refMember(ref));
    return true;
  }

  /**
   * The workbook is copied where no URL reaches before the job is queued, so the worker never reads a file an
   * upload can still change. A pre-signed S3 PUT cannot be refused a second time, so there the copy is what makes
   * a later upload change nothing; an upload over the size limit (which S3 cannot refuse either) is not copied; a
   * marker records its size, and the worker fails the job on it. FsStorage refuses the oversize upload (413) and
   * any second one (409, create-only) itself, so its copy is streamed as it is (an object written there by other
   * means is still judged on its size first); there the copy is a hard link (`FsStorage.copy`).
   */
  private async freezeInput(ref: JobRef, headSize: number): Promise<void> {
    const { storage, maxUploadBytes } = this.options;
    if (headSize > maxUploadBytes) return this.markOversize(ref, headSize);
    if (storage instanceof FsStorage) {
      // A hard link: FsStorage never changes a file in place, so it is a copy that costs no bytes.
      await storage.copy(storageKeys.upload(ref), storageKeys.frozenInput(ref));
      return;
    }
    // The limit is checked again on the bytes copied: the object can be replaced between head() and get().
    const copy = await readAtMost(await storage.get(storageKeys.upload(ref)), maxUploadBytes);
    if (copy === null) {
      const current = await storage.head(storageKeys.upload(ref));
      return this.markOversize(ref, Math.max(current?.size ?? 0, maxUploadBytes + 1));
    }
    await storage.put(storageKeys.frozenInput(ref), copy, { contentType: 'application/json' });
  }

  /** The CSI or conso file, like the workbook: copied where no URL reaches, or an oversize marker naming it. */
  private async freezeSide(ref: JobRef, headSize: number, file: 'csi' | 'conso'): Promise<void> {
    const { storage, maxUploadBytes } = this.options;
    const [uploadKey, frozenKey] = file === 'csi' ? [storageKeys.csiUpload(ref), storageKeys.frozenCsi(ref)] : [storageKeys.consoUpload(ref), storageKeys.frozenConso(ref)];
    if (storage instanceof FsStorage && headSize <= maxUploadBytes) {
      await storage.copy(uploadKey, frozenKey);
      return;
    }
    const copy = headSize > maxUploadBytes ? null : await readAtMost(await storage.get(uploadKey), maxUploadBytes);
    if (copy === null) return this.markOversize(ref, Math.max(headSize, maxUploadBytes + 1), file);
    await storage.put(frozenKey, copy, { contentType: 'text/plain' });
  }

  private async markOversize(ref: JobRef, size: number, file: OversizeFile = 'workbook'): Promise<void> {
    await this.options.storage.put(storageKeys.oversizeMarker(ref), JSON.stringify({ size, file }), { contentType: 'application/json' });
  }
}
