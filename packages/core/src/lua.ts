import { createHash } from 'node:crypto';
import { batched } from './redis-batch.js';
import type { RedisConnection } from './redis.js';

type ScriptArgs = ReadonlyArray<string | number>;

/**
 * A Lua script run by EVALSHA, falling back to EVAL when the server does not know it yet (after a restart or a
 * SCRIPT FLUSH). Unlike ioredis `defineCommand`, it does not add methods to a connection the host may share.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: RedisConnection, keys: readonly string[], args: ScriptArgs): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }

  /**
   * Like {@link run}, but sent with the other batched commands of this turn of the event loop, as one pipeline
   * (`batched`); on a Cluster, grouped by the hash tag of the first key. A call the server answers NOSCRIPT is
   * run again by {@link run}, which loads the script.
   */
  async runBatched(redis: RedisConnection, keys: readonly string[], args: ScriptArgs): Promise<unknown> {
    try {
      return await batched(redis, keys[0], (target) => target.evalsha(this.sha, keys.length, ...keys, ...args));
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return this.run(redis, keys, args);
    }
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
