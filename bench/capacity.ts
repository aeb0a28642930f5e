// npm run bench -- capacity [--tokens N] [--drops N] [--sessions N] [--jobs N]
// What one operation costs the deployment, measured, and the capacity model computed from it (docs/OPERATIONS.md,
// "Capacity"). A private redis-server (no other client: its counters are ours alone), a router in its own process
// on the built code (bench/_capacity-server.ts: kyc, bank and statement areas) and examples/worker (built) in
// another, the sandbox upstreams and a webhook receiver in this process. For each kind of operation, run N times:
//   - Redis commands (INFO commandstats deltas; commands run inside Lua scripts are counted by Redis too, and the
//     scripts themselves as EVALSHA) and Redis CPU (their usec), network bytes in and out (INFO stats);
//   - bytes kept in Redis (MEMORY USAGE of every key, before and after, grouped by key pattern) and how long they
//     stay (their TTL, or the retention that deletes them), and the used_memory delta;
//   - CPU of the router and of the worker process (/proc/<pid>/stat).
// The background traffic of an idle router and worker (BullMQ's blocking reads, stall checks, the sweeps) is
// measured first and subtracted. The baseline of this bench is that idle traffic, measured in the same run.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { LOCKER_INDIVIDUALS, PENNY_DROP_TEST_IFSC, answerConsentPage, startLockerSimulator, startPennyDropSimulator } from '@satyapan/sandbox';
import { DEFAULTS } from '@satyapan/statement-queue';
import { workbook26Q } from '../test/statements-support/workbooks.js';
import { freePort, startRedisServer } from '../test/support/redis-server.js';
import type { CapacityServerConfig } from './_capacity-server.js';
import { numberArg, processCpuMicros } from './_http.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');


/** CPU ms a process has used (user + system), from /proc (processCpuMicros); this bench needs it, so it throws without. */
function cpuMs(pid: number): number {
  const micros = processCpuMicros(pid);
  if (micros === undefined) throw new Error(`the CPU time of process ${pid} cannot be read from /proc (Linux only)`);
  return micros / 1000;
}

interface RedisCounters {
  commands: Map<string, { calls: number; usec: number }>;
  netIn: number;
  netOut: number;
  usedMemory: number;
}

async function counters(redis: Redis): Promise<RedisCounters> {
  const [stats, commandstats, memory] = await Promise.all([redis.info('stats'), redis.info('commandstats'), redis.info('memory')]);
  const commands = new Map<string, { calls: number; usec: number }>();
  for (const match of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    commands.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  const field = (text: string, name: string): number => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { commands, netIn: field(stats, 'total_net_input_bytes'), netOut: field(stats, 'total_net_output_bytes'), usedMemory: field(memory, 'used_memory') };
}

/** Commands the bench itself sends to read the counters and the keys; never counted. */
const OWN_COMMANDS = new Set(['info', 'scan', 'memory', 'pttl', 'type', 'config', 'client|setname', 'client|setinfo', 'hello', 'select', 'ping']);

/** The key with its ids replaced by `*`: keys of one kind, one line. */
function patternOf(key: string): string {
  return key
    // A client's or session's hash tag is an id; a queue's ({statements}, {statement-webhooks}) is a name.
    .replace(/\{(?!statements\}|statement-webhooks\})[^}]*\}/g, '{*}')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '*')
    .replace(/[A-Za-z0-9_-]{20,}/g, '*')
    .replace(/\d{3,}/g, '*');
}

interface KeyInfo { bytes: number; ttlMs: number }

async function keySizes(redis: Redis): Promise<Map<string, KeyInfo>> {
  const sizes = new Map<string, KeyInfo>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const key of keys) {
      pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      pipeline.pttl(key);
    }
    const results = (await pipeline.exec()) ?? [];
    keys.forEach((key, i) => sizes.set(key, { bytes: Number(results[2 * i]?.[1] ?? 0), ttlMs: Number(results[2 * i + 1]?.[1] ?? -1) }));
  } while (cursor !== '0');
  return sizes;
}

/**
 * How long a kind of key stays: its TTL when it has one; for keys without, the retention that deletes them (job
 * records and their indexes: `retentionDays`; BullMQ's finished jobs: removeOnComplete, 7 days); 0 for what
 * does not grow with the number of operations (the queues' event streams are capped, the pending set drains).
 */
function lifetimeDays(pattern: string, ttlMs: number): { days: number; why: string } {
  if (ttlMs > 0) return { days: ttlMs / 86_400_000, why: 'TTL' };
  if (/:bull:.*:events$|:bull:.*:(meta|id|stalled-check|wait|active|paused|marker|prioritized|delayed|pc|limiter)$|:pending$/.test(pattern)) return { days: 0, why: 'bounded' };
  if (/:bull:\{(statements|statement-webhooks)\}/.test(pattern)) return { days: 7, why: 'removeOnComplete' };
  if (/:statements:/.test(pattern)) return { days: DEFAULTS.retentionDays, why: 'retention' };
  // The schedule of locker document copies to delete: an entry lives as long as the copy (DocumentVault, 1 h).
  if (/:kyc:document-deletions$/.test(pattern)) return { days: 1 / 24, why: 'document retention' };
  return { days: Number.NaN, why: 'kept until deleted' };
}

interface Cost {
  name: string;
  count: number;
  seconds: number;
  commands: number;
  byCommand: Array<[string, number]>;
  redisUsec: number;
  netIn: number;
  netOut: number;
  usedMemory: number;
  /** Bytes kept per operation, by key pattern, with their lifetime. */
  kept: Array<{ pattern: string; bytes: number; keys: number; days: number; why: string }>;
  routerCpuMs: number;
  workerCpuMs: number;
}

interface Processes { router: ChildProcess; worker: ChildProcess }

interface Idle { seconds: number; perSecond: Map<string, { calls: number; usec: number }>; netIn: number; netOut: number; routerCpuMs: number; workerCpuMs: number }

async function measure(name: string, count: number, redis: Redis, procs: Processes, idle: Idle | null, run: () => Promise<void>): Promise<Cost> {
  const keysBefore = await keySizes(redis);
  const before = await counters(redis);
  const cpuBefore = { router: cpuMs(procs.router.pid!), worker: cpuMs(procs.worker.pid!) };
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = { router: cpuMs(procs.router.pid!), worker: cpuMs(procs.worker.pid!) };
  const after = await counters(redis);
  const keysAfter = await keySizes(redis);
  const byCommand: Array<[string, number]> = [];
  let commands = 0;
  let redisUsec = 0;
  for (const [command, now] of after.commands) {
    if (OWN_COMMANDS.has(command)) continue;
    const was = before.commands.get(command) ?? { calls: 0, usec: 0 };
    const background = idle?.perSecond.get(command) ?? { calls: 0, usec: 0 };
    const calls = Math.max(0, now.calls - was.calls - background.calls * seconds);
    const usec = Math.max(0, now.usec - was.usec - background.usec * seconds);
    if (calls < 0.5) continue;
    byCommand.push([command, calls / count]);
    commands += calls;
    redisUsec += usec;
  }
  byCommand.sort((a, b) => b[1] - a[1]);
  const grouped = new Map<string, { bytes: number; keys: number; ttl: number[] }>();
  for (const [key, info] of keysAfter) {
    const delta = info.bytes - (keysBefore.get(key)?.bytes ?? 0);
    if (delta === 0) continue;
    const pattern = patternOf(key);
    const group = grouped.get(pattern) ?? { bytes: 0, keys: 0, ttl: [] };
    group.bytes += delta;
    if (!keysBefore.has(key)) group.keys += 1;
    group.ttl.push(info.ttlMs);
    grouped.set(pattern, group);
  }
  const kept = [...grouped].map(([pattern, group]) => {
    const ttlMs = Math.max(...group.ttl);
    return { pattern, bytes: group.bytes / count, keys: group.keys / count, ...lifetimeDays(pattern, ttlMs) };
  }).filter((entry) => Math.abs(entry.bytes) >= 1).sort((a, b) => b.bytes - a.bytes);
  return {
    name, count, seconds, commands: commands / count, byCommand, redisUsec: redisUsec / count,
    netIn: Math.max(0, after.netIn - before.netIn - (idle?.netIn ?? 0) * seconds) / count,
    netOut: Math.max(0, after.netOut - before.netOut - (idle?.netOut ?? 0) * seconds) / count,
    usedMemory: (after.usedMemory - before.usedMemory) / count,
    kept,
    routerCpuMs: Math.max(0, cpuAfter.router - cpuBefore.router - (idle?.routerCpuMs ?? 0) * seconds) / count,
    workerCpuMs: Math.max(0, cpuAfter.worker - cpuBefore.worker - (idle?.workerCpuMs ?? 0) * seconds) / count,
  };
}

async function idleTraffic(redis: Redis, procs: Processes, seconds: number): Promise<Idle> {
  const before = await counters(redis);
  const cpuBefore = { router: cpuMs(procs.router.pid!), worker: cpuMs(procs.worker.pid!) };
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = await counters(redis);
  const perSecond = new Map<string, { calls: number; usec: number }>();
  for (const [command, now] of after.commands) {
    if (OWN_COMMANDS.has(command)) continue;
    const was = before.commands.get(command) ?? { calls: 0, usec: 0 };
    if (now.calls > was.calls) perSecond.set(command, { calls: (now.calls - was.calls) / seconds, usec: (now.usec - was.usec) / seconds });
  }
  return {
    seconds, perSecond,
    netIn: (after.netIn - before.netIn) / seconds, netOut: (after.netOut - before.netOut) / seconds,
    routerCpuMs: (cpuMs(procs.router.pid!) - cpuBefore.router) / seconds,
    workerCpuMs: (cpuMs(procs.worker.pid!) - cpuBefore.worker) / seconds,
  };
}

/** Runs `count` tasks, `parallel` at a time. */
async function times(count: number, parallel: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    for (let i = next++; i < count; i = next++) await task(i);
  }));
}

async function spawnLine(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (text) => {
      if (ready.test(text)) resolve(text);
    });
  });
  child.removeAllListeners('exit');
  return { child, line };
}

const kb = (bytes: number): string => (Math.abs(bytes) >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes.toFixed(0)} B`);

function print(cost: Cost): void {
  console.log(`\nper ${cost.name} (${cost.count} in ${cost.seconds.toFixed(1)} s):`);
  console.log(`  Redis: ${cost.commands.toFixed(1)} commands (${cost.byCommand.slice(0, 8).map(([c, n]) => `${c} ${n.toFixed(1)}`).join(', ')}), `
    + `${cost.redisUsec.toFixed(0)} us of Redis CPU, ${kb(cost.netIn)} in / ${kb(cost.netOut)} out`);
  console.log(`  kept in Redis: ${kb(cost.kept.reduce((sum, entry) => sum + entry.bytes, 0))} (MEMORY USAGE; used_memory grew ${kb(cost.usedMemory)} per op)`);
  for (const entry of cost.kept.slice(0, 8)) {
    const days = Number.isNaN(entry.days) ? entry.why : entry.days === 0 ? 'bounded' : `${entry.days >= 1 ? `${entry.days.toFixed(1)} d` : `${(entry.days * 24).toFixed(1)} h`} (${entry.why})`;
    console.log(`    ${kb(entry.bytes).padStart(9)}  ${entry.pattern}  ${days}`);
  }
  console.log(`  CPU: router ${cost.routerCpuMs.toFixed(2)} ms, worker ${cost.workerCpuMs.toFixed(2)} ms`);
}

/** The bytes an operation keeps multiplied by how long they stay, in byte-days: memory = rate/day x this. */
function byteDays(cost: Cost): number {
  return cost.kept.reduce((sum, entry) => sum + (Number.isNaN(entry.days) ? 0 : entry.bytes * entry.days), 0);
}

export interface Load {
  /** Operations per day, on average over the period their keys are kept. */
  perDay: number;
  /** Operations per second at the busiest time. */
  peakPerSecond: number;
  /** Where the figures come from. */
  note: string;
}

export interface CapacityModel {
  tenants: number;
  loads: Record<string, Load>;
}

const DAY = 86_400;

/** The model for 1,000 tenants and 1M verifications a day; every assumption is printed with it. */
function model(costs: Record<string, Cost>, idle: Idle, m: CapacityModel): string[] {
  const kinds = Object.keys(m.loads);
  const load = (kind: string): Load => m.loads[kind]!;
  const sum = (value: (kind: string) => number): number => kinds.reduce((total, kind) => total + value(kind), 0);
  const average = (kind: string): number => load(kind).perDay / DAY;
  const commands = (rate: (kind: string) => number): number => sum((kind) => rate(kind) * costs[kind]!.commands);
  const idleCommandsPerWorker = [...idle.perSecond.values()].reduce((total, entry) => total + entry.calls, 0);
  const idleUsec = [...idle.perSecond.values()].reduce((total, entry) => total + entry.usec, 0);
  const cores = (rate: (kind: string) => number, side: 'routerCpuMs' | 'workerCpuMs'): number => sum((kind) => rate(kind) * costs[kind]![side]) / 1000;
  const peak = (kind: string): number => load(kind).peakPerSecond;
  // A process is sized for half a core at peak; at least two of each, so that one can fail or be restarted.
  const processes = (coresAtPeak: number): number => Math.max(2, Math.ceil(coresAtPeak / 0.5));
  const routers = processes(cores(peak, 'routerCpuMs'));
  const workers = processes(cores(peak, 'workerCpuMs'));
  const redisCpu = (rate: (kind: string) => number): string => `${((sum((kind) => rate(kind) * costs[kind]!.redisUsec) + idleUsec) / 10_000).toFixed(2)}%`;
  const memory = kinds.map((kind) => ({ kind, bytes: load(kind).perDay * byteDays(costs[kind]!) }));
  const totalMemory = memory.reduce((total, entry) => total + entry.bytes, 0);
  const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  const rate = (n: number): string => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(2));
  return [
    '<!-- capacity model: written by `npm run bench -- report` from bench/capacity.ts; do not edit by hand -->',
    'Measured per operation (Redis CPU counts a script and the commands it runs; CPU of the router and worker processes):',
    '',
    '| operation | Redis commands | Redis CPU | bytes kept in Redis, for how long | router CPU | worker CPU |',
    '|---|---|---|---|---|---|',
    ...kinds.map((kind) => {
      const cost = costs[kind]!;
      // Summed by how long the bytes stay: one figure per lifetime.
      const byLifetime = new Map<number, number>();
      for (const entry of cost.kept) if (entry.days > 0) byLifetime.set(entry.days, (byLifetime.get(entry.days) ?? 0) + entry.bytes);
      const kept = [...byLifetime].filter(([, bytes]) => bytes >= 16).sort((a, b) => b[1] - a[1])
        .map(([days, bytes]) => `${kb(bytes)} ${days >= 1 ? `${days.toFixed(0)} d` : days * 24 >= 1 ? `${(days * 24).toFixed(0)} h` : `${(days * 1440).toFixed(0)} min`}`).join(' + ');
      return `| ${kind} | ${cost.commands.toFixed(1)} | ${cost.redisUsec.toFixed(0)} us | ${kept || 'none'} | ${cost.routerCpuMs.toFixed(1)} ms | ${cost.workerCpuMs.toFixed(1)} ms |`;
    }),
    '',
    `Assumed for ${m.tenants.toLocaleString('en')} tenants: ${kinds.map((kind) => `${kind}s: ${load(kind).note}`).join('; ')}. `
      + 'A process is sized to run at half a core at peak, and there are at least two of each.',
    '',
    '| | average | peak |',
    '|---|---|---|',
    ...kinds.map((kind) => `| ${kind}s per second | ${rate(average(kind))} | ${rate(peak(kind))} |`),
    `| Redis commands per second (the operations; each worker adds ${rate(idleCommandsPerWorker)}/s idle) | ${rate(commands(average))} | ${rate(commands(peak))} |`,
    `| Redis CPU, share of one core | ${redisCpu(average)} | ${redisCpu(peak)} |`,
    `| router CPU, cores | ${cores(average, 'routerCpuMs').toFixed(2)} | ${cores(peak, 'routerCpuMs').toFixed(2)}: ${routers} router processes |`,
    `| worker CPU, cores (5-row workbooks) | ${cores(average, 'workerCpuMs').toFixed(3)} | ${cores(peak, 'workerCpuMs').toFixed(3)}: ${workers} worker processes |`,
    '',
    `Redis memory held in steady state (operations per day x bytes kept x days kept): ${gib(totalMemory)} `
      + `(${memory.map((entry) => `${entry.kind}s ${gib(entry.bytes)}`).join(', ')}), before Redis's own overhead and a replica's copy.`,
    '<!-- /capacity model -->',
  ];
}

const busiest = (perDay: number, factor: number): number => (perDay / DAY) * factor;

export const DEFAULT_MODEL: CapacityModel = {
  tenants: 1_000,
  loads: {
    'penny drop': { perDay: 600_000, peakPerSecond: busiest(600_000, 5), note: '600,000 a day (60% of the 1M verifications), peak 5x the average rate' },
    session: { perDay: 400_000, peakPerSecond: busiest(400_000, 5), note: '400,000 locker sessions a day (40%), peak 5x' },
    token: { perDay: 96_000, peakPerSecond: busiest(96_000, 5), note: 'each tenant takes a token every 15 minutes (96,000 a day), peak 5x' },
    'statement job': {
      perDay: 20_000 / 90, peakPerSecond: 20_000 / (8 * 3600),
      note: '20 per tenant per quarter (20,000 kept over the 90-day retention), all filed within 8 hours of the deadline day',
    },
  },
};

export async function main(args: string[]): Promise<void> {
  const counts = { tokens: numberArg(args, 'tokens', 200), drops: numberArg(args, 'drops', 300), sessions: numberArg(args, 'sessions', 100), jobs: numberArg(args, 'jobs', 200) };
  console.log(`${cpus().length} cores; ${JSON.stringify(counts)}; a private redis-server, the router (bench/_capacity-server.ts) and examples/worker each in a process of its own, on the built code`);
  const redisPort = await freePort();
  const redisServer = await startRedisServer(redisPort);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const redis = new Redis(redisUrl);
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-capacity-'));
  const port = await freePort();
  const api = `http://127.0.0.1:${port}/api`;
  const lockerClient = { clientId: 'capacity', clientSecret: 'capacity-locker-secret' };
  const locker = await startLockerSimulator({ clients: [{ ...lockerClient, name: 'Satyapan capacity bench', redirectUris: [`${api}/kyc/docvault/callback`, `${api}/kyc/entityvault/callback`] }] });
  const pennyDrop = await startPennyDropSimulator();
  let delivered = 0;
  const receiver: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const keyPrefix = 'capacity';
  const storageSecret = randomBytes(32).toString('base64');
  const sealingKey = randomBytes(32).toString('base64');
  const client = { id: 'capacity', apiKey: 'key_capacity', apiSecret: 'secret_capacity', rateLimitPerMinute: 1_000_000_000, webhookUrl, webhookSecret: 'capacity-webhook-secret' };
  const config: CapacityServerConfig = {
    port, redisUrl, keyPrefix, dir, storageSecret, sealingKey, tokenSecret: randomBytes(32).toString('base64'), client,
    lockers: { docvault: locker.docvaultBaseUrl, entityvault: locker.entityvaultBaseUrl, ...lockerClient },
    pennyDrop: { url: pennyDrop.url, clientId: pennyDrop.clientId, clientSecret: pennyDrop.clientSecret },
  };
  const children: ChildProcess[] = [];
  try {
    const router = await spawnLine(['--import', 'tsx', 'bench/_capacity-server.ts', JSON.stringify(config)], {}, /^\{"url"/);
    children.push(router.child);
    const worker = await spawnLine(['examples/worker/dist/main.js'], {
      REDIS_URL: redisUrl, REDIS_CLUSTER_NODES: '', SATYAPAN_KEY_PREFIX: keyPrefix, SATYAPAN_SEALING_KEYS: `bench:${sealingKey}`,
      SATYAPAN_DATA_DIR: dir, SATYAPAN_STORAGE_SECRET: storageSecret, SATYAPAN_STORAGE_URL: `${api}/storage`,
      SATYAPAN_WEBHOOK_ALLOW: '127.0.0.1', SATYAPAN_WORKER_CONCURRENCY: '2', SATYAPAN_TMP_DIR: dir, LOG_LEVEL: 'warn',
    }, /statement worker ready/);
    children.push(worker.child);
    const procs = { router: router.child, worker: worker.child };
    console.log('router: node --import tsx bench/_capacity-server.ts <config>; worker: node examples/worker/dist/main.js (concurrency 2)');

    const auth = async (): Promise<Record<string, string>> => {
      const res = await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': client.apiKey, 'x-api-secret': client.apiSecret } });
      if (res.status !== 200) throw new Error(`authenticate answered ${res.status}`);
      return { authorization: ((await res.json()) as { data: { access_token: string } }).data.access_token, 'x-api-key': client.apiKey, 'content-type': 'application/json' };
    };
    const headers = await auth();
    const expectOk = async (res: Response, what: string): Promise<unknown> => {
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
      return text ? (JSON.parse(text) as { data: unknown }).data : null;
    };

    // Warm-up of every path (threads, scripts loaded, connections), not measured.
    const pennyDropOnce = async (i: number): Promise<void> => {
      // Any account number but the simulator's test ones is answered "invalid account", a definitive answer
      // that is cached like a valid one: distinct accounts, so that each keeps its own cache entry.
      const account = String(500_000_000_000 + i + Math.floor(Math.random() * 1e9));
      await expectOk(await fetch(`${api}/bank/${PENNY_DROP_TEST_IFSC}/accounts/${account}/verify`, { headers }), 'penny drop');
    };
    const sessionOnce = async (): Promise<void> => {
      const init = await expectOk(await fetch(`${api}/kyc/docvault/sessions/init`, {
        method: 'POST', headers,
        body: JSON.stringify({ '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: 'https://bench.example/done', doc_types: ['aadhaar'] }),
      }), 'session init') as { session_id: string; authorization_url: string };
      const consent = await answerConsentPage(init.authorization_url, { user: LOCKER_INDIVIDUALS[0]!.id, documents: ['ADHAR'] });
      const callback = await fetch(consent.headers.get('location') ?? '', { redirect: 'manual' });
      await callback.text();
      const session = `${api}/kyc/docvault/sessions/${init.session_id}`;
      await expectOk(await fetch(`${session}/status`, { headers }), 'session status');
      await expectOk(await fetch(`${session}/user/profile`, { headers }), 'profile');
      const document = await fetch(`${session}/documents/aadhaar`, { headers });
      if (document.status !== 200) throw new Error(`document answered ${document.status}: ${(await document.text()).slice(0, 300)}`);
      await document.arrayBuffer();
    };
    const workbook = JSON.stringify(workbook26Q({ rows: 5 }));
    const jobBody = JSON.stringify({ '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' });
    const jobs = async (count: number): Promise<void> => {
      const target = delivered + count;
      const ids: string[] = [];
      await times(count, 4, async () => {
        const job = await expectOk(await fetch(`${api}/tds/reports/txt`, { method: 'POST', headers, body: jobBody }), 'submit') as { job_id: string; json_url: string };
        ids.push(job.job_id);
        const put = await fetch(job.json_url, { method: 'PUT', body: workbook, headers: { 'content-type': 'application/json' } });
        if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
      });
      // The webhook says the job ended; then the caller polls it once, for its txt_url.
      while (delivered < target) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const id of ids) {
        const view = await expectOk(await fetch(`${api}/tds/reports/txt?job_id=${id}`, { headers }), 'poll') as { status: string };
        if (view.status !== 'succeeded') throw new Error(`job ${id} ended ${view.status}`);
      }
      // The worker acknowledges the webhook's answer after the receiver saw it: let its last writes land.
      await new Promise((resolve) => setTimeout(resolve, 500));
    };
    await times(20, 4, async () => void (await auth()));
    await times(20, 4, pennyDropOnce);
    await times(5, 2, sessionOnce);
    await jobs(10);

    const idle = await idleTraffic(redis, procs, 10);
    const idleCommands = [...idle.perSecond.values()].reduce((sum, entry) => sum + entry.calls, 0);
    console.log(`\nbaseline: idle router + worker, ${idle.seconds} s: ${idleCommands.toFixed(1)} Redis commands/s `
      + `(${[...idle.perSecond].sort((a, b) => b[1].calls - a[1].calls).slice(0, 6).map(([c, s]) => `${c} ${s.calls.toFixed(2)}`).join(', ')}), `
      + `CPU router ${idle.routerCpuMs.toFixed(1)} ms/s, worker ${idle.workerCpuMs.toFixed(1)} ms/s; subtracted from each figure below`);

    const costs: Record<string, Cost> = {};
    costs['token'] = await measure('token (POST /authenticate)', counts.tokens, redis, procs, idle, () => times(counts.tokens, 4, async () => void (await auth())));
    costs['penny drop'] = await measure('penny drop (GET /bank/{ifsc}/accounts/{account}/verify, no cache header)', counts.drops, redis, procs, idle, () => times(counts.drops, 4, pennyDropOnce));
    costs['session'] = await measure('locker session (init, consent, callback, status, profile, one document)', counts.sessions, redis, procs, idle, () => times(counts.sessions, 4, sessionOnce));
    costs['statement job'] = await measure('statement job (submit, upload, conversion, webhook, one poll; 5-row workbook)', counts.jobs, redis, procs, idle, () => jobs(counts.jobs));
    for (const cost of Object.values(costs)) print(cost);

    console.log('\ncapacity figures (per operation):');
    for (const [kind, cost] of Object.entries(costs)) {
      console.log(`capacity ${kind}: ${cost.commands.toFixed(1)} Redis commands, ${cost.redisUsec.toFixed(0)} us Redis CPU, `
        + `${kb(cost.kept.reduce((sum, entry) => sum + entry.bytes, 0))} kept (${(byteDays(cost) / 1024).toFixed(1)} KiB-days), `
        + `router ${cost.routerCpuMs.toFixed(2)} ms CPU, worker ${cost.workerCpuMs.toFixed(2)} ms CPU`);
    }
    console.log('');
    for (const line of model(costs, idle, DEFAULT_MODEL)) console.log(line);
  } finally {
    for (const child of children.reverse()) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.stdin) child.stdin.end();
      else child.kill('SIGTERM');
      if (child.spawnargs.some((arg) => arg.includes('examples/worker'))) child.kill('SIGTERM');
      await exited;
    }
    redis.disconnect();
    redisServer.kill('SIGTERM');
    await locker.close();
    await pennyDrop.close();
    receiver.closeAllConnections();
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }
}

