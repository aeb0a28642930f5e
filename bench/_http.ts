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
import { readFileSync } from 'node:fs';
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
  /** Responses received in the whole run (2xx or not). */
  total: number;
  /** How the load was generated, to print with the figures. */
  command: string;
}

export interface ServerProcess {
  url: string;
  command: string;
  /** The process id, for its CPU time (processCpuMicros). */
  pid: number | undefined;
  close(): Promise<void>;
}

/**
 * CPU time (user + system) a process has used so far, in microseconds, from /proc (Linux); undefined elsewhere.
 * Divided by the requests it served, it gives a cost per request that the machine's other load hardly moves,
 * unlike requests/s.
 */
export function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime are 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1e6;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux that Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

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
    pid: child.pid,
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

export function formatLoad(name: string, r: LoadResult & { cpuMicrosPerRequest?: number | undefined }): string {
  const cpu = r.cpuMicrosPerRequest === undefined ? '' : `   server CPU ${r.cpuMicrosPerRequest.toFixed(0)} us/req`;
  return `${name.padEnd(34)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms} ms   p99 ${r.p99Ms} ms   non-2xx ${r.non2xx}   errors ${r.errors}${cpu}`;
}

export interface Side {
  name: string;
  server: ServerProcess;
  url: string;
  options?: LoadOptions;
}

/** A second measure of the subject: how it compares with a reference side (e.g. the floor of any proxy). */
export interface Reference {
  side: Side;
  /** The reference against the baseline (`proxy floor/direct`). */
  label: string;
  /** The subject against the reference (`router/proxy floor`). */
  subjectLabel: string;
}

/**
 * Baseline and subject measured in alternation, `rounds` times (after a one-second warm-up of each), so that a
 * change in the machine's load falls on both; the ratio reported is the median of the rounds' ratios. Prints
 * every round, the command lines, Node version, cores and load; the `ratio ...` line is what BENCHMARKS.md shows.
 * Each side's server CPU per request (its process's user + system time over the responses it gave) is printed
 * too: requests/s moves with whatever else the machine runs, CPU per request much less, so it is the figure to
 * compare between runs when judging a change. With a `reference`, it is measured in the same rounds (between
 * baseline and subject) and two more ratio lines are printed: reference/baseline and subject/reference.
 */
export async function compare(label: string, baseline: Side, subject: Side, seconds: number, rounds: number, reference?: Reference): Promise<void> {
  const sides = reference ? [baseline, reference.side, subject] : [baseline, subject];
  for (const side of sides) await load(side.url, 1, side.options);
  const results: MeasuredLoad[][] = [];
  for (let round = 0; round < rounds; round++) {
    const measured: MeasuredLoad[] = [];
    for (const side of sides) measured.push(await measuredLoad(side, seconds));
    results.push(measured);
  }
  console.log(machine());
  console.log(`  baseline server: ${baseline.server.command}`);
  if (reference) console.log(`  reference server: ${reference.side.server.command}`);
  console.log(`  subject server:  ${subject.server.command}`);
  console.log(`  load:            ${results[0]!.at(-1)!.command}`);
  for (const [i, measured] of results.entries()) {
    console.log(`round ${i + 1}`);
    for (const [j, side] of sides.entries()) console.log(`  ${formatLoad(side.name, measured[j]!)}`);
  }
  const last = sides.length - 1;
  console.log(ratioLine(label, results.map((m) => [m[0]!, m[last]!]), rounds));
  if (reference) {
    console.log(ratioLine(reference.label, results.map((m) => [m[0]!, m[1]!]), rounds));
    console.log(ratioLine(reference.subjectLabel, results.map((m) => [m[1]!, m[2]!]), rounds));
  }
}

/** `ratio <label>: <median> (...rounds); p99 ...x the baseline's; server CPU per request ...`, over [base, sub] pairs. */
function ratioLine(label: string, pairs: [MeasuredLoad, MeasuredLoad][], rounds: number): string {
  const ratios = pairs.map(([base, sub]) => sub.requestsPerSecond / base.requestsPerSecond);
  const p99s = pairs.map(([base, sub]) => sub.p99Ms / Math.max(1, base.p99Ms));
  return `ratio ${label}: ${median(ratios).toFixed(3)} (requests/s, median of ${rounds} alternating rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')}); `
    + `p99 ${median(p99s).toFixed(2)}x the baseline's (median)${cpuSummary(pairs.map(([base, sub]) => ({ base, sub })))}`;
}

interface MeasuredLoad extends LoadResult {
  /** CPU the side's server process spent per response, in microseconds (when its pid is known, on Linux). */
  cpuMicrosPerRequest: number | undefined;
}

async function measuredLoad(side: Side, seconds: number): Promise<MeasuredLoad> {
  const before = processCpuMicros(side.server.pid);
  const result = await load(side.url, seconds, side.options);
  const after = processCpuMicros(side.server.pid);
  const cpuMicrosPerRequest = before !== undefined && after !== undefined && result.total > 0 ? (after - before) / result.total : undefined;
  return { ...result, cpuMicrosPerRequest };
}

/** `; server CPU per request: subject X µs vs baseline Y µs (medians)`, when both were measured. */
function cpuSummary(results: { base: MeasuredLoad; sub: MeasuredLoad }[]): string {
  const base = results.map((r) => r.base.cpuMicrosPerRequest);
  const sub = results.map((r) => r.sub.cpuMicrosPerRequest);
  if (base.includes(undefined) || sub.includes(undefined)) return '';
  return `; server CPU per request: subject ${median(sub as number[]).toFixed(0)} us, baseline ${median(base as number[]).toFixed(0)} us (medians)`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `--<name> N`: a positive whole number, or the fallback when the flag is absent. */
export function numberArg(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

/** The p-th percentile of ascending samples (nearest rank below). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** `--rounds N`: alternating baseline/subject measurements (default 3). */
export function roundsArg(args: string[], fallback = 3): number {
  const index = args.indexOf('--rounds');
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  return Number.isInteger(value) && value > 0 ? value : fallback;
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
