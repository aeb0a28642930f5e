import { Redis, type RedisOptions } from 'ioredis';
import { createLogger, type Logger } from './logger.js';

/**
 * Two flavours of connection, because the two kinds of caller want opposite things when Redis is away:
 * - `producer` (request handlers): fail fast, so a caller gets a 503 now instead of a hung request;
 * - `worker` (BullMQ workers, blocking commands): wait and retry forever (`maxRetriesPerRequest: null`
 *   is required by BullMQ for blocking connections).
 */
export type RedisFlavour = 'producer' | 'worker';

export interface RedisConnectionOptions {
  url?: string;
  flavour: RedisFlavour;
  /** Shown in CLIENT LIST, helps operators tell connections apart. */
  connectionName?: string;
  /** Anything else ioredis accepts; wins over the flavour's defaults. */
  overrides?: RedisOptions;
  /** Where connection failures are reported (see {@link watchRedisConnection}); default: JSON lines on stderr. */
  logger?: Logger;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const FLAVOURS: Record<RedisFlavour, RedisOptions> = {
  // autoResendUnfulfilledCommands off: a write whose caller already got a 503 must not happen later on reconnect.
  producer: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 5_000, autoResendUnfulfilledCommands: false },
  worker: { maxRetriesPerRequest: null, enableReadyCheck: true },
};

export function createRedisConnection(options: RedisConnectionOptions): Redis {
  const url = options.url ?? process.env['REDIS_URL'] ?? DEFAULT_REDIS_URL;
  const redis = new Redis(url, {
    ...FLAVOURS[options.flavour],
    ...(options.connectionName ? { connectionName: options.connectionName } : {}),
    ...options.overrides,
  });
  return watchRedisConnection(redis, options.logger ?? stderrLogger());
}

let defaultLogger: Logger | undefined;

function stderrLogger(): Logger {
  defaultLogger ??= createLogger({ stream: process.stderr, defaultMeta: { component: 'redis' } });
  return defaultLogger;
}

const watched = new WeakSet<Redis>();

/**
 * Reports a connection's failures once per change of state instead of once per retry: the first error of an
 * outage at warn (with its reason), the reconnection at info; the retries in between say nothing new. Without an
 * `error` listener ioredis prints "Unhandled error event" with a stack trace on every retry. Connections made
 * from this one with `duplicate()` (BullMQ's blocking connections, our own) are watched too. Idempotent.
 */
export function watchRedisConnection(redis: Redis, logger: Logger): Redis {
  if (watched.has(redis)) return redis;
  watched.add(redis);
  const connection = (): string => redis.options.connectionName ?? 'redis';
  let failing = false;
  redis.on('error', (error: Error) => {
    if (failing) return;
    failing = true;
    const reason = (error as NodeJS.ErrnoException).code ?? error.message;
    logger.warn('redis connection failing', { connection: connection(), reason, error: error.message });
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info('redis connection restored', { connection: connection() });
  });
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override?: Partial<RedisOptions>) => watchRedisConnection(duplicate(override), logger);
  return redis;
}

/**
 * An `error` listener for BullMQ objects (Queue, Worker, QueueEvents): connection failures are left to the
 * connection's own watcher (one line per outage), anything else is logged at warn under `message`.
 */
export function logUnlessRedisUnavailable(logger: Logger, message: string): (error: Error) => void {
  return (error: Error) => {
    if (!isRedisUnavailableError(error)) logger.warn(message, { error: error.message });
  };
}

/** Redis could not be reached in time, or the connection was closed for good. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** Resolves once the connection is ready (ioredis connects lazily in the background). */
export async function waitForRedis(redis: Redis, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  if (redis.status === 'end') throw new RedisUnavailableError('Redis connection is closed');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new RedisUnavailableError(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/**
 * Key naming that works on Redis Cluster. Every key starts with the configured prefix; keys that a single
 * command or transaction touches together share a hash tag (`{...}`) so they land in the same slot.
 *   keys.tagged('tds:client-1', 'job', id)  ->  "satyapan:{tds:client-1}:job:<id>"
 */
export class KeySpace {
  constructor(readonly prefix: string = 'satyapan') {
    if (/[{}]/.test(prefix)) throw new Error('A key prefix must not contain braces: they are hash tags');
  }

  /** A key in the slot of `tag`. */
  tagged(tag: string, ...parts: string[]): string {
    return [`${this.prefix}:{${tag}}`, ...parts].join(':');
  }

  /** A key that is only ever used alone: its own name is its slot. */
  plain(...parts: string[]): string {
    return [this.prefix, ...parts].join(':');
  }

  /** A narrower key space, e.g. `keys.child('kyc')`. */
  child(name: string): KeySpace {
    return new KeySpace(`${this.prefix}:${name}`);
  }
}

/**
 * True for the errors ioredis raises when Redis cannot be reached (closed connection, offline queue disabled,
 * retries exhausted, timeouts). Those become 503 for callers, not 500: the request was fine, a dependency is away.
 */
export function isRedisUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'RedisUnavailableError') return true;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'EPIPE') return true;
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue|Command timed out|connect ETIMEDOUT/.test(error.message);
}
