import { expect } from 'chai';
import { startBulkEnv, type BulkEnv } from '../packages/bulk/test/support/env.js';
import { type ProgramProcess } from './support/spawn-program.js';
import { checkExactlyOnce, pennyDropCsv, runThroughRestart } from './support/bulk-worker-process.js';

const ROWS = 4_000;
const ROW_CONCURRENCY = 8;

/** Unique accounts: the simulator answers each (as an invalid account) and counts the calls per account. */
function accountAt(i: number): string {
  return `7${String(i).padStart(11, '0')}`;
}

describe('bulk: a worker process killed with SIGKILL in the middle of a job', function () {
  this.timeout(180_000);
  let env: BulkEnv;
  const workers: ProgramProcess[] = [];
  before(async () => {
    // A little latency per call, so that the kill lands with calls in flight, as it would in production.
    env = await startBulkEnv({ pennyDrop: { latencyMs: 2 } });
  });
  after(async () => {
    for (const worker of workers) await worker.stop('SIGKILL');
    await env.close();
  });

  it('resumes where it stopped in a new worker: every row answered, no account asked twice (exactly once through the restart)', async () => {
    // Killed a good way in, with chunks committed and calls in flight; a second worker process finishes the job.
    const { atKill, callsAtKill, done } = await runThroughRestart(env, pennyDropCsv(ROWS, accountAt), {
      killAtRows: ROWS / 4, rowConcurrency: ROW_CONCURRENCY, timeoutMs: 120_000, workers,
    });
    expect(atKill.status).to.equal('in_progress');
    expect(atKill.rows_done).to.be.within(1, ROWS - 1);
    // Succeeded with every row; only rows in flight at the kill interrupted; by the simulator's count no account
    // asked twice and every ok row's once; the result has each row once, in order; the job ran twice.
    const check = await checkExactlyOnce(env, done, ROWS, accountAt, ROW_CONCURRENCY);
    expect(check.failures).to.deep.equal([]);
    expect(check.resultRows).to.equal(ROWS);
    expect(env.pennyDrop.requests()).to.be.greaterThan(callsAtKill);
    await workers.at(-1)?.stop('SIGTERM');
  });
});
