// npm run bench -- metrics [--seconds N]
// What request metrics cost: the same authenticated trivial route through a router without metrics (the
// baseline) and one with them, measured alternately (A B A B) in the same run so that drift hits both. Besides
// requests/s (noisy on a shared machine) it reports this process's CPU time per request: both routers run here,
// the load generator (autocannon) in a process of its own (bench/_http.ts).
import { createMetrics } from '@satyapan/core';
import { formatLoad, load, secondsArg, type LoadResult } from './_http.js';
import { startBenchRouter, type BenchRouter } from './_router.js';

export async function main(args: string[]): Promise<void> {
  const seconds = secondsArg(args, 5);
  const plain = await startBenchRouter();
  const metrics = createMetrics();
  const measured = await startBenchRouter({ metrics });
  const run = async (router: BenchRouter): Promise<LoadResult & { cpuMicrosPerRequest: number }> => {
    const before = process.cpuUsage();
    const result = await load(router.url, seconds, { headers: router.headers });
    const used = process.cpuUsage(before);
    return { ...result, cpuMicrosPerRequest: (used.user + used.system) / result.total };
  };
  try {
    await load(plain.url, 1, { headers: plain.headers }); // warm-up
    await load(measured.url, 1, { headers: measured.headers });
    const without: Array<Awaited<ReturnType<typeof run>>> = [];
    const withMetrics: Array<Awaited<ReturnType<typeof run>>> = [];
    for (let round = 0; round < 2; round += 1) {
      without.push(await run(plain));
      withMetrics.push(await run(measured));
    }
    const mean = (results: typeof without, of: (r: (typeof without)[number]) => number) => results.reduce((sum, r) => sum + of(r), 0) / results.length;
    for (const [i, r] of without.entries()) console.log(formatLoad(`without metrics, round ${i + 1}`, r));
    for (const [i, r] of withMetrics.entries()) console.log(formatLoad(`with metrics, round ${i + 1}`, r));
    console.log(`ratio with/without metrics: ${(mean(withMetrics, (r) => r.requestsPerSecond) / mean(without, (r) => r.requestsPerSecond)).toFixed(3)} (requests/s), `
      + `${(mean(withMetrics, (r) => r.cpuMicrosPerRequest) / mean(without, (r) => r.cpuMicrosPerRequest)).toFixed(3)} (CPU per request); means of ${without.length} rounds each`);
    const series = (await metrics.text()).split('\n').filter((line) => line.startsWith('satyapan_http_request_duration_seconds_count')).length;
    console.log(`series of request counts after the run: ${series} (one per route and status)`);
  } finally {
    await plain.close();
    await measured.close();
  }
}
