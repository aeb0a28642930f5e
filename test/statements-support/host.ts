// End-to-end rig for statement jobs: a host app (Express + createRouter + StatementService) on a real port,
// real Redis under a unique key prefix, FsStorage in a temp folder or S3Storage on s3rver, and workers either
// in this process or as separate processes (examples/worker). Used only by test/statements-*.test.ts.
import express from 'express';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FsStorage, Sealer, createRedisConnection, waitForRedis, type ObjectStorage, type RedisConnection, type RedisFlavour,
} from '@satyapan/core';
import { createRouter, type ClientConfig } from '@satyapan/router';
import { PROGRAMS, spawnProgram } from '../support/spawn-program.js';
import { accessTokenOf } from '../support/tokens.js';
import { eventually as eventuallyWithin } from '../../packages/statement-queue/test/support/env.js';
import {
  StatementService, createStatementWorker, statementsArea, type StatementServiceOptions, type StatementWorker, type StatementWorkerOptions,
} from '@satyapan/statement-queue';
import { deleteKeysMatching } from '../support/redis-cluster.js';

export const TOKEN_SECRET = 'statements-e2e-token-secret-of-32-bytes!';
export const STORAGE_SECRET = 'statements-e2e-storage-secret';

export interface HostOptions {
  clients: ClientConfig[];
  /** Storage factory; FsStorage under a temp folder by default. */
  storage?: (dataDir: string) => ObjectStorage;
  /** The service's own Redis connection (e.g. through a proxy); a direct one by default. */
  serviceRedis?: RedisConnection;
  service?: Partial<StatementServiceOptions>;
  /** Where the host's and in-process workers' connections go (e.g. a cluster of the test's own); the default Redis by default. */
  connect?: (flavour: RedisFlavour, connectionName: string) => RedisConnection;
}

export interface StatementsHost {
  apiUrl: string;
  storageUrl: string;
  keyPrefix: string;
  dataDir: string;
  /** The workers' temp folder (`tmpDir` / SATYAPAN_TMP_DIR). */
  scratchDir: string;
  redis: RedisConnection;
  storage: ObjectStorage;
  service: StatementService;
  sealingKey: string;
  sealer: Sealer;
  token(client: ClientConfig): Promise<string>;
  /** fetch() against the API as `client`. */
  call(client: ClientConfig, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }>;
  startWorker(overrides?: Partial<StatementWorkerOptions>): Promise<StatementWorker>;
  spawnWorker(env?: NodeJS.ProcessEnv): WorkerProcess;
  close(): Promise<void>;
}

export async function startStatementsHost(options: HostOptions): Promise<StatementsHost> {
  const keyPrefix = `test:${randomUUID()}`;
  const connect = options.connect ?? ((flavour: RedisFlavour, connectionName: string) => createRedisConnection({ flavour, connectionName }));
  const redis = connect('producer', 'statements-e2e');
  await waitForRedis(redis);
  const dataDir = await mkdtemp(join(tmpdir(), 'satyapan-statements-e2e-'));
  // Workers' scratch folders go here, so that a killed worker's leftovers are removed with the rest.
  const scratchDir = await mkdtemp(join(tmpdir(), 'satyapan-statements-scratch-'));
  const storage = options.storage ? options.storage(dataDir) : new FsStorage({ root: dataDir, signingSecret: STORAGE_SECRET });
  const sealingKey = Sealer.generateKey();
  const sealer = new Sealer([{ id: 'e2e', key: sealingKey }]);
  const service = new StatementService({ redis: options.serviceRedis ?? redis, storage, sealer, keyPrefix, ...options.service });
  const app = express();
  app.use('/api', createRouter({
    redis, storage, keyPrefix, clients: options.clients, tokens: { secret: TOKEN_SECRET },
    rateLimit: { defaultLimit: 100_000 }, areas: [statementsArea(service)],
  }));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const storageUrl = `${apiUrl}/storage`;
  if (storage instanceof FsStorage) storage.setPublicBaseUrl(storageUrl);
  const tokens = new Map<string, string>();
  const workers: StatementWorker[] = [];
  const processes: WorkerProcess[] = [];
  const workerConnections: RedisConnection[] = [];

  const host: StatementsHost = {
    apiUrl, storageUrl, keyPrefix, dataDir, scratchDir, redis, storage, service, sealingKey, sealer,
    async token(client) {
      const cached = tokens.get(client.apiKey);
      if (cached) return cached;
      const token = await accessTokenOf(await fetch(`${apiUrl}/authenticate`, { method: 'POST', headers: { 'x-api-key': client.apiKey, 'x-api-secret': client.apiSecret } }));
      tokens.set(client.apiKey, token);
      return token;
    },
    async call(client, method, path, body) {
      const res = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { authorization: await host.token(client), 'x-api-key': client.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: await res.json() };
    },
    async startWorker(overrides = {}) {
      const connection = connect('worker', 'statements-e2e-worker');
      workerConnections.push(connection);
      const worker = createStatementWorker({
        connection, storage, sealer, keyPrefix, sweepIntervalMs: 200, retentionIntervalMs: 0, tmpDir: scratchDir, ...overrides,
      });
      workers.push(worker);
      await worker.ready();
      return worker;
    },
    spawnWorker(env = {}) {
      const child = spawnWorkerProcess({
        SATYAPAN_KEY_PREFIX: keyPrefix,
        SATYAPAN_SEALING_KEYS: `e2e:${sealingKey}`,
        SATYAPAN_DATA_DIR: dataDir,
        SATYAPAN_STORAGE_SECRET: STORAGE_SECRET,
        SATYAPAN_STORAGE_URL: storageUrl,
        SATYAPAN_TMP_DIR: scratchDir,
        LOG_LEVEL: 'warn',
        ...env,
      });
      processes.push(child);
      return child;
    },
    async close() {
      for (const child of processes) await child.kill('SIGKILL');
      for (const worker of workers) await worker.close({ timeoutMs: 2_000 });
      for (const connection of workerConnections) connection.disconnect();
      await service.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      try {
        await deleteKeysMatching(redis, `${keyPrefix}*`);
      } finally {
        // The folders go even when the key clean-up fails (a test that killed a Redis node).
        redis.disconnect();
        await rm(dataDir, { recursive: true, force: true });
        await rm(scratchDir, { recursive: true, force: true });
      }
    },
  };
  return host;
}


export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  ready(timeoutMs?: number): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** The example worker from its TypeScript sources, as its own process. */
export function spawnWorkerProcess(env: NodeJS.ProcessEnv): WorkerProcess {
  const program = spawnProgram(PROGRAMS.worker, env);
  return {
    child: program.child,
    output: program.output,
    ready: async (timeoutMs = 20_000) => void (await program.waitFor(/statement worker ready/, timeoutMs)),
    kill: (signal) => program.stop(signal),
  };
}

/** Polls until `probe` gives a value; end-to-end tests cross processes, so they wait longer by default. */
export function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  return eventuallyWithin(probe, timeoutMs, everyMs);
}
