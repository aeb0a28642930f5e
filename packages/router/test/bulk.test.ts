import { expect } from 'chai';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { FsStorage, KeySpace, Sealer, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { CashfreePennyDropProvider, createBankService, loadSampleDirectory, type BankService } from '@satyapan/bank';
import { BulkService, RowCheckRegistry, bankRowChecks, bulkArea, createBulkWorker, type BulkWorker } from '@satyapan/bulk';
import { PENNY_DROP_TEST_ACCOUNTS as PD, PENNY_DROP_TEST_IFSC as IFSC, startPennyDropSimulator, type PennyDropSimulator } from '@satyapan/sandbox';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';

describe('router: bulk verification routes', function () {
  this.timeout(30_000);
  let h: Harness;
  let redis: RedisConnection;
  let workerConnection: RedisConnection;
  let sim: PennyDropSimulator;
  let bank: BankService;
  let service: BulkService;
  let worker: BulkWorker;
  let tokens: Record<'all' | 'other', string>;

  before(async () => {
    const keyPrefix = `test:${randomUUID()}`;
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'router-bulk-test' });
    workerConnection = createRedisConnection({ flavour: 'worker', connectionName: 'router-bulk-worker' });
    await waitForRedis(redis);
    sim = await startPennyDropSimulator();
    const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
    bank = await createBankService({
      directory: await loadSampleDirectory(),
      verification: {
        redis, keys: new KeySpace(keyPrefix).child('bank'), sealer, keySecret: 'test-cache-key-secret',
        provider: new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret }),
      },
    });
    const registry = new RowCheckRegistry(bankRowChecks(bank));
    let storage: FsStorage | undefined;
    const services = {
      get bulk(): BulkService {
        service ??= new BulkService({ redis, storage: storage as FsStorage, sealer, registry, keyPrefix, maxUploadBytes: 10_000 });
        return service;
      },
    };
    h = await startHarness({
      keyPrefix,
      storage: (dataDir) => (storage = new FsStorage({ root: dataDir, signingSecret: 'bulk-route-secret' })),
      areas: [{ name: 'bulk', routes: (ctx) => bulkArea(services.bulk).routes(ctx) }],
    });
    worker = createBulkWorker({ connection: workerConnection, storage: storage as FsStorage, sealer, registry, keyPrefix, sweepIntervalMs: 200, retentionIntervalMs: 0 });
    await worker.ready();
    tokens = { all: await h.token(), other: await h.token(CLIENTS.other) };
  });
  after(async () => {
    await worker.close({ timeoutMs: 2_000 });
    await service.close();
    await h.close();
    bank.close();
    await sim.close();
    workerConnection.disconnect();
    redis.disconnect();
  });

  const as = (client: 'all' | 'other' = 'all') => ({
    post: (path: string) => request(h.app).post(`/api${path}`).set('authorization', tokens[client]).set('x-api-key', CLIENTS[client].apiKey),
    get: (path: string) => request(h.app).get(`/api${path}`).set('authorization', tokens[client]).set('x-api-key', CLIENTS[client].apiKey),
  });

  function expectError(res: request.Response, status: number, message: string): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body).to.include({ code: status, message });
  }

  async function finished(jobId: string): Promise<Record<string, any>> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await as().get(`/bulk/verifications/${jobId}`);
      expect(res.status).to.equal(200);
      if (res.body.data.status === 'succeeded' || res.body.data.status === 'failed') return res.body.data;
      if (Date.now() > deadline) throw new Error(`job still ${res.body.data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('makes no paid call for a row whose IFSC the directory lacks: the row is the single call\'s 422, as an error', async () => {
    const submitted = await as().post('/bulk/verifications').send({ '@entity': 'in.co.service.bulk.verification.request', kind: 'penny_drop' });
    expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
    const before = sim.requests();
    const csv = `ifsc,account_number\nZZZZ0000001,${PD.valid}\nZZZZ0000001,${PD.validSecond}\n${IFSC},${PD.validSecond}\n`;
    expect((await fetch(submitted.body.data.csv_url, { method: 'PUT', body: csv })).status).to.equal(200);
    const done = await finished(submitted.body.data.job_id);
    expect(done.summary).to.deep.equal({ ok: 1, invalid: 0, error: 2, interrupted: 0 });
    const lines = (await (await fetch(done.result_url)).text()).trimEnd().split('\n');
    expect(lines[1]).to.equal(`2,,ZZZZ0000001,${PD.valid},,,error,UNKNOWN_IFSC,Invalid IFSC provided,,,,,,`);
    expect(lines[2]).to.equal(`3,,ZZZZ0000001,${PD.validSecond},,,error,UNKNOWN_IFSC,Invalid IFSC provided,,,,,,`);
    expect(sim.requests(), 'provider calls: the known IFSC\'s row only').to.equal(before + 1);
  });

  it('submits, takes the CSV through the pre-signed URL, polls progress and serves the result CSV', async () => {
    const submitted = await as().post('/bulk/verifications').send({ '@entity': 'in.co.service.bulk.verification.request', kind: 'penny_drop' });
    expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
    const job = submitted.body.data;
    expect(job).to.include({ '@entity': 'in.co.service.bulk.verification.job', kind: 'penny_drop', accept_cache: false, status: 'created', rows_done: 0 });
    expect(job.summary).to.deep.equal({ ok: 0, invalid: 0, error: 0, interrupted: 0 });
    expect(job.csv_url).to.match(new RegExp(`^${h.baseUrl}/storage/bulk/[0-9a-f]{24}/${job.job_id}/rows\\.csv\\?`));
    const csv = `ifsc,account_number,name\n${IFSC},${PD.valid},Anjali Rao\n${IFSC},12-34,\n`;
    const put = await fetch(job.csv_url, { method: 'PUT', body: csv });
    expect(put.status).to.equal(200);
    expect((await fetch(job.csv_url, { method: 'PUT', body: csv })).status, 'a second upload').to.equal(409);
    const done = await finished(job.job_id);
    expect(done).to.include({ status: 'succeeded', rows_total: 2, rows_done: 2 });
    expect(done.summary).to.deep.equal({ ok: 1, invalid: 1, error: 0, interrupted: 0 });
    expect(done).to.not.have.property('csv_url');
    const result = await fetch(done.result_url);
    expect(result.status).to.equal(200);
    const lines = (await result.text()).trimEnd().split('\n');
    expect(lines).to.have.length(3);
    expect(lines[1]).to.match(new RegExp(`^2,,${IFSC},${PD.valid},Anjali Rao,,ok,OK,`));
    expect(lines[2]).to.equal(`3,,${IFSC},12-34,,,invalid,INVALID_FIELD,Invalid account_number: must contain only letters and digits,,,,,,`);

    const summary = await fetch(done.summary_url);
    expect(summary.status).to.equal(200);
    expect((await summary.text()).trimEnd().split('\n')).to.deep.equal([
      'outcome,code,message,rows',
      'invalid,INVALID_FIELD,Invalid account_number: must contain only letters and digits,1',
      'ok,OK,Bank Account details verified successfully.,1',
    ]);

    const list = await as().get('/bulk/verifications?page_size=1');
    expect(list.status).to.equal(200);
    expect(list.body.data['@entity']).to.equal('in.co.service.bulk.verification.paginated_list');
    expect(list.body.data.items.map((item: { job_id: string }) => item.job_id)).to.deep.equal([job.job_id]);
  });

  it('lists newest first with a cursor, and only the caller\'s own jobs', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await as().post('/bulk/verifications').send({ '@entity': 'in.co.service.bulk.verification.request', kind: 'ifsc' })).body.data.job_id);
    const first = (await as().get('/bulk/verifications?page_size=2')).body.data;
    expect(first.items.map((item: { job_id: string }) => item.job_id)).to.deep.equal([ids[2], ids[1]]);
    const second = (await as().get(`/bulk/verifications?page_size=2&last_evaluated_key=${first.last_evaluated_key}`)).body.data;
    expect(second.items[0].job_id).to.equal(ids[0]);
    expect((await as('other').get('/bulk/verifications')).body.data.items).to.deep.equal([]);
    expectError(await as('other').get(`/bulk/verifications/${ids[0]}`), 521, `Data not found: ${ids[0]}`);
  });

  it('answers bad requests with the error envelope naming the field', async () => {
    expectError(await as().post('/bulk/verifications').send({ '@entity': 'in.co.service.bulk.verification.request' }), 400, 'Invalid request body: kind is required');
    expectError(await as().post('/bulk/verifications').send({ '@entity': 'in.co.service.bulk.verification.request', kind: 'pan_aadhaar' }), 422, 'Invalid kind: pan_aadhaar');
    expectError(await as().post('/bulk/verifications').send({ '@entity': 'in.co.service.bulk.verification.request', kind: 'ifsc', accept_cache: 'yes' }), 400, 'Invalid request body: accept_cache must be boolean');
    expectError(await as().get('/bulk/verifications/not-a-job'), 521, 'Data not found: not-a-job');
    expectError(await as().get('/bulk/verifications?last_evaluated_key=abc'), 422, 'Invalid last_evaluated_key: not a cursor of a previous page');
    const res = await request(h.app).get('/api/bulk/verifications').set('x-api-key', CLIENTS.all.apiKey);
    expect(res.status).to.be.oneOf([401, 403]);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).to.include.members(['/bulk/verifications', '/bulk/verifications/{job_id}']);
    expect(doc.paths['/bulk/verifications'].post.operationId).to.equal('submitBulkVerification');
    expect(doc.paths['/bulk/verifications/{job_id}'].get.operationId).to.equal('getBulkVerification');
  });
});
