import { expect } from 'chai';
import { PAN_TEST_VALUES as PAN, PENNY_DROP_TEST_ACCOUNTS as PD, PENNY_DROP_TEST_IFSC as IFSC, PENNY_LESS_TEST_ACCOUNTS as PL } from '@satyapan/sandbox';
import { createMetrics } from '@satyapan/core';
import { bulkOwnerOf, resultHeader, type BulkJobView } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from './support/env.js';

/** Unique account numbers the penny-drop simulator answers as invalid accounts (one call each, counted per account). */
function accounts(count: number, seed = 7): string[] {
  return Array.from({ length: count }, (_, i) => `9${seed}${String(i).padStart(9, '0')}`);
}

function cells(line: string): string[] {
  return line.split(',');
}

describe('bulk: verification jobs (service and in-process worker)', function () {
  this.timeout(60_000);
  let env: BulkEnv;
  beforeEach(async () => {
    env = await startBulkEnv();
  });
  afterEach(() => env.close());

  it('runs a penny-drop CSV row by row: answers, bad rows and upstream failures each reported on their own line', async () => {
    await env.startWorker();
    const csv = [
      'reference,ifsc,account_number,name',
      `r1,${IFSC},${PD.valid},Anjali Rao`,
      `r2,${IFSC},${PD.blocked},`,
      'r3,NOTANIFSC,123456789,',
      `r4,${IFSC},,`,
      `r5,${IFSC},12"34,`,
      `r6,${IFSC},${PD.serverError},`,
      '',
      `r7,${IFSC.toLowerCase()},${PD.validSecond},Rahul Verma`,
    ].join('\r\n');
    const job = await env.submitAndUpload('penny_drop', csv);
    expect(job).to.include({ kind: 'penny_drop', status: 'created', rows_done: 0 });
    expect(job.csv_url).to.be.a('string');
    const done = await env.finished(job.job_id);
    expect(done).to.include({ status: 'succeeded', rows_total: 7, rows_done: 7 });
    expect(done.summary).to.deep.equal({ ok: 3, invalid: 3, error: 1, interrupted: 0 });
    const [header, ...rows] = await env.resultLines(done);
    expect(header).to.equal(resultHeader(env.registry.get('penny_drop')!).join(','));
    expect(header).to.equal('line,reference,ifsc,account_number,name,mobile,outcome,code,message,account_exists,name_at_bank,name_match_score,name_match_result,utr,amount_deposited');
    expect(rows).to.have.length(7);
    const byRef = new Map(rows.map((row) => [cells(row)[1], cells(row)]));
    expect(byRef.get('r1')!.slice(0, 11)).to.deep.equal(['2', 'r1', IFSC, PD.valid, 'Anjali Rao', '', 'ok', 'OK', 'Bank Account details verified successfully.', 'true', 'ANJALI RAO']);
    expect(byRef.get('r1')![12]).to.equal('match');
    expect(byRef.get('r1')![14]).to.equal('1');
    expect(byRef.get('r2')!.slice(6, 10)).to.deep.equal(['ok', 'OK', 'Account is blocked', 'true']);
    expect(byRef.get('r3')!.slice(6, 9)).to.deep.equal(['invalid', 'UNPROCESSABLE', 'Invalid IFSC pattern']);
    expect(byRef.get('r4')!.slice(6, 9)).to.deep.equal(['invalid', 'INVALID_FIELD', 'Invalid account_number: must be 1 to 40 characters']);
    // A line that is not CSV echoes nothing (its cells are unknown) but keeps its line number.
    const r5 = cells(rows.find((row) => row.startsWith('6,'))!);
    expect(r5.slice(0, 8)).to.deep.equal(['6', '', '', '', '', '', 'invalid', 'UNPROCESSABLE']);
    expect(rows.find((row) => row.startsWith('6,'))).to.match(/Malformed CSV line: quote inside an unquoted cell/);
    expect(byRef.get('r6')!.slice(6, 9)).to.deep.equal(['error', 'SOURCE_UNAVAILABLE', 'Source Unavailable']);
    // Line numbers are the file's: the blank line 8 is skipped, not renumbered.
    expect(byRef.get('r7')!.slice(0, 3)).to.deep.equal(['9', 'r7', IFSC.toLowerCase()]);
    expect(await env.summaryLines(done)).to.deep.equal([
      'outcome,code,message,rows',
      'ok,OK,Bank Account details verified successfully.,2',
      'error,SOURCE_UNAVAILABLE,Source Unavailable,1',
      'invalid,INVALID_FIELD,Invalid account_number: must be 1 to 40 characters,1',
      'invalid,UNPROCESSABLE,Invalid IFSC pattern,1',
      'invalid,UNPROCESSABLE,Malformed CSV line: quote inside an unquoted cell,1',
      'ok,OK,Account is blocked,1',
    ]);
    // Bad rows never reached the provider; every good row did, once.
    expect(Object.fromEntries(env.pennyDrop.callsByAccount())).to.deep.equal({ [PD.valid]: 1, [PD.blocked]: 1, [PD.serverError]: 1, [PD.validSecond]: 1 });
  });

  it('runs IFSC lookups locally and penny-less checks through their provider', async () => {
    await env.startWorker();
    const ifscJob = await env.submitAndUpload('ifsc', `ifsc\n${IFSC}\nABCD0123456\nshort\n`);
    const ifscDone = await env.finished(ifscJob.job_id);
    expect(ifscDone.summary).to.deep.equal({ ok: 1, invalid: 1, error: 1, interrupted: 0 });
    const ifscRows = (await env.resultLines(ifscDone)).slice(1).map(cells);
    expect(ifscRows[0]!.slice(0, 6)).to.deep.equal(['2', '', IFSC, 'ok', 'OK', '']);
    expect(ifscRows[0]![6]).to.equal('Kotak Mahindra Bank');
    expect(ifscRows[1]!.slice(3, 6)).to.deep.equal(['error', 'IFSC_NOT_FOUND', 'IFSC not found: ABCD0123456']);
    expect(ifscRows[2]!.slice(3, 6)).to.deep.equal(['invalid', 'UNPROCESSABLE', 'Invalid IFSC pattern']);

    const plJob = await env.submitAndUpload('penny_less', `ifsc,account_number\n${IFSC},${PL.individual}\n${IFSC},${PL.invalidAccount}\n`);
    const plDone = await env.finished(plJob.job_id);
    expect(plDone.summary).to.deep.equal({ ok: 2, invalid: 0, error: 0, interrupted: 0 });
    expect(env.pennyLess.requests()).to.equal(2);
  });

  it('runs PAN verification rows through the kyc service: the vendor\'s input rules per row, the provider once per PAN (kyc product)', async () => {
    await env.startWorker();
    const csv = [
      'reference,pan,name_as_per_pan,date_of_birth,consent,reason',
      `p1,${PAN.individual},Anjali Rao,15/08/1990,Y,Onboarding`,
      `p2,${PAN.company},Satyapan Demo Technologies Pvt Ltd,01/04/2015,y,Onboarding`,
      `p3,${PAN.invalid},Someone,01/01/1990,Y,Onboarding`,
      `p4,${PAN.individual},Anjali Rao,15/08/1990,N,Onboarding`,
      'p5,ABCDE1234,Anjali Rao,15/08/1990,Y,Onboarding',
      `p6,${PAN.sourceUnavailable},Anjali Rao,15/08/1990,Y,Onboarding`,
    ].join('\n');
    const done = await env.finished((await env.submitAndUpload('pan', csv)).job_id);
    expect(done.summary).to.deep.equal({ ok: 3, invalid: 2, error: 1, interrupted: 0 });
    const [header, ...rows] = await env.resultLines(done);
    expect(header).to.equal('line,reference,pan,name_as_per_pan,date_of_birth,consent,reason,outcome,code,message,category,status,remarks,name_as_per_pan_match,date_of_birth_match,aadhaar_seeding_status');
    const byRef = new Map(rows.map((row) => [cells(row)[1], cells(row)]));
    expect(byRef.get('p1')!.slice(7)).to.deep.equal(['ok', 'OK', '', 'individual', 'valid', '', 'true', 'true', 'y']);
    expect(byRef.get('p2')!.slice(10, 15)).to.deep.equal(['company', 'valid', '', 'true', 'true']);
    expect(byRef.get('p3')!.slice(7, 12)).to.deep.equal(['ok', 'OK', '', 'individual', 'invalid']);
    expect(byRef.get('p4')!.slice(7, 10)).to.deep.equal(['invalid', 'PAN_CONSENT_REQUIRED', 'Invalid parameter: Consent is required.']);
    expect(byRef.get('p5')!.slice(7, 10)).to.deep.equal(['invalid', 'INVALID_PAN_PATTERN', 'Invalid Pan pattern']);
    expect(byRef.get('p6')!.slice(7, 10)).to.deep.equal(['error', 'SOURCE_UNAVAILABLE', 'Source Unavailable']);
    // Bad rows never reached the provider (the simulator counts the lookups it answered, not its 503s).
    expect(env.pan.requests()).to.equal(3);
    await expectError(env.service.submit({ kind: 'pan' }, { ...CLIENT, products: ['bank'] }), 403, 'Insufficient privilege');
  });

  it('fails the job, not a row, when the file cannot be read as a whole', async () => {
    await env.startWorker();
    const missing = await env.finished((await env.submitAndUpload('penny_drop', `ifsc,name\n${IFSC},A\n`)).job_id);
    expect(missing).to.include({ status: 'failed', message: 'Missing column: account_number' });
    const empty = await env.finished((await env.submitAndUpload('penny_drop', '\n\n')).job_id);
    expect(empty).to.include({ status: 'failed', message: 'The file has no header line' });
    expect(env.pennyDrop.requests()).to.equal(0);
  });

  it('a header-only file succeeds with no rows', async () => {
    await env.startWorker();
    const done = await env.finished((await env.submitAndUpload('ifsc', 'ifsc\n')).job_id);
    expect(done).to.include({ status: 'succeeded', rows_total: 0, rows_done: 0 });
    expect(await env.resultLines(done)).to.have.length(1);
  });

  it('with accept_cache, repeated accounts are asked once (the per-key cache and the single flight)', async () => {
    await env.startWorker({ rowConcurrency: 4 });
    const rows = Array.from({ length: 12 }, () => `${IFSC},${PD.valid}`);
    const done = await env.finished((await env.submitAndUpload('penny_drop', `ifsc,account_number\n${rows.join('\n')}\n`, { acceptCache: true })).job_id);
    expect(done.summary.ok).to.equal(12);
    expect(env.pennyDrop.requests()).to.equal(1);
    expect(env.pennyDrop.deposits()).to.equal(1);
    // Rows answered from the cache say no money moved for them.
    const deposited = (await env.resultLines(done)).slice(1).map((line) => cells(line)[14]);
    expect(deposited.filter((value) => value === '0').length).to.be.at.least(12 - 4);
  });

  it('resumes from its journal: a row with an outcome is not checked again, a row whose paid call was in flight is reported interrupted, never called twice', async () => {
    const list = accounts(250);
    const job = await env.submitAndUpload('penny_drop', `ifsc,account_number\n${list.map((account) => `${IFSC},${account}`).join('\n')}\n`);
    const ref = { owner: bulkOwnerOf(CLIENT.clientId), jobId: job.job_id };
    // What a worker that died in the first chunk leaves behind: one outcome recorded, one call in flight.
    await env.service.store.recordRow(ref, 0, 'ok', `2,,${IFSC},${list[0]},,,ok,OK,from the journal`);
    expect(await env.service.store.markInFlight(ref, 1)).to.equal(true);
    expect(await env.service.store.markInFlight(ref, 1)).to.equal(false);
    // The dead worker had chunks of 200; this one has chunks of 100, and still honours row 130's marker.
    expect(await env.service.store.markInFlight(ref, 130)).to.equal(true);
    await env.startWorker({ chunkSize: 100 });
    const done = await env.finished(job.job_id);
    expect(done.summary).to.deep.equal({ ok: 248, invalid: 0, error: 0, interrupted: 2 });
    const lines = (await env.resultLines(done)).slice(1);
    expect(lines).to.have.length(250);
    expect(lines[0]).to.equal(`2,,${IFSC},${list[0]},,,ok,OK,from the journal`);
    expect(cells(lines[1]!).slice(6, 8)).to.deep.equal(['interrupted', 'BULK_ROW_INTERRUPTED']);
    expect(cells(lines[130]!).slice(0, 8)).to.deep.equal(['132', '', IFSC, list[130], '', '', 'interrupted', 'BULK_ROW_INTERRUPTED']);
    const calls = env.pennyDrop.callsByAccount();
    for (const row of [0, 1, 130]) expect(calls.has(list[row]!), `row ${row} called`).to.equal(false);
    expect([...calls.values()].every((count) => count === 1)).to.equal(true);
    expect(calls.size).to.equal(247);
    // The journal is emptied chunk by chunk; the parts are gone once the result is assembled.
    expect(await env.redis.exists(env.service.keys.journal(ref))).to.equal(0);
  });

  it('a worker shut down mid-job stops between rows and hands the job back; the next one finishes it with no row interrupted and none asked twice', async () => {
    env.pennyDrop.setLatency(5);
    const list = accounts(600, 3);
    const first = await env.startWorker({ chunkSize: 50 });
    const job = await env.submitAndUpload('penny_drop', `ifsc,account_number\n${list.map((account) => `${IFSC},${account}`).join('\n')}\n`);
    for (;;) {
      const view = await env.service.get(CLIENT.clientId, job.job_id);
      if (view.rows_done >= 100) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.close({ timeoutMs: 50 });
    const handedBack = await env.service.get(CLIENT.clientId, job.job_id);
    expect(handedBack.status).to.equal('in_progress');
    expect(handedBack.rows_done).to.be.below(600);
    await env.startWorker({ chunkSize: 50 });
    const done = await env.finished(job.job_id, 60_000);
    expect(done.summary).to.deep.equal({ ok: 600, invalid: 0, error: 0, interrupted: 0 });
    const calls = env.pennyDrop.callsByAccount();
    expect(calls.size).to.equal(600);
    expect([...calls.values()].every((count) => count === 1)).to.equal(true);
  });

  it('counts jobs by state, rows by outcome and runs by ending in the process\'s metrics (issue 24)', async () => {
    await env.close();
    const metrics = createMetrics();
    env = await startBulkEnv({ service: { metrics } });
    await env.startWorker({ metrics });
    const done = await env.finished((await env.submitAndUpload('ifsc', `ifsc\n${IFSC}\nABCD0123456\nshort\n`)).job_id);
    expect(done.summary).to.deep.equal({ ok: 1, invalid: 1, error: 1, interrupted: 0 });
    const failed = await env.finished((await env.submitAndUpload('penny_drop', `ifsc,name\n${IFSC},A\n`)).job_id);
    expect(failed.status).to.equal('failed');
    const text = await metrics.text();
    const value = (series: string): number => {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
      expect(line, `${series} in\n${text}`).not.to.equal(undefined);
      return Number(line!.slice(series.length + 1));
    };
    for (const [state, jobs] of [['created', 2], ['queued', 2], ['in_progress', 2], ['succeeded', 1], ['failed', 1]] as const) {
      expect(value(`satyapan_bulk_jobs_total{state="${state}"}`), state).to.equal(jobs);
    }
    for (const [outcome, rows] of [['ok', 1], ['invalid', 1], ['error', 1], ['interrupted', 0]] as const) {
      expect(value(`satyapan_bulk_rows_total{outcome="${outcome}"}`), outcome).to.equal(rows);
    }
    expect(value('satyapan_bulk_run_duration_seconds_count{outcome="succeeded"}')).to.equal(1);
    expect(value('satyapan_bulk_run_duration_seconds_count{outcome="failed"}')).to.equal(1);
    expect(value('satyapan_queue_jobs{queue="{bulk}",state="waiting"}')).to.equal(0);
    // Closed label sets only: no job id, client or IFSC reaches a series.
    for (const identifying of [done.job_id, failed.job_id, CLIENT.clientId, IFSC, 'ABCD0123456']) expect(text).not.to.include(identifying);
  });

  it('shows progress while it runs and refuses a kind it does not offer or a product the client lacks', async () => {
    env.pennyDrop.setLatency(20);
    await env.startWorker({ chunkSize: 10, rowConcurrency: 2 });
    const job = await env.submitAndUpload('penny_drop', `ifsc,account_number\n${accounts(60).map((a) => `${IFSC},${a}`).join('\n')}\n`);
    const seen = new Set<number>();
    let view: BulkJobView;
    do {
      view = await env.service.get(CLIENT.clientId, job.job_id);
      if (view.status === 'in_progress') seen.add(view.rows_done);
      await new Promise((resolve) => setTimeout(resolve, 30));
    } while (view.status !== 'succeeded');
    expect(view.rows_done).to.equal(60);
    expect([...seen].filter((done) => done > 0 && done < 60).length, 'intermediate progress').to.be.at.least(2);
    await expectError(env.service.submit({ kind: 'pan_aadhaar' }, CLIENT), 422, 'Invalid kind: must be one of penny_drop, penny_less, ifsc, pan');
    await expectError(env.service.submit({ kind: 'ifsc' }, { ...CLIENT, products: ['kyc'] }), 403, 'Insufficient privilege');
    await expectError(env.service.get('another-client', job.job_id), 521, `Data not found: ${job.job_id}`);
  });
});

async function expectError(promise: Promise<unknown>, status: number, message: string): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.include({ status, message });
    return;
  }
  expect.fail('expected an error');
}
