import { createHash } from 'node:crypto';
import { isRedisCluster, type RedisConnection } from './redis.js';

type ScriptArgs = ReadonlyArray<string | number>;

interface PendingCall {
  keys: readonly string[];
  args: ScriptArgs;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Calls waiting for the end of this turn of the event loop, per connection. */
interface Batch {
  calls: PendingCall[];
  scheduled: boolean;
}

/**
 * A Lua script run by EVALSHA, falling back to EVAL when the server does not know it yet (after a restart or a
 * SCRIPT FLUSH). Unlike ioredis `defineCommand`, it does not add methods to a connection the host may share.
 */
export class LuaScript {
  private readonly sha: string;
  private readonly batches = new WeakMap<RedisConnection, Batch>();

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
   * Like {@link run}, but the calls made during one turn of the event loop go to Redis together, as one pipeline
   * (`setImmediate`, as ioredis's auto-pipelining does, for this script only, without changing the host's
   * connection): under load a single write carries the calls of every request that arrived in that turn, and
   * their replies are read together. Each call is still its own EVALSHA with its own reply and error; a call
   * the server answers NOSCRIPT is run again by {@link run}. On a Cluster the calls are grouped by the hash tag
   * of their first key (one slot per pipeline, as ioredis requires); keys without a tag are run one by one.
   */
  runBatched(redis: RedisConnection, keys: readonly string[], args: ScriptArgs): Promise<unknown> {
    let batch = this.batches.get(redis);
    if (!batch) {
      batch = { calls: [], scheduled: false };
      this.batches.set(redis, batch);
    }
    const pending = batch;
    return new Promise((resolve, reject) => {
      pending.calls.push({ keys, args, resolve, reject });
      if (!pending.scheduled) {
        pending.scheduled = true;
        setImmediate(() => this.flush(redis, pending));
      }
    });
  }

  private flush(redis: RedisConnection, batch: Batch): void {
    const calls = batch.calls;
    batch.calls = [];
    batch.scheduled = false;
    if (!isRedisCluster(redis)) {
      this.runPipeline(redis, calls);
      return;
    }
    const bySlot = new Map<string, PendingCall[]>();
    for (const call of calls) {
      const tag = hashTag(call.keys[0]);
      if (tag === undefined) {
        this.runPipeline(redis, [call]);
        continue;
      }
      const group = bySlot.get(tag);
      if (group) group.push(call);
      else bySlot.set(tag, [call]);
    }
    for (const group of bySlot.values()) this.runPipeline(redis, group);
  }

  private runPipeline(redis: RedisConnection, calls: PendingCall[]): void {
    if (calls.length === 1) {
      const call = calls[0]!;
      this.run(redis, call.keys, call.args).then(call.resolve, call.reject);
      return;
    }
    const pipeline = redis.pipeline();
    for (const call of calls) pipeline.evalsha(this.sha, call.keys.length, ...call.keys, ...call.args);
    pipeline.exec().then((replies) => {
      for (const [i, call] of calls.entries()) {
        const [error, value] = replies?.[i] ?? [new Error('Redis pipeline ended without a reply'), undefined];
        if (!error) call.resolve(value);
        else if (isNoScript(error)) this.run(redis, call.keys, call.args).then(call.resolve, call.reject);
        else call.reject(error);
      }
    }, (error: unknown) => {
      for (const call of calls) call.reject(error);
    });
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** The part of a key Redis Cluster hashes (`{...}`, the first non-empty one), as the cluster spec defines it. */
function hashTag(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const open = key.indexOf('{');
  if (open < 0) return undefined;
  const close = key.indexOf('}', open + 1);
  if (close <= open + 1) return undefined;
  return key.slice(open + 1, close);
}
