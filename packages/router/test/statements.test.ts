import { expect } from 'chai';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { FsStorage, Sealer, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { StatementService, statementsArea } from '@satyapan/statement-queue';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';

const TDS_BODY = { '@entity': 'in.co.service.tds.reports.request', tan: 'AHMA09719D', form: '26Q', quarter: 'Q3', financial_year: 'FY 2025-26' };
const TCS_BODY = { '@entity': 'in.co.service.tcs.reports.request', tan: 'AHMA09719D', quarter: 'Q1', financial_year: 'FY 2025-26' };

describe('router: statement job routes', () => {
  let h: Harness;
  let redis: RedisConnection;
  let service: StatementService;
  let token: string;
  let otherToken: string;

  before(async () => {
    const keyPrefix = `test:${randomUUID()}`;
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'router-statements-test' });
    await waitForRedis(redis);
    const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
    let storage: FsStorage | undefined;
    // The service needs the harness's storage, which exists only once the harness builds it.
    const services = {
      get statements(): StatementService {
        service ??= new StatementService({ redis, storage: storage as FsStorage, sealer, keyPrefix, maxUploadBytes: 2_000 });
        return service;
      },
    };
    h = await startHarness({
      keyPrefix,
      storage: (dataDir) => (storage = new FsStorage({ root: dataDir, signingSecret: 'statement-route-secret' })),
      // Built when the router mounts its areas, by which time the harness has made the storage.
      areas: [{ name: 'statements', routes: (ctx) => statementsArea(services.statements).routes(ctx) }],
    });
    token = await h.token();
    otherToken = await h.token(CLIENTS.other);
  });
  after(async () => {
    await service.close();
    await h.close();
    redis.disconnect();
  });

  const as = (client: 'all' | 'other' | 'bankOnly' = 'all') => ({
    post: (path: string) => request(h.app).post(`/api${path}`).set('authorization', client === 'other' ? otherToken : token).set('x-api-key', CLIENTS[client].apiKey),
    get: (path: string) => request(h.app).get(`/api${path}`).set('authorization', client === 'other' ? otherToken : token).set('x-api-key', CLIENTS[client].apiKey),
  });

  /** Uploads are queued by a listener that runs after the PUT is answered: poll until the status shows it. */
  async function statusEventually(jobId: string, status: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const current = (await as().get(`/tds/reports/txt?job_id=${jobId}`)).body.data.status as string;
      if (current === status) return;
      if (Date.now() > deadline) throw new Error(`job ${jobId} is ${current}, expected ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  function expectError(res: request.Response, status: number, message: string): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body).to.include({ code: status, message });
  }

  it('submits a TDS job and answers the job with a json_url in the envelope', async () => {
    const res = await as().post('/tds/reports/txt').send({ ...TDS_BODY, previous_receipt_number: '123456789012345' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ code: 200 });
    expect(res.body.data).to.include({
      '@entity': 'in.co.service.tds.reports.job', tan: 'AHMA09719D', form: '26Q', quarter: 'Q3',
      financial_year: 'FY 2025-26', previous_receipt_number: '123456789012345', status: 'created',
    });
    expect(res.body.data.json_url).to.match(new RegExp(`^${h.baseUrl}/storage/statements/[0-9a-f]{24}/${res.body.data.job_id}/workbook\\.json\\?`));
  });

  it('submits a TCS job without a form', async () => {
    const res = await as().post('/tcs/reports/txt').send(TCS_BODY);
    expect(res.status).to.equal(200);
    expect(res.body.data['@entity']).to.equal('in.co.service.tcs.reports.job');
    expect(res.body.data).not.to.have.property('form');
    expect((await as().post('/tcs/reports/txt').send({ ...TCS_BODY, form: '27EQ' })).body.data).not.to.have.property('form');
  });

  it('answers the vendor 422 messages for a bad TAN, form, financial year and quarter', async () => {
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, tan: 'AHMA0971B' }), 422, 'Invalid TAN pattern');
    expectError(await as().post('/tcs/reports/txt').send({ ...TCS_BODY, tan: 'DABC2345DD' }), 422, 'Invalid Tan pattern');
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, form: '22Q' }), 422, 'Invalid form type: 22Q');
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, financial_year: 'FY 2022-2' }), 422, 'Invalid financial year: FY 2022-2');
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, financial_year: 'FY 2022-24' }), 422, 'Invalid financial year: FY 2022-24');
    // A year the engine cannot write (it has not begun) is refused at submit, not turned into a job that must fail.
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, financial_year: 'FY 9999-00' }), 422, 'Invalid financial year: FY 9999-00');
    expectError(await as().post('/tcs/reports/txt').send({ ...TCS_BODY, financial_year: 'FY 9999-00' }), 422, 'Invalid financial year: FY 9999-00');
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, quarter: 'Q9' }), 422, 'Invalid quarter: Q9');
  });

  it('answers 422 for a previous receipt number that is not the 15-digit token of a regular statement', async () => {
    for (const token of ['12345678901234', '1234567890123456', 'ABCDE1234567890']) {
      expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, previous_receipt_number: token }), 422, 'Invalid previous receipt number: expected the 15-digit token number');
    }
  });

  it('answers 400 for a missing field, a wrong @entity and an unknown field', async () => {
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, form: undefined }), 400, 'Invalid request body: form is required');
    expectError(await as().post('/tds/reports/txt').send({ ...TDS_BODY, '@entity': 'in.co.service.tcs.reports.request' }), 400, 'Invalid request body: @entity must be "in.co.service.tds.reports.request"');
    expect((await as().post('/tds/reports/txt').send({ ...TDS_BODY, filing_type: 'original' })).body.data).not.to.have.property('filing_type');
  });

  it('needs the tds or tcs product', async () => {
    const bankToken = await h.token(CLIENTS.bankOnly);
    const res = await request(h.app).post('/api/tds/reports/txt').set('authorization', bankToken).set('x-api-key', CLIENTS.bankOnly.apiKey).send(TDS_BODY);
    expectError(res, 403, 'Insufficient privilege');
    expectError(await request(h.app).get('/api/tcs/reports/txt?job_id=x'), 401, 'Unauthorized');
  });

  it('polls a job for its owner and answers 521 to every other client, domain and id', async () => {
    const jobId = (await as().post('/tds/reports/txt').send(TDS_BODY)).body.data.job_id as string;
    const polled = await as().get(`/tds/reports/txt?job_id=${jobId}`);
    expect(polled.status).to.equal(200);
    expect(polled.body.data).to.include({ job_id: jobId, status: 'created' });
    expect(polled.body.data).not.to.have.property('json_url');
    expectError(await as('other').get(`/tds/reports/txt?job_id=${jobId}`), 521, `Data not found: ${jobId}`);
    expectError(await as().get(`/tcs/reports/txt?job_id=${jobId}`), 521, `Data not found: ${jobId}`);
    expectError(await as().get('/tds/reports/txt?job_id=174b4fbf-0d0f-4c46-93d8-790d6d3ae0ee'), 521, 'Data not found: 174b4fbf-0d0f-4c46-93d8-790d6d3ae0ee');
    expectError(await as().get('/tds/reports/txt'), 400, 'Invalid parameter: job_id is required');
  });

  it('takes the workbook through json_url without auth headers, queues the job, and refuses a second upload with 409', async () => {
    const job = (await as().post('/tds/reports/txt').send(TDS_BODY)).body.data as { job_id: string; json_url: string };
    const put = await fetch(job.json_url, { method: 'PUT', body: '{"name":"form26q_workbook"}', headers: { 'content-type': 'application/json' } });
    expect(put.status).to.equal(200);
    expect(await put.text()).to.equal('');
    await statusEventually(job.job_id, 'queued');
    const again = await fetch(job.json_url, { method: 'PUT', body: '{"other":1}' });
    expect(again.status).to.equal(409);
    expect(await again.json()).to.include({ code: 409, message: 'Workbook already uploaded' });
    expect((await as().get(`/tds/reports/txt?job_id=${job.job_id}`)).body.data.status).to.equal('queued');
  });

  it('refuses a workbook over the size limit with 413 and keeps the job waiting for a proper one', async () => {
    const job = (await as().post('/tds/reports/txt').send(TDS_BODY)).body.data as { job_id: string; json_url: string };
    const put = await fetch(job.json_url, { method: 'PUT', body: 'x'.repeat(2_001) });
    expect(put.status).to.equal(413);
    expect(await put.json()).to.include({ message: 'Payload too large: the limit is 2000 bytes' });
    expect((await as().get(`/tds/reports/txt?job_id=${job.job_id}`)).body.data.status).to.equal('created');
    expect((await fetch(job.json_url, { method: 'PUT', body: '{}' })).status).to.equal(200);
    await statusEventually(job.job_id, 'queued');
  });

  it('searches the caller\'s jobs with filters and a cursor', async () => {
    for (const quarter of ['Q1', 'Q2', 'Q4']) await as().post('/tds/reports/txt').send({ ...TDS_BODY, tan: 'BLRC23456G', quarter });
    const first = await as().post('/tds/reports/txt/search').send({ '@entity': 'in.co.service.tds.reports.jobs.search', tan: 'BLRC23456G', page_size: 2 });
    expect(first.status).to.equal(200);
    expect(first.body.data['@entity']).to.equal('in.co.service.tds.reports.paginated_list');
    expect(first.body.data.items.map((i: { quarter: string }) => i.quarter)).to.deep.equal(['Q4', 'Q2']);
    const second = await as().post('/tds/reports/txt/search').send({
      '@entity': 'in.co.service.tds.reports.jobs.search', tan: 'BLRC23456G', page_size: 2, last_evaluated_key: first.body.data.last_evaluated_key,
    });
    expect(second.body.data.items.map((i: { quarter: string }) => i.quarter)).to.deep.equal(['Q1']);
    expect(second.body.data.last_evaluated_key).to.equal(null);
    const other = await as('other').post('/tds/reports/txt/search').send({ '@entity': 'in.co.service.tds.reports.jobs.search' });
    expect(other.body.data.items).to.deep.equal([]);
    const stolen = await as('other').post('/tds/reports/txt/search').send({
      '@entity': 'in.co.service.tds.reports.jobs.search', last_evaluated_key: first.body.data.last_evaluated_key,
    });
    expectError(stolen, 422, 'Invalid last_evaluated_key: not a cursor of a previous search');
    expectError(await as().post('/tds/reports/txt/search').send({ '@entity': 'in.co.service.tds.reports.jobs.search', page_size: 51 }), 422, 'Invalid page_size: must be <= 50');
    expectError(await as().post('/tds/reports/txt/search').send({ '@entity': 'in.co.service.tds.reports.jobs.search', page_size: 0 }), 422, 'Invalid page_size: must be >= 1');
    expectError(await as().post('/tds/reports/txt/search').send({ '@entity': 'in.co.service.tds.reports.jobs.search', status: 'done' }), 422, 'Invalid status: done');
    expect((await as().post('/tcs/reports/txt/search').send({ '@entity': 'in.co.service.tcs.reports.jobs.search', form: '26Q' })).status).to.equal(200);
  });

  it('documents the six operations with request and response schemas in the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; requestBody?: unknown; responses: Record<string, unknown> }>> };
    for (const domain of ['tds', 'tcs']) {
      const label = domain.toUpperCase();
      expect(doc.paths[`/${domain}/reports/txt`]?.['post']?.operationId).to.equal(`submit${label}ReportJob`);
      expect(doc.paths[`/${domain}/reports/txt`]?.['post']?.requestBody).to.be.an('object');
      expect(doc.paths[`/${domain}/reports/txt`]?.['get']?.operationId).to.equal(`get${label}ReportJob`);
      expect(doc.paths[`/${domain}/reports/txt`]?.['get']?.responses).to.have.property('521');
      expect(doc.paths[`/${domain}/reports/txt/search`]?.['post']?.operationId).to.equal(`search${label}ReportJobs`);
      // A finished job's report and a succeeded job's warnings, as the poll (and the webhook) carry them.
      const polled = doc.paths[`/${domain}/reports/txt`]?.['get']?.responses['200'] as { content: Record<string, { schema: any }> };
      const job = JSON.stringify(polled.content['application/json']?.schema);
      for (const field of ['txt_url', 'validation_report_url', 'validation_report_json_url', 'warnings_count']) expect(job, field).to.include(`"${field}"`);
    }
  });
});
