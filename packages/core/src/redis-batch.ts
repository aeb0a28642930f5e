import type { ChainableCommander } from 'ioredis';
import { isRedisCluster, type RedisConnection } from './redis.js';

/** Where a batched command is added: the turn's pipeline, or the connection itself when it is alone. */
export type BatchTarget = ChainableCommander | RedisConnection;

interface PendingCall {
  /** The command's first key: on a Cluster, what decides its slot. */
  key: string | undefined;
  add(target: BatchTarget): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Batch {
  calls: PendingCall[];
  scheduled: boolean;
}

const batches = new WeakMap<RedisConnection, Batch>();

/**
 * Runs one command on `redis` together with the other batched commands of this turn of the event loop, as one
 * pipeline (`setImmediate`, as ioredis's auto-pipelining does, but only for the commands that ask for it and
 * without changing the host's connection): under load, one write carries the commands of every request that
 * arrived in the turn, and their replies are read together. Each command keeps its own reply and its own error.
 * `add` issues the command on the target it is given (`(t) => t.hgetall(key)`); a command alone in its turn is
 * sent on the connection as usual. On a Cluster the commands are grouped by the hash tag of `key` (one slot per
 * pipeline, as ioredis requires); commands whose key has no tag are sent alone.
 */
export function batched<T>(redis: RedisConnection, key: string | undefined, add: (target: BatchTarget) => unknown): Promise<T> {
  let batch = batches.get(redis);
  if (!batch) {
    batch = { calls: [], scheduled: false };
    batches.set(redis, batch);
  }
  const pending = batch;
  return new Promise<T>((resolve, reject) => {
    pending.calls.push({ key, add, resolve: resolve as (value: unknown) => void, reject });
    if (!pending.scheduled) {
      pending.scheduled = true;
      setImmediate(flush, redis, pending);
    }
  });
}

function flush(redis: RedisConnection, batch: Batch): void {
  const calls = batch.calls;
  batch.calls = [];
  batch.scheduled = false;
  if (!isRedisCluster(redis)) {
    send(redis, calls);
    return;
  }
  const bySlot = new Map<string, PendingCall[]>();
  for (const call of calls) {
    const tag = hashTag(call.key);
    if (tag === undefined) {
      send(redis, [call]);
      continue;
    }
    const group = bySlot.get(tag);
    if (group) group.push(call);
    else bySlot.set(tag, [call]);
  }
  for (const group of bySlot.values()) send(redis, group);
}

function send(redis: RedisConnection, calls: PendingCall[]): void {
  if (calls.length === 1) {
    const call = calls[0]!;
    (call.add(redis) as Promise<unknown>).then(call.resolve, call.reject);
    return;
  }
  const pipeline = redis.pipeline();
  for (const call of calls) call.add(pipeline);
  pipeline.exec().then((replies) => {
    for (const [i, call] of calls.entries()) {
      const [error, value] = replies?.[i] ?? [new Error('The Redis pipeline ended without a reply'), undefined];
      if (error) call.reject(error);
      else call.resolve(value);
    }
  }, (error: unknown) => {
    for (const call of calls) call.reject(error);
  });
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
