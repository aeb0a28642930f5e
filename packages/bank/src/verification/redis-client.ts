import type { createRedisConnection } from '@satyapan/core';

/** The ioredis client type, taken from core so this package needs no direct ioredis dependency. */
export type RedisClient = ReturnType<typeof createRedisConnection>;
