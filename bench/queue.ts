// npm run bench -- queue [--jobs N] [--concurrency C] [--inflight K] [--big-rows N] [--big-repeat R] [--no-big]
// 1. Statement jobs end to end (HTTP submit, PUT of a small workbook through json_url, conversion by one worker
//    process, wait for succeeded) against a bare BullMQ queue processing no-op jobs, both measured in this run;
//    then small jobs one at a time (submit -> succeeded latency, p50).
// 2. The big job: a generated 1M-row Form 26Q workbook (bench/engine.ts) submitted through the HTTP API, streamed
//    to its json_url, converted by examples/worker (built code) and its TXT stored, against the CLI
//    (`satyapan-statement convert`, built) converting the same file with its TXT and report, alternating, best of
//    each. The job's time is split into upload, dispatch (the frozen copy and the queue add), pickup by the worker
//    and the worker's run, and the run into the engine's conversion (the worker's metrics) and the rest.
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { QueueEvents, Queue, Worker } from 'bullmq';
import { createRedisConnection, duplicateConnection, waitForRedis } from '@satyapan/core';
import { STATEMENT_QUEUE, ownerOf, storageKeys, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { STORAGE_SECRET, startStatementsHost } from '../test/statements-support/host.js';
import { workbook26Q } from '../test/statements-support/workbooks.js';
import { spawnProgram } from '../test/support/spawn-program.js';
import { freePort } from '../test/support/redis-server.js';
import { OPTIONS as BIG_OPTIONS, generate } from './engine.js';
import { numberArg, percentile } from './_http.js';

interface RunResult {
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
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

async function statementJobs(jobs: number, concurrency: number, inflight: number): Promise<{ loaded: RunResult; single: RunResult }> {
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
    const loaded = await drive(jobs, inflight, one);
    // One at a time: what a caller waits from submit to succeeded when the queue is otherwise idle.
    const single = await drive(Math.min(jobs, 200), 1, one);
    const check = await host.call(client, 'POST', '/tds/reports/txt/search', { '@entity': 'in.co.service.tds.reports.jobs.search', status: 'succeeded', page_size: 1 });
    if (check.body.data.items.length !== 1) throw new Error('no succeeded job found after the run');
    return { loaded, single };
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
  const { loaded: statements, single } = await statementJobs(jobs, concurrency, inflight);
  console.log(format('statement jobs end to end (1 worker process)', statements));
  console.log(format('statement jobs one at a time', single));
  console.log(`ratio statements/bare: ${(statements.jobsPerSecond / baseline.jobsPerSecond).toFixed(3)} (jobs/s); p99 ${statements.p99Ms.toFixed(1)} ms vs ${baseline.p99Ms.toFixed(1)} ms`);
  console.log('a statement job is: HTTP submit (auth, Redis script), HTTP PUT of the workbook, upload listener queues it, the worker');
  console.log('copies it to a scratch file, converts it in a conversion process (engine streaming form), writes TXT + JSON/xlsx reports, moves the record on');
  console.log(`ratio small job one at a time: p50 ${single.p50Ms.toFixed(1)} ms submit -> succeeded (goal <= 50 ms), p99 ${single.p99Ms.toFixed(1)} ms`);
  if (!args.includes('--no-big')) await bigJob(numberArg(args, 'big-rows', 1_000_000), numberArg(args, 'big-repeat', 3));
}

interface BigRun {
  totalMs: number;
  uploadMs: number;
  dispatchMs: number;
  pickupMs: number;
  runMs: number;
  conversionMs: number;
  txtBytes: number;
}

async function bigJob(rows: number, repeat: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-bench-bigjob-'));
  const client: ClientConfig = { id: 'bench-big', apiKey: 'key_bench_big', apiSecret: 'secret_bench_big' };
  const maxUploadBytes = 4 * 2 ** 30;
  // Generated first: writing it blocks this process's event loop for seconds, which would time out the
  // connections of a host already started here.
  const input = join(dir, 'form26q.json');
  const inputBytes = generate(input, { rows, challans: 1000, payees: 10000 });
  const host = await startStatementsHost({ clients: [client], service: { maxUploadBytes } });
  const eventsConnection = createRedisConnection({ flavour: 'worker', connectionName: 'bench-big-events' });
  const events = new QueueEvents(STATEMENT_QUEUE, { connection: eventsConnection, prefix: `${host.keyPrefix}:bull` });
  const metricsPort = await freePort();
  const worker = spawnProgram('examples/worker/dist/main.js', {
    SATYAPAN_KEY_PREFIX: host.keyPrefix, SATYAPAN_SEALING_KEYS: `e2e:${host.sealingKey}`, SATYAPAN_DATA_DIR: host.dataDir,
    SATYAPAN_STORAGE_SECRET: STORAGE_SECRET, SATYAPAN_STORAGE_URL: host.storageUrl, SATYAPAN_TMP_DIR: host.scratchDir,
    SATYAPAN_MAX_UPLOAD_BYTES: String(maxUploadBytes), SATYAPAN_METRICS_PORT: String(metricsPort), SATYAPAN_SWEEP_INTERVAL_MS: '60000', LOG_LEVEL: 'warn',
  }, { nodeArgs: [] });
  try {
    await Promise.all([worker.waitFor(/statement worker ready/, 60_000), events.waitUntilReady()]);
    const seen = new Map<string, Map<string, number>>();
    for (const name of ['waiting', 'active', 'completed', 'failed'] as const) {
      events.on(name, ({ jobId }: { jobId: string }) => {
        if (!seen.has(jobId)) seen.set(jobId, new Map());
        seen.get(jobId)!.set(name, performance.now());
      });
    }
    const conversionSeconds = async (): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      return Number(/^satyapan_statement_conversion_duration_seconds_sum\{[^}]*outcome="converted"[^}]*\} (\S+)/m.exec(text)?.[1] ?? 0);
    };
    const body = { '@entity': 'in.co.service.tds.reports.request', tan: BIG_OPTIONS.tan, form: BIG_OPTIONS.form, quarter: BIG_OPTIONS.quarter, financial_year: BIG_OPTIONS.financialYear };
    const bin = join('packages', 'statement-engine', 'bin', 'satyapan-statement.js');
    const cliArgs = [bin, 'convert', input, '--form', BIG_OPTIONS.form, '--quarter', BIG_OPTIONS.quarter, '--year', BIG_OPTIONS.financialYear, '--tan', BIG_OPTIONS.tan,
      '--out', join(dir, 'cli.txt'), '--report', join(dir, 'cli-report.json')];
    const cli = (): { ms: number; txtBytes: number } => {
      const started = performance.now();
      const r = spawnSync(process.execPath, cliArgs, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = performance.now() - started;
      if (r.status !== 0) throw new Error(`the CLI exited with ${r.status}: ${r.stderr}`);
      return { ms, txtBytes: 0 };
    };
    const service = async (): Promise<BigRun> => {
      const conversionBefore = await conversionSeconds();
      const started = performance.now();
      const submitted = await host.call(client, 'POST', '/tds/reports/txt', body);
      if (submitted.status !== 200) throw new Error(`submit answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
      const job = submitted.body.data as StatementJobView;
      const uploadStarted = performance.now();
      // Streamed from the file with node:http, as `curl -T` would (fetch's web streams would be the bottleneck).
      const putStatus = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(job.json_url as string, { method: 'PUT', headers: { 'content-type': 'application/json', 'content-length': String(inputBytes) } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('error', reject);
        createReadStream(input, { highWaterMark: 1 << 20 }).pipe(request);
      });
      if (putStatus !== 200) throw new Error(`upload answered ${putStatus}`);
      const uploaded = performance.now();
      while (!seen.get(job.job_id)?.has('completed')) {
        if (seen.get(job.job_id)?.has('failed')) throw new Error('the big job failed');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const times = seen.get(job.job_id)!;
      const polled = (await host.call(client, 'GET', `/tds/reports/txt?job_id=${job.job_id}`)).body.data as StatementJobView;
      if (polled.status !== 'succeeded') throw new Error(`the big job ended ${polled.status}: ${polled.message}`);
      const txt = await host.storage.head(storageKeys.txt({ owner: ownerOf(client.id as string), jobId: job.job_id }));
      return {
        totalMs: times.get('completed')! - started,
        uploadMs: uploaded - uploadStarted,
        dispatchMs: times.get('waiting')! - uploaded,
        pickupMs: times.get('active')! - times.get('waiting')!,
        runMs: times.get('completed')! - times.get('active')!,
        conversionMs: ((await conversionSeconds()) - conversionBefore) * 1000,
        txtBytes: txt?.size ?? 0,
      };
    };
    const clis: number[] = [];
    const runs: BigRun[] = [];
    for (let i = 0; i < repeat; i += 1) {
      clis.push(cli().ms);
      runs.push(await service());
    }
    const cliTxt = (await stat(join(dir, 'cli.txt'))).size;
    const best = runs.reduce((a, b) => (b.totalMs < a.totalMs ? b : a));
    const cliBest = Math.min(...clis);
    const s1 = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    console.log(`\nbig job: ${rows.toLocaleString('en')} rows, ${(inputBytes / 2 ** 20).toFixed(1)} MiB workbook; TXT ${(best.txtBytes / 2 ** 20).toFixed(1)} MiB stored (CLI's ${(cliTxt / 2 ** 20).toFixed(1)} MiB)`);
    console.log(`  CLI (node ${cliArgs.slice(0, 2).join(' ')} ... --out --report): ${clis.map(s1).join(', ')}`);
    for (const run of runs) {
      console.log(`  service: ${s1(run.totalMs)} = submit+upload ${s1(run.uploadMs)}, dispatch ${s1(run.dispatchMs)}, pickup ${s1(run.pickupMs)}, `
        + `worker run ${s1(run.runMs)} (engine ${s1(run.conversionMs)}, rest ${s1(run.runMs - run.conversionMs)})`);
    }
    if (Math.abs(best.txtBytes - cliTxt) > 64) throw new Error(`the stored TXT (${best.txtBytes} bytes) is not the CLI's (${cliTxt} bytes)`);
    console.log(`ratio big job service/CLI: ${(best.totalMs / cliBest).toFixed(2)}x (best ${s1(best.totalMs)} vs ${s1(cliBest)}; goal <= 1.25x)`);
  } finally {
    await worker.stop();
    await events.close();
    eventsConnection.disconnect();
    await host.close();
    await rm(dir, { recursive: true, force: true });
  }
}
