import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createRedisConnection, isRedisUnavailableError, silentLogger, waitForRedis } from '@satyapan/core';

/** One Redis (`url`) or the seed nodes of a cluster (`nodes`, as `host:port`). */
export type RedisTarget = { url: string; nodes?: undefined } | { nodes: string[]; url?: undefined };

export interface RedisHandle {
  /** Where every connection of the demo goes: one Redis (`url`) or a cluster (`nodes`). */
  target: RedisTarget;
  /** How the banner shows it (no password). */
  shown: string;
  /** Set when we started a private redis-server; stopped on shutdown. */
  child?: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A Redis Cluster from REDIS_CLUSTER_NODES: it must answer (the demo never starts a cluster of its own). The
 * probe is a producer connection like the demo's, so a cluster that is up but not `cluster_state:ok` counts as
 * not answering.
 */
export async function findRedisCluster(nodes: string[], timeoutMs = 10_000): Promise<RedisHandle> {
  const probe = createRedisConnection({
    nodes, flavour: 'producer', connectionName: 'satyapan-demo-probe', logger: silentLogger(), clusterOverrides: { clusterRetryStrategy: () => null },
  });
  try {
    await waitForRedis(probe, timeoutMs);
    await probe.ping();
  } catch (error) {
    const reason = isRedisUnavailableError(error) ? 'it did not answer in time' : (error as Error).message;
    throw new RedisUnavailableError(`No Redis Cluster answers at ${nodes.join(',')} (REDIS_CLUSTER_NODES): ${reason}.`);
  } finally {
    probe.disconnect();
  }
  return { target: { nodes }, shown: `cluster ${nodes.join(',')}`, stop: async () => undefined };
}

export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** True when a Redis at `url` answers PING within `timeoutMs`. */
export async function redisAnswers(url: string, timeoutMs = 1_500): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

function redisServerOnPath(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Loopback hosts: only for these does the demo start a private Redis in place of one that does not answer. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

/**
 * Uses the Redis at `url` if it answers. Otherwise, when `url` is on loopback and `redis-server` is installed,
 * starts a private one on a free loopback port, persisting to an append-only file under `dataDir` (revocations,
 * sessions and job records survive a restart), tied to this process's life (see {@link startPrivateRedis}).
 */
export async function findOrStartRedis(url: string, dataDir: string): Promise<RedisHandle> {
  if (await redisAnswers(url)) return singleRedis(url);
  const shown = withoutPassword(url);
  if (!isLoopbackUrl(url)) {
    throw new RedisUnavailableError(
      `No Redis answers at ${shown}. A private Redis is only started for a loopback REDIS_URL (localhost, 127.x, [::1]): ` +
      'start the Redis at that address, or point REDIS_URL at one that runs.',
    );
  }
  if (!redisServerOnPath()) {
    throw new RedisUnavailableError(
      `No Redis answers at ${shown}. Start one (for example: redis-server --daemonize yes) ` +
      'or install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), then run again.',
    );
  }
  return startPrivateRedis(join(dataDir, 'redis'));
}

function singleRedis(url: string): RedisHandle {
  return { target: { url }, shown: withoutPassword(url), stop: async () => undefined };
}

/** The URL as it may be printed: a password in it is masked. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString().replace(/\/$/, '');
}

async function startPrivateRedis(dir: string): Promise<RedisHandle> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const child = spawnTiedToUs('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    // Append-only file, fsync'd every second; no RDB snapshots. noeviction: Redis refuses writes when full
    // rather than dropping revocations, sessions or jobs.
    '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction',
  ]);
  const privateUrl = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (await redisAnswers(privateUrl, 200)) {
      return { ...singleRedis(privateUrl), child, stop: () => stopChild(child) };
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stopChild(child);
  throw new RedisUnavailableError(`Started redis-server on port ${port} (data in ${dir}) but it did not answer`);
}

/**
 * Runs `command` under a tiny `sh` watchdog that holds the read end of a pipe from us: when we exit, however
 * we exit (kill -9 included), the kernel closes the pipe, `read` sees end of file, and the watchdog stops the
 * command with SIGTERM (Redis then flushes its append-only file). Linux has prctl(PR_SET_PDEATHSIG) for this,
 * but Node cannot call it; polling our pid from a helper would leave a window and a process of its own. The
 * command runs in the background of a non-interactive shell, so its own stdin is /dev/null, not our pipe.
 */
function spawnTiedToUs(command: string, args: string[]): ChildProcess {
  const script = `"$0" "$@" & server=$!
while read -r _; do :; done
kill -TERM "$server" 2>/dev/null
wait "$server"`;
  return spawn('sh', ['-c', script, command, ...args], { stdio: ['pipe', 'ignore', 'ignore'] });
}

/** Closing the watchdog's stdin is the one way to stop it: it stops the command and waits for it. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}
