import type { Clock, ObjectStorage, RedisConnection } from '@satyapan/core';
import { bulkStorageKeys, parseRefMember, refMember, type BulkJobRef, type BulkKeys } from './keys.js';
import type { BulkJobStore } from './store.js';

/**
 * Bulk jobs hold account numbers and names: each is deleted with its files after the retention time. The
 * schedule is a global sorted set (score: when to delete); files go first, by their fixed names and the parts
 * the record says exist, so a purge interrupted half way is done again by the next one.
 */
export class BulkRetention {
  constructor(
    private readonly redis: RedisConnection,
    private readonly storage: ObjectStorage,
    private readonly store: BulkJobStore,
    private readonly keys: BulkKeys,
    private readonly clock: Clock,
  ) {}

  async schedule(ref: BulkJobRef, deleteAt: number): Promise<void> {
    await this.redis.zadd(this.keys.retention, deleteAt, refMember(ref));
  }

  async purge(limit: number): Promise<number> {
    const due = await this.redis.zrangebyscore(this.keys.retention, '-inf', this.clock.now(), 'LIMIT', 0, limit);
    for (const member of due) {
      const ref = parseRefMember(member);
      if (ref) await this.deleteJob(ref);
      await this.redis.zrem(this.keys.retention, member);
    }
    return due.length;
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
