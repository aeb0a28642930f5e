import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FsStorage, createLogger, createRedisConnection, waitForRedis, type Logger } from '@satyapan/core';
import { createRouter, type ClientConfig } from '@satyapan/router';
import type { HostConfig } from './config.js';
import { findOrStartRedis, type RedisHandle } from './redis-bootstrap.js';

export interface RunningDemo {
  /** Base URL of the host app, e.g. http://127.0.0.1:3000 */
  url: string;
  apiUrl: string;
  redisUrl: string;
  startedPrivateRedis: boolean;
  client: ClientConfig;
  close(): Promise<void>;
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

/** The host app's own route: proof that the router is one part of an ordinary Express app. */
function hostRoutes(app: express.Express): void {
  app.get('/', (_req, res) => {
    res.json({ app: 'satyapan demo host', api: '/api', openapi: '/api/openapi.json', health: '/api/health' });
  });
}

async function listen(app: express.Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => resolve(server));
    server.once('error', reject);
  });
}

/** Starts the embedded default: Redis (found or private), FsStorage under the data dir, the router at /api. */
export async function startDemo(config: HostConfig, logger: Logger = createLogger({ defaultMeta: { app: 'host-app' } })): Promise<RunningDemo> {
  // A private Redis only stands in for a local one: a remote REDIS_URL that does not answer is an error.
  const redisHandle: RedisHandle = await findOrStartRedis(config.redisUrl, isLoopbackUrl(config.redisUrl));
  const redis = createRedisConnection({ url: redisHandle.url, flavour: 'producer', connectionName: 'satyapan-demo' });
  await waitForRedis(redis);
  const storage = new FsStorage({ root: config.dataDir, signingSecret: config.storageSecret });
  const client: ClientConfig = { id: 'demo', apiKey: config.demoKey, apiSecret: config.demoSecret };

  const app = express();
  app.disable('x-powered-by');
  hostRoutes(app);
  app.use('/api', createRouter({ redis, storage, clients: [client], tokens: { secret: config.tokenSecret }, logger }));

  const server = await listen(app, config.host, config.port);
  const { port } = server.address() as AddressInfo;
  const url = config.publicUrl ?? `http://${config.host}:${port}`;
  storage.setPublicBaseUrl(`${url}/api/storage`);

  return {
    url,
    apiUrl: `${url}/api`,
    redisUrl: redisHandle.url,
    startedPrivateRedis: redisHandle.child !== undefined,
    client,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      redis.disconnect();
      await redisHandle.stop();
    },
  };
}
