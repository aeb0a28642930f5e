import { expect } from 'chai';
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { BULK_DEFAULTS } from '@satyapan/bulk';
import { startBulkEnv, type BulkEnv } from './support/env.js';

function csvOf(count: number, seed: number): string {
  return `ifsc,account_number\n${Array.from({ length: count }, (_, i) => `${IFSC},8${seed}${String(i).padStart(9, '0')}`).join('\n')}\n`;
}

describe('bulk: upstream rate limits', function () {
  this.timeout(60_000);
  let env: BulkEnv;
  // The simulated provider allows 5 verifications per second and answers 429 past that.
  beforeEach(async () => {
    env = await startBulkEnv({ pennyDrop: { rateLimit: { requests: 5, perMs: 1_000 } } });
  });
  afterEach(() => env.close());

  it('paces the calls of two workers together under the provider\'s limit: no call is refused', async () => {
    // Under the provider's 5/s: calls leave on schedule but reach it with the network's jitter.
    await env.startWorker({ rateLimits: { penny_drop: 4 }, rowConcurrency: 8 });
    await env.startWorker({ rateLimits: { penny_drop: 4 }, rowConcurrency: 8 });
    const started = Date.now();
    const jobs = await Promise.all([env.submitAndUpload('penny_drop', csvOf(10, 1)), env.submitAndUpload('penny_drop', csvOf(10, 2))]);
    const done = await Promise.all(jobs.map((job) => env.finished(job.job_id, 30_000)));
    const elapsed = Date.now() - started;
    for (const view of done) expect(view.summary).to.deep.equal({ ok: 10, invalid: 0, error: 0, interrupted: 0 });
    expect(env.pennyDrop.rateLimited(), 'calls the provider refused').to.equal(0);
    expect(env.pennyDrop.requests()).to.equal(20);
    // 20 calls at 4 per second: the last one starts 4.75 s after the first.
    expect(elapsed).to.be.at.least(4_500);
  });

  it('paces by default: a worker given no rates calls a penny-drop provider at BULK_DEFAULTS (5/s), every paced upstream has a finite default', async () => {
    expect(Object.entries(BULK_DEFAULTS.rateLimits).map(([upstream, rate]) => [upstream, Number.isFinite(rate) && rate > 0])).to.deep.equal(
      ['penny_drop', 'penny_less', 'pan_verification', 'pan_aadhaar_link'].map((upstream) => [upstream, true]),
    );
    // The test env turns pacing off unless told; `undefined` leaves the worker its own defaults.
    await env.startWorker({ rateLimits: undefined, rowConcurrency: 8, rateLimitRetries: 5 });
    const started = Date.now();
    const done = await env.finished((await env.submitAndUpload('penny_drop', csvOf(12, 4))).job_id, 30_000);
    const elapsed = Date.now() - started;
    expect(done.summary).to.deep.equal({ ok: 12, invalid: 0, error: 0, interrupted: 0 });
    // 12 calls at 5 per second: the last one leaves 2.2 s after the first. Unpaced, all 12 would leave at once and
    // the provider (5/s) would refuse 7 of them; paced, at most a call that jitter brings inside its window.
    expect(elapsed).to.be.at.least(2_000);
    expect(env.pennyDrop.rateLimited(), 'calls the provider refused').to.be.below(4);
  });

  it('without a configured rate, rows the provider refuses with 429 are tried again after its Retry-After, not reported failed', async () => {
    await env.startWorker({ rowConcurrency: 8, rateLimitRetries: 5 });
    const done = await env.finished((await env.submitAndUpload('penny_drop', csvOf(12, 3))).job_id, 30_000);
    expect(done.summary).to.deep.equal({ ok: 12, invalid: 0, error: 0, interrupted: 0 });
    expect(env.pennyDrop.rateLimited(), 'the control: the provider did refuse calls').to.be.greaterThan(0);
    // A refused call was not charged; each account was answered exactly once.
    expect([...env.pennyDrop.callsByAccount().values()].every((calls) => calls === 1)).to.equal(true);
    expect(env.pennyDrop.callsByAccount().size).to.equal(12);
  });

  it('reports a row the provider keeps refusing as an error once its tries are used up', async () => {
    await env.startWorker({ rowConcurrency: 1, rateLimitRetries: 1 });
    const done = await env.finished((await env.submitAndUpload('penny_drop', `ifsc,account_number\n${IFSC},100200300433\n`)).job_id, 30_000);
    expect(done.summary).to.deep.equal({ ok: 0, invalid: 0, error: 1, interrupted: 0 });
    const [, row] = await env.resultLines(done);
    expect(row).to.contain(',error,TOO_MANY_REQUESTS,Too Many Requests,');
  });
});
