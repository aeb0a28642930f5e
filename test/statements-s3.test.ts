import { expect } from 'chai';
import { readAll } from '@satyapan/core';
import { S3Storage } from '@satyapan/storage-s3';
import { convert } from '@satyapan/statement-engine';
import { ownerOf, storageKeys, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { eventually, startStatementsHost, type StatementsHost } from './statements-support/host.js';
import { startS3rver, type S3Server } from './statements-support/s3rver.js';
import { csiFor, workbook26Q } from './statements-support/workbooks.js';

const BUCKET = 'statements-e2e';
const CLIENT: ClientConfig = { id: 's3-client', apiKey: 'key_test_s3', apiSecret: 'secret_s3' };
const TDS_BODY = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };

describe('statement jobs end to end on S3Storage (s3rver)', function () {
  this.timeout(60_000);
  let s3: S3Server;
  let host: StatementsHost;

  before(async () => {
    s3 = await startS3rver(BUCKET);
    host = await startStatementsHost({
      clients: [CLIENT],
      storage: () => new S3Storage({ bucket: BUCKET, keyPrefix: 'e2e/', clientConfig: s3.clientConfig }),
      service: { maxUploadBytes: 20_000 },
    });
    // The worker finds uploads by polling storage (no FsStorage event on S3).
    await host.startWorker({ sweepIntervalMs: 100, maxUploadBytes: 20_000, webhooks: false });
  });
  after(async () => {
    await host.close();
    await s3.close();
  });

  async function submit(): Promise<StatementJobView> {
    const res = await host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
    expect(res.status).to.equal(200);
    return res.body.data as StatementJobView;
  }

  async function poll(jobId: string, until: (job: StatementJobView) => boolean): Promise<StatementJobView> {
    return eventually(async () => {
      const job = (await host.call(CLIENT, 'GET', `/tds/reports/txt?job_id=${jobId}`)).body.data as StatementJobView;
      return until(job) ? job : null;
    });
  }

  it('submit, PUT to the S3 pre-signed URL, poll to succeeded, download the engine\'s bytes from S3', async () => {
    const workbook = workbook26Q({ rows: 10 });
    const job = await submit();
    expect(new URL(job.json_url as string).searchParams.get('X-Amz-Signature')).to.be.a('string');
    const put = await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(workbook), headers: { 'content-type': 'application/json' } });
    expect(put.status).to.equal(200);
    const done = await poll(job.job_id, (j) => j.status === 'succeeded' || j.status === 'failed');
    expect(done.status).to.equal('succeeded');
    expect(new URL(done.txt_url as string).origin).to.equal(new URL(job.json_url as string).origin);
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect(await (await fetch(done.txt_url as string)).text()).to.equal(expected.txt);
  });

  it('a second PUT after the job was queued changes nothing: the job converts the first workbook', async () => {
    const first = workbook26Q({ rows: 3 });
    const job = await submit();
    await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(first) });
    await poll(job.job_id, (j) => j.status !== 'created');
    // S3 cannot refuse it...
    expect((await fetch(job.json_url as string, { method: 'PUT', body: 'not even json' })).status).to.equal(200);
    const done = await poll(job.job_id, (j) => j.status === 'succeeded' || j.status === 'failed');
    // ...but the job had already taken its own copy.
    expect(done.status).to.equal('succeeded');
    const expected = convert(first, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect(await (await fetch(done.txt_url as string)).text()).to.equal(expected.txt);
  });

  it('a workbook over the size limit (which an S3 PUT cannot refuse) fails with Invalid Workbook', async () => {
    const job = await submit();
    const big = JSON.stringify(workbook26Q({ rows: 400 }));
    expect(big.length).to.be.greaterThan(20_000);
    await fetch(job.json_url as string, { method: 'PUT', body: big });
    await poll(job.job_id, (j) => j.status !== 'created');
    // Replacing it with an acceptable workbook once the job is queued changes nothing either.
    await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(workbook26Q({ rows: 2 })) });
    const done = await poll(job.job_id, (j) => j.status === 'succeeded' || j.status === 'failed');
    expect(done).to.include({ status: 'failed', message: 'Invalid Workbook' });
    expect((await fetch(done.validation_report_url as string)).status).to.equal(200);
  });

  it('a workbook replaced by an oversize one between the sweep\'s size check and its copy fails as too large', async () => {
    const job = await submit();
    const ref = { owner: ownerOf(CLIENT.id as string), jobId: job.job_id };
    const big = JSON.stringify(workbook26Q({ rows: 400 }));
    // Lands after the sweep's HEAD saw the small workbook, just before the sweep reads it to take its copy.
    s3.beforeNextGet(`e2e/${storageKeys.upload(ref)}`, async () => {
      expect((await fetch(job.json_url as string, { method: 'PUT', body: big })).status).to.equal(200);
    });
    await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(workbook26Q({ rows: 2 })) });
    const done = await poll(job.job_id, (j) => j.status === 'succeeded' || j.status === 'failed');
    expect(done).to.include({ status: 'failed', message: 'Invalid Workbook' });
    const report = JSON.parse((await readAll(await host.storage.get(storageKeys.reportJson(ref)))).toString('utf8')) as { problems: Array<{ code: string }> };
    expect(report.problems.map((problem) => problem.code)).to.deep.equal(['WORKBOOK_TOO_LARGE']);
    expect(await host.storage.exists(storageKeys.frozenInput(ref))).to.equal(false);
  });

  it('a job with csi: true waits for both PUTs; the CSI file is copied too, so a later CSI PUT changes nothing', async () => {
    const workbook = workbook26Q({ rows: 3 });
    const res = await host.call(CLIENT, 'POST', '/tds/reports/txt', { ...TDS_BODY, csi: true });
    expect(res.status).to.equal(200);
    const job = res.body.data as StatementJobView;
    const ref = { owner: ownerOf(CLIENT.id as string), jobId: job.job_id };
    expect(new URL(job.csi_url as string).searchParams.get('X-Amz-Signature')).to.be.a('string');
    expect((await fetch(job.csi_url as string, { method: 'PUT', body: csiFor(workbook) })).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 400)); // a few sweeps: the workbook is still missing
    expect((await poll(job.job_id, () => true)).status).to.equal('created');
    await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(workbook) });
    await poll(job.job_id, (j) => j.status !== 'created');
    await fetch(job.csi_url as string, { method: 'PUT', body: 'not a CSI file' });
    const done = await poll(job.job_id, (j) => j.status === 'succeeded' || j.status === 'failed');
    expect(done).to.include({ status: 'succeeded', csi: true });
    expect(await host.storage.exists(storageKeys.frozenCsi(ref))).to.equal(true);
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at), csi: csiFor(workbook) });
    expect(await (await fetch(done.txt_url as string)).text()).to.equal(expected.txt);
  });
});
