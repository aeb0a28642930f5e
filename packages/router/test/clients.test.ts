import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { KeySpace, createRedisConnection, waitForRedis } from '@satyapan/core';
import { ChainedClientStore, RedisClientStore, StaticClientStore, TokenService, clientFromConfig } from '@satyapan/router';
import { CLIENTS, startHarness } from './support/harness.js';
import { deleteKeysMatching, keysMatching } from '../../../test/support/redis-cluster.js';

describe('router: client stores', () => {
  const redis = createRedisConnection({ flavour: 'producer' });
  const keys = new KeySpace(`test:${randomUUID()}`);
  before(() => waitForRedis(redis));
  after(async () => {
    await deleteKeysMatching(redis, `${keys.prefix}*`);
    redis.disconnect();
  });

  it('refuses a client without an API key or secret, and a missing or short token secret, with one clear line', () => {
    expect(() => clientFromConfig({ id: 'acme', apiKey: 'key_acme' } as never)).to.throw(Error, /^Client acme: apiSecret is missing or empty$/);
    expect(() => clientFromConfig({ id: 'acme', apiKey: 'key_acme', apiSecret: '' })).to.throw(Error, /^Client acme: apiSecret is missing or empty$/);
    expect(() => new StaticClientStore([{ apiKey: '', apiSecret: 'x' }])).to.throw(Error, /^Client #1: apiKey is missing or empty$/);
    const keys = new KeySpace('unused');
    expect(() => new TokenService({ secret: undefined as never }, null as never, keys)).to.throw(Error, /^tokens\.secret is missing: /);
    expect(() => new TokenService({ secret: 'short' }, null as never, keys)).to.throw(Error, /^tokens\.secret must be at least 32 bytes/);
  });

  it('keeps clients in Redis by key hash, never the secret in clear', async () => {
    const store = new RedisClientStore(redis, keys);
    const saved = await store.save({ apiKey: 'key_redis_1', apiSecret: 'secret_redis_1', products: ['tds'] });
    const stored = await keysMatching(redis, `${keys.prefix}*`);
    expect(stored).to.have.length(1);
    expect(stored[0]).not.to.include('key_redis_1');
    expect(await redis.get(stored[0] as string)).not.to.include('secret_redis_1');
    expect(await store.findByApiKey('key_redis_1')).to.deep.equal(saved);
    expect(await store.findByApiKey('key_redis_2')).to.equal(null);
    await store.remove('key_redis_1');
    expect(await store.findByApiKey('key_redis_1')).to.equal(null);
  });

  it('chains stores: configuration first, then Redis, and authenticates clients added at run time', async () => {
    const dynamic = new RedisClientStore(redis, keys);
    const h = await startHarness({ clients: new ChainedClientStore([new StaticClientStore([CLIENTS.all]), dynamic]) });
    try {
      const refused = await request(h.app).post('/api/authenticate').set('x-api-key', 'key_added').set('x-api-secret', 'secret_added');
      expect(refused.status).to.equal(401);
      await dynamic.save({ apiKey: 'key_added', apiSecret: 'secret_added' });
      const accepted = await request(h.app).post('/api/authenticate').set('x-api-key', 'key_added').set('x-api-secret', 'secret_added');
      expect(accepted.status).to.equal(200);
      expect((await request(h.app).post('/api/authenticate').set('x-api-key', CLIENTS.all.apiKey).set('x-api-secret', CLIENTS.all.apiSecret)).status).to.equal(200);
    } finally {
      await h.close();
    }
  });
});
