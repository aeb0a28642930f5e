import type { Clock, RedisConnection } from '@satyapan/core';
import { parseRefMember, refMember, type JobRef } from './refs.js';

/**
 * When each job of a family is to be deleted: a global sorted set (score: the time). A purge deletes each due
 * job (its files first, by their fixed names, then its record: the family says how) and only then its entry, so
 * a purge interrupted half way is simply done again by the next one.
 */
export class RetentionSchedule {
  constructor(
    private readonly redis: RedisConnection,
    private readonly key: string,
    private readonly clock: Clock,
    private readonly deleteJob: (ref: JobRef) => Promise<void>,
  ) {}

  async schedule(ref: JobRef, deleteAt: number): Promise<void> {
    await this.redis.zadd(this.key, deleteAt, refMember(ref));
  }

  async purge(limit: number): Promise<number> {
    const due = await this.redis.zrangebyscore(this.key, '-inf', this.clock.now(), 'LIMIT', 0, limit);
    for (const member of due) {
      const ref = parseRefMember(member);
      if (ref) await this.deleteJob(ref);
      await this.redis.zrem(this.key, member);
    }
    return due.length;
  }
}
