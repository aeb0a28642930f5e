// npm run bench -- router [--seconds N] [--rounds N] [--cpu-prof <dir>]
// Requests/s of an authenticated trivial route through the router vs a bare Express hello world, same run. Each
// server runs the built code in its own process; autocannon runs in a third (bench/_http.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { BENCH_CLIENT, benchHeaders, dropKeys, compare, profileArg, roundsArg, secondsArg, startServer, type ServerProcess } from './_http.js';

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 5);
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-'));
  const keyPrefix = `bench:${randomUUID()}`;
  const servers: ServerProcess[] = [];
  try {
    const bare = await startServer('bare');
    servers.push(bare);
    const router = await startServer('router', { keyPrefix, dir, client: BENCH_CLIENT }, profileArg(args));
    servers.push(router);
    const headers = await benchHeaders(`${router.url}/api`);
    await compare('router/bare', { name: 'bare express hello world', server: bare, url: `${bare.url}/hello` },
      { name: 'router, authenticated GET', server: router, url: `${router.url}/api/bench/ping`, options: { headers } }, seconds, roundsArg(args));
    console.log('per request the router verifies a JWT (cached), looks up the key, checks revocation and counts the rate limit in Redis, validates and envelopes');
  } finally {
    for (const server of servers) await server.close();
    await dropKeys(keyPrefix);
    await rm(dir, { recursive: true, force: true });
  }
}
