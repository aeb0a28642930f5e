import type { NextFunction, Request, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Options, type RateLimitRequestHandler } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { KeySpace, LuaScript, isRedisCluster, serviceError, serviceErrorWith, sha256Hex, waitForRedis, type RedisCluster, type RedisConnection } from '@satyapan/core';
import type { Caller } from '../authenticator.js';
import type { TokenService } from '../tokens.js';
import { stateOf } from './request-context.js';

export interface RateLimitOptions {
  /** Requests per client per window when the client has no limit of its own; docs/API.md default 100/min. */
  defaultLimit?: number;
  windowMs?: number;
}

/**
 * One Redis round trip for each authenticated call: the revocation check of its token and the count of its
 * client's rate limit in one script. Revoked answers -1 and counts nothing; otherwise the window's count and the
 * milliseconds left in it (a fixed window, as express-rate-limit with rate-limit-redis counted it before).
 * Both keys carry the client's hash tag, so the script stays in one slot on Redis Cluster.
 */
const ADMIT = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return {-1, 0} end
local hits = redis.call('INCR', KEYS[2])
local ttl = redis.call('PTTL', KEYS[2])
if hits == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`);

/**
 * Per-client limit shared by every router process through Redis, checked together with the token's revocation
 * (`ADMIT`). Runs after authentication, so the key is the client id, never an IP (clients sit behind NATs and
 * load balancers). Sends the IETF draft-8 `RateLimit` and `RateLimit-Policy` headers express-rate-limit sent
 * before (same policy names and partition keys), and `Retry-After` with a 429. A Redis outage neither lifts the
 * limit nor answers 500: the error handler turns the connection error into 503.
 */
export class CallAdmission {
  private readonly windowMs: number;
  private readonly defaultLimit: number;
  /** `RateLimit-Policy` and the `RateLimit` name per client and limit: constant, so built once per client. */
  private readonly policies = new Map<string, { name: string; policy: string }>();

  constructor(private readonly redis: RedisConnection, private readonly keys: KeySpace, private readonly tokens: Pick<TokenService, 'revokedKey'>, options: RateLimitOptions = {}) {
    this.windowMs = options.windowMs ?? 60_000;
    this.defaultLimit = options.defaultLimit ?? 100;
  }

  /** Throws ACCESS_REVOKED for a revoked token and TOO_MANY_REQUESTS past the limit; sets the headers. */
  async admit(caller: Caller, res: Response): Promise<void> {
    const { client } = caller;
    const limit = client.rateLimitPerMinute ?? this.defaultLimit;
    if (this.redis.status !== 'ready') await waitForRedis(this.redis, 1_000);
    const counterKey = this.keys.tagged(`client:${client.id}`, 'ratelimit');
    // Batched: under load, the admissions of every request of one event-loop turn share one write to Redis.
    const [hits, ttlMs] = (await ADMIT.runBatched(this.redis, [this.tokens.revokedKey(caller.claims), counterKey], [this.windowMs])) as [number, number];
    if (hits < 0) throw serviceError('ACCESS_REVOKED');
    const { name, policy } = this.policyOf(client.id, limit);
    const resetSeconds = Math.max(0, Math.ceil(ttlMs / 1000));
    res.append('RateLimit', `"${name}"; r=${Math.max(0, limit - hits)}; t=${resetSeconds}`);
    res.append('RateLimit-Policy', policy);
    if (hits > limit) {
      const retryAfter = String(Math.max(1, resetSeconds));
      res.setHeader('Retry-After', retryAfter);
      throw serviceErrorWith({ headers: { 'retry-after': retryAfter } }, 'TOO_MANY_REQUESTS');
    }
  }

  private policyOf(clientId: string, limit: number): { name: string; policy: string } {
    const cacheKey = `${limit}:${clientId}`;
    let known = this.policies.get(cacheKey);
    if (!known) {
      const name = `${limit}-in-${windowName(this.windowMs)}`;
      const policy = `"${name}"; q=${limit}; w=${Math.ceil(this.windowMs / 1000)}; pk=:${partitionKey(clientId)}:`;
      known = { name, policy };
      this.policies.set(cacheKey, known);
    }
    return known;
  }
}

/** The window as express-rate-limit names it in its draft-8 policy names (`100-in-1min`). */
function windowName(windowMs: number): string {
  const seconds = windowMs / 1000;
  const minutes = seconds / 60;
  const hours = minutes / 60;
  const days = hours / 24;
  if (seconds < 60) return `${seconds}sec`;
  if (minutes < 60) return `${minutes}min`;
  if (hours < 24) return `${hours}hr${hours > 1 ? 's' : ''}`;
  return `${days}day${days > 1 ? 's' : ''}`;
}

/** The draft-8 partition key as express-rate-limit derives it: base64 of the first 12 hex digits of a SHA-256. */
function partitionKey(key: string): string {
  return Buffer.from(sha256Hex(key).slice(0, 12)).toString('base64');
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
  return [
    failedAttemptLimit(redis, keys, {
      windowMs,
      limit: options.perAddress ?? 20,
      keyGenerator: (req: Request) => addressCounter(req.ip ?? 'unknown'),
      handler: refuseCredentials('address'),
    }),
    failedAttemptLimit(redis, keys, {
      windowMs,
      limit: options.perApiKey ?? 100,
      skip: (req: Request) => apiKeyOf(req) === undefined,
      keyGenerator: (req: Request) => apiKeyCounter(apiKeyOf(req) ?? ''),
      handler: refuseCredentials('api_key'),
    }),
  ];
}

// Counter names, hash-tagged so that every key of one counter stays in one Redis Cluster slot. An address is
// counted as express-rate-limit advises (an IPv4-mapped IPv6 address as the IPv4 one, IPv6 per /56).
const addressCounter = (address: string): string => `{auth:address:${ipKeyGenerator(address)}}`;
// The key itself never reaches Redis: a short hash of it names the counter.
const apiKeyCounter = (apiKey: string): string => `{auth:key:${keyDigest(apiKey)}}`;
const loginCounter = (scope: string, address: string): string => `{login:${scope}:address:${ipKeyGenerator(address)}}`;
/** The prefix of every failed-attempt counter in Redis (rate-limit-redis puts it before the counter's name). */
const counterPrefix = (keys: KeySpace): string => `${keys.plain('ratelimit')}:`;

export interface ClearCredentialLockoutOptions {
  /** The Redis the routers share (`createRedisConnection()`, a `Redis` or a `Cluster`). */
  connection: RedisConnection;
  /** The routers' `keyPrefix`; default `satyapan`. */
  keyPrefix?: string;
  /** A source address as the lockout saw it (`req.ip`, the `address` of the `credential attempts refused` log line). */
  address?: string;
  /** An API key whose per-key lockout to clear (the lockout keys it by a digest; the key is not stored). */
  apiKey?: string;
  /** Also clear the address's `loginLockout` counters of these scopes (a host's own login, e.g. `queue-dashboard`). */
  loginScopes?: readonly string[];
}

/**
 * Ends a credential lockout now instead of at the end of its window: removes the failed-attempt counters of an
 * address (and of an API key, and of a host's login scopes) from Redis, for every router sharing it. Answers how
 * many counters there were. The counters of a limiter are the only state: nothing else needs a restart.
 */
export async function clearCredentialLockout(options: ClearCredentialLockoutOptions): Promise<{ cleared: number }> {
  const { address, apiKey, loginScopes = [] } = options;
  if (address === undefined && apiKey === undefined) throw new Error('clearCredentialLockout needs an address or an apiKey');
  const prefix = counterPrefix(new KeySpace(options.keyPrefix));
  const counters = [
    ...(address !== undefined ? [addressCounter(address), ...loginScopes.map((scope) => loginCounter(scope, address))] : []),
    ...(apiKey !== undefined ? [apiKeyCounter(apiKey)] : []),
  ];
  if (options.connection.status !== 'ready') await waitForRedis(options.connection, 5_000);
  // One DEL per counter: each has its own slot on Redis Cluster.
  const removed = await Promise.all(counters.map((counter) => options.connection.del(`${prefix}${counter}`)));
  return { cleared: removed.reduce((sum, count) => sum + count, 0) };
}

export interface LoginLockoutOptions {
  /** Names the counters (`{login:<scope>:...}` in Redis) and the log line, e.g. `queue-dashboard`. */
  scope: string;
  /** Prefix of the Redis keys, as the router's `keyPrefix`; default `satyapan`. */
  keyPrefix?: string;
  /** Failed logins allowed per source address per window; default 20. */
  perAddress?: number;
  /** Default 15 minutes. */
  windowMs?: number;
}

/**
 * The router's credential lockout for a host's own login (the queue dashboard's basic auth): failed attempts
 * (answers 401) per source address, counted in Redis so every process of the host shares them. Once the limit
 * is reached, every request of that address, the right password included, is 429 with `Retry-After` until the
 * window ends. Put it before the login check and under `hostPages` (its refusal is an error envelope).
 */
export function loginLockout(redis: RedisConnection, options: LoginLockoutOptions): RateLimitRequestHandler {
  return failedAttemptLimit(redis, new KeySpace(options.keyPrefix), {
    windowMs: options.windowMs ?? 15 * 60_000,
    limit: options.perAddress ?? 20,
    keyGenerator: (req: Request) => loginCounter(options.scope, req.ip ?? 'unknown'),
    requestWasSuccessful: (_req: Request, res: Response) => res.statusCode !== 401,
    handler: refuseAttempts('login attempts refused', 'CREDENTIAL_LOCKOUT', () => ({ limit: 'address', scope: options.scope })),
  });
}

/** A limiter of failed attempts only (a success takes its count back), counted in Redis, refused in the envelope. */
function failedAttemptLimit(redis: RedisConnection, keys: KeySpace, options: Partial<Options> & Pick<Options, 'windowMs' | 'limit' | 'keyGenerator' | 'handler'>): RateLimitRequestHandler {
  return rateLimit({
    skipSuccessfulRequests: true,
    standardHeaders: false,
    legacyHeaders: false,
    passOnStoreError: false,
    validate: VALIDATE,
    store: redisStore(redis, counterPrefix(keys)),
    ...options,
  });
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
  return refuseAttempts('credential attempts refused', limit === 'address' ? 'CREDENTIAL_LOCKOUT' : 'API_KEY_LOCKOUT', (req) => {
    const apiKey = apiKeyOf(req);
    return { limit, key_digest: apiKey === undefined ? undefined : keyDigest(apiKey).slice(0, 12) };
  });
}

type LockoutCode = 'CREDENTIAL_LOCKOUT' | 'API_KEY_LOCKOUT';

/** Logs a refusal (its code, what `details` gives, the address and path), then answers the lockout's own 429. */
function refuseAttempts(message: string, code: LockoutCode, details: (req: Request) => Record<string, unknown>) {
  return (req: Request, res: Response, next: NextFunction, options: Options): void => {
    const { limit, ...rest } = details(req);
    stateOf(res).logger?.warn(message, { code, limit, address: req.ip, ...rest, path: req.path });
    lockedOut(req, res, next, options, code);
  };
}

/**
 * 429 with Retry-After and a message of its own that says what happened and for how long (a lockout is not the
 * call rate limit, and waiting is not the only way out: an operator can clear it). The seconds are the limiter's
 * Retry-After when it set one, else those left in the window.
 */
function lockedOut(req: Request, res: Response, next: NextFunction, options: Options, code: LockoutCode): void {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  const fallback = Math.ceil(options.windowMs / 1000);
  const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : fallback;
  const retryAfter = Number(res.getHeader('retry-after') ?? seconds);
  next(serviceErrorWith({ headers: { 'retry-after': String(retryAfter) } }, code, retryAfter));
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
