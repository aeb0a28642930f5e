// The per-client cap of statement jobs waiting or running (issue 22, fairness): one client cannot fill the
// statement queue; another client is not held up; a job that ends, or whose upload URL has lapsed, frees a place.
import { expect } from 'chai';
import { ownerOf } from '@satyapan/statement-queue';
import { TCS_REQUEST, TDS_REQUEST, rejection, startEnv, type TestEnv } from './support/env.js';


describe('statement-queue: per-client cap of jobs waiting or running', () => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await startEnv({ maxJobsPerClient: 3, watchUploads: false });
  });
  afterEach(() => env.close());

  it('refuses a submit past the cap with a 429 naming it, counting TDS and TCS together; other clients go on', async () => {
    const client = { clientId: 'busy-client' };
    const first = await env.service.submitJob(TDS_REQUEST, client);
    await env.service.submitJob(TCS_REQUEST, client);
    await env.service.submitJob(TDS_REQUEST, client);
    expect(await rejection(env.service.submitJob(TCS_REQUEST, client))).to.deep.equal({
      status: 429, code: 'STATEMENT_JOBS_LIMIT', message: 'This client already has 3 statement jobs waiting or running; the limit is 3',
    });
    await env.service.submitJob(TDS_REQUEST, { clientId: 'quiet-client' });
    // Queued and running jobs still count; one that ended does not.
    const ref = { owner: ownerOf(client.clientId), jobId: first.job_id };
    await env.service.store.transition(ref, 'tds', 'queued', env.clock.now());
    await env.service.store.transition(ref, 'tds', 'in_progress', env.clock.now());
    expect((await rejection(env.service.submitJob(TDS_REQUEST, client))).status).to.equal(429);
    await env.service.store.transition(ref, 'tds', 'failed', env.clock.now(), { message: 'Validation error' });
    await env.service.submitJob(TDS_REQUEST, client);
  });

  it('stops counting a created job once its upload URL has lapsed (it can no longer be queued)', async () => {
    const client = { clientId: 'forgetful-client' };
    for (let i = 0; i < 3; i++) await env.service.submitJob(TDS_REQUEST, client);
    expect((await rejection(env.service.submitJob(TDS_REQUEST, client))).code).to.equal('STATEMENT_JOBS_LIMIT');
    env.clock.set(env.clock.now() + 24 * 3600 * 1000 + 1);
    await env.service.submitJob(TDS_REQUEST, client);
  });
});

describe('statement-queue: a search cursor or bound that is not ours', () => {
  let env: TestEnv;
  before(async () => {
    env = await startEnv({ watchUploads: false });
  });
  after(() => env.close());

  it('answers a numeric cursor (issue 22: the bulk list\'s was a 500) with the error naming last_evaluated_key, and huge date bounds with an empty page', async () => {
    await env.service.submitJob(TDS_REQUEST, { clientId: 'searcher' });
    expect(await rejection(env.service.searchJobs('tds', 'searcher', { lastEvaluatedKey: '99999999999999999999' }))).to.deep.equal({
      status: 422, code: 'INVALID_FIELD', message: 'Invalid last_evaluated_key: not a cursor of a previous search',
    });
    const page = await env.service.searchJobs('tds', 'searcher', { fromDate: Number.MAX_SAFE_INTEGER, toDate: Number.MAX_SAFE_INTEGER });
    expect(page.items).to.deep.equal([]);
  });
});
