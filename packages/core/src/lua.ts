import { createHash } from 'node:crypto';
import type { RedisConnection } from './redis.js';

/**
 * A Lua script run by EVALSHA, falling back to EVAL when the server does not know it yet (after a restart or a
 * SCRIPT FLUSH). Unlike ioredis `defineCommand`, it does not add methods to a connection the host may share.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: RedisConnection, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
