import { hmacSign, sha256Hex, type Clock, type KeySpace, type Logger, type Sealer } from '@satyapan/core';
import { DEFAULT_CACHE_TTL_SECONDS, VerificationCache } from './cache.js';
import type { RedisClient } from './redis-client.js';
import { RedisSingleFlight, type SingleFlightOptions } from './single-flight.js';

/** Settings every account verification service takes besides its provider. */
export interface VerificationSettings {
  redis: RedisClient;
  /** Key space for the cache, locks and flight answers (e.g. `ctx.keys.child('bank')`); each kind of verification takes a child of it. */
  keys: KeySpace;
  /** Default 30 days. */
  cacheTtlSeconds?: number;
  /** Encrypts cached answers (they hold the account holder's name). */
  sealer?: Sealer;
  /** Keys entries with an HMAC instead of a plain hash, so Redis keys cannot be brute-forced back to account numbers. */
  keySecret?: string;
  singleFlight?: SingleFlightOptions;
  logger?: Logger;
  clock?: Clock;
}

/** An answer worth caching says so: answers about the account are, failures of the rails are not. */
export interface Definitive {
  definitive: boolean;
}

export interface VerifierAnswer<T> {
  outcome: T;
  fromCache: boolean;
}

/**
 * What penny drop and penny-less verification share: a per-client Redis cache read only on
 * `x-accept-cache: true`, and one provider call at a time per (API key, IFSC, account) across every process
 * sharing the Redis; concurrent duplicates get the leader's answer.
 */
export class CachedVerifier<T extends Definitive> {
  private readonly cache: VerificationCache<T>;
  private readonly flights: RedisSingleFlight;
  private readonly keySecret: string | undefined;

  /** `kind` (`pd`, `pl`) keeps each kind of verification in its own keys. */
  constructor(settings: VerificationSettings, kind: string) {
    const keys = settings.keys.child(kind);
    this.cache = new VerificationCache<T>(settings.redis, keys, settings.cacheTtlSeconds ?? DEFAULT_CACHE_TTL_SECONDS, settings.sealer);
    this.flights = new RedisSingleFlight(settings.redis, keys, settings.singleFlight);
    this.keySecret = settings.keySecret;
  }

  /** The id of a verification: answers are never shared between API keys. `ifsc` is the canonical (upper-case) one. */
  verificationId(apiKey: string, ifsc: string, accountNumber: string): string {
    const material = `${apiKey}\n${ifsc}\n${accountNumber.toUpperCase()}`;
    return this.keySecret ? hmacSign(this.keySecret, material, 'hex') : sha256Hex(material);
  }

  async answer(id: string, acceptCache: boolean, ask: () => Promise<T>): Promise<VerifierAnswer<T>> {
    if (acceptCache) {
      const cached = await this.cache.get(id);
      if (cached) return { outcome: cached, fromCache: true };
    }
    const outcome = await this.flights.run(id, async () => {
      const fresh = await ask();
      if (fresh.definitive) await this.cache.set(id, fresh);
      return fresh;
    });
    return { outcome, fromCache: false };
  }
}
