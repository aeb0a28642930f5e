import { expect } from 'chai';
import { isServiceError } from '@satyapan/core';
import type { JobStatus, SearchQuery, StatementJobView, SubmitRequest } from '@satyapan/statement-queue';
import { ownerOf } from '@satyapan/statement-queue';
import { startEnv, type TestEnv } from './support/env.js';

const TANS = ['AHMA09719D', 'BLRC23456G', 'DELA12345E'];
const FORMS = ['24Q', '26Q', '27Q', '140'];
const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
const YEARS = ['FY 2024-25', 'FY 2025-26', 'TY 2026-27'];
// 28 May 2026: every year in YEARS has begun (a job for a year that has not is refused at submit).
const START = 1_780_000_000_000;

interface Made {
  id: string;
  tan: string;
  form: string;
  quarter: string;
  year: string;
  status: JobStatus;
  createdAt: number;
}

/** Walks every page of a search and returns the ids in the order served. */
async function allPages(env: TestEnv, clientId: string, query: SearchQuery): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await env.service.searchJobs('tds', clientId, { ...query, ...(cursor ? { lastEvaluatedKey: cursor } : {}) });
    expect(page['@entity']).to.equal('in.co.service.tds.reports.paginated_list');
    expect(page.items.length).to.be.at.most(query.pageSize ?? 20);
    ids.push(...page.items.map((item: StatementJobView) => item.job_id));
    cursor = page.last_evaluated_key;
    pages += 1;
  } while (cursor && pages < 500);
  return { ids, pages };
}

describe('statement-queue: search', () => {
  let env: TestEnv;
  const made: Made[] = [];

  before(async function () {
    this.timeout(30_000);
    env = await startEnv({ watchUploads: false });
    // 120 jobs over every filter value; several share a millisecond, so ties are paged too.
    for (let i = 0; i < 120; i += 1) {
      env.clock.set(START + Math.floor(i / 3) * 1000);
      const request = {
        domain: 'tds', tan: TANS[i % 3], form: FORMS[i % 4], quarter: QUARTERS[(i >> 2) % 4], financialYear: YEARS[i % 3],
      } as SubmitRequest;
      const job = await env.service.submitJob(request, { clientId: 'client-a' });
      let status: JobStatus = 'created';
      const ref = { owner: ownerOf('client-a'), jobId: job.job_id };
      if (i % 5 >= 1) status = (await env.service.store.transition(ref, 'tds', 'queued', env.clock.now())).record.status;
      if (i % 5 >= 2) status = (await env.service.store.transition(ref, 'tds', 'in_progress', env.clock.now())).record.status;
      if (i % 5 >= 3) {
        status = (await env.service.store.transition(ref, 'tds', i % 5 === 3 ? 'succeeded' : 'failed', env.clock.now(), i % 5 === 4 ? { message: 'Validation error' } : {})).record.status;
      }
      made.push({ id: job.job_id, tan: request.tan, form: request.form as string, quarter: request.quarter, year: request.financialYear, status, createdAt: START + Math.floor(i / 3) * 1000 });
    }
    // Jobs of another client and TCS jobs of the same client must never show up.
    await env.service.submitJob({ domain: 'tds', tan: 'AHMA09719D', form: '26Q', quarter: 'Q1', financialYear: 'FY 2025-26' }, { clientId: 'client-b' });
    await env.service.submitJob({ domain: 'tcs', tan: 'AHMA09719D', quarter: 'Q1', financialYear: 'FY 2025-26' }, { clientId: 'client-a' });
  });
  after(() => env.close());

  /** The expected answer: newest first, ties by job id descending (the index order). */
  function expected(filter: (job: Made) => boolean): string[] {
    return made.filter(filter).sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((job) => job.id);
  }

  it('pages through all 120 jobs newest first, 20 per page by default, without repeats or gaps', async () => {
    const { ids, pages } = await allPages(env, 'client-a', {});
    expect(ids).to.deep.equal(expected(() => true));
    expect(pages).to.be.within(6, 7);
  });

  for (const pageSize of [1, 7, 50]) {
    it(`pages correctly with page_size ${pageSize}`, async () => {
      expect((await allPages(env, 'client-a', { pageSize })).ids).to.deep.equal(expected(() => true));
    });
  }

  it('filters by every field, alone and combined', async () => {
    const cases: Array<[SearchQuery, (job: Made) => boolean]> = [
      [{ tan: 'BLRC23456G' }, (j) => j.tan === 'BLRC23456G'],
      [{ form: '24Q' }, (j) => j.form === '24Q'],
      // Both names of a form find the same jobs.
      [{ form: '26Q' }, (j) => j.form === '26Q' || j.form === '140'],
      [{ form: '140' }, (j) => j.form === '26Q' || j.form === '140'],
      [{ quarter: 'Q2' }, (j) => j.quarter === 'Q2'],
      [{ financialYear: 'FY 2024-25' }, (j) => j.year === 'FY 2024-25'],
      [{ financialYear: 'FY 2026-27' }, (j) => j.year === 'TY 2026-27'],
      [{ status: 'failed' }, (j) => j.status === 'failed'],
      [{ status: 'created' }, (j) => j.status === 'created'],
      [{ fromDate: START + 10_000, toDate: START + 20_000 }, (j) => j.createdAt >= START + 10_000 && j.createdAt <= START + 20_000],
      [{ toDate: START + 5_000 }, (j) => j.createdAt <= START + 5_000],
      [{ tan: 'AHMA09719D', quarter: 'Q1', status: 'queued' }, (j) => j.tan === 'AHMA09719D' && j.quarter === 'Q1' && j.status === 'queued'],
      [{ form: '27Q', financialYear: 'FY 2025-26', fromDate: START + 3_000 }, (j) => j.form === '27Q' && j.year === 'FY 2025-26' && j.createdAt >= START + 3_000],
      [{ tan: 'DELA12345E', form: '24Q' }, (j) => j.tan === 'DELA12345E' && j.form === '24Q'],
      [{ tan: 'AHMA09719D', financialYear: 'FY 2025-26' }, () => false],
    ];
    for (const [query, filter] of cases) {
      const want = expected(filter);
      expect((await allPages(env, 'client-a', { ...query, pageSize: 4 })).ids, JSON.stringify(query)).to.deep.equal(want);
    }
  });

  it('shows failed jobs with their message and no URLs', async () => {
    const page = await env.service.searchJobs('tds', 'client-a', { status: 'failed', pageSize: 1 });
    expect(page.items[0]).to.include({ status: 'failed', message: 'Validation error' });
    expect(page.items[0]).not.to.have.any.keys('txt_url', 'validation_report_url', 'json_url');
  });

  it('keeps later pages stable while new jobs arrive', async () => {
    const first = await env.service.searchJobs('tds', 'client-a', { pageSize: 10 });
    env.clock.set(START + 999_000);
    const newer = await env.service.submitJob({ domain: 'tds', tan: 'AHMA09719D', form: '26Q', quarter: 'Q1', financialYear: 'FY 2025-26' }, { clientId: 'client-a' });
    try {
      const second = await env.service.searchJobs('tds', 'client-a', { pageSize: 10, lastEvaluatedKey: first.last_evaluated_key as string });
      expect(second.items.map((item) => item.job_id)).to.deep.equal(expected(() => true).slice(10, 20));
    } finally {
      made.push({ id: newer.job_id, tan: 'AHMA09719D', form: '26Q', quarter: 'Q1', year: 'FY 2025-26', status: 'created', createdAt: START + 999_000 });
    }
  });

  it('returns only the caller\'s own jobs and refuses a cursor made for another client, another domain, or altered', async () => {
    const other = await env.service.searchJobs('tds', 'client-b', {});
    expect(other.items).to.have.length(1);
    expect(made.map((job) => job.id)).not.to.include(other.items[0]?.job_id);
    const tcs = await env.service.searchJobs('tcs', 'client-a', {});
    expect(tcs.items).to.have.length(1);
    expect(tcs['@entity']).to.equal('in.co.service.tcs.reports.paginated_list');

    const cursor = (await env.service.searchJobs('tds', 'client-a', { pageSize: 2 })).last_evaluated_key as string;
    const altered = cursor.slice(0, -4) + (cursor.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const [domain, client, key] of [['tds', 'client-b', cursor], ['tcs', 'client-a', cursor], ['tds', 'client-a', altered], ['tds', 'client-a', 'eyJub3QiOiJhIGN1cnNvciJ9']] as const) {
      const error = await env.service.searchJobs(domain, client, { lastEvaluatedKey: key }).then(() => null, (e: unknown) => e);
      expect(isServiceError(error) && error.status, `${domain} ${client}`).to.equal(422);
      expect((error as Error).message).to.equal('Invalid last_evaluated_key: not a cursor of a previous search');
    }
  });

  it('refuses an impossible date range and a financial year that is not one', async () => {
    const range = await env.service.searchJobs('tds', 'client-a', { fromDate: 10, toDate: 5 }).catch((e: unknown) => e);
    expect(range).to.include({ status: 422 });
    const year = await env.service.searchJobs('tds', 'client-a', { financialYear: 'FY 2022-2' }).catch((e: unknown) => e);
    expect(year).to.include({ status: 422, message: 'Invalid financial year: FY 2022-2' });
  });
});
