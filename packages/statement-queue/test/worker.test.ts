import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { createLogger, createRedisConnection, readAll, waitForRedis, type RedisConnection } from '@satyapan/core';
import { convert, correct, sheetJsonToXlsx } from '@satyapan/statement-engine';
import { bombXlsx, worksheet } from '../../statement-engine/test/support/bombs.js';
import { writeConso } from '../../statement-engine/test/support/conso.js';
import {
  SCRATCH_ROOT, ScratchSpace, createStatementWorker, ownerOf, storageKeys,
  type JobRef, type StatementJobView, type StatementWorker, type StatementWorkerOptions,
} from '@satyapan/statement-queue';
import { TCS_REQUEST, bullJobWhen, eventually, startEnv, type TestEnv } from './support/env.js';
import { workerRig } from './support/workers.js';
import { csiFor, workbook26Q, workbook27EQ } from './support/workbooks.js';

const TDS_Q2 = { domain: 'tds', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26' } as const;
const TCS_Q3 = { ...TCS_REQUEST, tan: 'PNEG01234C', quarter: 'Q3' } as const;
const CLIENT = { clientId: 'client-w' };

describe('statement-queue: the worker', function () {
  this.timeout(30_000);
  const rig = workerRig('statement-worker-test');
  let env: TestEnv;
  before(() => {
    env = rig.env;
  });
  const startWorker = (overrides: Partial<StatementWorkerOptions> = {}): Promise<StatementWorker> => rig.start(overrides);

  async function submitAndUpload(body: string | object, request: typeof TDS_Q2 | typeof TCS_Q3 = TDS_Q2): Promise<StatementJobView> {
    const job = await env.service.submitJob(request, CLIENT);
    await env.upload(job.json_url as string, typeof body === 'string' ? body : JSON.stringify(body));
    return job;
  }

  async function finished(job: StatementJobView, domain: 'tds' | 'tcs' = 'tds'): Promise<StatementJobView> {
    return eventually(async () => {
      const polled = await env.service.getJob(domain, CLIENT.clientId, job.job_id);
      return polled.status === 'succeeded' || polled.status === 'failed' ? polled : null;
    }, 20_000);
  }

  async function stored(key: string): Promise<Buffer> {
    return readAll(await env.storage.get(key));
  }

  function refOf(job: StatementJobView): JobRef {
    return { owner: ownerOf(CLIENT.clientId), jobId: job.job_id };
  }

  it('converts an uploaded workbook in a conversion process: succeeded, with the engine\'s TXT for the job\'s date', async () => {
    await startWorker();
    const workbook = workbook26Q({ rows: 25 });
    const job = await submitAndUpload(workbook);
    const done = await finished(job);
    expect(done.status).to.equal('succeeded');
    expect(done.txt_url).to.match(/statement\.txt\?/);
    expect(new URL(done.txt_url as string).searchParams.get('X-Download-Name')).to.equal('26Q.txt');
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect((await stored(storageKeys.txt(refOf(job)))).toString('utf8')).to.equal(expected.txt);
    expect(JSON.parse((await stored(storageKeys.reportJson(refOf(job)))).toString('utf8'))).to.deep.equal(expected.report);
    // A clean report: the count and the JSON, but no .xlsx (it is made only when there is something to show).
    expect(done.warnings_count).to.equal(0);
    expect(done.validation_report_json_url).to.match(/report\.json\?/);
    expect(done).not.to.have.property('validation_report_url');
    expect(await env.storage.exists(storageKeys.reportXlsx(refOf(job)))).to.equal(false);
  });

  it('shows a succeeded job\'s warnings: their count and the report as .xlsx and JSON', async () => {
    await startWorker();
    const job = await submitAndUpload(workbook26Q({ rows: 5, lowerCasePanRows: [0, 3] }));
    const done = await finished(job);
    expect(done.status).to.equal('succeeded');
    expect(done.txt_url).to.be.a('string');
    const report = JSON.parse((await stored(storageKeys.reportJson(refOf(job)))).toString('utf8')) as { warningCount: number; problems: Array<{ code: string; row: number }> };
    expect(report.problems.filter((p) => p.code === 'IDENTIFIER_UPPERCASED').map((p) => p.row)).to.deep.equal([2, 5]);
    expect(done.warnings_count).to.equal(report.warningCount).and.to.be.at.least(2);
    expect(done.validation_report_url).to.match(/report\.xlsx\?/);
    expect(new URL(done.validation_report_url as string).searchParams.get('X-Download-Name')).to.equal(`${job.job_id}_validation_report.xlsx`);
    expect(new URL(done.validation_report_json_url as string).searchParams.get('X-Download-Name')).to.equal(`${job.job_id}_validation_report.json`);
    expect((await stored(storageKeys.reportXlsx(refOf(job)))).subarray(0, 2).toString('latin1')).to.equal('PK');
    // Search items carry the count (a scalar like `message`), never URLs.
    const page = await env.service.searchJobs('tds', CLIENT.clientId, { tan: TDS_Q2.tan, status: 'succeeded' });
    const item = page.items.find((each) => each.job_id === job.job_id);
    expect(item).to.include({ warnings_count: done.warnings_count });
    expect(item).not.to.have.any.keys('validation_report_url', 'validation_report_json_url');
  });

  it('logs one line per run of a job: start, end, outcome and duration, nothing of the workbook', async () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => { written += chunk.toString(); });
    await startWorker({ conversion: 'inline', logger: createLogger({ stream: sink }) });
    const job = await submitAndUpload(workbook26Q({ rows: 3 }));
    expect((await finished(job)).status).to.equal('succeeded');
    const runs = await eventually(async () => {
      const lines = written.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
      const found = lines.filter((line) => line['message'] === 'statement job run' && line['job_id'] === job.job_id);
      return found.length > 0 ? found : null;
    });
    expect(runs).to.have.length(1);
    expect(runs[0]).to.include({ level: 'info', form: '26Q', attempt: 1, outcome: 'succeeded' });
    expect(runs[0]!['duration_ms']).to.be.a('number');
    expect(Date.parse(String(runs[0]!['ended_at']))).to.be.at.least(Date.parse(String(runs[0]!['started_at'])));
    expect(written).not.to.include('PNEG01234C');
  });

  it('converts TCS jobs as 27EQ', async () => {
    await startWorker({ conversion: 'inline' });
    const workbook = workbook27EQ({ rows: 4 });
    const job = await submitAndUpload(workbook, TCS_Q3);
    const done = await finished(job, 'tcs');
    expect(done.status).to.equal('succeeded');
    const expected = convert(workbook, { form: '27EQ', quarter: 'Q3', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect((await stored(storageKeys.txt(refOf(job)))).toString('utf8')).to.equal(expected.txt);
  });

  it('fails a workbook with errors once, with a report that names the rows, and writes no TXT', async () => {
    await startWorker();
    const job = await submitAndUpload(workbook26Q({ rows: 6, badPanRows: [1, 4] }));
    const done = await finished(job);
    expect(done).to.include({ status: 'failed', message: 'Validation error' });
    expect(done.validation_report_url).to.match(/report\.xlsx\?/);
    expect(done.validation_report_json_url).to.match(/report\.json\?/);
    expect(done).not.to.have.property('warnings_count');
    const report = JSON.parse((await stored(storageKeys.reportJson(refOf(job)))).toString('utf8')) as { problems: Array<{ sheet: string; row: number; code: string }> };
    expect(report.problems.filter((p) => p.code === 'INVALID_PAN').map((p) => [p.sheet, p.row])).to.deep.equal([['payee_sheet', 3], ['payee_sheet', 6]]);
    expect(await env.storage.exists(storageKeys.txt(refOf(job)))).to.equal(false);
    expect((await stored(storageKeys.reportXlsx(refOf(job)))).subarray(0, 2).toString('latin1')).to.equal('PK');
    // The record is final a moment before BullMQ records the job as completed.
    const bull = await bullJobWhen(env.service.queue, job.job_id, 'completed');
    expect(bull?.attemptsMade).to.equal(1);
  });

  it('writes the previous receipt number of a regular statement in BH 9, with BH 52 = Y', async () => {
    await startWorker({ conversion: 'inline' });
    const job = await env.service.submitJob({ ...TDS_Q2, previousReceiptNumber: '010010200083251' }, CLIENT);
    const workbook = workbook26Q();
    await env.upload(job.json_url as string, JSON.stringify(workbook));
    const done = await finished(job);
    expect(done).to.include({ status: 'succeeded', previous_receipt_number: '010010200083251' });
    const txt = (await stored(storageKeys.txt(refOf(job)))).toString('utf8');
    const bh = txt.split('\r\n')[1]!.split('^');
    expect([bh[1], bh[8], bh[51]], 'BH fields 2, 9, 52').to.deep.equal(['BH', '010010200083251', 'Y']);
    const expected = convert(workbook, {
      form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', previousReceiptNumber: '010010200083251', now: () => new Date(job.created_at),
    });
    expect(txt).to.equal(expected.txt);
  });

  it('converts an .xlsx workbook uploaded to json_url (recognised by its bytes): the TXT of the same JSON workbook', async () => {
    await startWorker({ conversion: 'inline' });
    const workbook = workbook26Q({ rows: 3 });
    const xlsx = Buffer.from(await sheetJsonToXlsx(workbook).xlsx.writeBuffer());
    const job = await env.service.submitJob(TDS_Q2, CLIENT);
    await env.upload(job.json_url as string, xlsx);
    const done = await finished(job);
    expect(done.status).to.equal('succeeded');
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect((await stored(storageKeys.txt(refOf(job)))).toString('utf8')).to.equal(expected.txt);
  });

  it('a job with csi: true gets a csi_url, waits for both uploads, and checks the statement against the CSI file', async () => {
    await startWorker({ conversion: 'inline' });
    const workbook = workbook26Q({ rows: 4 });
    const job = await env.service.submitJob({ ...TDS_Q2, csi: true }, CLIENT);
    expect(job).to.include({ csi: true, status: 'created' });
    expect(job.csi_url).to.be.a('string').and.not.equal(job.json_url);
    await env.upload(job.json_url as string, JSON.stringify(workbook));
    await env.service.sweepPending();
    expect((await env.service.getJob('tds', CLIENT.clientId, job.job_id)).status).to.equal('created');
    await env.upload(job.csi_url as string, csiFor(workbook));
    const done = await finished(job);
    expect(done).to.include({ status: 'succeeded', csi: true });
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at), csi: csiFor(workbook) });
    expect((await stored(storageKeys.txt(refOf(job)))).toString('utf8')).to.equal(expected.txt);
  });

  it('fails a job whose CSI file names another TAN holder (the problem at its cell) or is malformed (its line named)', async () => {
    await startWorker({ conversion: 'inline' });
    const workbook = workbook26Q({ rows: 2 });
    const mismatch = await env.service.submitJob({ ...TDS_Q2, csi: true }, CLIENT);
    await env.upload(mismatch.csi_url as string, csiFor(workbook, 'PNEG01234C', 'Someone Else Pvt Ltd'));
    await env.upload(mismatch.json_url as string, JSON.stringify(workbook));
    const broken = await env.service.submitJob({ ...TDS_Q2, csi: true }, CLIENT);
    await env.upload(broken.json_url as string, JSON.stringify(workbook));
    await env.upload(broken.csi_url as string, '1^PNEG01234C^Godavari Test Traders Pvt Ltd\r\nnot^a challan line\r\n');
    const reportOf = async (job: StatementJobView) => JSON.parse((await stored(storageKeys.reportJson(refOf(job)))).toString('utf8')) as { problems: Array<{ code: string; sheet: string | null; row: number | null; column: string | null; message: string }> };
    expect(await finished(mismatch)).to.include({ status: 'failed', message: 'Validation error' });
    expect((await reportOf(mismatch)).problems.find((p) => p.code === 'CSI_NAME_MISMATCH')).to.include({ sheet: 'payer_sheet', row: null, column: 'payer_list.name' });
    expect(await finished(broken)).to.include({ status: 'failed', message: 'Validation error' });
    const [problem] = (await reportOf(broken)).problems;
    expect(problem).to.include({ code: 'INVALID_CSI' });
    expect(problem!.message).to.match(/^CSI file line 2: /);
  });

  it('refuses a CSI upload for a job that did not ask for one, and a second CSI upload', async () => {
    const plain = await env.service.submitJob(TDS_Q2, CLIENT);
    const url = await env.storage.presignPut(storageKeys.csiUpload(refOf(plain)), { expiresInSeconds: 60, maxBytes: 1000 });
    await expectRejected(env.upload(url, 'x'), /409|no CSI file/);
    const job = await env.service.submitJob({ ...TDS_Q2, csi: true }, CLIENT);
    await env.upload(job.csi_url as string, csiFor(workbook26Q()));
    await expectRejected(env.upload(job.csi_url as string, csiFor(workbook26Q())), /409|already uploaded/);
  });

  /** The original statement's conso file (written from its TXT by the engine's test-side conso writer; a correction was processed, so its BH 9 is that one's token) and a corrected workbook. */
  function correctionInputs(): { conso: string; corrected: object } {
    const original = workbook26Q({ rows: 3 });
    const txt = convert(original, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date('2025-11-01T10:00:00+05:30') }).txt!;
    const corrected = workbook26Q({ rows: 3 }) as { sheets: Array<{ blocks: Array<{ rows: unknown[][] }> }> };
    corrected.sheets[3]!.blocks[0]!.rows[0]![4] = 1500; // the first payment's amount
    return { conso: writeConso(txt, { token: '123456789012345', previousToken: '999999999999999' }), corrected };
  }

  it('a correction job (kind: correction) gets a conso_url, waits for both uploads and writes the correction TXT', async () => {
    await startWorker({ conversion: 'inline' });
    const { conso, corrected } = correctionInputs();
    const job = await env.service.submitJob({ ...TDS_Q2, kind: 'correction', lastCorrectionReceiptNumber: '999999999999999', correctionTypes: ['C3'] }, CLIENT);
    expect(job).to.include({ kind: 'correction', status: 'created', last_correction_receipt_number: '999999999999999' });
    expect(job.correction_types).to.deep.equal(['C3']);
    expect(job.conso_url).to.be.a('string').and.not.equal(job.json_url);
    await env.upload(job.json_url as string, JSON.stringify(corrected));
    await env.service.sweepPending();
    expect((await env.service.getJob('tds', CLIENT.clientId, job.job_id)).status).to.equal('created');
    await env.upload(job.conso_url as string, conso);
    const done = await finished(job);
    expect(done).to.include({ status: 'succeeded', kind: 'correction' });
    const expected = correct(corrected, conso, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at), lastCorrectionReceiptNumber: '999999999999999', types: ['C3'] });
    expect(expected.txt).to.match(/\^BH\^1\^1\^26Q\^C3\^0\^123456789012345\^999999999999999\^/);
    expect((await stored(storageKeys.txt(refOf(job)))).toString('latin1')).to.equal(expected.txt);
  });

  it('fails a correction job whose conso file is of another period (its line named) or whose changes need a type not allowed', async () => {
    await startWorker({ conversion: 'inline' });
    const { conso, corrected } = correctionInputs();
    const other = await env.service.submitJob({ ...TDS_Q2, quarter: 'Q3', kind: 'correction' }, CLIENT);
    await env.upload(other.json_url as string, JSON.stringify(corrected));
    await env.upload(other.conso_url as string, conso);
    const narrow = await env.service.submitJob({ ...TDS_Q2, kind: 'correction', correctionTypes: ['C9'] }, CLIENT);
    await env.upload(narrow.json_url as string, JSON.stringify(corrected));
    await env.upload(narrow.conso_url as string, conso);
    const reportOf = async (job: StatementJobView) => JSON.parse((await stored(storageKeys.reportJson(refOf(job)))).toString('utf8')) as { problems: Array<{ code: string; message: string }> };
    expect(await finished(other)).to.include({ status: 'failed', message: 'Validation error' });
    const [problem] = (await reportOf(other)).problems;
    expect(problem).to.include({ code: 'CONSO_OTHER_PERIOD' });
    expect(problem!.message).to.match(/^conso file line 2: /);
    expect(await finished(narrow)).to.include({ status: 'failed', message: 'Validation error' });
    expect((await reportOf(narrow)).problems.map((p) => p.code)).to.deep.equal(['CORRECTION_TYPE_NOT_REQUESTED']);
  });

  it('fails a job whose upload is past an engine input limit, with CONVERSION_LIMIT naming the limit: an .xlsx nested too deep, a conso line too long', async () => {
    await startWorker({ conversion: 'inline' });
    const deep = bombXlsx({ sheets: [['workbook', worksheet(`<row r="1"><c r="A1"><v>1</v></c></row>${'<a>'.repeat(300)}`)]] });
    const job = await env.service.submitJob(TDS_Q2, CLIENT);
    await env.upload(job.json_url as string, deep);
    const { corrected } = correctionInputs();
    const correction = await env.service.submitJob({ ...TDS_Q2, kind: 'correction' }, CLIENT);
    await env.upload(correction.json_url as string, JSON.stringify(corrected));
    await env.upload(correction.conso_url as string, `1^FH^${'x'.repeat(70_000)}\r\n`);
    const reportOf = async (done: StatementJobView) => JSON.parse((await stored(storageKeys.reportJson(refOf(done)))).toString('utf8')) as { problems: Array<{ code: string; message: string }> };
    expect(await finished(job)).to.include({ status: 'failed' });
    const [limit] = (await reportOf(job)).problems;
    expect(limit).to.include({ code: 'CONVERSION_LIMIT' });
    expect(limit!.message).to.contain('past the limit xmlDepth = 256');
    expect(await finished(correction)).to.include({ status: 'failed' });
    const [line] = (await reportOf(correction)).problems;
    expect(line).to.include({ code: 'CONVERSION_LIMIT' });
    expect(line!.message).to.match(/^conso file line 1: the line is longer than 65536 bytes, past the limit lineBytes = 65,536$/);
  });

  it('previous_receipt_number never makes a correction: refused with kind correction; correction fields need the kind; a conso upload for a regular job is refused', async () => {
    await expectRejected(env.service.submitJob({ ...TDS_Q2, kind: 'correction', previousReceiptNumber: '123456789012345' }, CLIENT), /previous_receipt_number: is for a regular statement/);
    await expectRejected(env.service.submitJob({ ...TDS_Q2, originalReceiptNumber: '123456789012345' }, CLIENT), /original_receipt_number: is only for a correction job/);
    const regular = await env.service.submitJob({ ...TDS_Q2, previousReceiptNumber: '123456789012345' }, CLIENT);
    expect(regular.kind).to.equal(undefined);
    expect(regular.conso_url).to.equal(undefined);
    const url = await env.storage.presignPut(storageKeys.consoUpload(refOf(regular)), { expiresInSeconds: 60, maxBytes: 1000 });
    await expectRejected(env.upload(url, 'x'), /409|no conso file/);
    const job = await env.service.submitJob({ ...TDS_Q2, kind: 'correction' }, CLIENT);
    await env.upload(job.conso_url as string, 'x');
    await expectRejected(env.upload(job.conso_url as string, 'y'), /409|already uploaded/);
  });

  it('fails a non-JSON upload and a JSON that is no workbook with Invalid Workbook', async () => {
    await startWorker({ concurrency: 2 });
    const notJson = await submitAndUpload('this is not json, it is a spreadsheet');
    const notWorkbook = await submitAndUpload('[1, 2, 3]');
    for (const job of [notJson, notWorkbook]) {
      const done = await finished(job);
      expect(done, job.job_id).to.include({ status: 'failed', message: 'Invalid Workbook' });
      expect(done.validation_report_url).to.be.a('string');
    }
    const report = JSON.parse((await stored(storageKeys.reportJson(refOf(notJson)))).toString('utf8')) as { problems: Array<{ code: string }> };
    expect(report.problems.map((p) => p.code)).to.deep.equal(['INVALID_JSON']);
  });

  it('fails an upload over the size limit that storage could not refuse (as with S3)', async () => {
    await startWorker({ maxUploadBytes: 1_000 });
    const job = await env.service.submitJob(TDS_Q2, CLIENT);
    // S3 takes any size through a pre-signed PUT; storage.put stands for that upload here.
    await env.storage.put(storageKeys.upload(refOf(job)), JSON.stringify(workbook26Q({ rows: 40 })));
    await env.service.handleObjectCreated(storageKeys.upload(refOf(job)));
    const done = await finished(job);
    expect(done).to.include({ status: 'failed', message: 'Invalid Workbook' });
    const report = JSON.parse((await stored(storageKeys.reportJson(refOf(job)))).toString('utf8')) as { problems: Array<{ code: string }> };
    expect(report.problems.map((p) => p.code)).to.deep.equal(['WORKBOOK_TOO_LARGE']);
  });

  it('retries infrastructure failures with backoff and fails the job after the last try', async () => {
    const service = env.newService({ retry: { attempts: 3, backoffMs: 50 }, watchUploads: false });
    const job = await service.submitJob(TDS_Q2, CLIENT);
    await env.storage.put(storageKeys.upload(refOf(job)), '{}');
    await service.handleObjectCreated(storageKeys.upload(refOf(job)));
    // The workbook disappears before any worker reads it (none runs yet): a storage failure, not a workbook problem.
    for (const key of [storageKeys.upload(refOf(job)), storageKeys.frozenInput(refOf(job))]) await env.storage.delete(key);
    await startWorker();
    const done = await finished(job);
    expect(done).to.include({ status: 'failed', message: 'Processing error' });
    expect(done).to.deep.include({
      problems: [{ code: 'PROCESSING_ERROR', message: 'The statement could not be processed; submit the job again', sheet: null, row: null, column: null }],
      problems_not_shown: 0,
    });
    // The record is final a moment before BullMQ records the last attempt as failed.
    const bull = await bullJobWhen(service.queue, job.job_id, 'failed');
    expect(bull.attemptsMade).to.equal(3);
    expect((await env.service.store.get(refOf(job)))?.attempts).to.equal(3);
  });

  it('does nothing more for a job already finished, when its BullMQ job runs again', async () => {
    const worker = await startWorker({ conversion: 'inline' });
    const job = await submitAndUpload(workbook26Q());
    const done = await finished(job);
    const txt = await stored(storageKeys.txt(refOf(job)));
    // The record is final a moment before BullMQ records the job as completed.
    const bull = await bullJobWhen(env.service.queue, job.job_id, 'completed');
    await bull.retry('completed');
    await eventually(async () => (await bull.getState()) === 'completed' && (await env.service.queue.getJob(job.job_id))?.returnvalue?.outcome === 'skipped');
    expect(await env.service.getJob('tds', CLIENT.clientId, job.job_id)).to.deep.include({ status: 'succeeded', updated_at: done.updated_at });
    expect(await stored(storageKeys.txt(refOf(job)))).to.deep.equal(txt);
    expect(worker.worker.isRunning()).to.equal(true);
  });

  it('keeps the event loop responsive while a large workbook converts in a conversion process', async () => {
    await startWorker();
    const job = await submitAndUpload(workbook26Q({ rows: 100_000 }));
    await eventually(async () => (await env.service.getJob('tds', CLIENT.clientId, job.job_id)).status === 'in_progress');
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const done = await finished(job);
    delay.disable();
    expect(done.status).to.equal('succeeded');
    // Reading, converting and writing a 100,000-row statement never held this thread for long.
    expect(delay.max / 1e6, `max event loop delay ${(delay.max / 1e6).toFixed(0)} ms`).to.be.below(250);
  });

  it('hands a running conversion back to the queue when shutdown runs out of time; another worker finishes it', async () => {
    const first = await startWorker();
    // Large enough to outlast the worker's close (its sweeps stop first) in a conversion process started ahead.
    const workbook = workbook26Q({ rows: 300_000 });
    const job = await submitAndUpload(workbook);
    await eventually(async () => (await env.service.getJob('tds', CLIENT.clientId, job.job_id)).status === 'in_progress');
    await first.close({ timeoutMs: 50 });
    rig.forget(first);
    const bull = await env.service.queue.getJob(job.job_id);
    expect(await bull?.getState()).to.equal('waiting');
    expect((await env.service.getJob('tds', CLIENT.clientId, job.job_id)).status).to.equal('in_progress');
    await startWorker();
    const done = await finished(job);
    expect(done.status).to.equal('succeeded');
    expect((await env.service.store.get(refOf(job)))?.attempts).to.equal(2);
  });
});

describe('statement-queue: scratch folders', function () {
  this.timeout(20_000);
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'scratch-parent-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** A worker folder as a killed worker leaves it: a job's plaintext workbook and spill file, a heartbeat `ageMs` old. */
  async function deadWorkerFolder(name: string, jobId: string, ageMs: number): Promise<string> {
    const folder = join(root, SCRATCH_ROOT, name);
    await mkdir(join(folder, jobId), { recursive: true });
    await writeFile(join(folder, jobId, 'workbook.json'), '{"pan":"ABCPD1234E"}');
    await writeFile(join(folder, jobId, 'spill-0.bin'), 'rows');
    await writeFile(join(folder, '.heartbeat'), '1');
    const then = new Date(Date.now() - ageMs);
    await utimes(join(folder, '.heartbeat'), then, then);
    return folder;
  }

  it('removes the folders of workers whose heartbeat is stale and keeps live ones, its own, and others\' files', async () => {
    const scratch = new ScratchSpace({ tmpDir: root, staleAfterMs: 60_000 });
    const dead = await deadWorkerFolder('w-dead', 'job-a', 120_000);
    const live = await deadWorkerFolder('w-live', 'job-b', 1_000);
    const legacyOld = join(root, 'satyapan-statement-job-c-x1');
    const legacyNew = join(root, 'satyapan-statement-job-d-x2');
    for (const folder of [legacyOld, legacyNew, join(root, 'someone-else')]) await mkdir(folder);
    const old = new Date(Date.now() - 120_000);
    for (const folder of [legacyOld, join(root, 'someone-else')]) await utimes(folder, old, old);
    const own = await scratch.forJob('job-e');
    expect(await scratch.sweep()).to.equal(2);
    expect(existsSync(dead)).to.equal(false);
    expect(existsSync(legacyOld)).to.equal(false);
    for (const kept of [live, legacyNew, own, join(root, 'someone-else')]) expect(existsSync(kept), kept).to.equal(true);
    // A worker taken for dead (its folder swept during a long stall) makes its folder again on its next sweep.
    await rm(scratch.own, { recursive: true });
    await scratch.sweep();
    expect(existsSync(join(scratch.own, '.heartbeat'))).to.equal(true);
    await scratch.close();
    expect(existsSync(scratch.own)).to.equal(false);
  });

  it('gives a restarted job an empty folder and removes its predecessor\'s, in whichever worker\'s folder it is', async () => {
    const predecessor = await deadWorkerFolder('w-killed', 'job-r', 0);
    const scratch = new ScratchSpace({ tmpDir: root });
    const folder = await scratch.forJob('job-r');
    expect(existsSync(join(predecessor, 'job-r'))).to.equal(false);
    expect(existsSync(predecessor), 'the other worker\'s folder itself is not this job\'s to remove').to.equal(true);
    expect(await readdir(folder)).to.deep.equal([]);
    await scratch.close();
  });

  it('a worker sweeps on start and then periodically', async () => {
    const connection = createRedisConnection({ flavour: 'worker', connectionName: 'statement-scratch-test' });
    await waitForRedis(connection);
    const env = await startEnv();
    const atStart = await deadWorkerFolder('w-before-start', 'job-s', 5_000);
    const worker = createStatementWorker({
      connection, storage: env.storage, sealer: env.sealer, keyPrefix: env.keyPrefix, webhooks: false, sweepIntervalMs: 0,
      retentionIntervalMs: 0, tmpDir: root, scratchStaleAfterMs: 2_000, scratchSweepIntervalMs: 200,
    });
    try {
      await worker.ready();
      await eventually(async () => !existsSync(atStart));
      const later = await deadWorkerFolder('w-killed-later', 'job-t', 5_000);
      await eventually(async () => !existsSync(later));
      // Its own folder stays, its heartbeat renewed by every sweep.
      const own = (await readdir(join(root, SCRATCH_ROOT))).filter((name) => name.startsWith(`w-${process.pid}-`));
      expect(own).to.have.length(1);
    } finally {
      await worker.close({ timeoutMs: 2_000 });
      connection.disconnect();
      await env.close();
    }
    expect(await readdir(join(root, SCRATCH_ROOT))).to.deep.equal([]);
  });
});

async function expectRejected(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(() => null, (e: unknown) => e as Error);
  expect(error, 'the upload was accepted').to.be.instanceOf(Error);
  expect(error!.message).to.match(message);
}

