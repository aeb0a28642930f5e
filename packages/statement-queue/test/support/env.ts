// Test environment of the statement queue: real Redis under a unique key prefix, FsStorage in a temp folder,
// a Sealer with a fresh key. Uploads go through FsStorage's own signed-URL check and receiver, as the router's
// storage endpoint does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { FsStorage, ManualClock, Sealer, createRedisConnection, isServiceError, waitForRedis, type RedisConnection } from '@satyapan/core';
import { deleteKeysMatching } from '../../../../test/support/redis-cluster.js';
import { loadScaled } from '../../../jobs/test/support/processes.js';
import type { Job, Queue } from 'bullmq';
import { StatementService, type StatementServiceOptions } from '@satyapan/statement-queue';

export interface TestEnv {
  redis: RedisConnection;
  keyPrefix: string;
  dataDir: string;
  storage: FsStorage;
  sealer: Sealer;
  clock: ManualClock;
  service: StatementService;
  /** Another service on the same Redis and storage (a second API process). */
  newService(overrides?: Partial<StatementServiceOptions>): StatementService;
  /** PUT through a signed URL, the way the router's storage endpoint receives it. */
  upload(url: string, body: string | Buffer): Promise<void>;
  /** A PUT whose body arrives when the test says: `send` writes and ends it; `done` settles like the PUT. */
  startUpload(url: string): { send(body: string): void; done: Promise<void> };
  close(): Promise<void>;
}

export async function startEnv(overrides: Partial<StatementServiceOptions> = {}): Promise<TestEnv> {
  const keyPrefix = `test:${randomUUID()}`;
  const redis = createRedisConnection({ flavour: 'producer', connectionName: 'statement-queue-test' });
  await waitForRedis(redis);
  const dataDir = await mkdtemp(join(tmpdir(), 'satyapan-statements-'));
  const clock = new ManualClock(Date.now());
  const storage = new FsStorage({ root: dataDir, signingSecret: 'statement-test-secret', clock, publicBaseUrl: 'http://127.0.0.1:9/storage' });
  const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
  const services: StatementService[] = [];
  const newService = (more: Partial<StatementServiceOptions> = {}): StatementService => {
    const service = new StatementService({ redis, storage, sealer, keyPrefix, clock, ...overrides, ...more });
    services.push(service);
    return service;
  };
  const service = newService();
  const grantOf = (url: string) => {
    const parsed = new URL(url);
    const key = decodeURIComponent(parsed.pathname.replace(/^\/storage\//, ''));
    return storage.verifySignedUrl('PUT', key, Object.fromEntries(parsed.searchParams));
  };
  return {
    redis, keyPrefix, dataDir, storage, sealer, clock, service, newService,
    async upload(url, body) {
      await storage.receiveUpload(grantOf(url), Readable.from([Buffer.from(body)]));
    },
    startUpload(url) {
      const body = new PassThrough();
      const done = storage.receiveUpload(grantOf(url), body).then(() => undefined);
      done.catch(() => undefined);
      return { send: (text) => body.end(text), done };
    },
    async close() {
      for (const each of services) await each.close();
      await deleteKeys(redis, keyPrefix);
      redis.disconnect();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function deleteKeys(redis: RedisConnection, keyPrefix: string): Promise<void> {
  await deleteKeysMatching(redis, `${keyPrefix}*`);
}

/**
 * Waits for a condition that another process or an event listener makes true: for `timeoutMs` on an idle machine,
 * longer under load (loadScaled).
 */
export async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 10_000, everyMs = 25): Promise<T> {
  const limit = loadScaled(timeoutMs);
  const deadline = Date.now() + limit;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${limit} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * The BullMQ job once it is in `state`. It is read after its state: a job read first is a snapshot that may
 * predate the attempt that moved it (its attemptsMade one short).
 */
export async function bullJobWhen(queue: Queue, jobId: string, state: 'completed' | 'failed'): Promise<Job> {
  return eventually(async () => ((await queue.getJobState(jobId)) === state ? queue.getJob(jobId) : null));
}

export const TDS_REQUEST = { domain: 'tds', tan: 'AHMA09719D', form: '26Q', quarter: 'Q3', financialYear: 'FY 2025-26' } as const;
export const TCS_REQUEST = { domain: 'tcs', tan: 'AHMA09719D', quarter: 'Q1', financialYear: 'FY 2025-26' } as const;

/** The status, message and code a promise is refused with; throws unless it is refused with a ServiceError. */
export async function rejection(promise: Promise<unknown>): Promise<{ status: number; message: string; code: string }> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { status: error.status, message: error.message, code: error.code };
}
