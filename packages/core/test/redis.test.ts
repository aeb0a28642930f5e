import { expect } from 'chai';
import { KeySpace, createRedisConnection, waitForRedis } from '@satyapan/core';

describe('core: Redis connections and key naming', () => {
  it('producer connections fail fast when Redis is unreachable', async () => {
    const redis = createRedisConnection({ url: 'redis://127.0.0.1:1', flavour: 'producer', overrides: { retryStrategy: () => null } });
    redis.on('error', () => undefined);
    const started = Date.now();
    try {
      await redis.get('x');
      expect.fail('expected a failure');
    } catch (error) {
      expect(Date.now() - started).to.be.below(2_000);
    } finally {
      redis.disconnect();
    }
  });

  it('producer connections never replay a command after a reconnect (its caller already had its answer)', () => {
    const redis = createRedisConnection({ flavour: 'producer', overrides: { lazyConnect: true } });
    expect(redis.options.autoResendUnfulfilledCommands).to.equal(false);
    expect(redis.options.enableOfflineQueue).to.equal(false);
    redis.disconnect();
  });

  it('worker connections never give up on a command (BullMQ requirement)', () => {
    const redis = createRedisConnection({ flavour: 'worker', overrides: { lazyConnect: true } });
    expect(redis.options.maxRetriesPerRequest).to.equal(null);
    redis.disconnect();
  });

  it('talks to the local Redis', async () => {
    const redis = createRedisConnection({ flavour: 'producer', connectionName: 'core-test' });
    await waitForRedis(redis);
    const keys = new KeySpace(`test:${process.pid}:${Date.now()}`);
    const key = keys.plain('ping');
    await redis.set(key, 'pong', 'EX', 10);
    expect(await redis.get(key)).to.equal('pong');
    await redis.del(key);
    redis.disconnect();
  });

  it('names keys with hash tags for Redis Cluster', () => {
    const keys = new KeySpace('sp');
    expect(keys.tagged('tds:client-1', 'job', 'j1')).to.equal('sp:{tds:client-1}:job:j1');
    expect(keys.child('kyc').plain('session', 's1')).to.equal('sp:kyc:session:s1');
    expect(() => new KeySpace('a{b}')).to.throw();
  });
});
