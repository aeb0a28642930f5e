// npm run bench -- router [--seconds N]
// Requests/s of an authenticated trivial route through the router vs a bare Express hello world, same run.
import express from 'express';
import { formatLoad, listen, load, secondsArg } from './_http.js';
import { startBenchRouter } from './_router.js';

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 10);
  const bare = express();
  bare.get('/hello', (_req, res) => void res.json({ hello: 'world' }));
  const bareServer = await listen(bare);
  const router = await startBenchRouter();

  try {
    await load(`${bareServer.url}/hello`, {}, 1); // warm-up
    await load(router.url, router.headers, 1);
    const baseline = await load(`${bareServer.url}/hello`, {}, seconds);
    const routed = await load(router.url, router.headers, seconds);
    console.log(formatLoad('bare express hello world', baseline));
    console.log(formatLoad('router, authenticated GET', routed));
    console.log(`ratio router/bare: ${(routed.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)} (requests/s); p99 ${routed.p99Ms} ms vs ${baseline.p99Ms} ms`);
    console.log('per request the router verifies a JWT, looks up the key, checks revocation in Redis, counts the rate limit in Redis, validates and envelopes');
  } finally {
    await bareServer.close();
    await router.close();
  }
}
