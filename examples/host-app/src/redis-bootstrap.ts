import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface RedisHandle {
  url: string;
  /** Set when we started a private redis-server; stopped on shutdown. */
  child?: ChildProcess;
  stop(): Promise<void>;
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

/**
 * Uses the Redis at `url` if it answers. Otherwise, when allowed and `redis-server` is installed, starts a
 * private one on a free loopback port that keeps nothing on disk, and stops it with the app.
 */
export async function findOrStartRedis(url: string, mayStart: boolean): Promise<RedisHandle> {
  if (await redisAnswers(url)) return { url, stop: async () => undefined };
  if (!mayStart || !redisServerOnPath()) {
    throw new RedisUnavailableError(
      `No Redis answers at ${url}. Start one (for example: redis-server --daemonize yes) ` +
      'or install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), then run again.',
    );
  }
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const privateUrl = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (await redisAnswers(privateUrl, 200)) {
      return { url: privateUrl, child, stop: () => stopChild(child) };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new RedisUnavailableError(`Started redis-server on port ${port} but it did not answer`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
