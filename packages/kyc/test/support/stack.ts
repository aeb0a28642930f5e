// The kyc area as a host app runs it, for the router and end-to-end tests: the router test harness (real HTTP,
// real Redis under a unique prefix), FsStorage served by the router, the locker and OTP simulators on loopback,
// and the services built with createKycServices() exactly as a host would.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { FsStorage, ManualClock, Sealer, createRedisConnection, waitForRedis } from '@satyapan/core';
import { createKycServices, type KycServices, type KycServicesConfig, type RedisClient } from '@satyapan/kyc';
import { answerConsentPage, startAadhaarOtpSimulator, startLockerSimulator, type AadhaarOtpSimulator, type LockerSimulator } from '@satyapan/sandbox';
import type { Area } from '@satyapan/core';
import { CLIENTS, startHarness, type Harness, type HarnessOptions } from '../../../router/test/support/harness.js';
import { kycArea } from '../../src/index.js';

export { CLIENTS };

const LOCKER_CLIENT = { clientId: 'satyapan-e2e', clientSecret: 'satyapan-e2e-secret' };

export interface KycStack {
  h: Harness;
  lockers: LockerSimulator;
  otp: AadhaarOtpSimulator;
  services: KycServices;
  clock: ManualClock;
  /** Calls the API over real HTTP as `client`, with a fresh token. */
  api(method: 'GET' | 'POST', path: string, body?: unknown, client?: (typeof CLIENTS)[keyof typeof CLIENTS]): Promise<ApiAnswer>;
  close(): Promise<void>;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: Record<string, any>;
}

/** What a test adds to the kyc stack: other areas, built on the stack's Redis, storage and prefix. */
export interface StackExtension {
  areas: Area[];
  close(): Promise<void>;
}

export interface KycStackOptions {
  extend?: (base: { redis: RedisClient; keyPrefix: string; storage: FsStorage; clock: ManualClock }) => Promise<StackExtension>;
  harness?: Pick<HarnessOptions, 'rateLimit'>;
  /** More of createKycServices' configuration (e.g. the PAN services). */
  kycConfig?: Pick<KycServicesConfig, 'pan' | 'panAadhaarLink'>;
}

export async function startKycStack(options: KycStackOptions = {}): Promise<KycStack> {
  const [lockers, otp] = await Promise.all([startLockerSimulator(), startAadhaarOtpSimulator()]);
  const clock = new ManualClock(Date.now());
  const root = await mkdtemp(join(tmpdir(), 'satyapan-kyc-e2e-'));
  const storage = new FsStorage({ root, signingSecret: randomBytes(32), clock });
  const redis: RedisClient = createRedisConnection({ flavour: 'producer', connectionName: 'kyc-e2e' });
  await waitForRedis(redis);
  const keyPrefix = `test:${randomUUID()}`;
  const services = createKycServices({
    redis, keyPrefix, storage, clock,
    sealingKeys: [{ id: 'e2e', key: Sealer.generateKey() }],
    stateSecret: randomBytes(32),
    lockers: {
      docvault: { baseUrl: lockers.docvaultBaseUrl, ...LOCKER_CLIENT },
      entityvault: { baseUrl: lockers.entityvaultBaseUrl, ...LOCKER_CLIENT },
    },
    aadhaarOtp: { baseUrl: otp.url, clientId: otp.clientId, clientSecret: otp.clientSecret, numberHashSecret: randomBytes(32) },
    ...options.kycConfig,
  });
  const extension = await options.extend?.({ redis, keyPrefix, storage, clock });
  const h = await startHarness({ ...options.harness, keyPrefix, clock, storage: () => storage, areas: [kycArea(services), ...(extension?.areas ?? [])] });
  // The callback URLs are only known now that the router listens; the locker must know them as redirect URIs.
  lockers.registerClient({
    ...LOCKER_CLIENT, name: 'Satyapan end-to-end test',
    redirectUris: [`${h.baseUrl}/kyc/docvault/callback`, `${h.baseUrl}/kyc/entityvault/callback`],
  });
  const tokens = new Map<string, string>();
  return {
    h, lockers, otp, services, clock,
    async api(method, path, body, client = CLIENTS.all) {
      const token = tokens.get(client.apiKey) ?? (await h.token(client));
      tokens.set(client.apiKey, token);
      const response = await fetch(`${h.baseUrl}${path}`, {
        method,
        headers: { authorization: token, 'x-api-key': client.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
    },
    async close() {
      await extension?.close();
      services.kyc.close();
      services.pan?.close();
      services.panAadhaarLink?.close();
      services.aadhaarOtp?.close();
      await h.close();
      redis.disconnect();
      await Promise.all([lockers.close(), otp.close()]);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * The user's side of the consent flow, as a browser without JavaScript does it: open the authorization URL,
 * submit the locker's form, and follow the locker's redirect to our callback. Returns our callback's answer.
 */
export async function consentAtLocker(authorizationUrl: string, answer: { user: string; decision?: 'allow' | 'deny'; documents?: string[]; accept?: string }): Promise<{ callback: URL; response: Response }> {
  const decision = await answerConsentPage(authorizationUrl, answer);
  const callback = new URL(decision.headers.get('location') ?? '');
  const response = await fetch(callback, { redirect: 'manual', ...(answer.accept ? { headers: { accept: answer.accept } } : {}) });
  return { callback, response };
}
