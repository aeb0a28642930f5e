import { expect } from 'chai';
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { bulkOwnerOf } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from '../packages/bulk/test/support/env.js';
import { PROGRAMS, spawnProgram, type ProgramProcess } from './support/spawn-program.js';

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

  function spawnWorker(): ProgramProcess {
    const worker = spawnProgram(PROGRAMS.worker, {
      SATYAPAN_KEY_PREFIX: env.keyPrefix,
      SATYAPAN_SEALING_KEYS: `k1:${env.sealingKey}`,
      SATYAPAN_DATA_DIR: env.dataDir,
      SATYAPAN_STORAGE_SECRET: 'bulk-test-secret',
      SATYAPAN_STORAGE_URL: 'http://127.0.0.1:9/storage',
      SATYAPAN_PENNY_DROP_URL: `${env.pennyDrop.url}/verification`,
      SATYAPAN_PENNY_DROP_CLIENT_ID: env.pennyDrop.clientId,
      SATYAPAN_PENNY_DROP_CLIENT_SECRET: env.pennyDrop.clientSecret,
      SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET: env.cacheKeySecret,
      SATYAPAN_BULK_ROW_CONCURRENCY: String(ROW_CONCURRENCY),
      // Short locks, so the dead worker's job is found stalled within seconds.
      SATYAPAN_LOCK_DURATION_MS: '2000',
      SATYAPAN_STALLED_INTERVAL_MS: '1000',
      SATYAPAN_SWEEP_INTERVAL_MS: '500',
      LOG_LEVEL: 'warn',
    });
    workers.push(worker);
    return worker;
  }

  it('resumes where it stopped in a new worker: every row answered, no account asked twice (exactly once through the restart)', async () => {
    const first = spawnWorker();
    await first.waitFor(/bulk worker ready \(kinds penny_drop/);
    const csv = `reference,ifsc,account_number\n${Array.from({ length: ROWS }, (_, i) => `row-${i},${IFSC},${accountAt(i)}`).join('\n')}\n`;
    const job = await env.submitAndUpload('penny_drop', csv);
    const poll = () => env.service.get(CLIENT.clientId, job.job_id);
    // Killed a good way in, with chunks committed and calls in flight.
    for (;;) {
      const view = await poll();
      if (view.rows_done >= ROWS / 4) break;
      if (view.status === 'succeeded') expect.fail('the job finished before the kill; make it bigger');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await first.stop('SIGKILL');
    const atKill = await poll();
    const callsAtKill = env.pennyDrop.requests();
    expect(atKill.status).to.equal('in_progress');
    expect(atKill.rows_done).to.be.within(1, ROWS - 1);

    const second = spawnWorker();
    await second.waitFor(/bulk worker ready/);
    let done = await poll();
    const deadline = Date.now() + 120_000;
    while (done.status !== 'succeeded' && done.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = await poll();
    }
    expect(done.status).to.equal('succeeded');
    expect(done).to.include({ rows_total: ROWS, rows_done: ROWS });
    const { ok, invalid, error, interrupted } = done.summary;
    expect(invalid + error).to.equal(0);
    expect(ok + interrupted).to.equal(ROWS);
    // Only rows whose paid call was in flight at the kill can be interrupted: at most one per lane.
    expect(interrupted).to.be.at.most(ROW_CONCURRENCY);

    // The sandbox's own count: no account was asked about twice, and every answered row was asked once.
    const calls = env.pennyDrop.callsByAccount();
    expect([...calls.entries()].filter(([, count]) => count > 1), 'accounts asked twice').to.deep.equal([]);
    const lines = (await env.resultLines(done)).slice(1);
    expect(lines).to.have.length(ROWS);
    lines.forEach((line, i) => {
      const cells = line.split(',');
      expect(cells.slice(0, 4), `line ${i + 2}`).to.deep.equal([String(i + 2), `row-${i}`, IFSC, accountAt(i)]);
      if (cells[6] === 'ok') expect(calls.get(accountAt(i)), `calls for row ${i}`).to.equal(1);
      else expect(cells[6]).to.equal('interrupted');
    });
    // Interrupted rows were called at most once (their answer was lost with the worker); nothing more.
    expect(env.pennyDrop.requests()).to.be.within(ROWS - interrupted, ROWS);
    expect(env.pennyDrop.requests()).to.be.greaterThan(callsAtKill);
    const record = await env.service.store.get({ owner: bulkOwnerOf(CLIENT.clientId), jobId: job.job_id });
    expect(record?.attempts).to.equal(2);
    await second.stop('SIGTERM');
  });
});
