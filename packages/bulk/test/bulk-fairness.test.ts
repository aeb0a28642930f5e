// Per-client fairness of bulk jobs: the lane taken in turns (a big job of one tenant does not hold it), the cap
// of jobs a client has waiting or running, the row budget, and a list cursor that is not a safe integer.
import { expect } from 'chai';
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { BulkFairness, BulkKeys, bulkOwnerOf, type BulkJobView } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from './support/env.js';

const TENANT_A = { ...CLIENT, clientId: 'tenant-a', apiKey: 'key_tenant_a' };
const TENANT_B = { ...CLIENT, clientId: 'tenant-b', apiKey: 'key_tenant_b' };

function ifscCsv(rows: number): string {
  return `ifsc\n${Array.from({ length: rows }, () => IFSC).join('\n')}\n`;
}

async function rejection(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (error === null) expect.fail('expected a refusal');
  return error as { status: number; code: string; message: string };
}

describe('bulk: per-client fairness', function () {
  this.timeout(60_000);
  let env: BulkEnv;
  afterEach(() => env.close());

  it('takes the lane in turns: tenant B\'s small job, queued behind tenant A\'s big one, finishes first; A\'s paid rows are each called once', async () => {
    env = await startBulkEnv();
    const submit = async (client: typeof CLIENT, kind: string, csv: string): Promise<BulkJobView> => {
      const job = await env.service.submit({ kind }, client);
      await env.upload(job.csv_url as string, csv);
      for (;;) {
        if ((await env.service.get(client.clientId, job.job_id)).status === 'queued') return job;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    // Both queued before the one lane opens: A first, as a FIFO queue would run it to the end. A's rows are
    // penny drops (paid): the turn it gives up must not repeat a call when it resumes.
    const accounts = Array.from({ length: 1_000 }, (_, i) => `6${String(i).padStart(11, '0')}`);
    const big = await submit(TENANT_A, 'penny_drop', `ifsc,account_number\n${accounts.map((account) => `${IFSC},${account}`).join('\n')}\n`);
    const small = await submit(TENANT_B, 'ifsc', ifscCsv(20));
    await env.startWorker({ concurrency: 1, chunkSize: 50, sliceChunks: 2 });
    const smallDone = await env.finished(small.job_id, 30_000, TENANT_B.clientId);
    const bigAtThatMoment = await env.service.get(TENANT_A.clientId, big.job_id);
    const bigDone = await env.finished(big.job_id, 40_000, TENANT_A.clientId);
    expect(smallDone).to.include({ status: 'succeeded', rows_done: 20 });
    expect(bigAtThatMoment.status, 'A still running when B finished').to.equal('in_progress');
    expect(bigAtThatMoment.rows_done).to.be.within(100, 900);
    // A went on from its committed chunks: every row once, in order, and each account asked once.
    expect(bigDone).to.include({ status: 'succeeded', rows_total: 1_000, rows_done: 1_000 });
    expect(bigDone.summary).to.deep.equal({ ok: 1_000, invalid: 0, error: 0, interrupted: 0 });
    const lines = (await env.resultLines(bigDone)).slice(1);
    expect(lines.map((line) => Number(line.split(',')[0]))).to.deep.equal(Array.from({ length: 1_000 }, (_, i) => i + 2));
    const calls = env.pennyDrop.callsByAccount();
    expect(calls.size).to.equal(1_000);
    expect([...calls.values()].every((count) => count === 1)).to.equal(true);
  });

  it('caps the jobs a client has waiting or running (429 naming the cap); a job that ends frees its place', async () => {
    env = await startBulkEnv({ service: { maxJobsPerClient: 2 } });
    const first = await env.service.submit({ kind: 'ifsc' }, CLIENT);
    await env.service.submit({ kind: 'ifsc' }, CLIENT);
    expect(await rejection(env.service.submit({ kind: 'ifsc' }, CLIENT))).to.include({
      status: 429, code: 'BULK_JOBS_LIMIT', message: 'This client already has 2 bulk jobs waiting or running; the limit is 2',
    });
    // Another client is not held up by this one.
    await env.service.submit({ kind: 'ifsc' }, TENANT_B);
    // A place whose job has ended (or is gone) without its release, as after a kill between the two writes, is
    // given back when the client is at its cap.
    const active = env.service.keys.active(bulkOwnerOf(TENANT_B.clientId));
    await env.redis.zadd(active, Date.now() + 3_600_000, '00000000-0000-4000-8000-000000000000');
    await env.service.submit({ kind: 'ifsc' }, TENANT_B);
    expect(await env.redis.zrange(active, 0, '-1')).to.have.length(2).and.not.include('00000000-0000-4000-8000-000000000000');
    await env.startWorker();
    await env.upload(first.csv_url as string, ifscCsv(1));
    expect(await env.finished(first.job_id)).to.include({ status: 'succeeded' });
    await env.service.submit({ kind: 'ifsc' }, CLIENT);
  });

  it('charges each job\'s rows to its client\'s budget: a job over it fails naming the budget, a client with none left is refused at submit', async () => {
    const budget = { rowBudget: 10, rowBudgetWindowHours: 24 };
    env = await startBulkEnv({ service: budget });
    await env.startWorker(budget);
    expect(await env.finished((await env.submitAndUpload('ifsc', ifscCsv(4))).job_id)).to.include({ status: 'succeeded' });
    const over = await env.finished((await env.submitAndUpload('ifsc', ifscCsv(7))).job_id);
    expect(over).to.include({
      status: 'failed', code: 'BULK_ROW_BUDGET', rows_done: 0,
      message: 'Bulk row budget exceeded: 4 rows in the last 24 hours and 7 more in this job; the limit is 10 rows per 24 hours',
    });
    expect(await env.finished((await env.submitAndUpload('ifsc', ifscCsv(6))).job_id)).to.include({ status: 'succeeded' });
    expect(await rejection(env.service.submit({ kind: 'ifsc' }, CLIENT))).to.include({
      status: 429, code: 'BULK_ROW_BUDGET', message: 'Bulk row budget exceeded: 10 rows in the last 24 hours; the limit is 10 rows per 24 hours',
    });
    await env.service.submit({ kind: 'ifsc' }, TENANT_B);
  });

  it('counts the budget over a sliding window: a charge older than the window no longer counts; a job is charged once', async () => {
    env = await startBulkEnv();
    const fairness = new BulkFairness(env.redis, new BulkKeys(env.keyPrefix), { maxJobsPerClient: 5, rowBudget: 10, rowBudgetWindowHours: 24 });
    const owner = bulkOwnerOf('windowed');
    const job = (n: number) => ({ owner, jobId: `00000000-0000-4000-8000-00000000000${n}` });
    const t0 = Date.now();
    expect(await fairness.charge(job(1), 4, t0)).to.equal(null);
    expect(await fairness.charge(job(1), 4, t0 + 1_000), 'the same job again').to.equal(null);
    expect((await fairness.charge(job(2), 7, t0 + 3_600_000))?.message).to.equal(
      'Bulk row budget exceeded: 4 rows in the last 24 hours and 7 more in this job; the limit is 10 rows per 24 hours');
    expect(await fairness.charge(job(2), 6, t0 + 3_600_000)).to.equal(null);
    await fairness.ensureBudgetLeft(owner, t0 + 3_600_000).then(() => expect.fail('no rows left'), (error: Error) => expect(error.message).to.contain('10 rows in the last 24 hours'));
    // A day after the first charge only the second (6 rows) counts.
    expect((await fairness.charge(job(3), 5, t0 + 24 * 3_600_000 + 1))?.message).to.contain('6 rows in the last 24 hours and 5 more');
    expect(await fairness.charge(job(3), 4, t0 + 24 * 3_600_000 + 1)).to.equal(null);
  });

  it('answers a list cursor that is not a safe integer with a 400 naming last_evaluated_key (it was a 500)', async () => {
    env = await startBulkEnv();
    expect(await rejection(env.service.list(CLIENT.clientId, 20, '99999999999999999999'))).to.include({
      status: 400, code: 'INVALID_PARAMETER', message: 'Invalid parameter: last_evaluated_key must be an integer of at most 9007199254740991',
    });
    expect((await env.service.list(CLIENT.clientId, 20, '9007199254740991')).items).to.deep.equal([]);
  });
});
