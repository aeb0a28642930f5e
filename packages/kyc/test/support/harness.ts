// Real components for the kyc tests: the locker simulator, Redis under a unique key prefix, FsStorage in a temp
// folder whose signed URLs are served by a small loopback HTTP server (the job the router does in production).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Server } from 'node:http';
import { FsStorage, KeySpace, ManualClock, Sealer, createRedisConnection, isServiceError, waitForRedis } from '@satyapan/core';
import { KycService, OpenIdLockerClient, type LockerKind, type RedisClient } from '@satyapan/kyc';
import { answerConsentPage, startLockerSimulator, type ConsentAnswer, type LockerSimulator } from '@satyapan/sandbox';
import { deleteKeysMatching } from '../../../../test/support/redis-cluster.js';

export const CLIENT_ID = 'kyc-service-test';
export const CLIENT_SECRET = 'kyc-service-test-secret';

export interface Harness {
  sim: LockerSimulator;
  redis: RedisClient;
  keys: KeySpace;
  storage: FsStorage;
  clock: ManualClock;
  service: KycService;
  callbackUrl(kind: LockerKind): string;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const sim = await startLockerSimulator();
  const redis = createRedisConnection({ flavour: 'producer', connectionName: 'kyc-test' });
  await waitForRedis(redis);
  const keys = new KeySpace(`test-kyc-${process.pid}-${randomBytes(4).toString('hex')}`);
  const root = await mkdtemp(join(tmpdir(), 'satyapan-kyc-'));
  const clock = new ManualClock(Date.now());
  const storage = new FsStorage({ root, signingSecret: randomBytes(32), clock });
  const files = await serveStorage(storage);
  storage.setPublicBaseUrl(`${files.url}/storage`);
  const callbackUrl = (kind: LockerKind): string => `${files.url}/kyc/${kind}/callback`;
  sim.registerClient({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, name: 'Satyapan test client', redirectUris: [callbackUrl('docvault'), callbackUrl('entityvault')] });
  const locker = (kind: LockerKind) => new OpenIdLockerClient({
    kind, baseUrl: kind === 'docvault' ? sim.docvaultBaseUrl : sim.entityvaultBaseUrl, clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET, callbackUrl: callbackUrl(kind),
  });
  const service = new KycService({
    redis, keys, storage, clock, lockers: { docvault: locker('docvault'), entityvault: locker('entityvault') },
    sealer: new Sealer([{ id: 'k1', key: Sealer.generateKey() }]), stateSecret: randomBytes(32),
  });
  return {
    sim, redis, keys, storage, clock, service, callbackUrl,
    async close() {
      service.close();
      await deleteKeys(redis, keys);
      redis.disconnect();
      await Promise.all([sim.close(), files.close()]);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Deletes only this run's keys. */
export async function deleteKeys(redis: RedisClient, keys: KeySpace): Promise<void> {
  await deleteKeysMatching(redis, `${keys.prefix}:*`);
}

async function serveStorage(storage: FsStorage): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get(/^\/storage\/(.+)$/, async (req, res) => {
    try {
      const key = decodeURIComponent((req.params as Record<string, string>)[0] ?? '');
      const grant = storage.verifySignedUrl('GET', key, req.query as Record<string, unknown>);
      const info = await storage.head(grant.key);
      if (!info) return void res.status(404).end();
      res.type(info.contentType ?? 'application/octet-stream');
      (await storage.get(grant.key)).pipe(res);
    } catch (error) {
      res.status(isServiceError(error) ? error.status : 500).end();
    }
  });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Opens the consent page behind an authorization URL and submits it; returns the callback query. */
export async function answerConsent(authorizationUrl: string, answer: ConsentAnswer): Promise<URLSearchParams> {
  const response = await answerConsentPage(authorizationUrl, answer);
  return new URL(response.headers.get('location') ?? '').searchParams;
}

/** The ServiceError a promise rejects with, for asserting status and message. */
export async function rejection(promise: Promise<unknown>): Promise<{ status: number; message: string; code: string }> {
  try {
    await promise;
  } catch (error) {
    if (isServiceError(error)) return { status: error.status, message: error.message, code: error.code };
    throw error;
  }
  throw new Error('expected a ServiceError, got a result');
}
