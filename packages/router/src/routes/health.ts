import { randomUUID } from 'node:crypto';
import { serviceErrorWith } from '@satyapan/core';
import type { RouteContext, RouteDefinition } from '../route-types.js';

type Check = 'up' | 'down';

/**
 * A readiness check of the host's own, e.g. `{ worker: async () => worker.isRunning() }`: true when the part
 * it names can serve. A check that throws or takes longer than the readiness timeout counts as down.
 */
export type ReadinessCheck = () => Promise<boolean>;

export interface HealthOptions {
  /** Extra readiness checks by name; `/health/ready` answers 503 while any is down. */
  readiness?: Readonly<Record<string, ReadinessCheck>>;
  /** How long one readiness check may take before it counts as down; default 2 s. */
  readinessTimeoutMs?: number;
  /** How long `GET /health` reuses its storage probe's answer; default 30 s (see {@link StorageProbe}). */
  storageProbeIntervalMs?: number;
}

const CHECK_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * `GET /health` (Redis answers, storage took a write within the probe interval), `GET /health/live` (the process serves HTTP: no I/O, for
 * a liveness probe that restarts a hung process) and `GET /health/ready` (Redis answers and the host's checks
 * pass, for a readiness probe that takes the process out of the load balancer). Unauthenticated.
 */
export function healthRoutes(ctx: RouteContext, options: HealthOptions = {}): RouteDefinition[] {
  const readiness = checkedReadiness(options.readiness ?? {});
  const timeoutMs = options.readinessTimeoutMs ?? 2_000;
  const storageProbe = new StorageProbe(ctx, options.storageProbeIntervalMs ?? 30_000);
  return [{
    ...operation('/health', 'health', 'Redis reachable, storage writable.'),
    schemas: { response: statusSchema({ redis: { enum: ['up'] }, storage: { enum: ['up'] } }) },
    handler: async () => {
      const [redis, storage] = await Promise.all([redisCheck(ctx), storageProbe.check()]);
      if (redis === 'down' || storage === 'down') {
        throw serviceErrorWith({ cause: { redis, storage } }, 'SERVICE_UNAVAILABLE');
      }
      return { data: { status: 'ok', redis, storage } };
    },
  }, {
    ...operation('/health/live', 'healthLive', 'Liveness: the process runs and serves HTTP (no dependency is checked).'),
    schemas: { response: statusSchema({}) },
    handler: async () => ({ data: { status: 'ok' } }),
  }, {
    ...operation('/health/ready', 'healthReady', 'Readiness: Redis answers and the host\'s checks (e.g. its statement worker) pass.'),
    schemas: { response: statusSchema({ redis: { enum: ['up'] }, ...Object.fromEntries(Object.keys(readiness).map((name) => [name, { enum: ['up'] }])) }) },
    handler: async () => {
      const names = Object.keys(readiness);
      const results = await Promise.all([
        withTimeout(redisCheck(ctx), timeoutMs),
        ...names.map((name) => withTimeout(hostCheck(readiness[name]!), timeoutMs)),
      ]);
      const checks: Record<string, Check> = { redis: results[0]! };
      names.forEach((name, index) => { checks[name] = results[index + 1]!; });
      if (Object.values(checks).includes('down')) throw serviceErrorWith({ cause: checks }, 'SERVICE_UNAVAILABLE');
      return { data: { status: 'ok', ...checks } };
    },
  }];
}

function operation(path: string, operationId: string, summary: string): Omit<RouteDefinition, 'schemas' | 'handler'> {
  return { method: 'get', path, operationId, summary, tag: 'operations', product: null, auth: 'none' };
}

function statusSchema(checks: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    required: ['status', ...Object.keys(checks)],
    properties: { status: { enum: ['ok'] }, ...checks },
  };
}

/** Names become fields of the answer and of the OpenAPI schema: plain snake_case, never `status` or `redis`. */
function checkedReadiness(readiness: Readonly<Record<string, ReadinessCheck>>): Readonly<Record<string, ReadinessCheck>> {
  for (const name of Object.keys(readiness)) {
    if (!CHECK_NAME.test(name) || name === 'status' || name === 'redis') {
      throw new Error(`readiness check name ${JSON.stringify(name)} must be snake_case and not "status" or "redis"`);
    }
  }
  return readiness;
}

async function hostCheck(check: ReadinessCheck): Promise<Check> {
  try {
    return (await check()) ? 'up' : 'down';
  } catch {
    return 'down';
  }
}

/** A check that hangs (a Redis that accepts connections but never answers) is down, not a hung probe. */
async function withTimeout(check: Promise<Check>, timeoutMs: number): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => { timer = setTimeout(() => resolve('down'), timeoutMs); });
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function redisCheck(ctx: RouteContext): Promise<Check> {
  try {
    return (await ctx.redis.ping()) === 'PONG' ? 'up' : 'down';
  } catch {
    return 'down';
  }
}

/**
 * Whether storage takes a write, asked at most once per interval: `GET /health` is unauthenticated, and a write
 * and a delete per call would let anyone spend the host's storage requests (on S3, money). Callers within the
 * interval get the last answer (up or down); callers while a probe runs share it.
 */
class StorageProbe {
  private last: { check: Check; at: number } | undefined;
  private running: Promise<Check> | undefined;

  constructor(private readonly ctx: RouteContext, private readonly intervalMs: number) {}

  check(): Promise<Check> {
    if (this.last && this.ctx.clock.now() - this.last.at < this.intervalMs) return Promise.resolve(this.last.check);
    this.running ??= this.probe().then((check) => {
      this.last = { check, at: this.ctx.clock.now() };
      this.running = undefined;
      return check;
    });
    return this.running;
  }

  private async probe(): Promise<Check> {
    const key = `health/${randomUUID()}.txt`;
    try {
      await this.ctx.storage.put(key, 'ok');
      await this.ctx.storage.delete(key);
      return 'up';
    } catch {
      return 'down';
    }
  }
}
