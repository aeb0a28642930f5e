import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import {
  IllegalTransitionError, JOB_STATUSES, JobMissingError, JobStore, StatementKeys, canMove, ownerOf,
  type JobRecord, type JobRef, type JobStatus,
} from '@satyapan/statement-queue';
import { startEnv, type TestEnv } from './support/env.js';
import { keysMatching } from '../../../test/support/redis-cluster.js';

function recordFor(ref: JobRef, createdAt: number, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    jobId: ref.jobId, domain: 'tds', clientId: 'client-a', tan: 'AHMA09719D', form: '26Q', quarter: 'Q3',
    financialYear: 'FY 2025-26', previousReceiptNumber: null, csiExpected: false, correction: null, status: 'created', createdAt, updatedAt: createdAt,
    attempts: 0, message: null, txtKey: null, reportKey: null, reportXlsxKey: null, warningCount: null, problems: null, errorCount: null, webhookUrl: null, webhookSecretSealed: null,
    ...overrides,
  };
}

describe('statement-queue: job records and their state machine', () => {
  let env: TestEnv;
  let store: JobStore;
  let keys: StatementKeys;
  const owner = ownerOf('client-a');
  before(async () => {
    env = await startEnv();
    keys = new StatementKeys(env.keyPrefix);
    store = new JobStore(env.redis, keys);
  });
  after(() => env.close());

  async function created(createdAt = 1_700_000_000_000): Promise<JobRef> {
    const ref = { owner, jobId: randomUUID() };
    expect(await store.create(ref, recordFor(ref, createdAt))).to.equal(true);
    return ref;
  }

  async function statusMembers(status: JobStatus): Promise<string[]> {
    return env.redis.zrange(keys.index(owner, 'tds', 'status', status), 0, '-1');
  }

  it('stores a record with its index entries and reads it back unchanged', async () => {
    const ref = { owner, jobId: randomUUID() };
    const record = recordFor(ref, 1_700_000_000_123, { previousReceiptNumber: '123456789012345', webhookUrl: 'https://example.com/h' });
    await store.create(ref, record);
    expect(await store.get(ref)).to.deep.equal(record);
    expect(await env.redis.zscore(keys.index(owner, 'tds', 'all'), ref.jobId)).to.equal('1700000000123');
    expect(await env.redis.zscore(keys.index(owner, 'tds', 'tan', 'AHMA09719D'), ref.jobId)).to.equal('1700000000123');
    expect(await env.redis.zscore(keys.index(owner, 'tds', 'form', 'nonsalary'), ref.jobId)).to.equal('1700000000123');
    expect(await env.redis.zscore(keys.index(owner, 'tds', 'fy', '2025'), ref.jobId)).to.equal('1700000000123');
    expect(await statusMembers('created')).to.include(ref.jobId);
  });

  it('refuses to create a job id twice', async () => {
    const ref = await created();
    expect(await store.create(ref, recordFor(ref, 1))).to.equal(false);
    expect((await store.get(ref))?.createdAt).to.equal(1_700_000_000_000);
  });

  it('walks created -> queued -> in_progress -> succeeded, stamping updated_at and moving the status index', async () => {
    const ref = await created();
    await store.transition(ref, 'tds', 'queued', 1_700_000_000_500);
    const started = await store.transition(ref, 'tds', 'in_progress', 1_700_000_000_600);
    expect(started.previous).to.equal('queued');
    expect(started.record).to.include({ status: 'in_progress', attempts: 1, updatedAt: 1_700_000_000_600, createdAt: 1_700_000_000_000 });
    const done = await store.transition(ref, 'tds', 'succeeded', 1_700_000_000_900, { txtKey: 'x/statement.txt', reportKey: 'x/report.json' });
    expect(done.record).to.include({ status: 'succeeded', txtKey: 'x/statement.txt', reportKey: 'x/report.json', updatedAt: 1_700_000_000_900 });
    for (const status of JOB_STATUSES) {
      expect(await statusMembers(status), status).to.satisfy((ids: string[]) => ids.includes(ref.jobId) === (status === 'succeeded'));
    }
    // The status index keeps created_at as the score, so it sorts like every other index.
    expect(await env.redis.zscore(keys.index(owner, 'tds', 'status', 'succeeded'), ref.jobId)).to.equal('1700000000000');
  });

  it('refuses every transition the state machine does not allow, and leaves the record as it was', async () => {
    for (const from of JOB_STATUSES) {
      for (const to of JOB_STATUSES) {
        if (canMove(from, to)) continue;
        const ref = { owner, jobId: randomUUID() };
        await store.create(ref, recordFor(ref, 1_700_000_000_000, { status: from }));
        const before = await store.get(ref);
        const error = await store.transition(ref, 'tds', to, 1_800_000_000_000).then(() => null, (e: unknown) => e);
        expect(error, `${from} -> ${to}`).to.be.instanceOf(IllegalTransitionError);
        expect(error).to.include({ code: 'ILLEGAL_TRANSITION', from, to });
        expect(await store.get(ref)).to.deep.equal(before);
      }
    }
  });

  it('lets a crashed attempt be restarted (in_progress -> in_progress counts attempts)', async () => {
    const ref = await created();
    await store.transition(ref, 'tds', 'queued', 2);
    await store.transition(ref, 'tds', 'in_progress', 3);
    const again = await store.transition(ref, 'tds', 'in_progress', 4);
    expect(again.record.attempts).to.equal(2);
  });

  it('lets exactly one of many concurrent transitions win', async () => {
    const ref = await created();
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.transition(ref, 'tds', 'queued', 10 + i)));
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof IllegalTransitionError)).to.have.length(19);
    expect(await statusMembers('queued')).to.include(ref.jobId);
    expect(await statusMembers('created')).not.to.include(ref.jobId);
  });

  it('says when the job does not exist', async () => {
    const error = await store.transition({ owner, jobId: randomUUID() }, 'tds', 'queued', 1).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(JobMissingError);
  });

  it('deletes a record together with all of its index entries', async () => {
    const ref = await created();
    await store.transition(ref, 'tds', 'queued', 5);
    await store.delete(ref, (await store.get(ref)) as JobRecord);
    expect(await store.get(ref)).to.equal(null);
    const indexKeys = await keysMatching(env.redis, `${env.keyPrefix}:statements:{${owner}}:idx:*`);
    for (const key of indexKeys) expect(await env.redis.zscore(key, ref.jobId), key).to.equal(null);
  });
});
