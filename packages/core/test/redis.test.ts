import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { KeySpace, createLogger, createRedisConnection, waitForRedis } from '@satyapan/core';
import { freePort, startRedisServer } from '../../../test/support/redis-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('reports an outage once per change of state, never as an unhandled error event, duplicates included', async function () {
    this.timeout(20_000);
    const port = await freePort();
    let server = await startRedisServer(port);
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => { written += chunk.toString(); });
    const printed: unknown[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => { printed.push(args); };
    const redis = createRedisConnection({ url: `redis://127.0.0.1:${port}`, flavour: 'worker', connectionName: 'outage-test', logger: createLogger({ stream: sink }) });
    const copy = redis.duplicate({ connectionName: 'outage-test-copy' });
    try {
      await Promise.all([waitForRedis(redis), waitForRedis(copy)]);
      server.kill('SIGKILL');
      await sleep(1_500); // several reconnection attempts
      server = await startRedisServer(port);
      await Promise.all([waitForRedis(redis, 5_000), waitForRedis(copy, 5_000)]);
      await sleep(50);
      const lines = written.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const about = (name: string) => lines.filter((line) => line['connection'] === name).map((line) => `${String(line['level'])} ${String(line['message'])}`);
      for (const name of ['outage-test', 'outage-test-copy']) {
        expect(about(name), name).to.deep.equal(['warn redis connection failing', 'info redis connection restored']);
      }
      expect(printed).to.deep.equal([]);
    } finally {
      console.error = consoleError;
      redis.disconnect();
      copy.disconnect();
      server.kill('SIGKILL');
    }
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
