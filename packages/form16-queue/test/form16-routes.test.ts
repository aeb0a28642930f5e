// Form 16 jobs through the router (issue 26: "a job kind over HTTP"): submit, upload the workbook to the returned
// pre-signed URL, poll, download the zip; the request checked by the route's schema, the product `tds` required.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { FsStorage, Sealer, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { Form16Service, createForm16Worker, form16Area, type Form16Worker } from '@satyapan/form16-queue';
import { FINANCIAL_YEAR, TAN, form16Workbook } from '../../form16/test/support/workbook.js';
import { CLIENTS, startHarness, type Harness } from '../../router/test/support/harness.js';
import { loadScaled } from '../../jobs/test/support/processes.js';

const ENTITY = 'in.co.service.tds.form16.request';

describe('router: Form 16 job routes', function () {
  this.timeout(30_000);
  let h: Harness;
  let redis: RedisConnection;
  let workerConnection: RedisConnection;
  let service: Form16Service;
  let worker: Form16Worker;
  let tokens: Record<'all' | 'bankOnly', string>;

  before(async () => {
    const keyPrefix = `test:${randomUUID()}`;
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'router-form16-test' });
    workerConnection = createRedisConnection({ flavour: 'worker', connectionName: 'router-form16-worker' });
    await waitForRedis(redis);
    const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
    let storage: FsStorage | undefined;
    const lazy = { get service(): Form16Service { return (service ??= new Form16Service({ redis, storage: storage as FsStorage, sealer, keyPrefix })); } };
    h = await startHarness({
      keyPrefix,
      storage: (dataDir) => (storage = new FsStorage({ root: dataDir, signingSecret: 'form16-route-secret' })),
      areas: [{ name: 'form16', routes: (ctx) => form16Area(lazy.service).routes(ctx) }],
    });
    worker = createForm16Worker({ connection: workerConnection, storage: storage as FsStorage, sealer, keyPrefix, sweepIntervalMs: 200, retentionIntervalMs: 0 });
    await worker.ready();
    tokens = { all: await h.token(), bankOnly: await h.token(CLIENTS.bankOnly) };
  });

  after(async () => {
    await worker.close({ timeoutMs: 2_000 });
    await service?.close();
    await h.close();
    workerConnection.disconnect();
    redis.disconnect();
  });

  const as = (client: 'all' | 'bankOnly' = 'all') => ({
    post: (path: string) => request(h.app).post(`/api${path}`).set('authorization', tokens[client]).set('x-api-key', CLIENTS[client].apiKey),
    get: (path: string) => request(h.app).get(`/api${path}`).set('authorization', tokens[client]).set('x-api-key', CLIENTS[client].apiKey),
  });

  it('submits, takes the workbook through workbook_url, polls and serves the zip of PDFs', async () => {
    const submitted = await as().post('/tds/form16').send({ '@entity': ENTITY, tan: TAN, financial_year: FINANCIAL_YEAR });
    expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
    const job = submitted.body.data;
    expect(job).to.include({ '@entity': 'in.co.service.tds.form16.job', status: 'created', part_a: false, signed: false });
    expect((await fetch(job.workbook_url, { method: 'PUT', body: JSON.stringify(form16Workbook()) })).status).to.equal(200);
    const deadline = Date.now() + loadScaled(20_000);
    let done: Record<string, any>;
    for (;;) {
      const res = await as().get(`/tds/form16/${job.job_id}`);
      expect(res.status).to.equal(200);
      done = res.body.data;
      if (done['status'] === 'succeeded' || done['status'] === 'failed' || Date.now() > deadline) break;
      // Some 70 polls at most, however loaded the machine: the client's rate limit is 100 calls a minute.
      await new Promise((resolve) => setTimeout(resolve, loadScaled(300)));
    }
    expect(done).to.include({ status: 'succeeded', pdfs: 3 });
    const zip = Buffer.from(await (await fetch(done['zip_url'])).arrayBuffer());
    expect(zip.subarray(0, 2).toString('latin1')).to.equal('PK');
    const list = await as().get('/tds/form16?page_size=5');
    expect(list.body.data.items.map((item: { job_id: string }) => item.job_id)).to.include(job.job_id);
  });

  it('refuses a bad TAN or financial year naming it, a client without the tds product, and answers 521 for an unknown job', async () => {
    const badTan = await as().post('/tds/form16').send({ '@entity': ENTITY, tan: 'AHMA0971', financial_year: FINANCIAL_YEAR });
    expect(badTan.status).to.equal(422);
    expect(badTan.body.message).to.equal('Invalid TAN pattern');
    const badYear = await as().post('/tds/form16').send({ '@entity': ENTITY, tan: TAN, financial_year: '2025-26' });
    expect(badYear.body.message).to.equal('Invalid financial year: 2025-26');
    expect((await as('bankOnly').post('/tds/form16').send({ '@entity': ENTITY, tan: TAN, financial_year: FINANCIAL_YEAR })).status).to.equal(403);
    const unknown = await as().get(`/tds/form16/${randomUUID()}`);
    expect(unknown.status).to.equal(521);
  });
});
