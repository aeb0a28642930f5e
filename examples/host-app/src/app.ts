import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FsStorage, createLogger, createMetrics, createRedisConnection, metricsHandler, sha256Hex, waitForRedis, type Logger, type ObjectStorage,
} from '@satyapan/core';
import { S3Storage } from '@satyapan/storage-s3';
import { createRouter, type ClientConfig } from '@satyapan/router';
import { apiReference } from '@satyapan/api-reference';
import { bankArea } from '@satyapan/bank';
import { kycArea } from '@satyapan/kyc';
import { createWebhookQueue, statementsArea } from '@satyapan/statement-queue';
import { bulkArea } from '@satyapan/bulk';
import { form16Area } from '@satyapan/form16-queue';
import { mountQueueDashboard } from '@satyapan/queue-dashboard';
import type { DemoS3Config, HostConfig } from './config.js';
import { findOrStartRedis, findRedisCluster, type RedisHandle } from './redis-bootstrap.js';
import { startDemoServices, workerEnvironment } from './services.js';
import { startDemoUpstreams, type DemoUpstreams } from './upstreams.js';

export interface RunningDemo {
  /** Base URL of the host app, e.g. http://127.0.0.1:3000 */
  url: string;
  apiUrl: string;
  /** Where the demo's Redis is, as printed: a URL (password masked), or `cluster host:port,...`. */
  redisShown: string;
  /** The prefix of the demo's Redis keys (SATYAPAN_KEY_PREFIX, or derived from the data dir). */
  keyPrefix: string;
  startedPrivateRedis: boolean;
  workerInProcess: boolean;
  /** The variables a separate examples/worker process needs (SATYAPAN_WORKER=off). */
  workerEnvironment: Record<string, string>;
  client: ClientConfig;
  /** The queue dashboard's account; the password only when the demo generated it (to print it once). */
  admin: { user: string; generatedPassword?: string };
  /** Where objects are kept, as printed: the data folder, or `S3 bucket <name>`. */
  storageShown: string;
  /** The demo client's webhook URL, and its secret only when the demo generated it. */
  webhook?: { url: string; generatedSecret?: string };
  upstreams: DemoUpstreams;
  close(): Promise<void>;
}

/** The host app's own route: proof that the router is one part of an ordinary Express app. */
function hostRoutes(app: express.Express, apiUrl: string, upstreams: DemoUpstreams, logger: Logger): void {
  app.use('/docs', apiReference({ openapiUrl: `${apiUrl}/openapi.json`, logger }));
  app.get('/', (_req, res) => {
    res.json({
      app: 'satyapan demo host',
      api: apiUrl,
      openapi: `${apiUrl}/openapi.json`,
      api_reference: `${apiUrl.replace(/\/api$/, '')}/docs`,
      health: `${apiUrl}/health`,
      liveness: `${apiUrl}/health/live`,
      readiness: `${apiUrl}/health/ready`,
      metrics: `${apiUrl.replace(/\/api$/, '')}/metrics`,
      queue_dashboard: `${apiUrl.replace(/\/api$/, '')}/admin/queues`,
      sandbox: {
        locker: upstreams.locker.url, aadhaar_otp: upstreams.otp.url, penny_drop: upstreams.pennyDrop.url, penny_less: upstreams.pennyLess.url,
        pan: upstreams.pan.url, pan_aadhaar_link: upstreams.panAadhaarLink.url,
      },
    });
  });
}

/** Listening first tells us our own URL, which the locker's redirect URIs and signed storage URLs need. */
async function listen(host: string, port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

function s3Storage(s3: DemoS3Config): S3Storage {
  return new S3Storage({
    bucket: s3.bucket,
    ...(s3.keyPrefix !== undefined ? { keyPrefix: s3.keyPrefix } : {}),
    clientConfig: { region: s3.region, ...(s3.endpoint !== undefined ? { endpoint: s3.endpoint, forcePathStyle: true } : {}) },
  });
}

/**
 * The embedded default (docs/ARCHITECTURE.md): Redis (found or private), FsStorage under the data dir (or S3 with
 * SATYAPAN_S3_BUCKET), the sandbox
 * upstreams on loopback, every domain service, an in-process statement worker, and the router at /api.
 */
export async function startDemo(config: HostConfig, logger: Logger = createLogger({ defaultMeta: { app: 'host-app' } })): Promise<RunningDemo> {
  // A private Redis only stands in for a local one: a remote REDIS_URL that does not answer is an error. A
  // cluster (REDIS_CLUSTER_NODES) must answer: the demo never starts one.
  const redisHandle: RedisHandle = config.redisClusterNodes
    ? await findRedisCluster(config.redisClusterNodes)
    : await findOrStartRedis(config.redisUrl, config.dataDir);
  const redis = createRedisConnection({ ...redisHandle.target, flavour: 'producer', connectionName: 'satyapan-demo', logger });
  await waitForRedis(redis);
  const server = await listen(config.host, config.port);
  const url = config.publicUrl ?? `http://${config.host}:${(server.address() as AddressInfo).port}`;
  const apiUrl = `${url}/api`;
  const storage: ObjectStorage = config.s3
    ? s3Storage(config.s3)
    : new FsStorage({ root: config.dataDir, signingSecret: config.storageSecret, publicBaseUrl: `${apiUrl}/storage` });
  const upstreams = await startDemoUpstreams({ docvault: `${apiUrl}/kyc/docvault/callback`, entityvault: `${apiUrl}/kyc/entityvault/callback` });
  // One registry for the whole process: router, services and the in-process worker report to it.
  const metrics = createMetrics({ processMetrics: true });
  const demo = await startDemoServices(config, redis, redisHandle.target, storage, upstreams, apiUrl, logger, metrics);
  // The client is named after its key: demo runs with different keys on one Redis share no sessions, jobs or
  // rate-limit counters.
  const client: ClientConfig = {
    id: `demo-${sha256Hex(config.demoKey).slice(0, 16)}`, apiKey: config.demoKey, apiSecret: config.demoSecret,
    ...(config.demoRateLimit !== undefined ? { rateLimitPerMinute: config.demoRateLimit } : {}),
    ...(config.demoWebhookUrl !== undefined ? { webhookUrl: config.demoWebhookUrl, webhookSecret: config.demoWebhookSecret as string } : {}),
  };

  const app = express();
  app.disable('x-powered-by');
  hostRoutes(app, apiUrl, upstreams, logger);
  // Outside /api: the scraper and the operators reach these, API clients have no business there.
  app.get('/metrics', metricsHandler(metrics));
  const webhookQueue = createWebhookQueue(redis, demo.services.statements.keys.bullPrefix, logger);
  mountQueueDashboard(app, '/admin/queues', {
    queues: [demo.services.statements.queue, webhookQueue, demo.services.bulk.queue, demo.services.form16.queue],
    account: { user: config.adminUser, password: config.adminPassword },
    origin: url, redis, keyPrefix: config.keyPrefix, logger,
  });
  app.use('/api', createRouter({
    redis, storage, clients: [client], tokens: { secret: config.tokenSecret }, logger, keyPrefix: config.keyPrefix,
    // Every area: a host that wants a subset passes only those (a bank-only host installs only @satyapan/bank).
    areas: [kycArea(demo.services), bankArea(demo.services.bank), statementsArea(demo.services.statements), bulkArea(demo.services.bulk), form16Area(demo.services.form16)],
    openapi: { serverUrl: apiUrl }, publicBaseUrl: apiUrl, metrics,
    ...(demo.workerConnected ? { readiness: { worker: demo.workerConnected } } : {}),
  }));
  server.on('request', app);

  return {
    url, apiUrl, client, upstreams,
    admin: { user: config.adminUser, ...(config.adminPasswordGenerated ? { generatedPassword: config.adminPassword } : {}) },
    storageShown: config.s3 ? `S3 bucket ${config.s3.bucket}${config.s3.endpoint !== undefined ? ` at ${config.s3.endpoint}` : ''}` : config.dataDir,
    ...(config.demoWebhookUrl !== undefined ? {
      webhook: { url: config.demoWebhookUrl, ...(config.demoWebhookSecretGenerated ? { generatedSecret: config.demoWebhookSecret as string } : {}) },
    } : {}),
    redisShown: redisHandle.shown,
    keyPrefix: config.keyPrefix,
    startedPrivateRedis: redisHandle.child !== undefined,
    workerInProcess: config.workerInProcess,
    workerEnvironment: workerEnvironment(config, redisHandle.target, apiUrl, upstreams),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await webhookQueue.close();
      await demo.close();
      await upstreams.close();
      redis.disconnect();
      await redisHandle.stop();
    },
  };
}
