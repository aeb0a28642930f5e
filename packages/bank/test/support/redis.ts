import { KeySpace, createRedisConnection, waitForRedis } from '@satyapan/core';
import type { RedisClient } from '@satyapan/bank';
import { deleteKeysMatching } from '../../../../test/support/redis-cluster.js';

/** A Redis connection and a key prefix unique to this test run; `cleanup()` deletes only keys under it. */
export async function testRedis(label: string): Promise<{ redis: RedisClient; keys: KeySpace; connect: () => Promise<RedisClient>; cleanup: () => Promise<void> }> {
  const prefix = `test:bank:${label}:${process.pid}:${Date.now()}`;
  const opened: RedisClient[] = [];
  const connect = async (): Promise<RedisClient> => {
    const redis = createRedisConnection({ flavour: 'producer', connectionName: `bank-test-${label}` });
    opened.push(redis);
    await waitForRedis(redis);
    return redis;
  };
  const redis = await connect();
  const cleanup = async (): Promise<void> => {
    await deleteKeysMatching(redis, `${prefix}*`);
    for (const connection of opened) connection.disconnect();
  };
  return { redis, keys: new KeySpace(prefix), connect, cleanup };
}
