// A bulk worker as a process of its own (examples/worker) wired to a BulkEnv, and the exactly-once check of a job
// that went through a worker restart. Shared by test/bulk-worker-restart.test.ts (4,000 rows) and
// `npm run bench -- bulk --restart` (100,000 rows), so the two prove the same property the same way.
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { bulkOwnerOf, type BulkJobView } from '@satyapan/bulk';
import { CLIENT, type BulkEnv } from '../../packages/bulk/test/support/env.js';
import { PROGRAMS, spawnProgram, type ProgramProcess } from './spawn-program.js';
import { loadScaled } from '../../packages/jobs/test/support/processes.js';

/** The worker program with the env's Redis prefix, sealing key, storage, simulator and cache secret. */
export function spawnBulkWorker(env: BulkEnv, rowConcurrency: number): ProgramProcess {
  return spawnProgram(PROGRAMS.worker, {
    SATYAPAN_KEY_PREFIX: env.keyPrefix,
    SATYAPAN_SEALING_KEYS: `k1:${env.sealingKey}`,
    SATYAPAN_DATA_DIR: env.dataDir,
    SATYAPAN_STORAGE_SECRET: 'bulk-test-secret',
    SATYAPAN_STORAGE_URL: 'http://127.0.0.1:9/storage',
    SATYAPAN_PENNY_DROP_URL: `${env.pennyDrop.url}/verification`,
    SATYAPAN_PENNY_DROP_CLIENT_ID: env.pennyDrop.clientId,
    SATYAPAN_PENNY_DROP_CLIENT_SECRET: env.pennyDrop.clientSecret,
    SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET: env.cacheKeySecret,
    SATYAPAN_BULK_ROW_CONCURRENCY: String(rowConcurrency),
    // The simulator answers at full speed; pacing (on by default) is tested in packages/bulk.
    SATYAPAN_BULK_RATE_PENNY_DROP: 'off',
    // Short locks, so the dead worker's job is found stalled within seconds.
    SATYAPAN_LOCK_DURATION_MS: '2000',
    SATYAPAN_STALLED_INTERVAL_MS: '1000',
    SATYAPAN_SWEEP_INTERVAL_MS: '500',
    LOG_LEVEL: 'warn',
  });
}

/** A penny-drop CSV of `rows` rows, `reference` row-<i>, one account of its own per row (`accountAt(i)`). */
export function pennyDropCsv(rows: number, accountAt: (i: number) => string): string {
  return `reference,ifsc,account_number\n${Array.from({ length: rows }, (_, i) => `row-${i},${IFSC},${accountAt(i)}`).join('\n')}\n`;
}

export interface RestartCheck {
  /** What is wrong; empty when the job went through exactly once. */
  failures: string[];
  summary: BulkJobView['summary'];
  /** Provider calls the simulator counted, and the accounts asked more than once. */
  providerCalls: number;
  accountsAskedTwice: number;
  resultRows: number;
  attempts: number | undefined;
}

/**
 * Checks a finished job of `pennyDropCsv(rows, accountAt)` that a worker restart went through: it succeeded with
 * every row done; only rows whose paid call was in flight at the kill (at most one per lane) are `interrupted`,
 * every other is `ok`; by the simulator's own count no account was asked twice and every `ok` row's account once;
 * the result CSV has exactly `rows` lines, row i on line i + 2, each once; the job ran twice.
 */
export async function checkExactlyOnce(
  env: BulkEnv, done: BulkJobView, rows: number, accountAt: (i: number) => string, rowConcurrency: number,
): Promise<RestartCheck> {
  const failures: string[] = [];
  const fail = (message: string): void => { if (failures.length < 20) failures.push(message); };
  if (done.status !== 'succeeded') fail(`job ended ${done.status}`);
  if (done.rows_total !== rows || done.rows_done !== rows) fail(`rows_total ${done.rows_total}, rows_done ${done.rows_done}, not ${rows}`);
  const { ok, invalid, error, interrupted } = done.summary;
  if (invalid + error !== 0) fail(`${invalid} invalid and ${error} error rows`);
  if (ok + interrupted !== rows) fail(`ok ${ok} + interrupted ${interrupted} is not ${rows}`);
  if (interrupted > rowConcurrency) fail(`${interrupted} interrupted rows, more than the ${rowConcurrency} lanes could have in flight`);
  const calls = env.pennyDrop.callsByAccount();
  const accountsAskedTwice = [...calls.values()].filter((count) => count > 1).length;
  if (accountsAskedTwice > 0) fail(`${accountsAskedTwice} accounts asked twice`);
  const providerCalls = env.pennyDrop.requests();
  if (providerCalls < rows - interrupted || providerCalls > rows) fail(`${providerCalls} provider calls, not within ${rows - interrupted}..${rows}`);
  let resultRows = 0;
  if (done.result_url) {
    const lines = (await env.resultLines(done)).slice(1);
    resultRows = lines.length;
    if (lines.length !== rows) fail(`the result has ${lines.length} rows, not ${rows}`);
    let interruptedLines = 0;
    lines.forEach((line, i) => {
      const cells = line.split(',');
      const expected = [String(i + 2), `row-${i}`, IFSC, accountAt(i)];
      if (cells.slice(0, 4).join(',') !== expected.join(',')) fail(`line ${i + 2} is ${cells.slice(0, 4).join(',')}, not ${expected.join(',')}`);
      else if (cells[6] === 'ok') { if (calls.get(accountAt(i)) !== 1) fail(`row ${i} is ok with ${calls.get(accountAt(i)) ?? 0} calls`); }
      else if (cells[6] === 'interrupted') interruptedLines++;
      else fail(`row ${i} is ${cells[6]}`);
    });
    if (interruptedLines !== interrupted) fail(`${interruptedLines} interrupted lines, the summary says ${interrupted}`);
  } else fail('no result file');
  const record = await env.service.store.get({ owner: bulkOwnerOf(CLIENT.clientId), jobId: done.job_id });
  if (record?.attempts !== 2) fail(`the job ran ${record?.attempts} times, not twice`);
  return { failures, summary: done.summary, providerCalls, accountsAskedTwice, resultRows, attempts: record?.attempts };
}

export interface RestartRun {
  jobId: string;
  /** The job as seen right after the first worker was killed, and the calls the simulator had counted then. */
  atKill: BulkJobView;
  callsAtKill: number;
  done: BulkJobView;
  /** Seconds from submit to the kill, from the kill to the second worker's ready line, and from submit to the end. */
  toKill: number;
  down: number;
  total: number;
}

/**
 * Submits `csv` as a penny-drop job to a worker process, SIGKILLs it once `killAtRows` rows are done, starts a
 * second worker process and waits (up to `timeoutMs`, longer under load) for the job to end. Spawned workers go into `workers`, for
 * the caller to stop (the second is left running).
 */
export async function runThroughRestart(
  env: BulkEnv, csv: string, options: { killAtRows: number; rowConcurrency: number; timeoutMs: number; workers: ProgramProcess[] },
): Promise<RestartRun> {
  const spawnWorker = (): ProgramProcess => {
    const worker = spawnBulkWorker(env, options.rowConcurrency);
    options.workers.push(worker);
    return worker;
  };
  const first = spawnWorker();
  await first.waitFor(/bulk worker ready \(kinds penny_drop/, 120_000);
  const started = performance.now();
  const job = await env.submitAndUpload('penny_drop', csv);
  const poll = () => env.service.get(CLIENT.clientId, job.job_id);
  // Killed a good way in, with chunks committed and calls in flight.
  for (;;) {
    const view = await poll();
    if (view.rows_done >= options.killAtRows) break;
    if (view.status === 'succeeded' || view.status === 'failed') throw new Error(`the job ended ${view.status} before the kill; make it bigger`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await first.stop('SIGKILL');
  const killed = performance.now();
  const atKill = await poll();
  const callsAtKill = env.pennyDrop.requests();
  const second = spawnWorker();
  await second.waitFor(/bulk worker ready/, 120_000);
  const down = (performance.now() - killed) / 1000;
  let done = await poll();
  const deadline = Date.now() + loadScaled(options.timeoutMs);
  while (done.status !== 'succeeded' && done.status !== 'failed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    done = await poll();
  }
  return { jobId: job.job_id, atKill, callsAtKill, done, toKill: (killed - started) / 1000, down, total: (performance.now() - started) / 1000 };
}
