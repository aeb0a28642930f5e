import { expect } from 'chai';
import request from 'supertest';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';
import { echoRoute } from './support/routes.js';

const body = { '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] };

describe('router: rate limit per API key', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({
      routes: [echoRoute],
      rateLimit: { windowMs: 1_500, defaultLimit: 3 },
      clients: [CLIENTS.all, { ...CLIENTS.other, rateLimitPerMinute: 5 }],
    });
  });
  after(() => h.close());

  const hit = (token: string, key: string) => request(h.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', key).send(body);

  it('answers 429 with Retry-After and RateLimit headers past the limit, then recovers', async function () {
    this.timeout(10_000);
    const token = await h.token(CLIENTS.all);
    for (let i = 0; i < 3; i += 1) {
      const ok = await hit(token, CLIENTS.all.apiKey);
      expect(ok.status).to.equal(200);
      expect(ok.headers['ratelimit-policy']).to.match(/q=3/);
    }
    const limited = await hit(token, CLIENTS.all.apiKey);
    expect(limited.status).to.equal(429);
    expect(limited.body).to.include({ code: 429, message: 'Too Many Requests' });
    expect(Number(limited.headers['retry-after'])).to.be.within(1, 2);
    expect(limited.headers['ratelimit']).to.be.a('string');
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await hit(token, CLIENTS.all.apiKey)).status).to.equal(200);
  });

  it('counts each key on its own and honours a per-client limit', async () => {
    const token = await h.token(CLIENTS.other);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await hit(token, CLIENTS.other.apiKey)).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
  });

  it('shares the counter between two router processes on one Redis', async () => {
    const second = await startHarness({ routes: [echoRoute], rateLimit: { windowMs: 1_500, defaultLimit: 3 }, keyPrefix: `${h.keyPrefix}` });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      const token = await h.token(CLIENTS.all);
      const a = await hit(token, CLIENTS.all.apiKey);
      const b = await request(second.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey).send(body);
      const c = await hit(token, CLIENTS.all.apiKey);
      const d = await request(second.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey).send(body);
      expect([a.status, b.status, c.status, d.status]).to.deep.equal([200, 200, 200, 429]);
    } finally {
      await second.close();
    }
  });
});
