// npm run bench -- bulk [--rows N] [--lanes L] [--rounds R]
// A bulk penny-drop job of N rows (default 100,000) against the penny-drop simulator on loopback, run by a bulk
// worker in this process, against the same check (BankService.verifyAccount, the same cache, single flight and
// provider) called directly in a loop with the same number of lanes, both measured in this run, in alternation.
// Every row has an account of its own, so every row is a provider call; the bench checks afterwards that no
// account was asked twice and that the result file has a line per row.
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { bulkOwnerOf } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from '../packages/bulk/test/support/env.js';
import { roundsArg } from './_http.js';

function numberArg(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

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

export async function main(args: string[]): Promise<void> {
  const rows = numberArg(args, 'rows', 100_000);
  const lanes = numberArg(args, 'lanes', 8);
  const rounds = roundsArg(args, 1);
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
}
