import { LuaScript, type RedisConnection } from '@satyapan/core';
import type { BulkKeys } from './keys.js';

/**
 * GCRA over Redis time: KEYS[1] holds the theoretical arrival time (ms) of the next call. ARGV[1] the spacing of
 * calls (ms per call). Returns 0 when the call may go now (and books it), else the ms to wait before asking again.
 */
const ACQUIRE = new LuaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local spacing = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat > now then return tat - now end
redis.call('SET', KEYS[1], tat + spacing, 'PX', spacing + 1000)
return 0
`);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Paces calls to each upstream at its configured rate, across every worker process on the Redis: a call starts
 * only when the upstream's shared schedule has room, so N workers together stay under the one limit the
 * provider enforces per account. Upstreams without a rate, or with `Infinity`, are not paced.
 */
export class UpstreamRateLimiter {
  private readonly spacing = new Map<string, number>();

  /** `rates`: calls per second, by upstream (`penny_drop`, `penny_less`, ...). */
  constructor(private readonly redis: RedisConnection, private readonly keys: BulkKeys, rates: Readonly<Record<string, number>> = {}) {
    for (const [upstream, perSecond] of Object.entries(rates)) {
      if (perSecond === Infinity) continue;
      if (!(perSecond > 0) || !Number.isFinite(perSecond)) throw new RangeError(`The rate limit of ${upstream} must be a positive number of calls per second, or Infinity for none`);
      this.spacing.set(upstream, Math.max(1, Math.round(1000 / perSecond)));
    }
  }

  /** Resolves when a call to `upstream` may start; stops waiting (rejecting) when `signal` aborts. */
  async acquire(upstream: string, signal?: AbortSignal): Promise<void> {
    const spacing = this.spacing.get(upstream);
    if (spacing === undefined) return;
    for (;;) {
      if (signal?.aborted) throw new Error('aborted while waiting for the upstream rate limit');
      const wait = Number(await ACQUIRE.run(this.redis, [this.keys.rate(upstream)], [spacing]));
      if (wait <= 0) return;
      await sleep(Math.min(wait, 1_000));
    }
  }
}
