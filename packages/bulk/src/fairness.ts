import { LuaScript, serviceError, type RedisConnection } from '@satyapan/core';
import type { BulkJobRef, BulkKeys } from './keys.js';

// KEYS[1] the client's active set. ARGV: now, the new entry's lapse time, job id, limit.
// Drops lapsed entries, then adds the job unless the client is at its limit. Returns -1 when added, else the count.
const ADMIT = new LuaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[4]) then return held end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
return -1
`);

// KEYS[1] the budget's times (job -> charged at), KEYS[2] its rows (job -> rows), KEYS[3] their running total.
// ARGV: now, window ms, job id, rows, budget. Drops charges older than the window (up to 1,000 a call, so that a
// client of many small jobs never makes one call long; the rest go on later calls), keeping the total in step; a
// job charged already is not charged again. Returns -1 when charged, else the rows charged in the window (with 0
// rows asked, only that).
const CHARGE = new LuaScript(`
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local old = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - window), 'LIMIT', 0, 1000)
for _, job in ipairs(old) do
  redis.call('DECRBY', KEYS[3], tonumber(redis.call('HGET', KEYS[2], job) or '0'))
  redis.call('ZREM', KEYS[1], job)
  redis.call('HDEL', KEYS[2], job)
end
if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 1 then return -1 end
local used = tonumber(redis.call('GET', KEYS[3]) or '0')
local rows = tonumber(ARGV[4])
if rows == 0 or used + rows > tonumber(ARGV[5]) then return used end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], rows)
redis.call('INCRBY', KEYS[3], rows)
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], window) end
return -1
`);

export interface FairnessLimits {
  /** Jobs a client may have waiting or running (created, queued, in progress) at once. */
  maxJobsPerClient: number;
  /** Rows a client's jobs may take in `rowBudgetWindowHours`. */
  rowBudget: number;
  rowBudgetWindowHours: number;
}

/** How long a queued or running job's place in its client's count lasts without a sign of life (a committed chunk). */
const ACTIVE_LEASE_MS = 24 * 3600 * 1000;

/**
 * Per-client fairness of bulk jobs: a cap on the jobs a client has waiting or running, and a budget of rows per
 * window, so that one tenant can neither queue the bulk lane full nor spend every upstream call of the day.
 * Both live in the client's hash tag; a job's count ends when it ends (BulkJobStore.transition).
 */
export class BulkFairness {
  constructor(private readonly redis: RedisConnection, private readonly keys: BulkKeys, readonly limits: FairnessLimits) {}

  /**
   * Counts a new job against its client's cap until `lapseAt`; a 429 naming the cap when the client is at it.
   * At the cap, entries of jobs that `isLive` says have ended (or are gone) are dropped first: an end whose
   * release was lost (a process killed between the two writes) never holds a client's place until it lapses.
   */
  async admit(ref: BulkJobRef, now: number, lapseAt: number, isLive: (jobId: string) => Promise<boolean>): Promise<void> {
    const key = this.keys.active(ref.owner);
    const tryAdmit = async (): Promise<number> => Number(await ADMIT.run(this.redis, [key], [now, lapseAt, ref.jobId, this.limits.maxJobsPerClient]));
    let held = await tryAdmit();
    if (held < 0) return;
    const members = await this.redis.zrange(key, 0, '-1');
    const ended = (await Promise.all(members.map(async (jobId) => ((await isLive(jobId)) ? [] : [jobId])))).flat();
    if (ended.length > 0) {
      await this.redis.zrem(key, ...ended);
      held = await tryAdmit();
      if (held < 0) return;
    }
    throw serviceError('BULK_JOBS_LIMIT', held, this.limits.maxJobsPerClient);
  }

  /** A job that was never created (its submit failed after `admit`) gives its place back. */
  async release(ref: BulkJobRef): Promise<void> {
    await this.redis.zrem(this.keys.active(ref.owner), ref.jobId);
  }

  /** Keeps a live job counted (queued, or a chunk committed) for another lease. */
  async renew(ref: BulkJobRef, now: number): Promise<void> {
    await this.redis.zadd(this.keys.active(ref.owner), 'XX', now + ACTIVE_LEASE_MS, ref.jobId);
  }

  /** A 429 naming the budget when the client has no row left in the window (checked at submit). */
  async ensureBudgetLeft(owner: string, now: number): Promise<void> {
    const used = await this.charged(owner, '', 0, now);
    if (used >= this.limits.rowBudget) throw this.overBudget(used, 0);
  }

  /** Charges a job's rows to its client's budget once; a ServiceError naming the budget when they do not fit. */
  async charge(ref: BulkJobRef, rows: number, now: number): Promise<ReturnType<typeof serviceError> | null> {
    if (rows === 0) return null;
    const used = await this.charged(ref.owner, ref.jobId, rows, now);
    return used < 0 ? null : this.overBudget(used, rows);
  }

  private async charged(owner: string, jobId: string, rows: number, now: number): Promise<number> {
    const { times, rows: byJob, total } = this.keys.budget(owner);
    const windowMs = this.limits.rowBudgetWindowHours * 3600 * 1000;
    return Number(await CHARGE.run(this.redis, [times, byJob, total], [now, windowMs, jobId, rows, this.limits.rowBudget]));
  }

  /** `rows`: the job's, or 0 at submit (no job's rows known yet). */
  private overBudget(used: number, rows: number) {
    const hours = this.limits.rowBudgetWindowHours;
    const usage = `${used} rows in the last ${hours} hours${rows > 0 ? ` and ${rows} more in this job` : ''}`;
    return serviceError('BULK_ROW_BUDGET', usage, `${this.limits.rowBudget} rows per ${hours} hours`);
  }
}
