// npm run bench -- router [--seconds N]
// Requests/s of an authenticated trivial route through the router vs a bare Express hello world, same run.
import express from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { FsStorage, createRedisConnection, waitForRedis } from '@satyapan/core';
import { createRouter, type RouteDefinition } from '@satyapan/router';
import { formatLoad, listen, load, secondsArg } from './_http.js';

const ping: RouteDefinition = {
  method: 'get', path: '/bench/ping', operationId: 'benchPing', summary: 'trivial authenticated route', tag: 'bench',
  product: 'bank', auth: 'jwt', schemas: {}, handler: async () => ({ data: { pong: true } }),
};

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 10);
  const bare = express();
  bare.get('/hello', (_req, res) => void res.json({ hello: 'world' }));
  const bareServer = await listen(bare);

  const redis = createRedisConnection({ flavour: 'producer' });
  await waitForRedis(redis);
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-'));
  const keyPrefix = `bench:${randomUUID()}`;
  const client = { id: 'bench', apiKey: 'key_bench', apiSecret: 'secret_bench', rateLimitPerMinute: 1_000_000_000 };
  const app = express();
  app.use('/api', createRouter({
    redis, keyPrefix, storage: new FsStorage({ root: dir, signingSecret: 'bench' }), clients: [client],
    tokens: { secret: 'bench-secret-bench-secret-bench-secret' }, routes: [ping],
  }));
  const routerServer = await listen(app);
  const auth = await fetch(`${routerServer.url}/api/authenticate`, { method: 'POST', headers: { 'x-api-key': client.apiKey, 'x-api-secret': client.apiSecret } });
  const token = ((await auth.json()) as { data: { access_token: string } }).data.access_token;

  try {
    await load(`${bareServer.url}/hello`, {}, 1); // warm-up
    await load(`${routerServer.url}/api/bench/ping`, { authorization: token, 'x-api-key': client.apiKey }, 1);
    const baseline = await load(`${bareServer.url}/hello`, {}, seconds);
    const routed = await load(`${routerServer.url}/api/bench/ping`, { authorization: token, 'x-api-key': client.apiKey }, seconds);
    console.log(formatLoad('bare express hello world', baseline));
    console.log(formatLoad('router, authenticated GET', routed));
    console.log(`ratio router/bare: ${(routed.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)} (requests/s); p99 ${routed.p99Ms} ms vs ${baseline.p99Ms} ms`);
    console.log('per request the router verifies a JWT, looks up the key, checks revocation in Redis, counts the rate limit in Redis, validates and envelopes');
  } finally {
    await bareServer.close();
    await routerServer.close();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}
