import { expect } from 'chai';
import { readFile, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { ownerOf, storageKeys, type StatementJobView, type SubmitRequest } from '@satyapan/statement-queue';
import { TCS_REQUEST, TDS_REQUEST, eventually, rejection, startEnv, type TestEnv } from './support/env.js';

const CLIENT = { clientId: 'client-a' };

describe('statement-queue: StatementService', () => {
  let env: TestEnv;
  before(async () => {
    env = await startEnv();
  });
  after(() => env.close());

  describe('submit', () => {
    it('creates a job in created with a 24 h json_url and the request echoed', async () => {
      const job = await env.service.submitJob({ ...TDS_REQUEST, previousReceiptNumber: '123456789012345' }, CLIENT);
      expect(job).to.include({
        '@entity': 'in.co.service.tds.reports.job', tan: 'AHMA09719D', form: '26Q', quarter: 'Q3',
        financial_year: 'FY 2025-26', previous_receipt_number: '123456789012345', status: 'created', created_at: env.clock.now(),
      });
      expect(job.job_id).to.match(/^[0-9a-f-]{36}$/);
      const url = new URL(job.json_url as string);
      expect(url.pathname).to.equal(`/storage/${storageKeys.upload({ owner: ownerOf('client-a'), jobId: job.job_id })}`);
      expect(Number(url.searchParams.get('X-Expires'))).to.equal(Math.floor(env.clock.now() / 1000) + 24 * 3600);
      expect(url.searchParams.get('X-Max-Bytes')).to.equal(String(50 * 1024 * 1024));
    });

    it('creates TCS jobs without a form', async () => {
      const job = await env.service.submitJob(TCS_REQUEST, CLIENT);
      expect(job['@entity']).to.equal('in.co.service.tcs.reports.job');
      expect(job).not.to.have.property('form');
    });

    it('refuses a financial year that is not one, with the vendor message', async () => {
      for (const financialYear of ['FY 2022-2', 'FY 2022-24', 'TY 2025-26', 'FY 2009-10', '2025-26']) {
        const error = await rejection(env.service.submitJob({ ...TDS_REQUEST, financialYear }, CLIENT));
        expect(error, financialYear).to.deep.include({ status: 422, message: `Invalid financial year: ${financialYear}` });
      }
    });

    it('refuses a year that has not begun (the engine\'s bound), in submit and search, until it begins', async () => {
      const saved = env.clock.now();
      try {
        env.clock.set(Date.parse('2027-03-31T23:00:00+05:30'));
        for (const financialYear of ['FY 9999-00', 'TY 2027-28']) {
          const error = await rejection(env.service.submitJob({ ...TDS_REQUEST, financialYear }, CLIENT));
          expect(error, financialYear).to.deep.include({ status: 422, message: `Invalid financial year: ${financialYear}` });
          const searchError = await rejection(env.service.searchJobs('tds', CLIENT.clientId, { financialYear }));
          expect(searchError, financialYear).to.deep.include({ status: 422, message: `Invalid financial year: ${financialYear}` });
        }
        env.clock.set(Date.parse('2027-04-01T00:30:00+05:30'));
        expect(await env.service.submitJob({ ...TDS_REQUEST, financialYear: 'TY 2027-28' }, CLIENT)).to.include({ financial_year: 'TY 2027-28' });
      } finally {
        env.clock.set(saved);
      }
    });

    it('refuses a TDS form that is not one, and a TCS form on the TDS side', async () => {
      for (const form of ['22Q', '27EQ', '143']) {
        const error = await rejection(env.service.submitJob({ ...TDS_REQUEST, form } as SubmitRequest, CLIENT));
        expect(error, form).to.deep.include({ status: 422, message: `Invalid form type: ${form}` });
      }
    });

    it('accepts the tax-year spelling and either name of a form', async () => {
      const job = await env.service.submitJob({ ...TDS_REQUEST, form: '140', financialYear: 'TY 2026-27' }, CLIENT);
      expect(job).to.include({ form: '140', financial_year: 'TY 2026-27' });
    });
  });

  describe('poll', () => {
    it('returns the job to its owner and 521 to anyone else, for the other domain, and for nonsense ids', async () => {
      const job = await env.service.submitJob(TDS_REQUEST, CLIENT);
      const polled = await env.service.getJob('tds', 'client-a', job.job_id);
      expect(polled).to.include({ job_id: job.job_id, status: 'created', updated_at: job.created_at });
      expect(polled).not.to.have.property('json_url');
      for (const [domain, client, id] of [['tds', 'client-b', job.job_id], ['tcs', 'client-a', job.job_id], ['tds', 'client-a', 'not-a-uuid']] as const) {
        const error = await rejection(env.service.getJob(domain, client, id));
        expect(error).to.deep.equal({ status: 521, message: `Data not found: ${id}`, code: 'JOB_NOT_FOUND' });
      }
    });
  });

  describe('upload', () => {
    async function submitted(): Promise<StatementJobView> {
      return env.service.submitJob(TDS_REQUEST, CLIENT);
    }

    it('queues the job as soon as the upload completes, with the job id as BullMQ id', async () => {
      const job = await submitted();
      await env.upload(job.json_url as string, '{"name":"form26q_workbook"}');
      await eventually(async () => (await env.service.getJob('tds', 'client-a', job.job_id)).status === 'queued');
      // The record says queued first; the BullMQ job follows, and only then is the pending entry dropped.
      const pending = `${ownerOf('client-a')}/${job.job_id}`;
      await eventually(async () => (await env.redis.zscore(env.service.keys.pending, pending)) === null);
      const queued = await env.service.queue.getJob(job.job_id);
      expect(queued?.data).to.deep.equal({ owner: ownerOf('client-a'), jobId: job.job_id, domain: 'tds' });
    });

    it('refuses a second upload with 409 and keeps the first workbook', async () => {
      const job = await submitted();
      await env.upload(job.json_url as string, '{"first":true}');
      await eventually(async () => (await env.service.getJob('tds', 'client-a', job.job_id)).status === 'queued');
      const error = await rejection(env.upload(job.json_url as string, '{"second":true}'));
      expect(error).to.deep.include({ status: 409, message: 'Workbook already uploaded' });
      const ref = { owner: ownerOf('client-a'), jobId: job.job_id };
      expect(await readFile(join(env.dataDir, storageKeys.upload(ref)), 'utf8')).to.equal('{"first":true}');
      expect((await env.service.queue.getJobCounts('wait')).wait).to.be.greaterThan(0);
    });

    it('refuses a second upload even before the first one has been queued', async () => {
      // A service that does not react to uploads: the job stays created after the first upload.
      const quiet = env.newService({ watchUploads: false });
      const job = await quiet.submitJob(TDS_REQUEST, CLIENT);
      const ref = { owner: ownerOf('client-a'), jobId: job.job_id };
      // The first upload is written; its completion has not been handled yet, so the job is still created.
      await env.storage.put(storageKeys.upload(ref), '{"first":true}');
      expect((await quiet.getJob('tds', 'client-a', job.job_id)).status).to.equal('created');
      const error = await rejection(env.upload(job.json_url as string, '{"second":true}'));
      expect(error).to.deep.include({ status: 409, message: 'Workbook already uploaded' });
      expect(await readFile(join(env.dataDir, storageKeys.upload(ref)), 'utf8')).to.equal('{"first":true}');
    });

    it('lets exactly one of two uploads racing to one URL win; the other gets 409', async () => {
      const job = await submitted();
      const ref = { owner: ownerOf('client-a'), jobId: job.job_id };
      const first = env.startUpload(job.json_url as string);
      const second = env.startUpload(job.json_url as string);
      // Both have passed the early checks (neither workbook is there yet) and are writing their bodies.
      await eventually(async () => (await readdir(join(env.dataDir, '.tmp')).catch(() => [])).length >= 2);
      first.send('{"first":true}');
      second.send('{"second":true}');
      const outcomes = await Promise.allSettled([first.done, second.done]);
      expect(outcomes.map((outcome) => outcome.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
      const loser = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      expect(loser?.reason).to.deep.include({ status: 409 });
      const winner = outcomes[0]?.status === 'fulfilled' ? '{"first":true}' : '{"second":true}';
      await eventually(async () => (await env.service.getJob('tds', 'client-a', job.job_id)).status === 'queued');
      expect(await readFile(join(env.dataDir, storageKeys.upload(ref)), 'utf8')).to.equal(winner);
      expect(await readFile(join(env.dataDir, storageKeys.frozenInput(ref)), 'utf8')).to.equal(winner);
    });

    it('freezes the workbook when the job is queued: an upload that began before cannot replace it after', async () => {
      const job = await submitted();
      const ref = { owner: ownerOf('client-a'), jobId: job.job_id };
      const late = env.startUpload(job.json_url as string);
      await eventually(async () => (await readdir(join(env.dataDir, '.tmp')).catch(() => [])).length >= 1);
      await env.upload(job.json_url as string, '{"first":true}');
      await eventually(async () => (await env.service.getJob('tds', 'client-a', job.job_id)).status === 'queued');
      // The copy the worker reads is out of any URL's reach.
      expect(await readFile(join(env.dataDir, storageKeys.frozenInput(ref)), 'utf8')).to.equal('{"first":true}');
      late.send('{"late":true}');
      expect(await rejection(late.done)).to.include({ status: 409 });
      for (const key of [storageKeys.upload(ref), storageKeys.frozenInput(ref)]) {
        expect(await readFile(join(env.dataDir, key), 'utf8'), key).to.equal('{"first":true}');
      }
    });

    it('queues a job whose upload event was lost when the pending sweep runs', async () => {
      const quiet = env.newService({ watchUploads: false });
      const job = await quiet.submitJob(TDS_REQUEST, CLIENT);
      const ref = { owner: ownerOf('client-a'), jobId: job.job_id };
      await env.storage.put(storageKeys.upload(ref), '{"late":true}');
      expect((await quiet.getJob('tds', 'client-a', job.job_id)).status).to.equal('created');
      await quiet.sweepPending();
      expect((await quiet.getJob('tds', 'client-a', job.job_id)).status).to.equal('queued');
      expect(await quiet.queue.getJob(job.job_id)).to.not.equal(undefined);
    });

    it('leaves a job without upload pending, and gives up on it after its URL expired', async () => {
      const job = await submitted();
      const member = `${ownerOf('client-a')}/${job.job_id}`;
      await env.service.sweepPending();
      expect(await env.redis.zscore(env.service.keys.pending, member)).to.not.equal(null);
      env.clock.advance(26 * 3600 * 1000);
      try {
        await env.service.sweepPending();
      } finally {
        env.clock.set(Date.now());
      }
      expect(await env.redis.zscore(env.service.keys.pending, member)).to.equal(null);
      expect((await env.service.getJob('tds', 'client-a', job.job_id)).status).to.equal('created');
    });
  });

  describe('retention', () => {
    it('deletes records and their files once retention has passed, and nothing younger', async () => {
      const service = env.newService({ retentionDays: 1, watchUploads: false });
      const old = await service.submitJob(TDS_REQUEST, { clientId: 'client-r' });
      const ref = { owner: ownerOf('client-r'), jobId: old.job_id };
      await env.storage.put(storageKeys.upload(ref), '{}');
      await env.storage.put(storageKeys.txt(ref), 'TXT');
      env.clock.advance(12 * 3600 * 1000);
      const young = await service.submitJob(TDS_REQUEST, { clientId: 'client-r' });
      env.clock.advance(13 * 3600 * 1000);
      try {
        expect(await service.purgeExpired()).to.equal(1);
      } finally {
        env.clock.set(Date.now());
      }
      expect(await rejection(service.getJob('tds', 'client-r', old.job_id))).to.include({ status: 521 });
      expect((await service.getJob('tds', 'client-r', young.job_id)).job_id).to.equal(young.job_id);
      for (const key of [storageKeys.upload(ref), storageKeys.txt(ref)]) expect(await env.storage.exists(key), key).to.equal(false);
      const search = await service.searchJobs('tds', 'client-r', {});
      expect(search.items.map((item) => item.job_id)).to.deep.equal([young.job_id]);
    });

    it('deletes the files of jobs whose record Redis lost, once they are an hour old, and nothing of a job it still has', async () => {
      const service = env.newService({ watchUploads: false });
      const owner = { clientId: 'client-o' };
      const [kept, lost, lostRecently] = (await Promise.all([1, 2, 3].map(() => service.submitJob(TDS_REQUEST, owner)))) as [StatementJobView, StatementJobView, StatementJobView];
      const refOf = (job: StatementJobView) => ({ owner: ownerOf('client-o'), jobId: job.job_id });
      const files = (job: StatementJobView) => [storageKeys.upload(refOf(job)), storageKeys.txt(refOf(job)), storageKeys.reportJson(refOf(job))];
      const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
      for (const job of [kept, lost, lostRecently]) {
        for (const key of files(job)) {
          await env.storage.put(key, 'PAN ABCPD1234E');
          if (job !== lostRecently) await utimes(join(env.dataDir, key), twoHoursAgo, twoHoursAgo);
        }
      }
      // Redis data loss: the records and the retention schedule are gone, the files are not.
      for (const job of [lost, lostRecently]) await env.redis.del(service.keys.record(refOf(job)));
      await env.redis.del(service.keys.retention);
      expect(await service.purgeExpired()).to.equal(0);
      expect(await service.purgeOrphans()).to.equal(1);
      for (const key of files(lost)) expect(await env.storage.exists(key), key).to.equal(false);
      for (const key of [...files(kept), ...files(lostRecently)]) expect(await env.storage.exists(key), key).to.equal(true);
    });
  });
});

describe('statement-queue: upload keys', () => {
  it('recognises workbook uploads by storage key and by S3 event key (prefixed, URL-encoded), and nothing else', async () => {
    const { refOfUploadKey } = await import('@satyapan/statement-queue');
    const owner = 'a'.repeat(24);
    const jobId = '0c3db531-8965-4f08-9518-f018a0c3db53';
    const key = `statements/${owner}/${jobId}/workbook.json`;
    expect(refOfUploadKey(key)).to.deep.equal({ owner, jobId });
    expect(refOfUploadKey(`satyapan/${key}`)).to.deep.equal({ owner, jobId });
    expect(refOfUploadKey(encodeURIComponent(`tenant one/${key}`))).to.deep.equal({ owner, jobId });
    for (const other of [`statements/${owner}/${jobId}/statement.txt`, `xstatements/${owner}/${jobId}/workbook.json`, `statements/${owner}/not-a-job/workbook.json`, '%E0%A4%A']) {
      expect(refOfUploadKey(other), other).to.equal(null);
    }
  });
});
