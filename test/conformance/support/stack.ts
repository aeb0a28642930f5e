// Every area behind one router, as the demo runs it: the kyc stack of the router tests (locker and OTP
// simulators on loopback, real Redis under a unique prefix, FsStorage served by the router) extended with the
// bank service (the demo's directory: the shipped sample and the vendor's example branches; penny-drop simulator) and the statement service with an in-process
// worker. Used by the vendor conformance test only.
import { KeySpace, Sealer, createRedisConnection, waitForRedis } from '@satyapan/core';
import { CashfreePennyDropProvider, SetuPennyLessProvider, bankArea, createBankService } from '@satyapan/bank';
import { StatementService, createStatementWorker, statementsArea, type StatementWorker } from '@satyapan/statement-queue';
import {
  startPanAadhaarLinkSimulator, startPanSimulator, startPennyDropSimulator, startPennyLessSimulator,
  type PanSimulator, type PennyDropSimulator, type PennyLessSimulator, type SimulatorControls,
} from '@satyapan/sandbox';
import { CLIENTS, startKycStack, type KycStack } from '../../../packages/kyc/test/support/stack.js';
import { demoDirectory } from '../../../examples/host-app/src/demo-directory.js';
import type { Json } from './facts.js';

export interface Answer {
  status: number;
  body: Json;
}

export interface ConformanceStack {
  kyc: KycStack;
  pennyDrop: PennyDropSimulator;
  pennyLess: PennyLessSimulator;
  pan: PanSimulator;
  panAadhaarLink: SimulatorControls;
  /** Stops the statement worker (jobs then stay queued) and starts a new one. */
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  /** Calls the API as a client written for the vendor does: bare token, x-api-key, JSON. */
  call(method: string, path: string, body?: Json): Promise<Answer>;
  close(): Promise<void>;
}

export async function startConformanceStack(): Promise<ConformanceStack> {
  const pennyDrop = await startPennyDropSimulator();
  const pennyLess = await startPennyLessSimulator();
  const [pan, panAadhaarLink] = await Promise.all([startPanSimulator(), startPanAadhaarLinkSimulator()]);
  let worker: StatementWorker | undefined;
  let startWorker: () => Promise<void> = async () => undefined;
  let workerConnection: ReturnType<typeof createRedisConnection> | undefined;
  const kyc = await startKycStack({
    harness: { rateLimit: { defaultLimit: 100_000 } },
    // The PAN operations over their simulators, built by createKycServices as a host does.
    kycConfig: {
      pan: { baseUrl: `${pan.url}/verification`, clientId: pan.clientId, clientSecret: pan.clientSecret, timeoutMs: 5_000, cacheKeySecret: 'test-cache-key-secret' },
      panAadhaarLink: { baseUrl: panAadhaarLink.url, timeoutMs: 5_000, cacheKeySecret: 'test-cache-key-secret' },
    },
    extend: async ({ redis, keyPrefix, storage }) => {
      const sealer = new Sealer([{ id: 'conformance', key: Sealer.generateKey() }]);
      // The demo's directory: penny drop and penny-less refuse an IFSC it lacks, and the vendor's examples use its own.
      const bank = await createBankService({
        directory: await demoDirectory(),
        verification: {
          provider: new CashfreePennyDropProvider({ baseUrl: `${pennyDrop.url}/verification`, clientId: pennyDrop.clientId, clientSecret: pennyDrop.clientSecret, timeoutMs: 5_000 }),
          redis,
          keys: new KeySpace(keyPrefix).child('bank'), keySecret: 'test-cache-key-secret',
        },
        pennyLess: {
          provider: new SetuPennyLessProvider({
            baseUrl: pennyLess.url, clientId: pennyLess.clientId, clientSecret: pennyLess.clientSecret,
            productInstanceId: pennyLess.productInstanceId, timeoutMs: 5_000,
          }),
          redis,
          keys: new KeySpace(keyPrefix).child('bank'), keySecret: 'test-cache-key-secret',
        },
      });
      const statements = new StatementService({ redis, storage, sealer, keyPrefix });
      workerConnection = createRedisConnection({ flavour: 'worker', connectionName: 'conformance-worker' });
      await waitForRedis(workerConnection);
      const connection = workerConnection;
      startWorker = async () => {
        worker = createStatementWorker({ connection, storage, sealer, keyPrefix, concurrency: 1, sweepIntervalMs: 200, retentionIntervalMs: 0, webhooks: false });
        await worker.ready();
      };
      await startWorker();
      return {
        areas: [bankArea(bank), statementsArea(statements)],
        async close() {
          await worker?.close({ timeoutMs: 2_000 });
          await statements.close();
          workerConnection?.disconnect();
        },
      };
    },
  });
  return {
    kyc,
    pennyDrop,
    pennyLess,
    pan,
    panAadhaarLink,
    async stopWorker() {
      await worker?.close({ timeoutMs: 5_000 });
      worker = undefined;
    },
    startWorker: () => startWorker(),
    async call(method, path, body) {
      // A fresh token per call: some cases move the clock a day on, past a token's lifetime.
      const token = await kyc.h.token(CLIENTS.all);
      const response = await fetch(`${kyc.h.baseUrl}${path}`, {
        method,
        headers: { authorization: token, 'x-api-key': CLIENTS.all.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'manual',
      });
      const text = await response.text();
      return { status: response.status, body: JSON.parse(text) as Json };
    },
    async close() {
      await kyc.close();
      await pennyDrop.close();
      await pennyLess.close();
      await Promise.all([pan.close(), panAadhaarLink.close()]);
    },
  };
}
