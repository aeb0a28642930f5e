import type { Clock, ObjectStorage, RedisConnection } from '@satyapan/core';
import { RetentionSchedule, refMember } from '@satyapan/jobs';
import { allForm16Keys, type Form16Keys } from './keys.js';
import type { Form16JobStore } from './store.js';

/** Form 16 jobs (PANs, salaries, a certificate) are deleted with every file after the retention time. */
export function form16Retention(redis: RedisConnection, storage: ObjectStorage, store: Form16JobStore, keys: Form16Keys, clock: Clock): RetentionSchedule {
  return new RetentionSchedule(redis, keys.retention, clock, async (ref) => {
    await Promise.all(allForm16Keys(ref).map((key) => storage.delete(key)));
    await store.delete(ref);
    await redis.zrem(keys.pending, refMember(ref));
  });
}
