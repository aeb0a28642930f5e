import { expect } from 'chai';
import request from 'supertest';
import type { Redis } from 'ioredis';
import { isRedisCluster, type RedisConnection } from '@satyapan/core';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';
import { echoRoute } from './support/routes.js';

const body = { '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] };

/** Records the name of every command the router's own connection sends (the real connection, to a real Redis). */
function recordCommands(connection: RedisConnection): { sent: string[]; stop(): void } {
  // Commands are counted on one connection: on a cluster they would spread over a connection per node.
  if (isRedisCluster(connection)) throw new Error('recordCommands counts the commands of a single Redis connection');
  const redis: Redis = connection;
  const sent: string[] = [];
  const original = redis.sendCommand;
  redis.sendCommand = function (this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    sent.push(args[0].name);
    return original.apply(this, args);
  } as Redis['sendCommand'];
  return { sent, stop: () => { redis.sendCommand = original; } };
}

describe('router: one Redis round trip per authenticated call', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ routes: [echoRoute], rateLimit: { windowMs: 60_000, defaultLimit: 50 } });
  });
  after(() => h.close());

  const hit = (token: string) => request(h.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey).send(body);

  it('checks revocation and counts the rate limit in a single command', async () => {
    const token = await h.token();
    expect((await hit(token)).status).to.equal(200); // loads the script into Redis if it was not yet
    const recorder = recordCommands(h.redis);
    try {
      for (let i = 0; i < 3; i += 1) expect((await hit(token)).status).to.equal(200);
    } finally {
      recorder.stop();
    }
    expect(recorder.sent).to.deep.equal(['evalsha', 'evalsha', 'evalsha']);
  });

  it('refuses a revoked token in that same command, without counting it against the limit', async () => {
    const old = await h.token();
    const refreshed = await request(h.app).post(`/api/authorize?request_token=${old}`).set('authorization', old).set('x-api-key', CLIENTS.all.apiKey);
    expect(refreshed.status).to.equal(200);
    const before = await hit(refreshed.body.data.access_token);
    const recorder = recordCommands(h.redis);
    let revoked: request.Response;
    try {
      revoked = await hit(old);
    } finally {
      recorder.stop();
    }
    expect(recorder.sent).to.deep.equal(['evalsha']);
    expect(revoked.status).to.equal(403);
    expect(revoked.body.message).to.equal('Access revoked');
    expect(revoked.headers['ratelimit']).to.equal(undefined);
    const after = await hit(refreshed.body.data.access_token);
    const remaining = (r: request.Response) => Number(/r=(\d+)/.exec(r.headers['ratelimit'] as string)?.[1]);
    expect(remaining(after)).to.equal(remaining(before) - 1);
  });

  it('keeps the revocation and counter keys of a client in one hash tag (one Redis Cluster slot)', async () => {
    const old = await h.token(CLIENTS.other);
    await request(h.app).post(`/api/authorize?request_token=${old}`).set('authorization', old).set('x-api-key', CLIENTS.other.apiKey);
    const keys = await h.redis.keys(`${h.keyPrefix}:{client:${CLIENTS.other.id}}:*`);
    expect(keys.some((k) => k.includes(':revoked:'))).to.equal(true);
    const token = await h.token(CLIENTS.other);
    await request(h.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.other.apiKey).send(body);
    expect(await h.redis.exists(`${h.keyPrefix}:{client:${CLIENTS.other.id}}:ratelimit`)).to.equal(1);
  });
});

describe('router: rate-limit headers (IETF draft-8, as express-rate-limit sent them)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ routes: [echoRoute], rateLimit: { windowMs: 60_000, defaultLimit: 2 }, clients: [CLIENTS.all] });
  });
  after(() => h.close());

  it('sends RateLimit and RateLimit-Policy on every admitted call, and Retry-After with the 429', async () => {
    const token = await h.token();
    const call = () => request(h.app).post('/api/test/echo/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey).send(body);
    const first = await call();
    const second = await call();
    const third = await call();
    expect([first.status, second.status, third.status]).to.deep.equal([200, 200, 429]);
    expect(first.headers['ratelimit']).to.match(/^"2-in-1min"; r=1; t=(60|59)$/);
    expect(second.headers['ratelimit']).to.match(/^"2-in-1min"; r=0; t=(60|59)$/);
    expect(third.headers['ratelimit']).to.match(/^"2-in-1min"; r=0; t=(60|59)$/);
    for (const r of [first, second, third]) expect(r.headers['ratelimit-policy']).to.match(/^"2-in-1min"; q=2; w=60; pk=:[A-Za-z0-9+/]+=*:$/);
    expect(first.headers['ratelimit-policy']).to.equal(third.headers['ratelimit-policy']);
    expect(third.headers['retry-after']).to.equal(/t=(\d+)/.exec(third.headers['ratelimit'] as string)?.[1]);
    expect(third.body).to.include({ code: 429, message: 'Too Many Requests' });
  });
});
