// Test environment of bulk jobs: real Redis under a unique key prefix, FsStorage in a temp folder, the penny-drop
// and penny-less simulators on loopback, the bank service wired to them, and a bulk service; workers in this
// process on demand. Uploads go through FsStorage's own signed-URL receiver, as the router's storage endpoint does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { FsStorage, KeySpace, Sealer, createRedisConnection, readAll, waitForRedis, type RedisConnection } from '@satyapan/core';
import { CashfreePennyDropProvider, SetuPennyLessProvider, createBankService, loadSampleDirectory, type BankService } from '@satyapan/bank';
import {
  startPanAadhaarLinkSimulator, startPanSimulator, startPennyDropSimulator, startPennyLessSimulator, type PanSimulator, type SimulatorControls, type PennyDropSimulator, type PennyDropSimulatorOptions,
  type PennyLessSimulator,
} from '@satyapan/sandbox';
import { CashfreePanProvider, IncomeTaxLinkStatusProvider, PanAadhaarLinkService, PanVerificationService } from '@satyapan/kyc';
import {
  BulkService, RowCheckRegistry, bankRowChecks, createBulkWorker, kycRowChecks, type BulkJobView, type BulkServiceOptions, type BulkWorker, type BulkWorkerOptions,
} from '@satyapan/bulk';
import { deleteKeysMatching } from '../../../../test/support/redis-cluster.js';

export interface BulkEnv {
  redis: RedisConnection;
  keyPrefix: string;
  dataDir: string;
  storage: FsStorage;
  sealer: Sealer;
  /** The sealer's key (`k1:<key>` is SATYAPAN_SEALING_KEYS for a worker process). */
  sealingKey: string;
  pennyDrop: PennyDropSimulator;
  pennyLess: PennyLessSimulator;
  pan: PanSimulator;
  /** The e-filing portal's link-status service, for the `pan_aadhaar_link` kind. */
  link: SimulatorControls;
  bank: BankService;
  registry: RowCheckRegistry;
  service: BulkService;
  /** The secret the bank caches' keys are made with (a worker process needs the same). */
  cacheKeySecret: string;
  startWorker(overrides?: Partial<BulkWorkerOptions>): Promise<BulkWorker>;
  /** PUT through a signed URL, the way the router's storage endpoint receives it. */
  upload(url: string, body: string | Readable): Promise<void>;
  /** Submits a job of `kind` for `csv` as the test client and uploads the file. */
  submitAndUpload(kind: string, csv: string, options?: { acceptCache?: boolean }): Promise<BulkJobView>;
  /** Polls until the job is finished (a job of `clientId`, the test client's by default). */
  finished(jobId: string, timeoutMs?: number, clientId?: string): Promise<BulkJobView>;
  /** The result CSV's lines (header first). */
  resultLines(view: BulkJobView): Promise<string[]>;
  /** The summary CSV's lines (header first). */
  summaryLines(view: BulkJobView): Promise<string[]>;
  close(): Promise<void>;
}

/** Pacing is on by default; the suites pace only where they test it, so that their simulators answer at full speed. */
export const UNPACED = { penny_drop: Infinity, penny_less: Infinity, pan_verification: Infinity, pan_aadhaar_link: Infinity } as const;

export const CLIENT = { clientId: 'bulk-client', apiKey: 'key_bulk_test', products: ['bank', 'kyc'] as const };

/** `linkStatus`: also offer the `pan_aadhaar_link` kind (the other suites keep the four kinds their messages name). */
export async function startBulkEnv(options: { pennyDrop?: PennyDropSimulatorOptions; service?: Partial<BulkServiceOptions>; linkStatus?: boolean } = {}): Promise<BulkEnv> {
  const keyPrefix = `test:bulk:${randomUUID()}`;
  const redis = createRedisConnection({ flavour: 'producer', connectionName: 'bulk-test' });
  await waitForRedis(redis);
  const dataDir = await mkdtemp(join(tmpdir(), 'satyapan-bulk-'));
  const storage = new FsStorage({ root: dataDir, signingSecret: 'bulk-test-secret', publicBaseUrl: 'http://127.0.0.1:9/storage' });
  const sealingKey = Sealer.generateKey();
  const sealer = new Sealer([{ id: 'k1', key: sealingKey }]);
  const pennyDrop = await startPennyDropSimulator(options.pennyDrop);
  const pennyLess = await startPennyLessSimulator();
  const panSim = await startPanSimulator();
  const linkSim = await startPanAadhaarLinkSimulator();
  const cacheKeySecret = `cache-${randomUUID()}`;
  const bankSettings = { redis, keys: new KeySpace(keyPrefix).child('bank'), sealer, keySecret: cacheKeySecret };
  const bank = await createBankService({
    directory: await loadSampleDirectory(),
    verification: {
      ...bankSettings,
      provider: new CashfreePennyDropProvider({ baseUrl: `${pennyDrop.url}/verification`, clientId: pennyDrop.clientId, clientSecret: pennyDrop.clientSecret, timeoutMs: 5_000 }),
    },
    pennyLess: {
      ...bankSettings,
      provider: new SetuPennyLessProvider({
        baseUrl: pennyLess.url, clientId: pennyLess.clientId, clientSecret: pennyLess.clientSecret, productInstanceId: pennyLess.productInstanceId, timeoutMs: 5_000,
      }),
    },
  });
  const pan = new PanVerificationService({
    redis, keys: new KeySpace(keyPrefix).child('kyc'), sealer, keySecret: cacheKeySecret,
    provider: new CashfreePanProvider({ baseUrl: `${panSim.url}/verification`, clientId: panSim.clientId, clientSecret: panSim.clientSecret, timeoutMs: 5_000 }),
  });
  const panAadhaarLink = new PanAadhaarLinkService({
    redis, keys: new KeySpace(keyPrefix).child('kyc'), sealer, keySecret: cacheKeySecret,
    provider: new IncomeTaxLinkStatusProvider({ baseUrl: linkSim.url, timeoutMs: 5_000 }),
  });
  const registry = new RowCheckRegistry([...bankRowChecks(bank), ...kycRowChecks({ pan, ...(options.linkStatus ? { panAadhaarLink } : {}) })]);
  const service = new BulkService({ redis, storage, sealer, registry, keyPrefix, ...options.service });
  const workers: BulkWorker[] = [];
  const connections: RedisConnection[] = [];
  const grantOf = (url: string) => {
    const parsed = new URL(url);
    const key = decodeURIComponent(parsed.pathname.replace(/^\/storage\//, ''));
    return storage.verifySignedUrl('PUT', key, Object.fromEntries(parsed.searchParams));
  };
  const linesAt = async (signedUrl: string): Promise<string[]> => {
    const key = decodeURIComponent(new URL(signedUrl).pathname.replace(/^\/storage\//, ''));
    return (await readAll(await storage.get(key))).toString('utf8').trimEnd().split('\n');
  };
  const env: BulkEnv = {
    redis, keyPrefix, dataDir, storage, sealer, sealingKey, pennyDrop, pennyLess, pan: panSim, link: linkSim, bank, registry, service, cacheKeySecret,
    async startWorker(overrides = {}) {
      const connection = createRedisConnection({ flavour: 'worker', connectionName: 'bulk-test-worker' });
      connections.push(connection);
      const worker = createBulkWorker({ connection, storage, sealer, registry, keyPrefix, sweepIntervalMs: 200, retentionIntervalMs: 0, rateLimits: UNPACED, ...overrides });
      workers.push(worker);
      await worker.ready();
      return worker;
    },
    async upload(url, body) {
      await storage.receiveUpload(grantOf(url), typeof body === 'string' ? Readable.from([Buffer.from(body)]) : body);
    },
    async submitAndUpload(kind, csv, { acceptCache = false } = {}) {
      const job = await service.submit({ kind, acceptCache }, CLIENT);
      await env.upload(job.csv_url as string, csv);
      return job;
    },
    async finished(jobId, timeoutMs = 20_000, clientId = CLIENT.clientId) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const view = await service.get(clientId, jobId);
        if (view.status === 'succeeded' || view.status === 'failed') return view;
        if (Date.now() > deadline) throw new Error(`bulk job ${jobId} still ${view.status} after ${timeoutMs} ms (${view.rows_done}/${view.rows_total})`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async resultLines(view) {
      return linesAt(view.result_url as string);
    },
    async summaryLines(view) {
      return linesAt(view.summary_url as string);
    },
    async close() {
      for (const worker of workers) await worker.close({ timeoutMs: 2_000 });
      for (const connection of connections) connection.disconnect();
      await service.close();
      bank.close();
      pan.close();
      panAadhaarLink.close();
      await Promise.all([pennyDrop.close(), pennyLess.close(), panSim.close(), linkSim.close()]);
      await deleteKeysMatching(redis, `${keyPrefix}*`);
      redis.disconnect();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return env;
}
