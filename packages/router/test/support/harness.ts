// A host app around createRouter() for tests: real Redis (unique key prefix per harness), FsStorage in a temp
// folder, a real HTTP server on 127.0.0.1 so signed URLs work. Route tests of every area build on it.
import express from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { FsStorage, ManualClock, createRedisConnection, waitForRedis, type ObjectStorage, type RedisConnection } from '@satyapan/core';
import { deleteKeysMatching } from '../../../../test/support/redis-cluster.js';
import { accessTokenOf } from '../../../../test/support/tokens.js';
import { createRouter, type ClientConfig, type RouterOptions, type SatyapanRouter } from '@satyapan/router';
import { AnsweredErrors } from './documented-errors.js';

export const TOKEN_SECRET = 'test-token-secret-that-is-32-bytes-or-more';

export interface Harness {
  app: express.Express;
  router: SatyapanRouter;
  server: Server;
  baseUrl: string;
  redis: RedisConnection;
  storage: ObjectStorage;
  keyPrefix: string;
  clock: ManualClock;
  token(client?: ClientConfig): Promise<string>;
  close(): Promise<void>;
}

export const CLIENTS: Record<'all' | 'bankOnly' | 'other', ClientConfig> = {
  all: { id: 'client-all', apiKey: 'key_test_all', apiSecret: 'secret_test_all' },
  bankOnly: { id: 'client-bank', apiKey: 'key_test_bank', apiSecret: 'secret_test_bank', products: ['bank'] },
  other: { id: 'client-other', apiKey: 'key_test_other', apiSecret: 'secret_test_other' },
};

export interface HarnessOptions extends Partial<Omit<RouterOptions, 'redis' | 'storage' | 'publicBaseUrl'>> {
  /** Default: the harness's own URL (known once it listens); null configures none. */
  publicBaseUrl?: string | null;
  storage?: (dataDir: string, baseUrl: () => string) => ObjectStorage;
  /** Share a key prefix with another harness (two router processes on one Redis). */
  keyPrefix?: string;
  /** Where the router's connection comes from (e.g. a Redis Cluster); default a producer connection to REDIS_URL. */
  connect?: () => RedisConnection;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const keyPrefix = options.keyPrefix ?? `test:${randomUUID()}`;
  const redis = options.connect ? options.connect() : createRedisConnection({ flavour: 'producer', connectionName: 'router-test' });
  await waitForRedis(redis);
  const dataDir = await mkdtemp(join(tmpdir(), 'satyapan-router-'));
  let baseUrl = '';
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(Date.now());
  const storage = options.storage
    ? options.storage(dataDir, () => baseUrl)
    : new FsStorage({ root: dataDir, signingSecret: 'storage-secret', clock });
  // Listening first: the router's public base URL is the address the server got.
  const app = express();
  app.get('/host-route', (_req, res) => void res.json({ host: true }));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const { publicBaseUrl, connect: _connect, ...routerOptions } = options;
  const router = createRouter({
    clients: Object.values(CLIENTS),
    tokens: { secret: TOKEN_SECRET },
    ...routerOptions,
    ...(publicBaseUrl === null ? {} : { publicBaseUrl: publicBaseUrl ?? baseUrl }),
    clock,
    redis,
    storage,
    keyPrefix,
  });
  // Every error the router answers during the test must be one its OpenAPI document lists for that operation.
  const answered = new AnsweredErrors(() => router.openapi as never);
  app.use('/api', answered.recorder(), router);
  if (storage instanceof FsStorage) storage.setPublicBaseUrl(`${baseUrl}/storage`);
  return {
    app, router, server, baseUrl, redis, storage, keyPrefix, clock,
    async token(client = CLIENTS.all) {
      return accessTokenOf(await fetch(`${baseUrl}/authenticate`, { method: 'POST', headers: { 'x-api-key': client.apiKey, 'x-api-secret': client.apiSecret } }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await deleteKeysMatching(redis, `${keyPrefix}*`);
      redis.disconnect();
      await rm(dataDir, { recursive: true, force: true });
      const undocumented = answered.undocumented();
      if (undocumented.length > 0) throw new Error(`the router answered errors its OpenAPI document does not list:\n${undocumented.join('\n')}`);
    },
  };
}
