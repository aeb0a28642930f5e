// npm run bench -- queue [--jobs N] [--concurrency C] [--inflight K]
// Statement jobs end to end (HTTP submit, PUT of a small workbook through json_url, conversion by one worker
// process, wait for succeeded) against a bare BullMQ queue processing no-op jobs, both measured in this run.
import { QueueEvents, Queue, Worker } from 'bullmq';
import { createRedisConnection, duplicateConnection, waitForRedis } from '@satyapan/core';
import { STATEMENT_QUEUE, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { startStatementsHost } from '../test/statements-support/host.js';
import { workbook26Q } from '../test/statements-support/workbooks.js';

interface RunResult {
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function numberArg(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs `jobs` tasks with at most `inflight` at once; each resolves with its own latency in ms. */
async function drive(jobs: number, inflight: number, task: () => Promise<number>): Promise<RunResult> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: inflight }, async () => {
    while (next < jobs) {
      next += 1;
      latencies.push(await task());
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { jobs, seconds, jobsPerSecond: jobs / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

/** Resolves when QueueEvents reports a job id completed (or failed, which the bench treats as an error). */
function completions(events: QueueEvents): (jobId: string) => Promise<void> {
  const waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  const done = new Set<string>();
  events.on('completed', ({ jobId }) => {
    done.add(jobId);
    waiting.get(jobId)?.resolve();
  });
  events.on('failed', ({ jobId, failedReason }) => waiting.get(jobId)?.reject(new Error(`job ${jobId} failed: ${failedReason}`)));
  return (jobId) => new Promise((resolve, reject) => {
    if (done.has(jobId)) return resolve();
    waiting.set(jobId, { resolve, reject });
  });
}

function format(name: string, r: RunResult): string {
  return `${name.padEnd(44)} ${r.jobsPerSecond.toFixed(1).padStart(8)} jobs/s   p50 ${r.p50Ms.toFixed(1)} ms   p99 ${r.p99Ms.toFixed(1)} ms   (${r.jobs} jobs in ${r.seconds.toFixed(1)} s)`;
}

async function bareBullmq(jobs: number, concurrency: number, inflight: number): Promise<RunResult> {
  const connection = createRedisConnection({ flavour: 'worker', connectionName: 'bench-bare-bullmq' });
  await waitForRedis(connection);
  const prefix = `bench:${process.pid}:bare`;
  const queue = new Queue('{noop}', { connection, prefix });
  const eventsConnection = duplicateConnection(connection);
  const events = new QueueEvents('{noop}', { connection: eventsConnection, prefix });
  const worker = new Worker('{noop}', async () => ({ ok: true }), { connection, prefix, concurrency });
  await Promise.all([events.waitUntilReady(), worker.waitUntilReady()]);
  const finished = completions(events);
  try {
    let id = 0;
    const one = async (): Promise<number> => {
      const t0 = performance.now();
      const job = await queue.add('noop', { n: id += 1 }, { removeOnComplete: true });
      await finished(job.id as string);
      return performance.now() - t0;
    };
    await drive(50, inflight, one);
    return await drive(jobs, inflight, one);
  } finally {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
    eventsConnection.disconnect();
    connection.disconnect();
  }
}

async function statementJobs(jobs: number, concurrency: number, inflight: number): Promise<RunResult> {
  const client: ClientConfig = { id: 'bench', apiKey: 'key_bench_queue', apiSecret: 'secret_bench_queue' };
  const host = await startStatementsHost({ clients: [client] });
  const eventsConnection = createRedisConnection({ flavour: 'worker', connectionName: 'bench-statement-events' });
  const events = new QueueEvents(STATEMENT_QUEUE, { connection: eventsConnection, prefix: `${host.keyPrefix}:bull` });
  const worker = host.spawnWorker({ SATYAPAN_WORKER_CONCURRENCY: String(concurrency), SATYAPAN_SWEEP_INTERVAL_MS: '60000' });
  try {
    await Promise.all([worker.ready(), events.waitUntilReady()]);
    const finished = completions(events);
    const workbook = JSON.stringify(workbook26Q({ rows: 5 }));
    const body = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };
    const one = async (): Promise<number> => {
      const t0 = performance.now();
      const submitted = await host.call(client, 'POST', '/tds/reports/txt', body);
      const job = submitted.body.data as StatementJobView;
      const put = await fetch(job.json_url as string, { method: 'PUT', body: workbook, headers: { 'content-type': 'application/json' } });
      if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
      await finished(job.job_id);
      return performance.now() - t0;
    };
    await drive(20, inflight, one); // warm-up: threads start, scripts load
    const result = await drive(jobs, inflight, one);
    const check = await host.call(client, 'POST', '/tds/reports/txt/search', { '@entity': 'in.co.service.tds.reports.jobs.search', status: 'succeeded', page_size: 1 });
    if (check.body.data.items.length !== 1) throw new Error('no succeeded job found after the run');
    return result;
  } finally {
    await events.close();
    eventsConnection.disconnect();
    await worker.kill('SIGTERM');
    await host.close();
  }
}

export async function main(args: string[]): Promise<void> {
  const jobs = numberArg(args, 'jobs', 1_000);
  const concurrency = numberArg(args, 'concurrency', 4);
  const inflight = numberArg(args, 'inflight', 32);
  console.log(`${jobs} jobs, worker concurrency ${concurrency}, ${inflight} submitted at a time`);
  const baseline = await bareBullmq(jobs, concurrency, inflight);
  console.log(format('bare BullMQ, no-op jobs', baseline));
  const statements = await statementJobs(jobs, concurrency, inflight);
  console.log(format('statement jobs end to end (1 worker process)', statements));
  console.log(`ratio statements/bare: ${(statements.jobsPerSecond / baseline.jobsPerSecond).toFixed(3)} (jobs/s); p99 ${statements.p99Ms.toFixed(1)} ms vs ${baseline.p99Ms.toFixed(1)} ms`);
  console.log('a statement job is: HTTP submit (auth, Redis script), HTTP PUT of the workbook, upload listener queues it, the worker');
  console.log('copies it to a scratch file, converts it in a thread (engine streaming form), writes TXT + JSON/xlsx reports, moves the record on');
}
