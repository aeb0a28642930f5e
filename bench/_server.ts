// The server under test, in a process of its own: `node --import tsx bench/_server.ts <kind> <config json>`.
// Started WITHOUT the `satyapan-source` condition, so every @satyapan package is its built `dist/` code; tsx only
// transpiles this file once at start. Prints `{"url": ...}` on one line when listening; exits when stdin closes
// (so it never outlives the bench), which also lets `--cpu-prof` write its profile.
import express, { type Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { FsStorage, Sealer, createRedisConnection, keepAliveFetch, waitForRedis, type RedisConnection } from '@satyapan/core';
import { createRouter, type ClientConfig, type RouteDefinition } from '@satyapan/router';

export interface ServerConfig {
  /** Port to listen on; 0 for any. The KYC bench needs the router's URL before it starts (locker redirect URIs). */
  port?: number;
  keyPrefix?: string;
  /** Scratch folder for storage. */
  dir?: string;
  client?: ClientConfig;
  /** bank: the IFSC snapshot file. */
  directory?: string;
  /** kyc: base URLs of the locker simulators and the bench's OAuth client there. */
  lockers?: { docvault: string; entityvault: string; clientId: string; clientSecret: string };
  /** proxy: the upstream URL it forwards to and the headers it sends there (a locker access token). */
  upstream?: { url: string; headers: Record<string, string> };
}

const TOKEN_SECRET = 'bench-secret-bench-secret-bench-secret';

const ping: RouteDefinition = {
  method: 'get', path: '/bench/ping', operationId: 'benchPing', summary: 'trivial authenticated route', tag: 'bench',
  product: 'bank', auth: 'jwt', schemas: {}, handler: async () => ({ data: { pong: true } }),
};

async function routerApp(config: ServerConfig, areas: () => Promise<Parameters<typeof createRouter>[0]['areas']>, routes: RouteDefinition[] = [], shared?: RedisConnection): Promise<{ app: Express; close(): void }> {
  const redis = shared ?? createRedisConnection({ flavour: 'producer' });
  await waitForRedis(redis);
  const app = express();
  app.use('/api', createRouter({
    redis, keyPrefix: config.keyPrefix, storage: new FsStorage({ root: config.dir!, signingSecret: 'bench' }),
    clients: [config.client!], tokens: { secret: TOKEN_SECRET }, areas: await areas(), routes,
    ...(config.port ? { publicBaseUrl: `http://127.0.0.1:${config.port}/api` } : {}),
  }));
  return { app, close: () => redis.disconnect() };
}

/**
 * The floor of any router in front of an upstream: Express, one route, one call over the router's own transport
 * (keepAliveFetch), the answer parsed and sent with res.json. No authentication, Redis, session, validation or
 * security headers: what the KYC bench's router costs beyond this is ours.
 */
function proxyApp(upstream: { url: string; headers: Record<string, string> }): { app: Express; close(): void } {
  const transport = keepAliveFetch();
  const app = express();
  app.get('/profile', async (_req, res, next) => {
    try {
      const answer = await transport.send(upstream.url, { method: 'GET', headers: upstream.headers }, 10_000);
      res.status(answer.status).json({ data: JSON.parse(answer.body.toString('utf8')) as unknown });
    } catch (error) {
      next(error);
    }
  });
  return { app, close: () => transport.close() };
}

async function build(kind: string, config: ServerConfig): Promise<{ app: Express; close(): void }> {
  switch (kind) {
    case 'bare': {
      const app = express();
      app.get('/hello', (_req, res) => void res.json({ hello: 'world' }));
      return { app, close: () => undefined };
    }
    case 'router':
      return routerApp(config, async () => [], [ping]);
    case 'bank': {
      const { bankArea, createBankService } = await import('@satyapan/bank');
      return routerApp(config, async () => [bankArea(await createBankService({ directory: config.directory! }))]);
    }
    case 'kyc': {
      const { createKycServices, kycArea } = await import('@satyapan/kyc');
      const redis = createRedisConnection({ flavour: 'producer' });
      await waitForRedis(redis);
      const { docvault, entityvault, clientId, clientSecret } = config.lockers!;
      const services = createKycServices({
        redis, keyPrefix: config.keyPrefix, storage: new FsStorage({ root: config.dir!, signingSecret: randomBytes(32) }),
        sealingKeys: [{ id: 'bench', key: Sealer.generateKey() }], stateSecret: randomBytes(32),
        lockers: { docvault: { baseUrl: docvault, clientId, clientSecret }, entityvault: { baseUrl: entityvault, clientId, clientSecret } },
      });
      const built = await routerApp(config, async () => [kycArea(services)], [], redis);
      return { app: built.app, close: () => { services.kyc.close(); services.aadhaarOtp?.close(); built.close(); } };
    }
    case 'proxy':
      return proxyApp(config.upstream!);
    default:
      throw new Error(`unknown server kind ${kind}`);
  }
}

const [kind = '', json = '{}'] = process.argv.slice(2);
const config = JSON.parse(json) as ServerConfig;
const { app, close } = await build(kind, config);
const server = await new Promise<Server>((resolve) => {
  const s = app.listen(config.port ?? 0, '127.0.0.1', () => resolve(s));
});
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close(() => {
    close();
    process.exit(0);
  });
});
process.stdin.resume();
