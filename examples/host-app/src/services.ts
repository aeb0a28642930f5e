import {
  KeySpace, Sealer, createRedisConnection, hmacSign, waitForRedis, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics,
} from '@satyapan/core';
import { CashfreePennyDropProvider, SetuPennyLessProvider, createBankService, type BankService } from '@satyapan/bank';
import { createKycServices, type KycServices } from '@satyapan/kyc';
import { StatementService, createStatementWorker, type StatementWorker } from '@satyapan/statement-queue';
import { Form16Service, createForm16Worker, type Form16Worker } from '@satyapan/form16-queue';
import { BulkService, RowCheckRegistry, bankRowChecks, createBulkWorker, kycRowChecks, type BulkWorker } from '@satyapan/bulk';
import type { HostConfig } from './config.js';
import { VENDOR_AADHAAR_NUMBERS } from '@satyapan/sandbox';
import type { DemoUpstreams } from './upstreams.js';
import type { RedisTarget } from './redis-bootstrap.js';
import { demoDirectory } from './demo-directory.js';


export interface DemoServices {
  services: KycServices & { bank: BankService; statements: StatementService; bulk: BulkService; form16: Form16Service };
  /** The in-process worker's readiness check; absent with SATYAPAN_WORKER=off (examples/worker has its own). */
  workerConnected?: () => Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Every domain service of the API, wired to the sandbox upstreams, plus an in-process statement worker (the
 * embedded default; production runs examples/worker as its own processes).
 */
export async function startDemoServices(
  config: HostConfig, redis: RedisConnection, redisTarget: RedisTarget, storage: ObjectStorage, upstreams: DemoUpstreams, apiUrl: string, logger: Logger,
  metrics: SatyapanMetrics,
): Promise<DemoServices> {
  const sealingKeys = [{ id: 'demo', key: config.sealingKey }];
  // One configured secret, a separate key per purpose: the JWT key never doubles as another HMAC key.
  const secretFor = (purpose: string): string => hmacSign(config.tokenSecret, `satyapan-demo:${purpose}`);
  const sealer = new Sealer(sealingKeys);
  const kyc = createKycServices({
    redis, storage, keyPrefix: config.keyPrefix, sealingKeys, logger, metrics,
    stateSecret: secretFor('oauth-state'),
    lockers: {
      docvault: { baseUrl: upstreams.locker.docvaultBaseUrl, ...upstreams.lockerClient, callbackUrl: `${apiUrl}/kyc/docvault/callback` },
      entityvault: { baseUrl: upstreams.locker.entityvaultBaseUrl, ...upstreams.lockerClient, callbackUrl: `${apiUrl}/kyc/entityvault/callback` },
    },
    aadhaarOtp: {
      baseUrl: upstreams.otp.url, clientId: upstreams.otp.clientId, clientSecret: upstreams.otp.clientSecret,
      numberHashSecret: secretFor('aadhaar-number-hash'),
      // The demo is a sandbox deployment: the vendor's sandbox numbers work too, so its clients' suites run here.
      testNumbers: Object.values(VENDOR_AADHAAR_NUMBERS),
    },
    pan: {
      baseUrl: `${upstreams.pan.url}/verification`, clientId: upstreams.pan.clientId, clientSecret: upstreams.pan.clientSecret,
      cacheKeySecret: secretFor('pan-cache-key'),
    },
    panAadhaarLink: { baseUrl: upstreams.panAadhaarLink.url, cacheKeySecret: secretFor('pan-aadhaar-cache-key') },
  });
  const bankSettings = { redis, keys: new KeySpace(config.keyPrefix).child('bank'), sealer, logger, metrics };
  const bank = await createBankService({
    directory: await demoDirectory(),
    verification: {
      ...bankSettings,
      provider: new CashfreePennyDropProvider({
        baseUrl: `${upstreams.pennyDrop.url}/verification`,
        clientId: upstreams.pennyDrop.clientId,
        clientSecret: upstreams.pennyDrop.clientSecret,
      }),
      // Cache keys are an HMAC of key, IFSC and account: a plain hash of them is brute-forced from a Redis dump.
      keySecret: secretFor('penny-drop-cache-key'),
    },
    pennyLess: {
      ...bankSettings,
      provider: new SetuPennyLessProvider({
        baseUrl: upstreams.pennyLess.url,
        clientId: upstreams.pennyLess.clientId,
        clientSecret: upstreams.pennyLess.clientSecret,
        productInstanceId: upstreams.pennyLess.productInstanceId,
        logger,
      }),
      keySecret: secretFor('penny-less-cache-key'),
    },
  });
  const statements = new StatementService({ redis, storage, sealer, keyPrefix: config.keyPrefix, logger, metrics });
  // Bulk jobs run the bank's checks row by row: the same registry for the API and the worker.
  const registry = new RowCheckRegistry([...bankRowChecks(bank), ...kycRowChecks(kyc)]);
  const bulk = new BulkService({ redis, storage, sealer, registry, keyPrefix: config.keyPrefix, logger, metrics });
  const form16 = new Form16Service({ redis, storage, sealer, keyPrefix: config.keyPrefix, logger, metrics });
  const worker = config.workerInProcess ? await startInProcessWorker(redisTarget, config, storage, sealer, registry, logger, metrics) : undefined;
  return {
    services: { ...kyc, bank, statements, bulk, form16 },
    ...(worker ? { workerConnected: () => worker.connected() } : {}),
    async close() {
      await worker?.close();
      await statements.close();
      await bulk.close();
      await form16.close();
      kyc.kyc.close();
      kyc.pan?.close();
      kyc.panAadhaarLink?.close();
      kyc.aadhaarOtp?.close();
      bank.close();
    },
  };
}

/** The embedded default: a statement, a bulk and a Form 16 worker in this process, on a connection of their own. */
async function startInProcessWorker(
  redisTarget: RedisTarget, { keyPrefix, workerConcurrency, form16Limits }: HostConfig, storage: ObjectStorage, sealer: Sealer, registry: RowCheckRegistry, logger: Logger, metrics: SatyapanMetrics,
): Promise<{ connected(): Promise<boolean>; close(): Promise<void> }> {
  const connection = createRedisConnection({ ...redisTarget, flavour: 'worker', connectionName: 'satyapan-demo-worker', logger });
  await waitForRedis(connection);
  const worker: StatementWorker = createStatementWorker({
    connection, storage, sealer, keyPrefix, concurrency: workerConcurrency, logger, metrics,
    // The demo's webhook receivers are the operator's own machine.
    webhooks: { allowPrivateUrls: ['localhost', '127.0.0.1'] },
  });
  await worker.ready();
  const bulk: BulkWorker = createBulkWorker({ connection, storage, sealer, registry, keyPrefix, concurrency: 1, logger, metrics });
  await bulk.ready();
  const form16: Form16Worker = createForm16Worker({
    connection, storage, sealer, keyPrefix, logger, metrics, generationLimits: form16Limits, webhooks: { allowPrivateUrls: ['localhost', '127.0.0.1'] },
  });
  await form16.ready();
  return {
    connected: async () => (await worker.connected()) && (await bulk.connected()) && (await form16.connected()),
    async close() {
      await Promise.all([worker.close({ timeoutMs: 5_000 }), bulk.close({ timeoutMs: 5_000 }), form16.close({ timeoutMs: 5_000 })]);
      connection.disconnect();
    },
  };
}

/**
 * What examples/worker needs to serve this demo's jobs when SATYAPAN_WORKER=off: the same Redis, key prefix,
 * storage (folder, signing secret, public URL; or the S3 bucket, prefix, endpoint and region, with the AWS
 * credentials left to the worker's environment) and sealing key. Secrets are printed because the demo prints its
 * demo secret too: it is a demo on the operator's own machine.
 */
export function workerEnvironment(config: HostConfig, redisTarget: RedisTarget, apiUrl: string, upstreams: DemoUpstreams): Record<string, string> {
  const secretFor = (purpose: string): string => hmacSign(config.tokenSecret, `satyapan-demo:${purpose}`);
  const storage: Record<string, string> = config.s3
    ? {
      SATYAPAN_S3_BUCKET: config.s3.bucket,
      ...(config.s3.keyPrefix !== undefined ? { SATYAPAN_S3_PREFIX: config.s3.keyPrefix } : {}),
      ...(config.s3.endpoint !== undefined ? { SATYAPAN_S3_ENDPOINT: config.s3.endpoint } : {}),
      AWS_REGION: config.s3.region,
    }
    : { SATYAPAN_DATA_DIR: config.dataDir, SATYAPAN_STORAGE_SECRET: config.storageSecret, SATYAPAN_STORAGE_URL: `${apiUrl}/storage` };
  return {
    ...(redisTarget.nodes ? { REDIS_CLUSTER_NODES: redisTarget.nodes.join(',') } : { REDIS_URL: redisTarget.url ?? '' }),
    SATYAPAN_KEY_PREFIX: config.keyPrefix,
    ...storage,
    SATYAPAN_SEALING_KEYS: `demo:${config.sealingKey}`,
    SATYAPAN_WEBHOOK_ALLOW: 'localhost,127.0.0.1',
    // Bulk jobs: the sandbox providers and the API's cache keys, so rows share the API's per-key caches.
    SATYAPAN_PENNY_DROP_URL: `${upstreams.pennyDrop.url}/verification`,
    SATYAPAN_PENNY_DROP_CLIENT_ID: upstreams.pennyDrop.clientId,
    SATYAPAN_PENNY_DROP_CLIENT_SECRET: upstreams.pennyDrop.clientSecret,
    SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET: secretFor('penny-drop-cache-key'),
    SATYAPAN_PENNY_LESS_URL: upstreams.pennyLess.url,
    SATYAPAN_PENNY_LESS_CLIENT_ID: upstreams.pennyLess.clientId,
    SATYAPAN_PENNY_LESS_CLIENT_SECRET: upstreams.pennyLess.clientSecret,
    SATYAPAN_PENNY_LESS_PRODUCT_INSTANCE_ID: upstreams.pennyLess.productInstanceId,
    SATYAPAN_PENNY_LESS_CACHE_KEY_SECRET: secretFor('penny-less-cache-key'),
    SATYAPAN_PAN_URL: `${upstreams.pan.url}/verification`,
    SATYAPAN_PAN_CLIENT_ID: upstreams.pan.clientId,
    SATYAPAN_PAN_CLIENT_SECRET: upstreams.pan.clientSecret,
    SATYAPAN_PAN_CACHE_KEY_SECRET: secretFor('pan-cache-key'),
    SATYAPAN_PAN_AADHAAR_LINK_URL: upstreams.panAadhaarLink.url,
    SATYAPAN_PAN_AADHAAR_LINK_CACHE_KEY_SECRET: secretFor('pan-aadhaar-cache-key'),
  };
}
