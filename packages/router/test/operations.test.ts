// What operators watch on a router: request metrics by route pattern (never the path), liveness and readiness.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { FsStorage, createMetrics, metricsHandler, type ObjectStorage, type SatyapanMetrics } from '@satyapan/core';
import { createRouter } from '@satyapan/router';
import { CLIENTS, TOKEN_SECRET, startHarness, type Harness } from './support/harness.js';
import { crashRoute, echoRoute } from './support/routes.js';

const validBody = { '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] };

/** The value of one series of the exposition text, e.g. `satyapan_x_count{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every value one label takes in the request series. */
function labelValues(text: string, label: string): Set<string> {
  return new Set([...text.matchAll(new RegExp(`^satyapan_http_request_duration_seconds_count\\{.*?${label}="([^"]*)"`, 'gm'))].map((match) => match[1]!));
}

/** The status of a request with a method fetch and supertest would refuse to send. */
function rawStatus(baseUrl: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${baseUrl}/health/live`, { method }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    sent.on('error', reject);
    sent.end();
  });
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

  it('labels methods from a closed set: PROPFIND or FOO on any path adds no method label or route of the caller\'s', async () => {
    const before = labelValues(await metrics.text(), 'method');
    for (const method of ['PROPFIND', 'MKCOL', 'PROPFIND']) {
      expect((await request(h.app)[method === 'PROPFIND' ? 'propfind' : 'mkcol']('/api/test/echo/HDFC0000003')).status, method).to.equal(404);
    }
    // Node's parser refuses a method it does not know (FOO) before Express sees it: 400, and no series either.
    expect(await rawStatus(h.baseUrl, 'FOO')).to.equal(400);
    const text = await metrics.text();
    expect(sample(text, 'satyapan_http_request_duration_seconds_count{method="other",route="(unmatched)",status="404"}')).to.equal(3);
    const added = [...labelValues(text, 'method')].filter((value) => !before.has(value));
    expect(added).to.deep.equal(['other']);
    for (const route of labelValues(text, 'route')) expect(route).to.match(/^(\(unmatched\)|\/[a-z/:-]*)$/);
    expect(text).not.to.include('HDFC0000003');
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

  it('answers many /health calls from one storage probe per interval, shared by concurrent callers', async () => {
    let writes = 0;
    // A real FsStorage whose writes are counted: the probe is what an attacker could make the host pay for.
    const counted = (storage: ObjectStorage): ObjectStorage => new Proxy(storage, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (property === 'put') writes += 1;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const h = await startHarness({ storage: (dataDir) => counted(new FsStorage({ root: dataDir, signingSecret: 'storage-secret' })), storageProbeIntervalMs: 10_000 });
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => request(h.app).get('/api/health')));
      for (const answer of answers) expect(answer.body.data).to.deep.equal({ status: 'ok', redis: 'up', storage: 'up' });
      for (let call = 0; call < 20; call++) expect((await request(h.app).get('/api/health')).status).to.equal(200);
      expect(writes).to.equal(1);
      h.clock.advance(9_999);
      await request(h.app).get('/api/health');
      expect(writes).to.equal(1);
      h.clock.advance(1);
      await Promise.all([request(h.app).get('/api/health'), request(h.app).get('/api/health')]);
      expect(writes).to.equal(2);
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
