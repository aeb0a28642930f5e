// A throw-away redis-server of a test's own (real Redis, never a fake), so that a test can take Redis away and
// bring it back, or check that a process stopped one.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { redisAnswers } from '../../examples/host-app/src/redis-bootstrap.js';
import { loadScaled } from '../../packages/jobs/test/support/processes.js';

export { redisAnswers };

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `check` holds, for up to `timeoutMs` on an idle machine (longer under load); resolves with whether it did. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const until = Date.now() + loadScaled(timeoutMs);
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** Servers a test started and did not stop (it failed first): killed when mocha exits. */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/** Starts redis-server on `port` (no persistence) and resolves once it answers. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  started.add(child);
  child.once('exit', () => started.delete(child));
  if (!(await eventually(() => redisAnswers(`redis://127.0.0.1:${port}`, 300)))) throw new Error(`redis-server on port ${port} did not answer`);
  return child;
}

/** Stops whatever Redis answers at `url` (a leftover a test found): SHUTDOWN NOSAVE. */
export async function shutDownRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
  } catch {
    // nothing answers: nothing to stop
  } finally {
    redis.disconnect();
  }
}
