import type { Request, Response } from 'express';
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { serviceErrorWith, waitForRedis, type KeySpace } from '@satyapan/core';
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
export function clientRateLimit(redis: Redis, keys: KeySpace, options: RateLimitOptions = {}): RateLimitRequestHandler {
  const windowMs = options.windowMs ?? 60_000;
  const defaultLimit = options.defaultLimit ?? 100;
  return rateLimit({
    windowMs,
    limit: (_req: Request, res: Response) => stateOf(res).client?.rateLimitPerMinute ?? defaultLimit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (_req: Request, res: Response) => stateOf(res).client?.id ?? 'anonymous',
    store: new RedisStore({
      prefix: keys.plain('ratelimit') + ':',
      // The producer connection refuses commands until it is ready; the store loads its script at once.
      sendCommand: async (command: string, ...args: string[]) => {
        if (redis.status !== 'ready') await waitForRedis(redis, 1_000);
        return redis.call(command, ...args) as Promise<RedisReply>;
      },
    }),
    handler: (_req, res, next, limiterOptions) => {
      const retryAfter = res.getHeader('retry-after') ?? String(Math.ceil(limiterOptions.windowMs / 1000));
      next(serviceErrorWith({ headers: { 'retry-after': String(retryAfter) } }, 'TOO_MANY_REQUESTS'));
    },
    // A Redis outage must not silently lift the limit nor answer 500: the error handler turns it into 503.
    passOnStoreError: false,
    validate: { trustProxy: false, xForwardedForHeader: false, keyGeneratorIpFallback: false },
  });
}
