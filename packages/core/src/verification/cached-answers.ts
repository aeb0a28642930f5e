import { hmacSign, type Sealer } from '../crypto.js';
import { requireSecret } from '../options.js';
import { serviceError } from '../errors.js';
import type { SatyapanMetrics } from '../metrics.js';
import type { KeySpace, RedisConnection } from '../redis.js';
import { DEFAULT_CACHE_TTL_SECONDS, VerificationCache } from './cache.js';
import { RedisSingleFlight, type SingleFlightOptions } from './single-flight.js';

/** What a host is told when a cache's key secret is missing or short. */
export const CACHE_KEY_SECRET_HINT = 'give a random secret of 16 bytes or more (openssl rand -hex 32), the same in every API process and worker';

/** What every cached upstream verification takes besides its provider (penny drop, penny-less, PAN, PAN-Aadhaar link). */
export interface CachedAnswersSettings {
  redis: RedisConnection;
  /** Key space of the cache, locks and flight answers; each kind of verification takes its own child of it. */
  keys: KeySpace;
  /** How long an answer stays cached; default 30 days. */
  cacheTtlSeconds?: number;
  /** Encrypts cached answers (they hold identity data such as the holder's name). */
  sealer?: Sealer;
  /**
   * HMAC key of the entries' Redis keys (16 bytes or more, the same in every process and worker sharing the
   * cache), so that a Redis dump cannot be brute-forced back to what was verified: an account number or a PAN
   * is a few billion guesses from its plain hash. Required.
   */
  keySecret: string;
  singleFlight?: SingleFlightOptions;
  /** Where cache hits and provider call durations are counted (`createMetrics()`). */
  metrics?: SatyapanMetrics;
}

/** An upstream's answer: worth caching only when it is about the subject itself (not a failure of the rails). */
export interface CacheableAnswer {
  definitive: boolean;
}

export interface CachedAnswer<T> {
  outcome: T;
  fromCache: boolean;
}

/**
 * The cache-and-single-flight core of every verification that pays an upstream per call: answers kept in Redis
 * per verification id (read only when the caller sends `x-accept-cache: true`), and one upstream call at a time
 * per id across every process sharing the Redis (concurrent duplicates get the leader's answer). Ids are hashes
 * of the API key and what is verified, so answers are never shared between API keys and Redis keys never carry
 * identity data.
 */
export class CachedAnswers<T extends CacheableAnswer> {
  private readonly cache: VerificationCache<T>;
  private readonly flights: RedisSingleFlight;
  private readonly keySecret: string;
  private readonly metrics: SatyapanMetrics | undefined;
  private readonly lookups: { hit: { inc(): void }; miss: { inc(): void } } | undefined;

  /** `kind` (`pd`, `pl`, `pan`, ...) keeps each verification in its own keys; `upstream` names it in metrics. */
  constructor(settings: CachedAnswersSettings, kind: string, private readonly upstream: string) {
    const keys = settings.keys.child(kind);
    this.cache = new VerificationCache<T>(settings.redis, keys, settings.cacheTtlSeconds ?? DEFAULT_CACHE_TTL_SECONDS, settings.sealer);
    this.flights = new RedisSingleFlight(settings.redis, keys, settings.singleFlight);
    this.keySecret = requireSecret(`the ${upstream} cache`, 'keySecret', settings.keySecret, 16, CACHE_KEY_SECRET_HINT);
    this.metrics = settings.metrics;
    // Built once: a lookup then counts without allocating label objects.
    this.lookups = settings.metrics && {
      hit: settings.metrics.cacheLookups.labels({ cache: upstream, result: 'hit' }),
      miss: settings.metrics.cacheLookups.labels({ cache: upstream, result: 'miss' }),
    };
  }

  /** The id of a verification from its parts (the API key first): an HMAC with the key secret. */
  id(...parts: string[]): string {
    return hmacSign(this.keySecret, parts.join('\n'), 'hex');
  }

  /**
   * The cached answer when `acceptCache` and one is there; otherwise `ask`, once per id at a time, caching a
   * definitive answer. `beforeCall` is awaited by the flight's leader right before (and outside the timing of)
   * `ask`, never for a cached or shared answer; its rejection skips the call (bulk jobs pace and journal there).
   */
  async answer(id: string, acceptCache: boolean, ask: () => Promise<T>, beforeCall?: () => Promise<void>): Promise<CachedAnswer<T>> {
    if (acceptCache) {
      const cached = await this.cache.get(id);
      this.lookups?.[cached ? 'hit' : 'miss'].inc();
      if (cached) return { outcome: cached, fromCache: true };
    }
    const outcome = await this.flights.run(id, async () => {
      await beforeCall?.();
      const fresh = this.metrics ? await this.metrics.timeUpstream(this.upstream, 'verify', ask) : await ask();
      if (fresh.definitive) await this.cache.set(id, fresh);
      return fresh;
    });
    return { outcome, fromCache: false };
  }
}

/** `x-accept-cache`: `true` / `false` (any case); absent means false; anything else is 400 naming the header. */
export function parseAcceptCache(value: string | string[] | undefined): boolean {
  if (value === undefined) return false;
  const text = (Array.isArray(value) ? value[0] ?? '' : value).trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw serviceError('INVALID_PARAMETER', 'x-accept-cache', 'must be true or false');
}
