// What operators watch outside the demo's own suite: the standalone worker's metrics and health port
// (SATYAPAN_METRICS_PORT), and readiness going to 503 when Redis really goes away (a redis-server of the test's
// own, killed), for a router and for a worker.
import { expect } from 'chai';
import express from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { FsStorage, createRedisConnection, silentLogger, waitForRedis } from '@satyapan/core';
import { createRouter } from '@satyapan/router';
import { PROGRAMS, spawnProgram, type ProgramProcess } from './support/spawn-program.js';
import { eventually, freePort, startRedisServer } from './support/redis-server.js';

describe('operations: worker metrics port, readiness when Redis goes away', function () {
  this.timeout(60_000);
  let dataDir: string;
  let redisPort: number;
  let redis: ChildProcess | undefined;
  let worker: ProgramProcess | undefined;
  let router: Server | undefined;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-ops-'));
    redisPort = await freePort();
    redis = await startRedisServer(redisPort);
  });
  after(async () => {
    if (worker) await worker.stop('SIGKILL');
    router?.closeAllConnections();
    router?.close();
    redis?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the worker serves /metrics, /health/live and /health/ready on SATYAPAN_METRICS_PORT', async () => {
    const metricsPort = await freePort();
    worker = spawnProgram(PROGRAMS.worker, {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`, SATYAPAN_KEY_PREFIX: `test-ops-${randomUUID()}`, SATYAPAN_DATA_DIR: dataDir,
      SATYAPAN_STORAGE_SECRET: 'ops-storage-secret', SATYAPAN_STORAGE_URL: 'http://127.0.0.1:9/storage',
      SATYAPAN_SEALING_KEYS: `k1:${randomBytes(32).toString('base64')}`, SATYAPAN_METRICS_PORT: String(metricsPort),
    });
    await worker.waitFor(/statement worker ready/);
    expect(worker.output()).to.include(`metrics and health on http://127.0.0.1:${metricsPort}/metrics`);
    const base = `http://127.0.0.1:${metricsPort}`;
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).to.equal(200);
    const text = await metrics.text();
    expect(text).to.include('satyapan_queue_jobs{queue="{statements}",state="waiting",role="worker"} 0');
    expect(text).to.include('satyapan_queue_jobs{queue="{statement-webhooks}",state="waiting",role="worker"} 0');
    expect(text).to.include('satyapan_statement_jobs_total{state="succeeded",role="worker"} 0');
    expect(text).to.include('satyapan_bulk_jobs_total{state="succeeded",role="worker"} 0');
    expect(text).to.include('satyapan_bulk_rows_total{outcome="ok",role="worker"} 0');
    expect(text).to.include('satyapan_queue_jobs{queue="{bulk}",state="waiting",role="worker"} 0');
    expect(text).to.include('satyapan_process_resident_memory_bytes');
    expect((await fetch(`${base}/health/live`)).status).to.equal(200);
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({ status: 'ok', worker: 'up' });
    expect((await fetch(`${base}/elsewhere`)).status).to.equal(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).to.equal(405);
  });

  it('a router on the same Redis is ready', async () => {
    const connection = createRedisConnection({ url: `redis://127.0.0.1:${redisPort}`, flavour: 'producer', connectionName: 'ops-test-router', logger: silentLogger() });
    await waitForRedis(connection);
    const app = express();
    app.use('/api', createRouter({
      redis: connection, storage: new FsStorage({ root: dataDir, signingSecret: 'ops-storage-secret' }), clients: [],
      tokens: { secret: 'ops-token-secret-of-at-least-32-bytes!!' }, keyPrefix: `test-ops-${randomUUID()}`,
      routes: [], readiness: {},
    }));
    router = createServer(app);
    await new Promise<void>((resolve) => router!.listen(0, '127.0.0.1', resolve));
    const ready = await fetch(`http://127.0.0.1:${(router.address() as AddressInfo).port}/api/health/ready`);
    expect(ready.status).to.equal(200);
  });

  it('both answer 503 on /health/ready while Redis is unreachable, stay live, and are ready again once it is back', async () => {
    const routerBase = `http://127.0.0.1:${(router!.address() as AddressInfo).port}/api`;
    const workerBase = `http://127.0.0.1:${worker!.output().match(/127\.0\.0\.1:(\d+)\/metrics/)![1]}`;
    redis!.kill('SIGKILL');
    expect(await eventually(async () => (await fetch(`${routerBase}/health/ready`)).status === 503, 10_000), 'router not ready').to.equal(true);
    expect(await eventually(async () => (await fetch(`${workerBase}/health/ready`)).status === 503, 10_000), 'worker not ready').to.equal(true);
    const answer = (await (await fetch(`${routerBase}/health/ready`)).json()) as { code: number; message: string };
    expect(answer).to.include({ code: 503, message: 'Service Unavailable' });
    expect((await fetch(`${routerBase}/health/live`)).status).to.equal(200);
    expect((await fetch(`${workerBase}/health/live`)).status).to.equal(200);
    // A scrape while Redis is away still answers, without queue depths it cannot read.
    const scrape = await fetch(`${workerBase}/metrics`);
    expect(scrape.status).to.equal(200);
    const text = await scrape.text();
    expect(text).to.include('satyapan_statement_jobs_total{state="succeeded",role="worker"} 0');
    expect(text).not.to.include('satyapan_queue_jobs{');
    redis = await startRedisServer(redisPort);
    expect(await eventually(async () => (await fetch(`${routerBase}/health/ready`)).status === 200, 15_000), 'router ready again').to.equal(true);
    expect(await eventually(async () => (await fetch(`${workerBase}/health/ready`)).status === 200, 15_000), 'worker ready again').to.equal(true);
  });
});
