import { randomUUID } from 'node:crypto';
import { serviceErrorWith } from '@satyapan/core';
import type { RouteContext, RouteDefinition } from '../route-types.js';

type Check = 'up' | 'down';

/** `GET /health`: Redis answers and storage takes a write. Unauthenticated, for load balancers. */
export function healthRoutes(ctx: RouteContext): RouteDefinition[] {
  return [{
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'Liveness and readiness: Redis reachable, storage writable.',
    tag: 'operations',
    product: null,
    auth: 'none',
    schemas: {
      response: {
        type: 'object',
        required: ['status', 'redis', 'storage'],
        properties: { status: { enum: ['ok'] }, redis: { enum: ['up'] }, storage: { enum: ['up'] } },
      },
    },
    errors: [503],
    handler: async () => {
      const [redis, storage] = await Promise.all([redisCheck(ctx), storageCheck(ctx)]);
      if (redis === 'down' || storage === 'down') {
        throw serviceErrorWith({ cause: { redis, storage } }, 'SERVICE_UNAVAILABLE');
      }
      return { data: { status: 'ok', redis, storage } };
    },
  }];
}

async function redisCheck(ctx: RouteContext): Promise<Check> {
  try {
    return (await ctx.redis.ping()) === 'PONG' ? 'up' : 'down';
  } catch {
    return 'down';
  }
}

async function storageCheck(ctx: RouteContext): Promise<Check> {
  const key = `health/${randomUUID()}.txt`;
  try {
    await ctx.storage.put(key, 'ok');
    await ctx.storage.delete(key);
    return 'up';
  } catch {
    return 'down';
  }
}
