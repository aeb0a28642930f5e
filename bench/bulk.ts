// npm run bench -- bulk [--rows N] [--lanes L] [--rounds R] [--restart | --no-restart]
// A bulk penny-drop job of N rows (default 100,000) against the penny-drop simulator on loopback, run by a bulk
// worker in this process, against the same check (BankService.verifyAccount, the same cache, single flight and
// provider) called directly in a loop with the same number of lanes, both measured in this run, in alternation.
// Every row has an account of its own, so every row is a provider call; the bench checks afterwards that no
// account was asked twice and that the result file has a line per row.
// Then (alone with --restart, skipped with --no-restart) the restart scenario: a job of N rows through a worker
// process of its own (examples/worker), SIGKILLed once 40% of the rows are done, finished by a second worker
// process; printed: the time and rows/s across the restart (submit to end, the kill and the new worker's start
// included) against the direct loop, the outcome counts, the provider calls counted at the simulator, and the
// exactly-once checks (test/support/bulk-worker-process.ts, shared with test/bulk-worker-restart.test.ts); the
// process exits non-zero if any check fails.
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { bulkOwnerOf } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from '../packages/bulk/test/support/env.js';
import { numberArg, roundsArg } from './_http.js';
import { checkExactlyOnce, pennyDropCsv, runThroughRestart } from '../test/support/bulk-worker-process.js';
import type { ProgramProcess } from '../test/support/spawn-program.js';


/** Accounts of their own per run and side: the simulator answers each (as an invalid account, no deposit). */
function accounts(rows: number, side: number, round: number): string[] {
  return Array.from({ length: rows }, (_, i) => `${side}${round}${String(i).padStart(9, '0')}`);
}

interface Timing {
  rows: number;
  seconds: number;
}

async function direct(env: BulkEnv, list: string[], lanes: number): Promise<Timing> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < list.length) {
      const accountNumber = list[next++] as string;
      await env.bank.verifyAccount({ apiKey: CLIENT.apiKey, ifsc: IFSC, accountNumber });
    }
  }));
  return { rows: list.length, seconds: (performance.now() - started) / 1000 };
}

async function bulk(env: BulkEnv, list: string[]): Promise<Timing> {
  const csv = `ifsc,account_number\n${list.map((account) => `${IFSC},${account}`).join('\n')}\n`;
  const started = performance.now();
  const job = await env.submitAndUpload('penny_drop', csv);
  const done = await env.finished(job.job_id, 3_600_000);
  const seconds = (performance.now() - started) / 1000;
  if (done.status !== 'succeeded' || done.rows_done !== list.length) throw new Error(`bulk job ended ${done.status} with ${done.rows_done} rows`);
  const lines = await env.resultLines(done);
  if (lines.length !== list.length + 1) throw new Error(`the result has ${lines.length - 1} rows, not ${list.length}`);
  // Its records and files go, so a long run does not fill the test Redis.
  await env.service.store.delete({ owner: bulkOwnerOf(CLIENT.clientId), jobId: job.job_id });
  return { rows: list.length, seconds };
}

function format(name: string, t: Timing): string {
  return `${name.padEnd(46)} ${(t.rows / t.seconds).toFixed(0).padStart(7)} rows/s   ${(1e6 * t.seconds / t.rows).toFixed(1).padStart(7)} µs/row   (${t.rows} rows in ${t.seconds.toFixed(1)} s)`;
}

/** The restart scenario: returns false if a check failed (printed). */
async function restart(rows: number, lanes: number, base: Timing | undefined): Promise<boolean> {
  // The baseline of this scenario when run alone: the same number of direct calls in this process, against a
  // simulator of its own, so the job's simulator counts only the job's calls.
  let baseline = base;
  if (!baseline) {
    const baseEnv = await startBulkEnv();
    try {
      await direct(baseEnv, accounts(2_000, 1, 9), lanes);
      baseline = await direct(baseEnv, accounts(rows, 3, 0), lanes);
    } finally {
      await baseEnv.close();
    }
  }
  const env = await startBulkEnv();
  const workers: ProgramProcess[] = [];
  const accountAt = (i: number): string => `5${String(i).padStart(11, '0')}`;
  try {
    const run = await runThroughRestart(env, pennyDropCsv(rows, accountAt), {
      killAtRows: Math.floor(rows * 0.4), rowConcurrency: lanes, timeoutMs: 3_600_000, workers,
    });
    const check = await checkExactlyOnce(env, run.done, rows, accountAt, lanes);
    const { ok, invalid, error, interrupted } = run.done.summary;
    const after = rows - run.atKill.rows_done;
    console.log(`restart: ${rows} rows through a worker process killed with SIGKILL at ${run.atKill.rows_done} rows done (${(100 * run.atKill.rows_done / rows).toFixed(0)}%), finished by a new worker process, ${lanes} lanes`);
    if (!base) console.log(`  ${format('direct verifyAccount loop (baseline)', baseline)}`);
    console.log(`  ${format('bulk job across the restart (submit to end)', { rows, seconds: run.total })}`);
    console.log(`  first worker: ${run.atKill.rows_done} rows in ${run.toKill.toFixed(1)} s; kill to new worker ready ${run.down.toFixed(1)} s; `
      + `new worker: ${after} rows in ${(run.total - run.toKill - run.down).toFixed(1)} s (stall detection and resume included)`);
    console.log(`  rows_total ${run.done.rows_total}, rows_done ${run.done.rows_done}: ok ${ok}, invalid ${invalid}, error ${error}, interrupted ${interrupted}; `
      + `job attempts ${check.attempts}`);
    console.log(`  provider calls counted at the simulator ${check.providerCalls} (${run.callsAtKill} before the kill); accounts asked twice ${check.accountsAskedTwice}; `
      + `result CSV ${check.resultRows} rows, each once, in order`);
    console.log(`ratio restart/direct: ${((rows / run.total) / (baseline.rows / baseline.seconds)).toFixed(3)} (rows/s across a worker SIGKILL and restart, against direct calls in this run)`);
    if (check.failures.length > 0) {
      console.log(`restart checks FAILED:\n  ${check.failures.join('\n  ')}`);
      return false;
    }
    console.log('restart checks passed: every row answered exactly once, no account asked twice, only rows in flight at the kill interrupted');
    return true;
  } finally {
    for (const worker of workers) await worker.stop('SIGKILL');
    await env.close();
  }
}

export async function main(args: string[]): Promise<void> {
  const rows = numberArg(args, 'rows', 100_000);
  const lanes = numberArg(args, 'lanes', 8);
  const rounds = roundsArg(args, 1);
  if (args.includes('--restart')) {
    if (!await restart(rows, lanes, undefined)) process.exitCode = 1;
    return;
  }
  let lastBase: Timing | undefined;
  const env = await startBulkEnv();
  try {
    await env.startWorker({ rowConcurrency: lanes });
    console.log(`${rows} rows, ${lanes} lanes (rowConcurrency), ${rounds} alternating round(s); penny-drop simulator, worker and Redis on this machine`);
    // Warm-up of both paths: connections, scripts, JIT.
    await direct(env, accounts(2_000, 1, 9), lanes);
    await bulk(env, accounts(2_000, 2, 9));
    const results: Array<{ base: Timing; sub: Timing }> = [];
    for (let round = 0; round < rounds; round++) {
      const base = await direct(env, accounts(rows, 3, round), lanes);
      const sub = await bulk(env, accounts(rows, 4, round));
      console.log(`round ${round + 1}`);
      console.log(`  ${format('direct verifyAccount loop (baseline)', base)}`);
      console.log(`  ${format('bulk job (submit, upload, rows, result file)', sub)}`);
      results.push({ base, sub });
      lastBase = base;
    }
    const twice = [...env.pennyDrop.callsByAccount().values()].filter((calls) => calls > 1).length;
    if (twice > 0) throw new Error(`${twice} accounts were asked twice`);
    const ratios = results.map(({ base, sub }) => (sub.rows / sub.seconds) / (base.rows / base.seconds));
    const overheads = results.map(({ base, sub }) => (1e6 * (sub.seconds - base.seconds)) / sub.rows);
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    console.log(`ratio bulk/direct: ${median(ratios).toFixed(3)} (rows/s, median of ${rounds}: ${ratios.map((r) => r.toFixed(3)).join(', ')}); `
      + `per-row overhead over a direct call ${median(overheads).toFixed(1)} µs of wall time at ${lanes} lanes`);
    console.log('a bulk row adds: CSV parse of its line, the journal (HSETNX before the call, HSET after), the result line; per');
    console.log('chunk of 100 rows a part file and one commit script; at the end the result file. No account was asked twice.');
  } finally {
    await env.close();
  }
  if (!args.includes('--no-restart') && !await restart(rows, lanes, lastBase)) process.exitCode = 1;
}
