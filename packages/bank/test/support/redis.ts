import { KeySpace, createRedisConnection, waitForRedis } from '@satyapan/core';
import type { RedisClient } from '@satyapan/bank';

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
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (found.length > 0) await redis.del(...found);
      cursor = next;
    } while (cursor !== '0');
    for (const connection of opened) connection.disconnect();
  };
  return { redis, keys: new KeySpace(prefix), connect, cleanup };
}
