// What operators watch on a router: request metrics by route pattern (never the path), liveness and readiness.
import { expect } from 'chai';
import request from 'supertest';
import { createMetrics, metricsHandler, type SatyapanMetrics } from '@satyapan/core';
import { createRouter } from '@satyapan/router';
import { CLIENTS, TOKEN_SECRET, startHarness, type Harness } from './support/harness.js';
import { crashRoute, echoRoute } from './support/routes.js';

const validBody = { '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] };

/** The value of one series of the exposition text, e.g. `satyapan_x_count{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('router: request metrics', () => {
  let h: Harness;
  let metrics: SatyapanMetrics;
  let token: string;
  before(async () => {
    metrics = createMetrics();
    h = await startHarness({ routes: [echoRoute, crashRoute], metrics });
    h.app.get('/metrics', metricsHandler(metrics));
    token = await h.token();
  });
  after(() => h.close());

  const echo = (ifsc: string) => request(h.app).post(`/api/test/echo/${ifsc}`).set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);

  it('counts and times requests by route pattern, method and status, never by path', async () => {
    expect((await echo('HDFC0000001').send(validBody)).status).to.equal(200);
    expect((await echo('HDFC0000002').send(validBody)).status).to.equal(200);
    expect((await echo('ICIC0000001').send({})).status).to.equal(400);
    expect((await request(h.app).get('/api/no/such/0123456789')).status).to.equal(404);
    const res = await request(h.app).get('/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, 'satyapan_http_request_duration_seconds_count{method="post",route="/test/echo/:ifsc",status="200"}')).to.equal(2);
    expect(sample(text, 'satyapan_http_request_duration_seconds_count{method="post",route="/test/echo/:ifsc",status="400"}')).to.equal(1);
    expect(sample(text, 'satyapan_http_request_duration_seconds_count{method="post",route="/authenticate",status="200"}')).to.equal(1);
    expect(sample(text, 'satyapan_http_request_duration_seconds_count{method="get",route="(unmatched)",status="404"}')).to.equal(1);
    expect(sample(text, 'satyapan_http_request_duration_seconds_sum{method="post",route="/test/echo/:ifsc",status="200"}')).to.be.greaterThan(0);
    for (const identifier of ['HDFC0000001', 'ICIC0000001', '0123456789', CLIENTS.all.apiKey, CLIENTS.all.id]) expect(text).not.to.include(identifier);
  });

  it('labels a 500 with its route, and keeps each registry to itself', async () => {
    expect((await request(h.app).get('/api/test/crash').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey)).status).to.equal(500);
    const other = createMetrics();
    const second = await startHarness({ routes: [echoRoute], metrics: other, keyPrefix: h.keyPrefix });
    try {
      await request(second.app).get('/api/health/live');
      const first = await metrics.text();
      expect(sample(first, 'satyapan_http_request_duration_seconds_count{method="get",route="/test/crash",status="500"}')).to.equal(1);
      expect(first).not.to.include('route="/health/live"');
      expect(sample(await other.text(), 'satyapan_http_request_duration_seconds_count{method="get",route="/health/live",status="200"}')).to.equal(1);
    } finally {
      await second.close();
    }
  });
});

describe('router: liveness and readiness', () => {
  it('answers /health/live and /health/ready with Redis and the host\'s checks, and documents both', async () => {
    let workerUp = true;
    const h = await startHarness({ readiness: { worker: async () => workerUp } });
    try {
      const live = await request(h.app).get('/api/health/live');
      expect(live.status).to.equal(200);
      expect(live.body.data).to.deep.equal({ status: 'ok' });
      const ready = await request(h.app).get('/api/health/ready');
      expect(ready.status).to.equal(200);
      expect(ready.body.data).to.deep.equal({ status: 'ok', redis: 'up', worker: 'up' });
      workerUp = false;
      const down = await request(h.app).get('/api/health/ready');
      expect(down.status).to.equal(503);
      expect(down.body.message).to.equal('Service Unavailable');
      const paths = (h.router.openapi['paths'] ?? {}) as Record<string, { get: { responses: Record<string, unknown> } }>;
      expect(paths['/health/ready']?.get.responses).to.include.keys('200', '503');
      expect(paths['/health/live']?.get.responses).to.include.keys('200');
      expect(paths['/health']?.get.responses).to.include.keys('200', '503');
    } finally {
      await h.close();
    }
  });

  it('is not ready while its Redis connection is gone, and still live', async () => {
    const h = await startHarness();
    try {
      h.redis.disconnect();
      expect((await request(h.app).get('/api/health/ready')).status).to.equal(503);
      expect((await request(h.app).get('/api/health/live')).status).to.equal(200);
    } finally {
      await h.close().catch(() => undefined);
    }
  });

  it('counts a check that hangs as down, and a check that throws', async () => {
    const h = await startHarness({
      readiness: { stuck: () => new Promise<boolean>(() => undefined), broken: async () => { throw new Error('no'); } },
      // The default 2 s applies; the hanging check must not hang the probe.
    });
    try {
      const started = Date.now();
      const res = await request(h.app).get('/api/health/ready');
      expect(res.status).to.equal(503);
      expect(Date.now() - started).to.be.below(4_000);
    } finally {
      await h.close();
    }
  });

  it('refuses a readiness check whose name would clash with the answer\'s fields', async () => {
    const h = await startHarness();
    try {
      for (const name of ['redis', 'status', 'Worker-1']) {
        expect(() => createRouter({ redis: h.redis, storage: h.storage, clients: [], tokens: { secret: TOKEN_SECRET }, readiness: { [name]: async () => true } }), name)
          .to.throw(/readiness check name/);
      }
    } finally {
      await h.close();
    }
  });
});
