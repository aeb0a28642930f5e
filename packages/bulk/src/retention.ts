import type { Clock, ObjectStorage, RedisConnection } from '@satyapan/core';
import { RetentionSchedule } from '@satyapan/jobs';
import { bulkStorageKeys, refMember, type BulkJobRef, type BulkKeys } from './keys.js';
import type { BulkJobStore } from './store.js';

/**
 * Bulk jobs hold account numbers and names: each is deleted with its files after the retention time, on the
 * framework's schedule (@satyapan/jobs `RetentionSchedule`): files first, by their fixed names and the parts the
 * record says exist, then the record.
 */
export class BulkRetention {
  private readonly timetable: RetentionSchedule;

  constructor(
    private readonly redis: RedisConnection,
    private readonly storage: ObjectStorage,
    private readonly store: BulkJobStore,
    private readonly keys: BulkKeys,
    clock: Clock,
  ) {
    this.timetable = new RetentionSchedule(redis, keys.retention, clock, (ref) => this.deleteJob(ref));
  }

  async schedule(ref: BulkJobRef, deleteAt: number): Promise<void> {
    await this.timetable.schedule(ref, deleteAt);
  }

  async purge(limit: number): Promise<number> {
    return this.timetable.purge(limit);
  }

  private async deleteJob(ref: BulkJobRef): Promise<void> {
    const record = await this.store.get(ref);
    const keys = [bulkStorageKeys.upload(ref), bulkStorageKeys.frozenInput(ref), bulkStorageKeys.result(ref), bulkStorageKeys.summary(ref)];
    // Parts are left only by a job that never finished: at most one per chunk committed, plus the one after.
    const parts = record && record.status !== 'succeeded' ? record.chunksDone + 1 : 0;
    for (let chunk = 0; chunk < parts; chunk++) keys.push(bulkStorageKeys.part(ref, chunk));
    if (this.storage.list) {
      for await (const object of this.storage.list(bulkStorageKeys.folder(ref))) if (!keys.includes(object.key)) keys.push(object.key);
    }
    await Promise.all(keys.map((key) => this.storage.delete(key)));
    await this.store.delete(ref);
    await this.redis.zrem(this.keys.pending, refMember(ref));
  }
}
