import { expect } from 'chai';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';
import { crashRoute, deprecatedRoute, echoRoute } from './support/routes.js';

const validBody = { '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] };

describe('router: HTTP conventions', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness({ routes: [echoRoute, crashRoute, deprecatedRoute], bodyLimit: 2048 });
    token = await h.token();
  });
  after(() => h.close());

  const echo = (ifsc = 'HDFC0000001') => request(h.app).post(`/api/test/echo/${ifsc}`).set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);

  function expectEnvelope(res: request.Response, status: number, message: string): void {
    expect(res.status).to.equal(status);
    expect(res.headers['content-type']).to.match(/application\/json/);
    expect(res.body).to.deep.equal({ code: status, timestamp: res.body.timestamp, message, transaction_id: res.headers['x-request-id'] });
    expect(res.body.timestamp).to.be.a('number');
    expect(JSON.stringify(res.body)).not.to.match(/at .*\.(js|ts):\d+/);
  }

  it('passes validated input with defaults filled in', async () => {
    const res = await echo().query({ limit: '5' }).send(validBody);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ body: validBody, query: { limit: 5 }, params: { ifsc: 'HDFC0000001' }, client: 'client-all' });
    expect((await echo().send(validBody)).body.data.query).to.deep.equal({ limit: 20 });
  });

  it('ignores unknown body fields, as the vendor does: the handler never sees them', async () => {
    const res = await echo().send({ ...validBody, extra: 1, ref_id: 'x' });
    expect(res.status).to.equal(200);
    expect(res.body.data.body).to.deep.equal(validBody);
  });

  it('answers 400 naming the field for missing, mistyped fields and wrong @entity', async () => {
    expectEnvelope(await echo().send({ ...validBody, quarter: undefined }), 400, 'Invalid request body: quarter is required');
    expectEnvelope(await echo().send({ ...validBody, doc_types: 'pan' }), 400, 'Invalid request body: doc_types must be array');
    expectEnvelope(await echo().send({ ...validBody, '@entity': 'wrong' }), 400, 'Invalid request body: @entity must be "in.co.service.test.request"');
    expectEnvelope(await echo().send(), 400, 'Invalid request body: @entity is required');
  });

  it('answers 422 for a rule broken by a well-formed value, with the vendor message where known', async () => {
    expectEnvelope(await echo('HDFC-000001').send(validBody), 422, 'Invalid IFSC pattern');
    expectEnvelope(await echo().send({ ...validBody, quarter: 'Q9' }), 422, 'Invalid quarter: Q9');
    expectEnvelope(await echo().send({ ...validBody, note: 'too long' }), 422, 'Invalid note: must NOT have more than 5 characters');
    expectEnvelope(await echo().send({ ...validBody, doc_types: [] }), 422, 'Invalid doc_types: must NOT have fewer than 1 items');
    expectEnvelope(await echo().query({ limit: '500' }).send(validBody), 422, 'Invalid limit: must be <= 100');
  });

  it('answers 400 to malformed JSON and 413 to an oversize body, in the envelope', async () => {
    expectEnvelope(await echo().set('content-type', 'application/json').send('{"a":'), 400, 'Invalid request body: malformed JSON');
    expectEnvelope(await echo().send({ ...validBody, pad: 'x'.repeat(5000) }), 413, 'Payload too large: the limit is 2048 bytes');
  });

  it('accepts version-shaped x-api-version values and echoes them; refuses others', async () => {
    for (const version of ['1.0', '1.0.0', '2.0', '3']) {
      const res = await echo().set('x-api-version', version).send(validBody);
      expect(res.status).to.equal(200);
      expect(res.headers['x-api-version']).to.equal(version);
    }
    expectEnvelope(await echo().set('x-api-version', 'latest').send(validBody), 400, 'Unsupported API version: latest');
  });

  it('answers 404 in the envelope for an unknown route under the router, and leaves host routes alone', async () => {
    expectEnvelope(await request(h.app).get('/api/nope'), 404, 'Route not found: GET /api/nope');
    expect((await request(h.app).get('/host-route')).body).to.deep.equal({ host: true });
  });

  it('turns a programming error into a 500 envelope without details', async () => {
    const res = await request(h.app).get('/api/test/crash').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
    expectEnvelope(res, 500, 'Internal Server Error');
    expect(res.text).not.to.include('secret/path');
  });

  it('marks every answer of a deprecated operation, errors included, and validates declared headers', async () => {
    const old = () => request(h.app).post('/api/test/old').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
    const link = /^<http:\/\/127\.0\.0\.1:\d+\/api\/test\/echo\/HDFC0000001>; rel="successor-version"$/;
    for (const res of [await old().send({ n: 1 }), await old().send({}), await request(h.app).post('/api/test/old').send({ n: 1 })]) {
      expect(res.headers['deprecation']).to.equal('true');
      expect(res.headers['link']).to.match(link);
    }
    expect((await old().send({})).status).to.equal(400);
    expectEnvelope(await old().set('x-mode', 'turbo').send({ n: 1 }), 422, 'Invalid mode: turbo');
    expect((await old().set('x-mode', 'fast').send({ n: 1 })).status).to.equal(200);
    const doc = (await request(h.app).get('/api/openapi.json')).body.paths['/test/old'].post;
    expect(doc.deprecated).to.equal(true);
    expect(doc.parameters).to.deep.include({ name: 'x-mode', in: 'header', required: false, schema: { enum: ['fast', 'slow'], 'x-message': 'Invalid mode: {value}' } });
  });

  it('sets helmet security headers', async () => {
    const res = await request(h.app).get('/api/health');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['x-powered-by']).to.equal(undefined);
  });

  it('sends exactly the headers helmet sends (computed once at start, replayed per request)', async () => {
    const plain = express();
    plain.use(helmet());
    plain.get('/x', (_req, res) => void res.end());
    const reference = (await request(plain).get('/x')).headers;
    const ours = (await request(h.app).get('/api/health')).headers;
    const helmetNames = Object.keys(reference).filter((name) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name));
    expect(helmetNames.length).to.be.greaterThan(8);
    for (const name of helmetNames) expect(ours[name], name).to.equal(reference[name]);
  });

  it('reports health: Redis and storage up', async () => {
    const res = await request(h.app).get('/api/health');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ status: 'ok', redis: 'up', storage: 'up' });
  });

  it('serves an OpenAPI 3.1 document built from the validation schemas', async () => {
    const res = await request(h.app).get('/api/openapi.json');
    expect(res.body.openapi).to.equal('3.1.0');
    const op = res.body.paths['/test/echo/{ifsc}'].post;
    expect(op.requestBody.content['application/json'].schema).to.deep.equal(echoRoute.schemas.body);
    expect(op.parameters.map((p: { name: string }) => p.name)).to.include.members(['ifsc', 'limit', 'x-api-version']);
    expect(op.responses).to.include.keys('200', '400', '401', '403', '422', '429', '500');
    expect(res.body.paths['/authenticate'].post.responses['401'].description).to.include('Unauthorized');
  });
});

describe('router: Redis unavailable', () => {
  it('answers 503 in the envelope, not 500, when Redis is down', async () => {
    const h = await startHarness({ routes: [echoRoute] });
    try {
      const token = await h.token();
      const broken = await startHarness({ routes: [echoRoute], keyPrefix: h.keyPrefix });
      // A producer connection that is closed fails every command at once, as when Redis goes away.
      broken.redis.disconnect();
      const res = await request(broken.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey)
        .send({ '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] });
      expect(res.status).to.equal(503);
      expect(res.body.message).to.equal('Service Unavailable');
      const health = await request(broken.app).get('/api/health');
      expect(health.status).to.equal(503);
      await broken.close().catch(() => undefined);
    } finally {
      await h.close();
    }
  });
});
