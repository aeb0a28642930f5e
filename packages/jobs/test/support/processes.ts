// The child processes of the test process (Linux /proc), for the tests that kill a conversion or generation
// process under its job: which ones run an entry, how much CPU one has spent, and when one is idle or busy. And
// deadlines for whatever a test waits on a child process for, which follow the machine's load.

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** The most a deadline is stretched by: a process that hangs still fails its test within a few minutes. */
const MAX_LOAD_FACTOR = 5;

/**
 * How many times slower than on an idle machine a process runs now: the runnable processes per core, from 1 up to
 * MAX_LOAD_FACTOR. That is the larger of the one-minute load average and the processes runnable this instant
 * (/proc/loadavg, less the one reading it), which is there at once when a load starts; the average lags a minute.
 */
export function loadFactor(): number {
  let now = 0;
  try {
    now = Number(readFileSync('/proc/loadavg', 'latin1').split(' ')[3]?.split('/')[0]) - 1;
  } catch {
    // not Linux: the load average alone
  }
  const runnable = Math.max(loadavg()[0] ?? 0, Number.isFinite(now) ? now : 0);
  return Math.min(MAX_LOAD_FACTOR, Math.max(1, runnable / availableParallelism()));
}

/**
 * A wall-clock deadline for what a child process does (start, print a line, finish a job): `ms`, which is enough
 * on an idle machine, times loadFactor(). Read it when the wait starts, not when the file loads.
 */
export function loadScaled(ms: number): number {
  return Math.round(ms * loadFactor());
}

/**
 * A test's mocha timeout times loadFactor(), as the test starts (never a disabled, 0, timeout): the root hook
 * test/support/load-timeouts.ts does it for every test of both mocha runs. A `before` or `after` hook that waits on
 * a process scales its own: `this.timeout(loadScaled(ms))` as it starts.
 */
export function timeoutFollowsLoad(test: Mocha.Test | undefined): void {
  if (test && test.timeout() > 0) test.timeout(loadScaled(test.timeout()));
}

/** CPU time a process has spent (user + system, in clock ticks). */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').replace(/^.*\) /, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** This process's children whose command line names `entry` (e.g. 'conversion/child.'). */
export function childPids(entry: string): number[] {
  const text = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim();
  const pids = text === '' ? [] : text.split(/\s+/).map(Number);
  return pids.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(entry));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one child running `entry`, once it is idle (no CPU spent for 300 ms). A worker starts its process ahead of
 * the first job and loading the code costs CPU too: only after that does CPU spent mean the job's work. Both waits
 * here give up after `timeoutMs` times the load (loadScaled).
 */
export async function idleChild(entry: string, timeoutMs = 30_000): Promise<number> {
  const limit = loadScaled(timeoutMs);
  for (const deadline = Date.now() + limit; Date.now() < deadline; await sleep(10)) {
    const pids = childPids(entry);
    if (pids.length !== 1) continue;
    const before = cpuTicks(pids[0]!);
    await sleep(300);
    if (cpuTicks(pids[0]!) === before) return pids[0]!;
  }
  throw new Error(`No idle child running ${entry} within ${limit} ms`);
}

/** Resolves once `pid` has spent `ticks` more CPU than `since`: it is working on a job. */
export async function busySince(pid: number, since: number, ticks = 10, timeoutMs = 30_000): Promise<void> {
  const limit = loadScaled(timeoutMs);
  for (const deadline = Date.now() + limit; Date.now() < deadline; await sleep(10)) {
    if (cpuTicks(pid) - since >= ticks) return;
  }
  throw new Error(`Process ${pid} spent under ${ticks} ticks within ${limit} ms`);
}
