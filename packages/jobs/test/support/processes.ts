// The child processes of the test process (Linux /proc), for the tests that kill a conversion or generation
// process under its job: which ones run an entry, how much CPU one has spent, and when one is idle or busy.

import { readFileSync } from 'node:fs';

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
 * the first job and loading the code costs CPU too: only after that does CPU spent mean the job's work.
 */
export async function idleChild(entry: string, timeoutMs = 30_000): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(10)) {
    const pids = childPids(entry);
    if (pids.length !== 1) continue;
    const before = cpuTicks(pids[0]!);
    await sleep(300);
    if (cpuTicks(pids[0]!) === before) return pids[0]!;
  }
  throw new Error(`No idle child running ${entry} within ${timeoutMs} ms`);
}

/** Resolves once `pid` has spent `ticks` more CPU than `since`: it is working on a job. */
export async function busySince(pid: number, since: number, ticks = 10, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(10)) {
    if (cpuTicks(pid) - since >= ticks) return;
  }
  throw new Error(`Process ${pid} spent under ${ticks} ticks within ${timeoutMs} ms`);
}
