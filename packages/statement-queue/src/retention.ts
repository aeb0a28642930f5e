import type { Redis } from 'ioredis';
import type { Clock, ObjectStorage } from '@satyapan/core';
import type { JobStore } from './job-store.js';
import { allStorageKeys, parseRefMember, refMember, type JobRef, type StatementKeys } from './keys.js';

/**
 * Jobs are kept for a configurable time, then deleted with every file they produced. The schedule is a global
 * sorted set (score: when to delete); files are deleted first and by their fixed names, so a purge interrupted
 * half way is simply done again by the next one.
 */
export class Retention {
  constructor(
    private readonly redis: Redis,
    private readonly storage: ObjectStorage,
    private readonly store: JobStore,
    private readonly keys: StatementKeys,
    private readonly clock: Clock,
  ) {}

  async schedule(ref: JobRef, deleteAt: number): Promise<void> {
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

  private async deleteJob(ref: JobRef): Promise<void> {
    await Promise.all(allStorageKeys(ref).map((key) => this.storage.delete(key)));
    const record = await this.store.get(ref);
    if (record) await this.store.delete(ref, record);
    await this.redis.zrem(this.keys.pending, refMember(ref));
  }
}
