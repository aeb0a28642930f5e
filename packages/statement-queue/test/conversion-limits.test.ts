import { expect } from 'chai';
import { readAll } from '@satyapan/core';
import {
  ownerOf, storageKeys,
  type JobRef, type StatementJobView, type StatementWorker, type StatementWorkerOptions,
} from '@satyapan/statement-queue';
import { eventually, type TestEnv } from './support/env.js';
import { workerRig } from './support/workers.js';
import { workbook26Q } from './support/workbooks.js';
import { busySince, childPids, cpuTicks, idleChild, loadScaled } from '../../jobs/test/support/processes.js';

/** What a conversion process's command line names. */
const ENTRY = 'conversion/child.';

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
  const rig = workerRig('statement-limits-test');
  let env: TestEnv;
  before(() => {
    env = rig.env;
  });
  const startWorker = (overrides: Partial<StatementWorkerOptions> = {}): Promise<StatementWorker> => rig.start(overrides);

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
    // 340,000 rows take seconds even on a fast machine; the small job after them well under a second on a slow one,
    // unless other work loads it: the limit is a second times the load (both jobs slow down with it).
    const timeoutMs = loadScaled(1_000);
    const worker = await startWorker({ conversionLimits: { timeoutMs } });
    const job = await submitAndUpload(workbook26Q({ rows: 340_000 }));
    await expectLimitFailure(job, worker, new RegExp(`time limit \\(timeoutMs = ${timeoutMs} ms\\)`));
  });

  it('fails a conversion whose process outgrows its memory limit, naming the limit', async () => {
    // The child starts at some 110 MB under tsx; one 45 MB cell takes it past 220 MB while the engine reads it.
    const worker = await startWorker({ conversionLimits: { memoryMb: 165 } });
    const job = await submitAndUpload(`{"deductor":{"name":"${'A'.repeat(45e6)}"}}`);
    await expectLimitFailure(job, worker, /limit \(memoryMb = 165 MB\)/);
  });

  it('fails a conversion whose process is killed under it, without retrying it into another death', async () => {
    const worker = await startWorker();
    // Killed earlier than its conversion, the process would only be replaced and the job converted by its successor.
    const child = await idleChild(ENTRY);
    const idle = cpuTicks(child);
    const job = await submitAndUpload(workbook26Q({ rows: 340_000 }));
    expect(childPids(ENTRY)).to.deep.equal([child]);
    // Killed once it is converting (it spends CPU: an idle process spends none), long before it is done.
    await busySince(child, idle);
    process.kill(child, 'SIGKILL');
    await expectLimitFailure(job, worker, /ended on this input \(signal SIGKILL\)/);
  });

  it('converts with the engine\'s input limits the worker was given, and refuses an unknown one when it starts', async () => {
    const worker = await startWorker({ inputLimits: { workbookRows: 3 } });
    const job = await submitAndUpload(workbook26Q({ rows: 5 }));
    const done = await finished(job);
    expect(done.status).to.equal('failed');
    const [problem] = (await reportOf(job)).problems;
    expect(problem?.code).to.equal('CONVERSION_LIMIT');
    expect(problem?.message).to.match(/past the limit workbookRows = 3$/);
    expect(worker.worker.isRunning()).to.equal(true);
    const refused = await rig.start({ inputLimits: { sheetRowz: 5 } as never }).then(() => null, (error: unknown) => error);
    expect((refused as Error | null)?.message).to.match(/^Unknown limit 'sheetRowz'/);
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

  it('stops a conversion aborted while its process was still starting (the abort event had already fired)', async () => {
    const { ProcessConverter, ConversionAbortedError } = await import('@satyapan/statement-queue');
    const converter = new ProcessConverter();
    try {
      const request = { inputPath: '/nonexistent/workbook.json', outputPath: '/nonexistent/out.txt', options: { form: '26Q', quarter: 'Q2' as const, financialYear: 'FY 2025-26', tan: 'PNEG01234C', createdAt: 0 } };
      const abort = new AbortController();
      // No process is warm: convert starts one, and the abort lands before it is ready.
      const converting = converter.convert(request, abort.signal).then(() => null, (e: unknown) => e);
      abort.abort();
      expect(await converting).to.be.instanceOf(ConversionAbortedError);
    } finally {
      await converter.close();
    }
  });
});

