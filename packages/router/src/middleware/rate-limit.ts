import type { NextFunction, Request, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Options, type RateLimitRequestHandler } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { isRedisCluster, serviceErrorWith, sha256Hex, waitForRedis, type KeySpace, type RedisCluster, type RedisConnection } from '@satyapan/core';
import { stateOf } from './request-context.js';

export interface RateLimitOptions {
  /** Requests per client per window when the client has no limit of its own; API.md default 100/min. */
  defaultLimit?: number;
  windowMs?: number;
}

/**
 * Per-client limit shared by every router process through Redis. Runs after authentication, so the key is
 * the client id, never an IP (clients sit behind NATs and load balancers).
 */
export function clientRateLimit(redis: RedisConnection, keys: KeySpace, options: RateLimitOptions = {}): RateLimitRequestHandler {
  const windowMs = options.windowMs ?? 60_000;
  const defaultLimit = options.defaultLimit ?? 100;
  return rateLimit({
    windowMs,
    limit: (_req: Request, res: Response) => stateOf(res).client?.rateLimitPerMinute ?? defaultLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (_req: Request, res: Response) => stateOf(res).client?.id ?? 'anonymous',
    store: redisStore(redis, keys.plain('ratelimit') + ':'),
    handler: tooManyRequests,
    // A Redis outage must not silently lift the limit nor answer 500: the error handler turns it into 503.
    passOnStoreError: false,
    validate: VALIDATE,
  });
}

export interface CredentialLimitOptions {
  /** Failed attempts allowed per source address per window; default 20. */
  perAddress?: number;
  /** Failed attempts allowed per API key (from any address) per window; default 100. */
  perApiKey?: number;
  /** Default 15 minutes. */
  windowMs?: number;
}

/**
 * Lockout of `POST /authenticate` and `POST /authorize` against guessing: only failed attempts count (a
 * successful exchange takes its count back), per source address and per API key. Once a limit is reached,
 * every attempt of that address or key, the right secret included, is 429 until the window ends. The per-key
 * limit is higher than the per-address one: anybody who knows a key can spend its budget, and a legitimate
 * client behind its own address should not be locked out by someone else's guessing before that address is.
 * The source address is Express's `req.ip`: behind a proxy, the host sets `trust proxy` to make it the client's.
 */
export function credentialLimit(redis: RedisConnection, keys: KeySpace, options: CredentialLimitOptions = {}): RateLimitRequestHandler[] {
  const windowMs = options.windowMs ?? 15 * 60_000;
  const store = (): RedisStore => redisStore(redis, keys.plain('ratelimit') + ':');
  const common: Partial<Options> = {
    windowMs,
    skipSuccessfulRequests: true,
    standardHeaders: false,
    legacyHeaders: false,
    passOnStoreError: false,
    validate: VALIDATE,
  };
  return [
    rateLimit({
      ...common,
      limit: options.perAddress ?? 20,
      // Hash-tagged so that every key of one counter stays in one Redis Cluster slot.
      keyGenerator: (req: Request) => `{auth:address:${ipKeyGenerator(req.ip ?? 'unknown')}}`,
      store: store(),
      handler: refuseCredentials('address'),
    }),
    rateLimit({
      ...common,
      limit: options.perApiKey ?? 100,
      skip: (req: Request) => apiKeyOf(req) === undefined,
      // The key itself never reaches Redis: a short hash of it names the counter.
      keyGenerator: (req: Request) => `{auth:key:${keyDigest(apiKeyOf(req) ?? '')}}`,
      store: store(),
      handler: refuseCredentials('api_key'),
    }),
  ];
}

function apiKeyOf(req: Request): string | undefined {
  const value = req.headers['x-api-key'];
  const key = Array.isArray(value) ? value[0] : value;
  return key ? key : undefined;
}

function keyDigest(apiKey: string): string {
  return sha256Hex(apiKey).slice(0, 32);
}

/** Logs the refusal (which limit, the address, a digest of the key: never the key or secret), then answers 429. */
function refuseCredentials(limit: 'address' | 'api_key') {
  return (req: Request, res: Response, next: NextFunction, options: Options): void => {
    const apiKey = apiKeyOf(req);
    stateOf(res).logger?.warn('credential attempts refused', {
      limit, address: req.ip, key_digest: apiKey === undefined ? undefined : keyDigest(apiKey).slice(0, 12), path: req.path,
    });
    tooManyRequests(req, res, next, options);
  };
}

/** 429 with Retry-After: the limiter's own header when it sets one, else the seconds left in the window. */
function tooManyRequests(req: Request, res: Response, next: NextFunction, options: Options): void {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const fallback = Math.ceil(options.windowMs / 1000);
  const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : fallback;
  const retryAfter = res.getHeader('retry-after') ?? String(seconds);
  next(serviceErrorWith({ headers: { 'retry-after': String(retryAfter) } }, 'TOO_MANY_REQUESTS'));
}

const VALIDATE = { trustProxy: false, xForwardedForHeader: false, keyGeneratorIpFallback: false };

function redisStore(redis: RedisConnection, prefix: string): RedisStore {
  return new RedisStore({
    prefix,
    // The producer connection refuses commands until it is ready; the store loads its script at once.
    sendCommand: async (command: string, ...args: string[]) => {
      if (redis.status !== 'ready') await waitForRedis(redis, 1_000);
      if (isRedisCluster(redis) && command.toUpperCase() === 'SCRIPT') return loadOnEveryMaster(redis, args);
      return redis.call(command, ...args) as Promise<RedisReply>;
    },
  });
}

/**
 * On a cluster, SCRIPT LOAD names no key, so ioredis sends it to any one node, while the store's EVALSHA goes to
 * the node of the counter's slot. Loading on every master makes the script known wherever the key lives (a
 * NOSCRIPT after a failover makes the store load it again, here on the new masters).
 */
async function loadOnEveryMaster(cluster: RedisCluster, args: string[]): Promise<RedisReply> {
  const replies = await Promise.all(cluster.nodes('master').map((node) => node.call('SCRIPT', ...args) as Promise<RedisReply>));
  return replies[0] as RedisReply;
}
