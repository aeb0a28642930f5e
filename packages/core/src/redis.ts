import { Cluster, Redis, type ClusterNode, type ClusterOptions, type RedisOptions } from 'ioredis';
import { createLogger, type Logger } from './logger.js';
import { OptionError } from './options.js';

/**
 * Two flavours of connection, because the two kinds of caller want opposite things when Redis is away:
 * - `producer` (request handlers): fail fast, so a caller gets a 503 now instead of a hung request;
 * - `worker` (BullMQ workers, blocking commands): wait and retry forever (`maxRetriesPerRequest: null`
 *   is required by BullMQ for blocking connections).
 */
export type RedisFlavour = 'producer' | 'worker';

/** One Redis or a Redis Cluster: every library option that takes a connection takes either. */
export type RedisConnection = Redis | Cluster;
export type RedisCluster = Cluster;

export function isRedisCluster(redis: RedisConnection): redis is Cluster {
  return redis instanceof Cluster;
}

export interface RedisConnectionOptions {
  /** One Redis; ignored when `nodes` is given. See {@link createRedisConnection} for the defaults. */
  url?: string;
  /**
   * Seed nodes of a Redis Cluster (`host:port` strings, or as ioredis takes them): the connection is then an
   * ioredis `Cluster` with the flavour's settings on every node connection. See {@link parseClusterNodes}.
   */
  nodes?: ReadonlyArray<string | ClusterNode>;
  flavour: RedisFlavour;
  /** Shown in CLIENT LIST, helps operators tell connections apart. */
  connectionName?: string;
  /** Anything else ioredis accepts; wins over the flavour's defaults (for a cluster: per node connection). */
  overrides?: RedisOptions;
  /** Cluster-wide ioredis options (a cluster only); win over the flavour's defaults. */
  clusterOverrides?: ClusterOptions;
  /** Where connection failures are reported (see {@link watchRedisConnection}); default: JSON lines on stderr. */
  logger?: Logger;
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const FLAVOURS: Record<RedisFlavour, RedisOptions> = {
  // autoResendUnfulfilledCommands off: a write whose caller already got a 503 must not happen later on reconnect.
  producer: { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 5_000, autoResendUnfulfilledCommands: false },
  worker: { maxRetriesPerRequest: null, enableReadyCheck: true },
};

/**
 * A connection of the given flavour: to the cluster of `nodes`, or to the one Redis at `url`; with neither, to
 * the cluster of `REDIS_CLUSTER_NODES` when that is set, else to `REDIS_URL`, else to {@link DEFAULT_REDIS_URL}.
 */
export function createRedisConnection(options: RedisConnectionOptions & { nodes: ReadonlyArray<string | ClusterNode> }): Cluster;
export function createRedisConnection(options: RedisConnectionOptions & { url: string; nodes?: undefined }): Redis;
export function createRedisConnection(options: RedisConnectionOptions): RedisConnection;
export function createRedisConnection(options: RedisConnectionOptions): RedisConnection {
  const nodeOptions: RedisOptions = {
    ...FLAVOURS[options.flavour],
    ...(options.connectionName ? { connectionName: options.connectionName } : {}),
    ...options.overrides,
  };
  const logger = options.logger ?? stderrLogger();
  const nodes = options.nodes ?? (options.url === undefined ? parseClusterNodes(process.env['REDIS_CLUSTER_NODES']) : undefined);
  if (nodes) {
    const cluster = new Cluster(nodes.map(clusterNode), {
      ...CLUSTER_FLAVOURS[options.flavour],
      redisOptions: nodeOptions,
      ...options.clusterOverrides,
    });
    return watchRedisConnection(cluster, logger);
  }
  const url = options.url ?? (process.env['REDIS_URL'] || DEFAULT_REDIS_URL);
  // ioredis takes a string without a scheme as a host name or a path and answers much later with a connection
  // error that names neither: a URL without its scheme is refused here, naming where it came from.
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    const name = options.url === undefined ? 'REDIS_URL' : 'url';
    throw new OptionError(name, `createRedisConnection: ${name} must be a redis:// or rediss:// URL, got ${JSON.stringify(typeof url === 'string' ? url.replace(/\/\/[^@/]*@/, '//***@') : url)}`);
  }
  return watchRedisConnection(new Redis(url, nodeOptions), logger);
}

/**
 * Cluster-wide settings of each flavour. A producer keeps failing fast (no offline queue); both follow MOVED
 * and retry while a slot fails over (`retryDelayOnClusterDown`, `retryDelayOnFailover`), which for a producer
 * is bounded by `maxRedirections` and its command timeout.
 */
const CLUSTER_FLAVOURS: Record<RedisFlavour, ClusterOptions> = {
  producer: { enableOfflineQueue: false, maxRedirections: 16, retryDelayOnFailover: 100, retryDelayOnClusterDown: 100 },
  worker: { enableReadyCheck: true, retryDelayOnFailover: 200, retryDelayOnClusterDown: 200 },
};

function clusterNode(node: string | ClusterNode): ClusterNode {
  if (typeof node !== 'string') return node;
  const [host, port] = parseHostPort(node);
  return { host, port };
}

function parseHostPort(node: string): [string, number] {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(node.trim());
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`A Redis Cluster node must be host:port, got "${node}"`);
  }
  return [match[1] as string, port];
}

/**
 * The seed nodes of `REDIS_CLUSTER_NODES`: `host:port,host:port,...`. Empty or blank is undefined (one Redis,
 * through `REDIS_URL`); a malformed entry throws, naming the variable and the entry.
 */
export function parseClusterNodes(value: string | undefined): string[] | undefined {
  const nodes = (value ?? '').split(',').map((node) => node.trim()).filter((node) => node !== '');
  if (nodes.length === 0) return undefined;
  for (const node of nodes) {
    try {
      parseHostPort(node);
    } catch (error) {
      throw new OptionError('REDIS_CLUSTER_NODES', `REDIS_CLUSTER_NODES must be host:port,host:port,...: ${(error as Error).message}`);
    }
  }
  return nodes;
}

/**
 * A new connection with the settings of `redis` plus `override`, for one Redis or a cluster alike (their
 * `duplicate()` take different arguments). The copy is watched like the original.
 */
export function duplicateConnection(redis: RedisConnection, override: Partial<RedisOptions> = {}): RedisConnection {
  if (isRedisCluster(redis)) {
    return redis.duplicate(undefined, { redisOptions: { ...redis.options.redisOptions, ...override } });
  }
  return redis.duplicate(override);
}

/** The name a connection shows in CLIENT LIST (a cluster's node connections share it). */
export function connectionNameOf(redis: RedisConnection): string {
  const name = isRedisCluster(redis) ? redis.options.redisOptions?.connectionName : redis.options.connectionName;
  return name ?? 'redis';
}

let defaultLogger: Logger | undefined;

function stderrLogger(): Logger {
  defaultLogger ??= createLogger({ stream: process.stderr, defaultMeta: { component: 'redis' } });
  return defaultLogger;
}

const watched = new WeakSet<RedisConnection>();

/**
 * Reports a connection's failures once per change of state instead of once per retry: the first error of an
 * outage at warn (with its reason), the reconnection at info; the retries in between say nothing new. Without an
 * `error` listener ioredis prints "Unhandled error event" with a stack trace on every retry. Connections made
 * from this one with `duplicate()` (BullMQ's blocking connections, our own) are watched too. Idempotent. A
 * cluster is watched as a whole (its `error` and `ready` events), not node by node.
 */
export function watchRedisConnection<T extends RedisConnection>(redis: T, logger: Logger): T {
  if (watched.has(redis)) return redis;
  watched.add(redis);
  let failing = false;
  redis.on('error', (error: Error) => {
    if (failing) return;
    failing = true;
    const reason = (error as NodeJS.ErrnoException).code ?? error.message;
    logger.warn('redis connection failing', { connection: connectionNameOf(redis), reason, error: error.message });
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    logger.info('redis connection restored', { connection: connectionNameOf(redis) });
  });
  const duplicate = redis.duplicate.bind(redis) as (...args: unknown[]) => RedisConnection;
  (redis as { duplicate: (...args: unknown[]) => RedisConnection }).duplicate = (...args: unknown[]) => watchRedisConnection(duplicate(...args), logger);
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

/**
 * Resolves once the connection is ready (ioredis connects lazily in the background); rejects at the timeout, or
 * as soon as the connection ends for good (its retry strategy gave up).
 */
export async function waitForRedis(redis: RedisConnection, timeoutMs = 5_000): Promise<void> {
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
    const onEnd = (): void => {
      cleanup();
      reject(new RedisUnavailableError('Redis connection is closed'));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
    };
    redis.on('ready', onReady);
    redis.on('end', onEnd);
  });
}

/**
 * For a fail-fast connection (no offline queue), as the job services keep: a call right after start-up or a
 * reconnect waits briefly for it; if Redis stays away, the caller's command then fails with ioredis's own error,
 * which the router maps to 503.
 */
export async function readyOrLetCommandFail(redis: RedisConnection, timeoutMs = 2_000): Promise<void> {
  if (redis.status === 'ready') return;
  try {
    await waitForRedis(redis, timeoutMs);
  } catch {
    // The command itself fails next.
  }
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
  // On a cluster: a slot whose master is down (CLUSTERDOWN), a slot moving (TRYAGAIN), or redirections given up.
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue|Command timed out|connect ETIMEDOUT|Too many Cluster redirections|^CLUSTERDOWN|^TRYAGAIN|Cluster isn't ready|None of startup nodes is available/.test(error.message);
}
