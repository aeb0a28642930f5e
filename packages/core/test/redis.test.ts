import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { DEFAULT_REDIS_URL, KeySpace, connectionNameOf, createLogger, createRedisConnection, duplicateConnection, isRedisCluster, isRedisUnavailableError, parseClusterNodes, waitForRedis } from '@satyapan/core';
import { freePort, startRedisServer } from '../../../test/support/redis-server.js';
import { sharedRedisCluster } from '../../../test/support/redis-cluster.js';

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
    const redis = createRedisConnection({ url: DEFAULT_REDIS_URL, flavour: 'producer', overrides: { lazyConnect: true } });
    expect(redis.options.autoResendUnfulfilledCommands).to.equal(false);
    expect(redis.options.enableOfflineQueue).to.equal(false);
    redis.disconnect();
  });

  it('worker connections never give up on a command (BullMQ requirement)', () => {
    const redis = createRedisConnection({ url: DEFAULT_REDIS_URL, flavour: 'worker', overrides: { lazyConnect: true } });
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

describe('core: Redis Cluster connections (a real cluster on loopback)', () => {
  it('reads REDIS_CLUSTER_NODES-style lists, naming a malformed entry', () => {
    expect(parseClusterNodes(' 10.0.0.1:7000, redis-b:7001 ,')).to.deep.equal(['10.0.0.1:7000', 'redis-b:7001']);
    expect(parseClusterNodes('')).to.equal(undefined);
    expect(parseClusterNodes(undefined)).to.equal(undefined);
    expect(() => parseClusterNodes('10.0.0.1:7000,redis-b')).to.throw('"redis-b"');
    expect(() => parseClusterNodes('redis-b:99999')).to.throw('"redis-b:99999"');
  });

  it('counts a slot without a master and given-up redirections as Redis being away (503), not as a fault', () => {
    for (const message of [
      'Too many Cluster redirections. Last error: Error: Connection is closed.', 'CLUSTERDOWN The cluster is down',
      'TRYAGAIN Multiple keys request during rehashing of slot', "Cluster isn't ready and enableOfflineQueue options is false",
    ]) expect(isRedisUnavailableError(new Error(message)), message).to.equal(true);
    expect(isRedisUnavailableError(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).to.equal(false);
  });

  it('gives a cluster connection the flavour settings on every node, and keeps them in its duplicates', async function () {
    this.timeout(30_000);
    const cluster = await sharedRedisCluster();
    const producer = createRedisConnection({ nodes: cluster.nodes, flavour: 'producer', connectionName: 'cluster-producer' });
    const worker = createRedisConnection({ nodes: cluster.nodes, flavour: 'worker', connectionName: 'cluster-worker' });
    const copy = duplicateConnection(producer, { connectionName: 'cluster-producer-copy' });
    try {
      await Promise.all([waitForRedis(producer), waitForRedis(worker), waitForRedis(copy)]);
      expect(isRedisCluster(producer)).to.equal(true);
      expect(producer.options.enableOfflineQueue).to.equal(false);
      expect(producer.options.redisOptions?.autoResendUnfulfilledCommands).to.equal(false);
      expect(worker.options.redisOptions?.maxRetriesPerRequest).to.equal(null);
      expect(connectionNameOf(copy)).to.equal('cluster-producer-copy');
      expect(isRedisCluster(copy) && copy.options.redisOptions?.commandTimeout).to.equal(5_000);
      // Keys of three hash tags land on more than one master, and each is read back through the cluster.
      const keys = new KeySpace(`test:cluster:${process.pid}`);
      const written = ['a', 'b', 'c', 'd', 'e', 'f'].map((tag) => keys.tagged(tag, 'k'));
      for (const key of written) await producer.set(key, key, 'EX', 30);
      for (const key of written) expect(await copy.get(key)).to.equal(key);
      const holders = await Promise.all(producer.nodes('master').map(async (node) => (await node.keys(`${keys.prefix}*`)).length));
      expect(holders.filter((count) => count > 0).length).to.be.greaterThan(1);
      for (const key of written) await producer.del(key);
    } finally {
      producer.disconnect();
      worker.disconnect();
      copy.disconnect();
    }
  });
});
