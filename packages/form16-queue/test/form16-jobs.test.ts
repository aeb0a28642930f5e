// Form 16 jobs over HTTP's service and worker (issue 26: "a job kind over HTTP, on the job framework"): the 24Q Q4
// workbook (and a signing certificate) uploaded through signed URLs, the worker makes the PDFs with
// @satyapan/form16, the zip and the index are stored; a bad certificate or workbook fails the job with its reason.
// Real Redis, FsStorage, the worker in this process, openssl to verify a signature out of the zip.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import yauzl from 'yauzl';
import { FsStorage, Sealer, createMetrics, createRedisConnection, readAll, waitForRedis, type RedisConnection } from '@satyapan/core';
import { Form16Service, createForm16Worker, form16OwnerOf, form16StorageKeys, type Form16JobView, type Form16Worker } from '@satyapan/form16-queue';
import { FINANCIAL_YEAR, TAN, form16Workbook } from '../../form16/test/support/workbook.js';
import { PASSWORD, makeTestCertificates, type TestCertificates } from '../../form16/test/support/certificates.js';
import { opensslVerify } from '../../form16/test/support/verify.js';
import { deleteKeysMatching } from '../../../test/support/redis-cluster.js';
import { finishedJob, uploadTo } from './support/jobs.js';

const CLIENT = { clientId: 'form16-client' };

/** The entries of a zip, by name. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => zip.openReadStream(entry, (streamError, stream) => {
        if (streamError || !stream) return reject(streamError);
        readAll(stream).then((data) => {
          entries.set(entry.fileName, data);
          zip.readEntry();
        }, reject);
      }));
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}

describe('form16-queue: Form 16 jobs on the job framework', function () {
  this.timeout(60_000);
  const keyPrefix = `test:form16:${randomUUID()}`;
  let redis: RedisConnection;
  let worker: RedisConnection;
  let dataDir: string;
  let storage: FsStorage;
  let service: Form16Service;
  let running: Form16Worker;
  let certs: TestCertificates;
  const metrics = createMetrics();

  before(async () => {
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'form16-test' });
    worker = createRedisConnection({ flavour: 'worker', connectionName: 'form16-test-worker' });
    await waitForRedis(redis);
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-form16-jobs-'));
    storage = new FsStorage({ root: dataDir, signingSecret: 'form16-test', publicBaseUrl: 'http://127.0.0.1:9/storage' });
    const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
    service = new Form16Service({ redis, storage, sealer, keyPrefix, metrics });
    running = createForm16Worker({ connection: worker, storage, sealer, keyPrefix, sweepIntervalMs: 200, retentionIntervalMs: 0, metrics });
    await running.ready();
    certs = makeTestCertificates();
  });

  after(async () => {
    await running?.close({ timeoutMs: 2_000 });
    await service?.close();
    await deleteKeysMatching(redis, `${keyPrefix}*`);
    redis.disconnect();
    worker.disconnect();
    certs?.remove();
    await rm(dataDir, { recursive: true, force: true });
  });

  const upload = (url: string, body: Buffer | string): Promise<void> => uploadTo(storage, url, body);
  const finished = (jobId: string): Promise<Form16JobView> => finishedJob(service, CLIENT.clientId, jobId);


  async function download(url: string): Promise<Buffer> {
    const key = decodeURIComponent(new URL(url).pathname.replace(/^\/storage\//, ''));
    return readAll(await storage.get(key));
  }

  it('makes one unsigned PDF per employee from the uploaded workbook: the zip and the index, as the library does', async () => {
    const job = await service.submit({ tan: TAN, financialYear: FINANCIAL_YEAR }, CLIENT);
    expect(job).to.include({ status: 'created', part_a: false, signed: false });
    expect(job).not.to.have.property('certificate_url');
    await upload(job.workbook_url as string, JSON.stringify(form16Workbook()));
    const done = await finished(job.job_id);
    expect(done).to.include({ status: 'succeeded', pdfs: 3, part_a_merged: 0 });
    const index = (await download(done.index_url as string)).toString('utf8').trimEnd().split('\n');
    expect(index[0]).to.equal('pan,name,file,part_a,signed,net_tax_payable');
    expect(index.slice(1).map((line) => line.split(',')[4])).to.deep.equal(['no', 'no', 'no']);
    const entries = await unzip(await download(done.zip_url as string));
    const files = index.slice(1).map((line) => line.split(',')[2]);
    expect([...entries.keys()].sort()).to.deep.equal([...files, 'index.csv'].sort());
    for (const file of files) expect(entries.get(file as string)!.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect((await service.list(CLIENT.clientId)).items.map((item) => item.job_id)).to.include(job.job_id);
  });

  it('signs every PDF with the uploaded certificate; openssl verifies a signature taken from the zip', async () => {
    const job = await service.submit({ tan: TAN, financialYear: FINANCIAL_YEAR, certificatePassword: PASSWORD, place: 'Pune' }, CLIENT);
    expect(job).to.include({ signed: true });
    expect(JSON.stringify(job)).not.to.include(PASSWORD);
    await upload(job.certificate_url as string, await readFile(certs.p12));
    await upload(job.workbook_url as string, JSON.stringify(form16Workbook()));
    const done = await finished(job.job_id);
    expect(done).to.include({ status: 'succeeded', pdfs: 3 });
    const entries = await unzip(await download(done.zip_url as string));
    const pdfs = [...entries.entries()].filter(([name]) => name.endsWith('.pdf'));
    expect(pdfs).to.have.length(3);
    for (const [, pdf] of pdfs) expect(opensslVerify(pdf, certs.certPem, certs.dir).ok).to.equal(true);
  });

  it('fails the job, once, with the library\'s code for a wrong certificate password, and with the problems of a bad workbook', async () => {
    const wrong = await service.submit({ tan: TAN, financialYear: FINANCIAL_YEAR, certificatePassword: 'not-the-password' }, CLIENT);
    await upload(wrong.certificate_url as string, await readFile(certs.p12));
    await upload(wrong.workbook_url as string, JSON.stringify(form16Workbook()));
    const refused = await finished(wrong.job_id);
    expect(refused).to.include({ status: 'failed', code: 'CERTIFICATE_UNREADABLE' });
    expect(refused.message).not.to.include(dataDir);
    expect((await service.store.get({ owner: form16OwnerOf(CLIENT.clientId), jobId: wrong.job_id }))?.attempts).to.equal(1);
    // The library raised it in the worker's generation process; the password reached that process over IPC alone.
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const proc = (pid: string, part: string): string => { try { return readFileSync(`/proc/${pid}/${part}`, 'latin1'); } catch { return ''; } };
    expect(children.filter((pid) => proc(pid, 'cmdline').includes('generation/child.'))).not.to.be.empty;
    for (const pid of children) for (const part of ['cmdline', 'environ']) expect(proc(pid, part)).not.to.include('not-the-password');
    const badTan = await service.submit({ tan: 'MUMA12345B', financialYear: FINANCIAL_YEAR }, CLIENT);
    await upload(badTan.workbook_url as string, JSON.stringify(form16Workbook()));
    expect(await finished(badTan.job_id)).to.include({ status: 'failed', code: 'INVALID_TAN' });
    const broken = JSON.parse(JSON.stringify(form16Workbook()).replace(/"BCDPS2345B"/g, '"BCDPS2345"'));
    const invalidJob = await service.submit({ tan: TAN, financialYear: FINANCIAL_YEAR }, CLIENT);
    await upload(invalidJob.workbook_url as string, JSON.stringify(broken));
    const invalid = await finished(invalidJob.job_id);
    expect(invalid).to.include({ status: 'failed', message: 'Validation error' });
    expect(invalid.problems?.length).to.be.greaterThan(0);
    expect(invalid.problems_not_shown).to.equal(0);
    const text = await metrics.text();
    expect(text).to.match(/satyapan_jobs_by_kind_total\{family="form16",kind="form16",state="failed"\} 3/);
  });

  it('refuses a certificate upload for a job that gave no password, and a second workbook upload (409)', async () => {
    const job = await service.submit({ tan: TAN, financialYear: FINANCIAL_YEAR }, CLIENT);
    const certificateUrl = await storage.presignPut(form16StorageKeys.certificate({ owner: form16OwnerOf(CLIENT.clientId), jobId: job.job_id }), { expiresInSeconds: 60, maxBytes: 1_000 });
    const refusal = async (url: string, body: string): Promise<unknown> => upload(url, body).then(() => null, (error: unknown) => error);
    expect(await refusal(certificateUrl, 'p12')).to.include({ status: 409 });
    await upload(job.workbook_url as string, JSON.stringify(form16Workbook()));
    expect(await refusal(job.workbook_url as string, '{}')).to.include({ status: 409 });
    expect((await finished(job.job_id)).status).to.equal('succeeded');
  });
});
