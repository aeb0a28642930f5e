// npm run bench -- bank [--seconds N] [--rounds N] [--source <IFSC.csv|by-bank.tar.gz|folder>]
// The IFSC directory with the full shared dataset (97,834 branches by default):
//  1. import time, snapshot size and load time; heap and external memory of the loaded directory, against a
//     plain Map of branch objects built in the same run;
//  2. in-process lookups/s against Map.get on the same IFSCs;
//  3. authenticated GET /bank/{ifsc} requests/s and p99 through the router (IFSCs rotating), against a bare
//     Express hello world measured in the same run; each server in its own process on the built code, autocannon
//     in a third (bench/_http.ts). `--cpu-prof <dir>` profiles the router's process.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IfscDirectory, buildSnapshot, importBranches, type Branch } from '@satyapan/bank';
import { BENCH_CLIENT, benchHeaders, dropKeys, compare, profileArg, roundsArg, secondsArg, startServer, type ServerProcess } from './_http.js';

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_SOURCE = resolve(here, '../../shared/data/ifsc/razorpay-ifsc-api-2.0.57-by-bank.tar.gz');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function memory(): { heap: number; external: number } {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, external: usage.arrayBuffers };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function stringArg(args: string[], name: string, fallback: string): string {
  const index = args.indexOf(name);
  return index >= 0 && args[index + 1] ? (args[index + 1] as string) : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function shuffled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Lookups per second over `codes` (several passes, best of three). */
function lookupsPerSecond(codes: string[], lookup: (code: string) => unknown): number {
  const rates: number[] = [];
  for (let round = 0; round < 3; round++) {
    let found = 0;
    const started = performance.now();
    for (const code of codes) if (lookup(code) !== undefined) found++;
    const seconds = (performance.now() - started) / 1000;
    if (found !== codes.length) throw new Error(`lookup missed ${codes.length - found} codes`);
    rates.push(codes.length / seconds);
  }
  return Math.max(...rates);
}

async function measureDirectory(source: string, dir: string): Promise<{ path: string; codes: string[] }> {
  let started = performance.now();
  const { snapshot, report } = await buildSnapshot(source);
  const importMs = performance.now() - started;
  const path = join(dir, 'directory.bin');
  await writeFile(path, snapshot);
  console.log(`import ${report.kind}: ${report.branches} branches of ${report.banks} banks in ${importMs.toFixed(0)} ms; snapshot ${mb((await stat(path)).size)}`);

  // Memory first: loads measured for time below would otherwise linger in the before/after figures.
  const before = memory();
  const directory = await IfscDirectory.load(path);
  const after = memory();
  const loadTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    await IfscDirectory.load(path);
    loadTimes.push(performance.now() - started);
  }
  const codes = shuffled([...directory.branches()].map((b) => b.IFSC));

  const { branches } = await importBranches(source);
  const mapBefore = memory();
  const plain = new Map<string, Branch>(branches.map((b) => [b.IFSC, structuredClone(b)]));
  const mapAfter = memory();
  branches.length = 0;

  console.log(`snapshot load: median ${median(loadTimes).toFixed(1)} ms of 5 (read + CRC + views; no per-branch objects)`);
  console.log(`memory for ${directory.size} branches: directory heap ${mb(after.heap - before.heap)} + buffers ${mb(after.external - before.external)}`
    + ` vs Map of branch objects heap ${mb(mapAfter.heap - mapBefore.heap)}`);

  const lower = codes.map((c) => c.toLowerCase());
  const ours = lookupsPerSecond(lower, (c) => directory.lookup(c));
  const baseline = lookupsPerSecond(lower, (c) => plain.get(c.toUpperCase()));
  console.log(`in-process lookups (lower-case input, whole directory, shuffled): directory ${ours.toFixed(0)}/s vs Map.get ${baseline.toFixed(0)}/s, ratio ${(ours / baseline).toFixed(3)}`);

  for (const query of [{ state: 'IN-KA' }, { bank: 'KKBK', city: 'mumbai' }, { q: 'nariman point' }]) {
    directory.search({ ...query, limit: 10, offset: 0 });
    started = performance.now();
    const page = directory.search({ ...query, limit: 10, offset: 0 });
    console.log(`search ${JSON.stringify(query)}: ${page.total} matches in ${(performance.now() - started).toFixed(1)} ms (index already built)`);
  }
  const used = memory();
  console.log(`directory after the lookups and searches above (IFSC strings, decoded-string memo, search indexes): heap ${mb(used.heap - before.heap - (mapAfter.heap - mapBefore.heap))}`
    + ' (approximate: other allocations of this run are included)');
  plain.clear();
  return { path, codes };
}

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 5);
  const source = stringArg(args, '--source', DEFAULT_SOURCE);
  if (!existsSync(source)) {
    console.error(`no IFSC source at ${source}: pass --source <IFSC.csv|by-bank.tar.gz|folder>`);
    process.exitCode = 2;
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-bank-'));
  const keyPrefix = `bench:${randomUUID()}`;
  const servers: ServerProcess[] = [];
  try {
    const { path, codes } = await measureDirectory(source, dir);
    const bare = await startServer('bare');
    servers.push(bare);
    const router = await startServer('bank', { keyPrefix, dir, client: BENCH_CLIENT, directory: path }, profileArg(args));
    servers.push(router);
    const headers = await benchHeaders(`${router.url}/api`);
    const paths = codes.slice(0, 1000).map((code) => `/api/bank/${code}`);

    await compare('router lookup/bare', { name: 'bare express hello world', server: bare, url: `${bare.url}/hello` },
      { name: 'router GET /bank/{ifsc} (1000 IFSCs)', server: router, url: router.url, options: { headers, paths } }, seconds, roundsArg(args));
  } finally {
    for (const server of servers) await server.close();
    await dropKeys(keyPrefix);
    await rm(dir, { recursive: true, force: true });
  }
}
