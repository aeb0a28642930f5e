// Workers for a suite: the suite's test environment, a worker-flavour Redis connection, and workers started on
// them that are closed after each test (a test that closes one itself says so with `forget`).
import { createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { createStatementWorker, type StatementWorker, type StatementWorkerOptions } from '@satyapan/statement-queue';
import { startEnv, type TestEnv } from './env.js';

export interface WorkerRig {
  /** Set once the suite's `before` hook ran. */
  readonly env: TestEnv;
  /** A worker on the suite's environment (no webhooks, no sweeps), ready, closed after the test. */
  start(overrides?: Partial<StatementWorkerOptions>): Promise<StatementWorker>;
  /** A worker the test closed itself: not closed again after it. */
  forget(worker: StatementWorker): void;
}

/** Registers the suite's hooks; call it inside `describe`. */
export function workerRig(connectionName: string): WorkerRig {
  let env: TestEnv | undefined;
  let connection: RedisConnection;
  const running: StatementWorker[] = [];
  before(async () => {
    env = await startEnv();
    connection = createRedisConnection({ flavour: 'worker', connectionName });
    await waitForRedis(connection);
  });
  afterEach(async () => {
    for (const worker of running.splice(0)) await worker.close({ timeoutMs: 2_000 });
  });
  after(async () => {
    connection.disconnect();
    await env?.close();
  });
  const rig: WorkerRig = {
    get env() {
      if (!env) throw new Error('the suite has not started');
      return env;
    },
    async start(overrides = {}) {
      const worker = createStatementWorker({
        connection, storage: rig.env.storage, sealer: rig.env.sealer, keyPrefix: rig.env.keyPrefix, clock: rig.env.clock,
        webhooks: false, sweepIntervalMs: 0, retentionIntervalMs: 0, ...overrides,
      });
      running.push(worker);
      await worker.ready();
      return worker;
    },
    forget(worker) {
      running.splice(running.indexOf(worker), 1);
    },
  };
  return rig;
}
