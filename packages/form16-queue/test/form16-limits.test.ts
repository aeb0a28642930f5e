// Issue 22 for Form 16 jobs: a job's generation (workbook read, PDFs made and signed) runs in a child process of
// the worker with a time and a memory limit. Whatever its input does to that process, the job fails at once with
// CONVERSION_LIMIT naming the limit, is not retried, and the worker goes on to make the next job (the library's
// own refusals crossing from the child with their code: form16-jobs.test.ts). Real Redis, FsStorage, the worker here.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { FsStorage, Sealer, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { Form16Service, createForm16Worker, form16OwnerOf, type Form16JobView, type Form16Worker, type Form16WorkerOptions } from '@satyapan/form16-queue';
import { FINANCIAL_YEAR, TAN, form16Workbook, manyEmployeesWorkbook } from '../../form16/test/support/workbook.js';
import { deleteKeysMatching } from '../../../test/support/redis-cluster.js';
import { finishedJob, uploadTo } from './support/jobs.js';
import { busySince, childPids, cpuTicks, idleChild, loadScaled } from '../../jobs/test/support/processes.js';

/** What a generation process's command line names. */
const ENTRY = 'generation/child.';

const CLIENT = { clientId: 'form16-limits-client' };

describe('form16-queue: generation limits (a child process per job lane)', function () {
  this.timeout(120_000);
  const keyPrefix = `test:form16-limits:${randomUUID()}`;
  const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
  let redis: RedisConnection;
  let connection: RedisConnection;
  let dataDir: string;
  let storage: FsStorage;
  let service: Form16Service;
  let running: Form16Worker | null = null;
  /** Slow enough to outlast a one-second limit and a kill's wait on any machine: seconds of PDFs. */
  let slowWorkbook: string;

  before(async () => {
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'form16-limits-test' });
    connection = createRedisConnection({ flavour: 'worker', connectionName: 'form16-limits-test-worker' });
    await waitForRedis(redis);
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-form16-limits-'));
    storage = new FsStorage({ root: dataDir, signingSecret: 'form16-limits-test', publicBaseUrl: 'http://127.0.0.1:9/storage' });
    service = new Form16Service({ redis, storage, sealer, keyPrefix });
    slowWorkbook = JSON.stringify(manyEmployeesWorkbook(3_000));
  });

  afterEach(async () => {
    await running?.close({ timeoutMs: 2_000 });
    running = null;
  });

  after(async () => {
    await service?.close();
    await deleteKeysMatching(redis, `${keyPrefix}*`);
    redis.disconnect();
    connection.disconnect();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function startWorker(overrides: Partial<Form16WorkerOptions> = {}): Promise<Form16Worker> {
    running = createForm16Worker({ connection, storage, sealer, keyPrefix, sweepIntervalMs: 200, retentionIntervalMs: 0, ...overrides });
    await running.ready();
    return running;
  }

  const upload = (url: string, body: Buffer | string): Promise<void> => uploadTo(storage, url, body);
  const finished = (jobId: string): Promise<Form16JobView> => finishedJob(service, CLIENT.clientId, jobId, 90_000);

  async function submit(workbook: string): Promise<string> {
    const job = await service.submit({ tan: TAN, financialYear: FINANCIAL_YEAR }, CLIENT);
    await upload(job.workbook_url as string, workbook);
    return job.job_id;
  }

  /** Failed once, on its first attempt, with CONVERSION_LIMIT and the message; the worker then makes a small job. */
  async function expectLimitFailure(jobId: string, worker: Form16Worker, message: RegExp): Promise<void> {
    const done = await finished(jobId);
    expect(done).to.include({ status: 'failed', code: 'CONVERSION_LIMIT' });
    expect(done.message).to.match(message);
    expect((await service.store.get({ owner: form16OwnerOf(CLIENT.clientId), jobId }))?.attempts).to.equal(1);
    expect(worker.worker.isRunning()).to.equal(true);
    expect(await finished(await submit(JSON.stringify(form16Workbook())))).to.include({ status: 'succeeded', pdfs: 3 });
  }

  it('fails a generation that runs past its time limit, naming the limit, and makes the next job', async () => {
    // A second, times the load: the small job after the slow one must make its PDFs within it on a loaded machine too.
    const timeoutMs = loadScaled(1_000);
    const worker = await startWorker({ generationLimits: { timeoutMs } });
    await expectLimitFailure(await submit(slowWorkbook), worker, new RegExp(`^The Form 16 generation ran past its time limit \\(timeoutMs = ${timeoutMs} ms\\)`));
  });

  it('fails a generation whose process outgrows its memory limit, naming the limit', async () => {
    // The child starts at some 165 MB under tsx; reading a 45 MB cell (the file, its text, the parsed string)
    // takes it well past 220 MB.
    const worker = await startWorker({ generationLimits: { memoryMb: 220 } });
    await expectLimitFailure(await submit(`{"deductor":{"name":"${'A'.repeat(45e6)}"}}`), worker, /limit \(memoryMb = 220 MB\)/);
  });

  it('fails a job whose generation process is killed under it, without retrying it into another death', async () => {
    const worker = await startWorker();
    // Killed before it took the job, the process would only be replaced and the job made by its successor.
    const child = await idleChild(ENTRY);
    const idle = cpuTicks(child);
    const jobId = await submit(slowWorkbook);
    await busySince(child, idle);
    expect(childPids(ENTRY)).to.deep.equal([child]);
    process.kill(child, 'SIGKILL');
    await expectLimitFailure(jobId, worker, /ended on this input \(signal SIGKILL\)/);
  });

  it('hands a running generation back to the queue when shutdown runs out of time; another worker makes it', async () => {
    const first = await startWorker();
    const jobId = await submit(JSON.stringify(manyEmployeesWorkbook(300)));
    const ref = { owner: form16OwnerOf(CLIENT.clientId), jobId };
    await eventually(async () => (await service.store.get(ref))?.status === 'in_progress');
    await first.close({ timeoutMs: 50 });
    running = null;
    expect(await (await service.queue.getJob(jobId))?.getState()).to.equal('waiting');
    expect((await service.store.get(ref))?.status).to.equal('in_progress');
    await startWorker();
    expect(await finished(jobId)).to.include({ status: 'succeeded', pdfs: 300 });
    expect((await service.store.get(ref))?.attempts).to.equal(2);
  });
});

async function eventually<T>(probe: () => Promise<T | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + loadScaled(timeoutMs);
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
