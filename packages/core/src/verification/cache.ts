import type { Sealer } from '../crypto.js';
import type { KeySpace, RedisConnection } from '../redis.js';

export const DEFAULT_CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * Verification answers (penny drop, penny-less, PAN, PAN-Aadhaar link) kept in Redis per verification id (API key
 * + what was verified, hashed by the service). An answer holds identity data such as the holder's name, so with a Sealer it is stored encrypted
 * (AES-256-GCM, bound to its key name).
 */
export class VerificationCache<T> {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: KeySpace,
    private readonly ttlSeconds: number = DEFAULT_CACHE_TTL_SECONDS,
    private readonly sealer?: Sealer,
  ) {
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) throw new RangeError('The verification cache TTL must be a positive number of seconds');
  }

  async get(id: string): Promise<T | undefined> {
    const key = this.key(id);
    const stored = await this.redis.get(key);
    if (stored === null) return undefined;
    try {
      const json = this.sealer ? this.sealer.unseal(stored, key).toString('utf8') : stored;
      return JSON.parse(json) as T;
    } catch {
      // Sealed with a key no longer configured, or written before sealing was turned on: a miss, which the
      // fresh answer then overwrites.
      return undefined;
    }
  }

  async set(id: string, outcome: T): Promise<void> {
    const key = this.key(id);
    const json = JSON.stringify(outcome);
    await this.redis.set(key, this.sealer ? this.sealer.seal(json, key) : json, 'EX', this.ttlSeconds);
  }

  private key(id: string): string {
    return this.keys.tagged(id, 'answer');
  }
}
