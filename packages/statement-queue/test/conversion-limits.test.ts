import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRedisConnection, readAll, waitForRedis, type RedisConnection } from '@satyapan/core';
import {
  createStatementWorker, ownerOf, storageKeys,
  type JobRef, type StatementJobView, type StatementWorker, type StatementWorkerOptions,
} from '@satyapan/statement-queue';
import { eventually, startEnv, type TestEnv } from './support/env.js';
import { workbook26Q } from './support/workbooks.js';

const TDS_Q2 = { domain: 'tds', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26' } as const;
const CLIENT = { clientId: 'client-limits' };

interface Report {
  problems: Array<{ code: string; message: string }>;
}

/**
 * A conversion runs in a child process with a time and a memory limit: whatever its input does to that process,
 * the job fails at once with the reason (CONVERSION_LIMIT), is not retried, and the worker goes on converting.
 */
describe('statement-queue: conversion limits', function () {
  this.timeout(60_000);
  let env: TestEnv;
  let connection: RedisConnection;
  const running: StatementWorker[] = [];

  before(async () => {
    env = await startEnv();
    connection = createRedisConnection({ flavour: 'worker', connectionName: 'statement-limits-test' });
    await waitForRedis(connection);
  });
  afterEach(async () => {
    for (const worker of running.splice(0)) await worker.close({ timeoutMs: 2_000 });
  });
  after(async () => {
    connection.disconnect();
    await env.close();
  });

  async function startWorker(overrides: Partial<StatementWorkerOptions> = {}): Promise<StatementWorker> {
    const worker = createStatementWorker({
      connection, storage: env.storage, sealer: env.sealer, keyPrefix: env.keyPrefix, clock: env.clock,
      webhooks: false, sweepIntervalMs: 0, retentionIntervalMs: 0, ...overrides,
    });
    running.push(worker);
    await worker.ready();
    return worker;
  }

  async function submitAndUpload(body: string | object): Promise<StatementJobView> {
    const job = await env.service.submitJob(TDS_Q2, CLIENT);
    await env.upload(job.json_url as string, typeof body === 'string' ? body : JSON.stringify(body));
    return job;
  }

  async function finished(job: StatementJobView): Promise<StatementJobView> {
    return eventually(async () => {
      const polled = await env.service.getJob('tds', CLIENT.clientId, job.job_id);
      return polled.status === 'succeeded' || polled.status === 'failed' ? polled : null;
    }, 45_000, 50);
  }

  const refOf = (job: StatementJobView): JobRef => ({ owner: ownerOf(CLIENT.clientId), jobId: job.job_id });

  async function reportOf(job: StatementJobView): Promise<Report> {
    return JSON.parse((await readAll(await env.storage.get(storageKeys.reportJson(refOf(job))))).toString('utf8')) as Report;
  }

  /** The job failed once, on its first attempt, with CONVERSION_LIMIT as its one problem; the worker still converts. */
  async function expectLimitFailure(job: StatementJobView, worker: StatementWorker, message: RegExp): Promise<void> {
    const done = await finished(job);
    expect(done.status).to.equal('failed');
    const [problem, ...others] = (await reportOf(job)).problems;
    expect(others).to.deep.equal([]);
    expect(problem?.code).to.equal('CONVERSION_LIMIT');
    expect(problem?.message).to.match(message);
    expect((await env.service.store.get(refOf(job)))?.attempts).to.equal(1);
    expect(worker.worker.isRunning()).to.equal(true);
    const next = await finished(await submitAndUpload(workbook26Q({ rows: 5 })));
    expect(next.status).to.equal('succeeded');
  }

  it('fails a conversion that runs past its time limit, naming the limit, and converts the next job', async () => {
    const worker = await startWorker({ conversionLimits: { timeoutMs: 300 } });
    const job = await submitAndUpload(workbook26Q({ rows: 200_000 }));
    await expectLimitFailure(job, worker, /time limit \(timeoutMs = 300 ms\)/);
  });

  it('fails a conversion whose process outgrows its memory limit, naming the limit', async () => {
    // The child starts at some 110 MB under tsx; one 45 MB cell takes it past 220 MB while the engine reads it.
    const worker = await startWorker({ conversionLimits: { memoryMb: 165 } });
    const job = await submitAndUpload(`{"deductor":{"name":"${'A'.repeat(45e6)}"}}`);
    await expectLimitFailure(job, worker, /limit \(memoryMb = 165 MB\)/);
  });

  it('fails a conversion whose process is killed under it, without retrying it into another death', async () => {
    const worker = await startWorker();
    const job = await submitAndUpload(workbook26Q({ rows: 200_000 }));
    await eventually(async () => (await env.service.getJob('tds', CLIENT.clientId, job.job_id)).status === 'in_progress');
    // In progress starts before the workbook reaches the process; a 200,000-row conversion takes seconds after.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const children = childPids();
    expect(children, 'the worker\'s conversion process').to.have.length(1);
    process.kill(children[0]!, 'SIGKILL');
    await expectLimitFailure(job, worker, /ended on this input \(signal SIGKILL\)/);
  });

  it('answers a request it cannot serve with a retryable crash, not a limit (an unreadable input file)', async () => {
    const { ProcessConverter, ConversionCrashedError } = await import('@satyapan/statement-queue');
    const converter = new ProcessConverter();
    try {
      const request = { inputPath: '/nonexistent/workbook.json', outputPath: '/nonexistent/out.txt', options: { form: '26Q', quarter: 'Q2' as const, financialYear: 'FY 2025-26', tan: 'PNEG01234C', createdAt: 0 } };
      const error = await converter.convert(request).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(ConversionCrashedError);
      expect((error as Error).message).to.match(/ENOENT/);
    } finally {
      await converter.close();
    }
  });
});

/** This process's conversion processes (Linux), by their command line. */
function childPids(): number[] {
  const text = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim();
  const pids = text === '' ? [] : text.split(/\s+/).map(Number);
  return pids.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('conversion/child.'));
}
