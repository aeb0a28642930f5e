import { randomUUID } from 'node:crypto';
import { ServiceError, isServiceError, toServiceError, type ErrorCode } from '../errors.js';
import type { KeySpace, RedisConnection } from '../redis.js';

export interface SingleFlightOptions {
  /** How long a leader may hold the lock; longer than the work's own timeout, so a live leader never loses it. */
  lockTtlMs?: number;
  /** How long a finished flight's answer stays readable for the callers that waited on it. */
  resultTtlMs?: number;
  /** Polling of waiters starts here and backs off to `maxPollMs`. */
  minPollMs?: number;
  maxPollMs?: number;
}

type Landing<T> = { ok: T } | { error: { code: ErrorCode; message: string; headers: Record<string, string> } };

/**
 * Take the lock, or learn who holds it, in one step: a waiter must know the leader's token to find the
 * leader's answer even when the leader finishes before the waiter looks.
 * KEYS[1] lock; ARGV token, ttl. Returns nil when taken, else the holder's token.
 */
const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return nil end
return redis.call('GET', KEYS[1])`;

/**
 * Publish the answer and release the lock together, so that no waiter can see the lock gone and the answer
 * missing. KEYS[1] lock, KEYS[2] landing; ARGV token, landing JSON, landing ttl.
 */
const LAND = `
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one piece of work at a time per id across every process sharing the Redis: the first caller (the
 * leader) runs it, concurrent callers wait and get the leader's answer, error included. If a leader dies, its
 * lock expires and a waiter takes over. Keys share the id's hash tag, so this works on Redis Cluster.
 */
export class RedisSingleFlight {
  private readonly lockTtlMs: number;
  private readonly resultTtlMs: number;
  private readonly minPollMs: number;
  private readonly maxPollMs: number;

  constructor(private readonly redis: RedisConnection, private readonly keys: KeySpace, options: SingleFlightOptions = {}) {
    this.lockTtlMs = options.lockTtlMs ?? 45_000;
    this.resultTtlMs = options.resultTtlMs ?? 60_000;
    this.minPollMs = options.minPollMs ?? 10;
    this.maxPollMs = options.maxPollMs ?? 200;
  }

  async run<T>(id: string, work: () => Promise<T>): Promise<T> {
    const lockKey = this.keys.tagged(id, 'lock');
    for (;;) {
      const token = randomUUID();
      const holder = (await this.redis.eval(ACQUIRE, 1, lockKey, token, String(this.lockTtlMs))) as string | null;
      if (holder === null) return this.lead(id, token, work);
      const landing = await this.awaitLanding<T>(id, holder);
      if (landing) return unpack(landing);
      // The leader vanished without an answer (crashed, or outlived its lock): try to lead ourselves.
    }
  }

  private async lead<T>(id: string, token: string, work: () => Promise<T>): Promise<T> {
    let landing: Landing<T>;
    try {
      landing = { ok: await work() };
    } catch (error) {
      const failure = toServiceError(error);
      landing = { error: { code: failure.code, message: failure.message, headers: { ...failure.headers } } };
      await this.land(id, token, landing);
      throw isServiceError(error) ? error : failure;
    }
    await this.land(id, token, landing);
    return landing.ok;
  }

  private async land<T>(id: string, token: string, landing: Landing<T>): Promise<void> {
    const keys = [this.keys.tagged(id, 'lock'), this.keys.tagged(id, 'landing', token)];
    await this.redis.eval(LAND, 2, ...keys, token, JSON.stringify(landing), String(this.resultTtlMs));
  }

  /** The leader's answer, or undefined once the leader holds the lock no more and left nothing. */
  private async awaitLanding<T>(id: string, token: string): Promise<Landing<T> | undefined> {
    const lockKey = this.keys.tagged(id, 'lock');
    const landingKey = this.keys.tagged(id, 'landing', token);
    let pause = this.minPollMs;
    for (;;) {
      const landed = await this.redis.get(landingKey);
      if (landed !== null) return JSON.parse(landed) as Landing<T>;
      if ((await this.redis.get(lockKey)) !== token) {
        const late = await this.redis.get(landingKey);
        return late === null ? undefined : (JSON.parse(late) as Landing<T>);
      }
      await sleep(pause);
      pause = Math.min(pause * 2, this.maxPollMs);
    }
  }
}

function unpack<T>(landing: Landing<T>): T {
  if ('ok' in landing) return landing.ok;
  throw new ServiceError(landing.error.code, landing.error.message, { headers: landing.error.headers });
}
