// Shared pieces of the HTTP benchmarks. The server under test and the load generator each run in a process of
// their own (the server on the built `dist/` code), so neither shares the other's event loop; a bare Express
// hello world is measured in the same run as the subject, and each result prints how it was obtained.
import type { Express } from 'express';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRedisConnection, waitForRedis } from '@satyapan/core';
import type { ServerConfig } from './_server.js';

const here = dirname(fileURLToPath(import.meta.url));

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** How the load was generated, to print with the figures. */
  command: string;
}

export interface ServerProcess {
  url: string;
  command: string;
  close(): Promise<void>;
}

/** Node version, core count and load average: printed with every result, since the figures depend on them. */
export function machine(): string {
  return `node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`;
}

/** Shell-readable command line of a child process. */
function commandLine(args: string[]): string {
  return ['node', ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Starts a line-printing child; resolves with its first stdout line. */
async function spawnChild(args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], cwd: join(here, '..') });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${commandLine(args)} exited with ${code}`)));
    child.once('error', reject);
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  child.removeAllListeners('exit');
  return { child, line };
}

/**
 * The server of `kind` (see bench/_server.ts) in its own process. With `cpuProfDir`, the process writes a
 * `--cpu-prof` profile there when it stops.
 */
export async function startServer(kind: string, config: ServerConfig = {}, cpuProfDir?: string): Promise<ServerProcess> {
  const args = [...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []), '--import', 'tsx', 'bench/_server.ts', kind, JSON.stringify(config)];
  const { child, line } = await spawnChild(args);
  return {
    url: (JSON.parse(line) as { url: string }).url,
    command: commandLine(args.map((a) => (a.startsWith('{') ? '<config>' : a))),
    close: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.stdin!.end();
    }),
  };
}

export const BENCH_CLIENT = { id: 'bench', apiKey: 'key_bench', apiSecret: 'secret_bench', rateLimitPerMinute: 1_000_000_000 };

/** A token for the bench client from the router at `api`, and the headers of an authenticated call. */
export async function benchHeaders(api: string): Promise<Record<string, string>> {
  const auth = await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': BENCH_CLIENT.apiKey, 'x-api-secret': BENCH_CLIENT.apiSecret } });
  if (auth.status !== 200) throw new Error(`authenticate answered ${auth.status}: ${await auth.text()}`);
  const token = ((await auth.json()) as { data: { access_token: string } }).data.access_token;
  return { authorization: token, 'x-api-key': BENCH_CLIENT.apiKey };
}

/** Deletes the bench's Redis keys (never anything else: the Redis is shared). */
export async function dropKeys(keyPrefix: string): Promise<void> {
  const redis = createRedisConnection({ flavour: 'producer' });
  await waitForRedis(redis);
  const keys = await redis.keys(`${keyPrefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
}

export interface LoadOptions {
  headers?: Record<string, string>;
  /** Paths to rotate through instead of the URL's own path. */
  paths?: string[];
  connections?: number;
}

/** A bounded load: `seconds` of keep-alive connections against one URL, from autocannon in its own process. */
export async function load(url: string, seconds: number, options: LoadOptions = {}): Promise<LoadResult> {
  const autocannonOptions = {
    url, headers: options.headers ?? {}, duration: seconds, connections: options.connections ?? 50, pipelining: 1,
    ...(options.paths ? { requests: options.paths.map((path) => ({ method: 'GET', path })) } : {}),
  };
  const args = ['--import', 'tsx', 'bench/_load.ts', JSON.stringify(autocannonOptions)];
  const { child, line } = await spawnChild(args);
  await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
  const shown = { ...autocannonOptions, headers: Object.keys(autocannonOptions.headers), ...(options.paths ? { requests: `${options.paths.length} paths` } : {}) };
  return { ...(JSON.parse(line) as Omit<LoadResult, 'command'>), command: commandLine(['--import', 'tsx', 'bench/_load.ts', JSON.stringify(shown)]) };
}

/** An app on loopback in this process (bench/_router.ts for the metrics bench, which measures its own CPU). */
export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A free loopback port, for a server whose URL must be known before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function formatLoad(name: string, r: LoadResult): string {
  return `${name.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms} ms   p99 ${r.p99Ms} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
}

/** The two measurements, their ratio and how they were made; `ratio ...` is the line BENCHMARKS.md picks up. */
export function printComparison(label: string, baselineName: string, baseline: LoadResult, baselineServer: ServerProcess,
  subjectName: string, subject: LoadResult, subjectServer: ServerProcess): void {
  console.log(machine());
  console.log(`  baseline server: ${baselineServer.command}`);
  console.log(`  subject server:  ${subjectServer.command}`);
  console.log(`  load:            ${subject.command}`);
  console.log(formatLoad(baselineName, baseline));
  console.log(formatLoad(subjectName, subject));
  console.log(`ratio ${label}: ${(subject.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)} (requests/s); `
    + `p99 ${subject.p99Ms} ms vs ${baseline.p99Ms} ms (${(subject.p99Ms / Math.max(1, baseline.p99Ms)).toFixed(2)}x)`);
}

export function secondsArg(args: string[], fallback: number): number {
  const index = args.indexOf('--seconds');
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** `--cpu-prof <dir>`: profile the subject server into that folder. */
export function profileArg(args: string[]): string | undefined {
  const index = args.indexOf('--cpu-prof');
  return index >= 0 ? (args[index + 1] ?? 'bench-profiles') : undefined;
}
