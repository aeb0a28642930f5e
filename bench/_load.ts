// The load generator, in a process of its own: `node --import tsx bench/_load.ts <autocannon options json>`.
// Runs autocannon in this process's main thread and prints its result as one JSON line.
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options;
const result = await autocannon(options);
process.stdout.write(`${JSON.stringify({
  requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99,
  non2xx: result.non2xx, errors: result.errors, total: result.requests.total,
})}\n`);
