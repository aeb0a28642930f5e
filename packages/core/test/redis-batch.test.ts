import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LuaScript, batched, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { deleteKeysMatching, sharedRedisCluster } from '../../../test/support/redis-cluster.js';

/** INCRs KEYS[1] by ARGV[1]; ARGV[1] = 'fail' raises a script error (for that call only). */
const source = (salt: string) => `
-- ${salt}: a script of its own per test, so the server does not know it yet (NOSCRIPT at first)
if ARGV[1] == 'fail' then return redis.error_reply('ERR asked to fail') end
return redis.call('INCRBY', KEYS[1], ARGV[1])`;

/** Counts the writes the connection's socket makes while `run` runs (one Redis, not a cluster). */
async function writesDuring(redis: Redis, run: () => Promise<unknown>): Promise<number> {
  const stream = (redis as unknown as { stream: { write(...args: unknown[]): boolean } }).stream;
  const original = stream.write;
  let writes = 0;
  stream.write = function (this: unknown, ...args: unknown[]) {
    writes += 1;
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    stream.write = original;
  }
  return writes;
}

describe('core: batched commands and LuaScript.runBatched (the calls of one event-loop turn in one pipeline)', () => {
  const prefix = `test:lua:${randomUUID()}`;
  let redis: Redis;
  before(async () => {
    redis = createRedisConnection({ flavour: 'producer', url: 'redis://127.0.0.1:6379' }) as Redis;
    await waitForRedis(redis);
  });
  after(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('answers each call with its own reply, loading the script when the server does not know it', async () => {
    const script = new LuaScript(source(randomUUID()));
    const replies = await Promise.all([1, 2, 3, 4].map((n) => script.runBatched(redis, [`${prefix}:{a}:${n}`], [n])));
    expect(replies).to.deep.equal([1, 2, 3, 4]);
    const again = await Promise.all([1, 2].map((n) => script.runBatched(redis, [`${prefix}:{a}:${n}`], [10])));
    expect(again).to.deep.equal([11, 12]);
  });

  it('sends the calls of one turn in one write', async () => {
    const script = new LuaScript(source(randomUUID()));
    await script.run(redis, [`${prefix}:warm`], [1]);
    const calls = 20;
    const writes = await writesDuring(redis, () => Promise.all(Array.from({ length: calls }, (_, i) => script.runBatched(redis, [`${prefix}:w:${i}`], [1]))));
    expect(writes).to.equal(1);
  });

  it('batches any command, each with its reply as the connection would give it (HGETALL as an object)', async () => {
    await redis.hset(`${prefix}:{h}:1`, { a: '1', b: '2' });
    await redis.hset(`${prefix}:{h}:2`, { c: '3' });
    const keys = [`${prefix}:{h}:1`, `${prefix}:{h}:2`, `${prefix}:{h}:none`];
    let replies: Record<string, string>[] = [];
    const writes = await writesDuring(redis, async () => {
      replies = await Promise.all(keys.map((key) => batched<Record<string, string>>(redis, key, (target) => target.hgetall(key))));
    });
    expect(replies).to.deep.equal([{ a: '1', b: '2' }, { c: '3' }, {}]);
    expect(writes).to.equal(1);
    // Alone in its turn, a command goes on the connection as usual, with the same reply.
    expect(await batched(redis, keys[0], (target) => target.hgetall(keys[0]!))).to.deep.equal({ a: '1', b: '2' });
  });

  it('fails only the call whose script fails', async () => {
    const script = new LuaScript(source(randomUUID()));
    const outcomes = await Promise.allSettled([
      script.runBatched(redis, [`${prefix}:f:1`], [5]),
      script.runBatched(redis, [`${prefix}:f:2`], ['fail']),
      script.runBatched(redis, [`${prefix}:f:3`], [7]),
    ]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[0] as PromiseFulfilledResult<unknown>).value).to.equal(5);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).to.contain('asked to fail');
    expect((outcomes[2] as PromiseFulfilledResult<unknown>).value).to.equal(7);
  });

  it('rejects every call of the turn when the connection fails', async () => {
    const broken = createRedisConnection({ flavour: 'producer', url: 'redis://127.0.0.1:1', overrides: { retryStrategy: () => null } });
    broken.on('error', () => undefined);
    try {
      const script = new LuaScript(source(randomUUID()));
      const outcomes = await Promise.allSettled([1, 2].map((n) => script.runBatched(broken, [`${prefix}:x:${n}`], [n])));
      expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
    } finally {
      broken.disconnect();
    }
  });

  it('on a Redis Cluster, groups the calls by hash tag so that each pipeline stays in one slot', async function () {
    this.timeout(60_000);
    const cluster = await sharedRedisCluster();
    const connection: RedisConnection = createRedisConnection({ nodes: cluster.nodes, flavour: 'producer' });
    const tagPrefix = `${prefix}:cluster`;
    try {
      await waitForRedis(connection);
      const script = new LuaScript(source(randomUUID()));
      // Tags that hash to different slots (and masters), several calls each, and a key without a tag.
      const keys = ['alpha', 'bravo', 'charlie', 'delta'].flatMap((tag) => [1, 2, 3].map((n) => `${tagPrefix}:{${tag}}:${n}`));
      keys.push(`${tagPrefix}:untagged`);
      const replies = await Promise.all(keys.map((key) => script.runBatched(connection, [key], [2])));
      expect(replies).to.deep.equal(keys.map(() => 2));
      expect(await Promise.all(keys.map((key) => connection.get(key)))).to.deep.equal(keys.map(() => '2'));
    } finally {
      await deleteKeysMatching(connection, `${tagPrefix}*`);
      connection.disconnect();
    }
  });
});
