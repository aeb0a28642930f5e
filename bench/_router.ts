// A router on loopback with one trivial authenticated route, for the HTTP benchmarks: real Redis under a key
// prefix of its own, FsStorage in a temp folder, a client without a practical rate limit.
import express from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { FsStorage, createRedisConnection, waitForRedis } from '@satyapan/core';
import { createRouter, type RouteDefinition, type RouterOptions } from '@satyapan/router';
import { listen } from './_http.js';

const ping: RouteDefinition = {
  method: 'get', path: '/bench/ping', operationId: 'benchPing', summary: 'trivial authenticated route', tag: 'bench',
  product: 'bank', auth: 'jwt', schemas: {}, handler: async () => ({ data: { pong: true } }),
};

export interface BenchRouter {
  /** URL of the trivial authenticated route. */
  url: string;
  /** The headers of an authenticated call. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

export async function startBenchRouter(options: Partial<RouterOptions> = {}): Promise<BenchRouter> {
  const redis = createRedisConnection({ flavour: 'producer' });
  await waitForRedis(redis);
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-'));
  const keyPrefix = `bench:${randomUUID()}`;
  const client = { id: 'bench', apiKey: 'key_bench', apiSecret: 'secret_bench', rateLimitPerMinute: 1_000_000_000 };
  const app = express();
  app.use('/api', createRouter({
    redis, keyPrefix, storage: new FsStorage({ root: dir, signingSecret: 'bench' }), clients: [client],
    tokens: { secret: 'bench-secret-bench-secret-bench-secret' }, routes: [ping], ...options,
  }));
  const server = await listen(app);
  const auth = await fetch(`${server.url}/api/authenticate`, { method: 'POST', headers: { 'x-api-key': client.apiKey, 'x-api-secret': client.apiSecret } });
  const token = ((await auth.json()) as { data: { access_token: string } }).data.access_token;
  return {
    url: `${server.url}/api/bench/ping`,
    headers: { authorization: token, 'x-api-key': client.apiKey },
    async close() {
      await server.close();
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
