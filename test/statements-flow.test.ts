import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { convert, correct, sheetJsonToXlsx } from '@satyapan/statement-engine';
import { writeConso } from '../packages/statement-engine/test/support/conso.js';
import { verifyWebhook, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { eventually, startStatementsHost, type StatementsHost } from './statements-support/host.js';
import { workbook26Q, workbook27EQ } from './statements-support/workbooks.js';

interface Receiver {
  url: string;
  received: Array<{ headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** A webhook receiver on loopback; answers the statuses of `script` in turn, then 200. */
async function startReceiver(script: number[] = []): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(script.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const TDS_BODY = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };
const TCS_BODY = { '@entity': 'in.co.service.tcs.reports.request', tan: 'PNEG01234C', quarter: 'Q3', financial_year: 'FY 2025-26' };

describe('statement jobs end to end (HTTP, Redis, FsStorage, worker)', function () {
  this.timeout(60_000);
  let host: StatementsHost;
  let happy: Receiver;
  let flaky: Receiver;
  let alice: ClientConfig;
  let bob: ClientConfig;

  before(async () => {
    happy = await startReceiver();
    flaky = await startReceiver([500, 502]);
    alice = { id: 'alice', apiKey: 'key_test_alice', apiSecret: 'secret_alice', webhookUrl: happy.url, webhookSecret: 'alice-hook-secret' };
    bob = { id: 'bob', apiKey: 'key_test_bob', apiSecret: 'secret_bob', webhookUrl: flaky.url, webhookSecret: 'whsec_' + Buffer.from('bob-hook-secret-bytes-0123456789').toString('base64') };
    host = await startStatementsHost({ clients: [alice, bob] });
    await host.startWorker({
      concurrency: 2,
      webhooks: { allowPrivateUrls: [new URL(happy.url).origin, new URL(flaky.url).origin], retry: { baseDelayMs: 100, maxDelayMs: 200, minimumSpanMs: 2_000 } },
    });
  });
  after(async () => {
    await host.close();
    await happy.close();
    await flaky.close();
  });

  async function submit(client: ClientConfig, body: object, domain: 'tds' | 'tcs' = 'tds'): Promise<StatementJobView> {
    const res = await host.call(client, 'POST', `/${domain}/reports/txt`, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as StatementJobView;
  }

  async function upload(job: StatementJobView, payload: string): Promise<Response> {
    // No Authorization, no x-api-key: the URL is the credential.
    return fetch(job.json_url as string, { method: 'PUT', body: payload, headers: { 'content-type': 'application/json' } });
  }

  async function pollUntilDone(client: ClientConfig, jobId: string, domain: 'tds' | 'tcs' = 'tds'): Promise<StatementJobView> {
    return eventually(async () => {
      const res = await host.call(client, 'GET', `/${domain}/reports/txt?job_id=${jobId}`);
      const job = res.body.data as StatementJobView;
      return job.status === 'succeeded' || job.status === 'failed' ? job : null;
    });
  }

  it('TDS: submit, PUT the workbook, poll to succeeded, download bytes equal to the engine\'s', async () => {
    const workbook = workbook26Q({ rows: 40 });
    const job = await submit(alice, TDS_BODY);
    expect((await upload(job, JSON.stringify(workbook))).status).to.equal(200);
    const done = await pollUntilDone(alice, job.job_id);
    expect(done.status).to.equal('succeeded');
    const download = await fetch(done.txt_url as string);
    expect(download.status).to.equal(200);
    expect(download.headers.get('content-disposition')).to.equal('attachment; filename="26Q.txt"');
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect(Buffer.from(await download.arrayBuffer())).to.deep.equal(Buffer.from(expected.txt as string, 'latin1'));
  });

  it('TDS with previous_receipt_number: a regular statement that succeeds, with the token in BH 9 and BH 52 = Y', async () => {
    // The token of the previous regular statement (15 digits, docs/API.md "Vendor compatibility"); made up.
    const token = '010010200083251';
    const workbook = workbook26Q({ rows: 12 });
    const job = await submit(alice, { ...TDS_BODY, previous_receipt_number: token });
    expect(job.previous_receipt_number).to.equal(token);
    expect((await upload(job, JSON.stringify(workbook))).status).to.equal(200);
    const done = await pollUntilDone(alice, job.job_id);
    expect(done, JSON.stringify(done)).to.include({ status: 'succeeded', previous_receipt_number: token });
    const txt = await (await fetch(done.txt_url as string)).text();
    const bh = (txt.split('\r\n')[1] ?? '').split('^');
    expect([bh[1], bh[8], bh[51]], 'BH fields 2, 9 and 52').to.deep.equal(['BH', token, 'Y']);
    const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', previousReceiptNumber: token, now: () => new Date(job.created_at) });
    expect(txt).to.equal(expected.txt);
  });

  it('a correction over HTTP: kind correction gives conso_url; the corrected workbook and the conso file make the correction TXT', async () => {
    const original = convert(workbook26Q({ rows: 5 }), { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date('2025-11-01T10:00:00+05:30') }).txt as string;
    const conso = writeConso(original, { token: '010010200083251' });
    const corrected = workbook26Q({ rows: 5 }) as { sheets: Array<{ blocks: Array<{ rows: unknown[][] }> }> };
    corrected.sheets[3]!.blocks[0]!.rows[2]![4] = 1999; // the third payment's amount
    const refused = await host.call(alice, 'POST', '/tds/reports/txt', { ...TDS_BODY, kind: 'correction', previous_receipt_number: '010010200083251' });
    expect(refused.status).to.equal(422);
    const badType = await host.call(alice, 'POST', '/tds/reports/txt', { ...TDS_BODY, kind: 'correction', correction_types: ['Y'] });
    expect([badType.status, JSON.stringify(badType.body)]).to.satisfy(([status, body]: [number, string]) => status === 422 && /Invalid correction type: Y/.test(body));
    const job = await submit(alice, { ...TDS_BODY, kind: 'correction' });
    expect(job).to.include({ kind: 'correction' });
    expect((await upload(job, JSON.stringify(corrected))).status).to.equal(200);
    expect((await fetch(job.conso_url as string, { method: 'PUT', body: conso })).status).to.equal(200);
    const done = await pollUntilDone(alice, job.job_id);
    expect(done, JSON.stringify(done)).to.include({ status: 'succeeded', kind: 'correction' });
    const txt = Buffer.from(await (await fetch(done.txt_url as string)).arrayBuffer()).toString('latin1');
    const expected = correct(corrected, conso, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect(txt).to.equal(expected.txt);
    expect(txt.split('\r\n')[0]).to.match(/^1\^FH\^NS1\^C\^/);
  });

  it('TCS: the same flow at /tcs/reports/txt', async () => {
    const workbook = workbook27EQ({ rows: 5 });
    const job = await submit(alice, TCS_BODY, 'tcs');
    expect((await upload(job, JSON.stringify(workbook))).status).to.equal(200);
    const done = await pollUntilDone(alice, job.job_id, 'tcs');
    expect(done).to.include({ status: 'succeeded', '@entity': 'in.co.service.tcs.reports.job' });
    const expected = convert(workbook, { form: '27EQ', quarter: 'Q3', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect(await (await fetch(done.txt_url as string)).text()).to.equal(expected.txt);
  });

  it('a succeeded job with warnings shows their count and serves the report as .xlsx and as JSON', async () => {
    const job = await submit(alice, TDS_BODY);
    await upload(job, JSON.stringify(workbook26Q({ rows: 6, lowerCasePanRows: [1, 4] })));
    const done = await pollUntilDone(alice, job.job_id);
    expect(done.status).to.equal('succeeded');
    expect(done.warnings_count).to.be.a('number').and.at.least(2);
    const json = await fetch(done.validation_report_json_url as string);
    expect(json.status).to.equal(200);
    const report = (await json.json()) as { warningCount: number; problems: Array<{ code: string; row: number }> };
    expect(report.warningCount).to.equal(done.warnings_count);
    expect(report.problems.filter((p) => p.code === 'IDENTIFIER_UPPERCASED').map((p) => p.row)).to.deep.equal([3, 6]);
    const xlsx = await fetch(done.validation_report_url as string);
    expect(xlsx.status).to.equal(200);
    expect(xlsx.headers.get('content-disposition')).to.equal(`attachment; filename="${job.job_id}_validation_report.xlsx"`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    const text: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((row) => text.push((row.values as unknown[]).map(String).join('|'))));
    expect(text.filter((line) => line.includes('IDENTIFIER_UPPERCASED'))).to.have.length(2);
    // The webhook carries the same fields as the poll.
    const delivery = await eventually(async () => happy.received.find((each) => JSON.parse(each.body).data.job_id === job.job_id));
    const payload = verifyWebhook<{ data: StatementJobView }>({ secret: 'alice-hook-secret', body: delivery.body, headers: delivery.headers });
    expect(payload.data.warnings_count).to.equal(done.warnings_count);
    expect(payload.data.validation_report_url).to.be.a('string');
  });

  it('a workbook with errors fails with a report (.xlsx) that names the rows', async () => {
    const job = await submit(alice, TDS_BODY);
    await upload(job, JSON.stringify(workbook26Q({ rows: 8, badPanRows: [2, 6] })));
    const done = await pollUntilDone(alice, job.job_id);
    expect(done).to.include({ status: 'failed', message: 'Validation error' });
    expect(done).not.to.have.property('txt_url');
    const xlsx = await fetch(done.validation_report_url as string);
    expect(xlsx.status).to.equal(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    const text: string[] = [];
    book.eachSheet((sheet) => sheet.eachRow((row) => text.push((row.values as unknown[]).map(String).join('|'))));
    const panRows = text.filter((line) => line.includes('INVALID_PAN'));
    expect(panRows).to.have.length(2);
    expect(panRows[0]).to.include('payee_sheet').and.to.include('|4|');
    expect(panRows[1]).to.include('payee_sheet').and.to.include('|8|');
  });

  it('a failed job says why: its poll, search item and webhook carry the report\'s first 10 errors and a count of the rest', async () => {
    // 12 payee PANs of the wrong shape and a payer TAN other than the job's: 13 errors, TAN_MISMATCH among them.
    const job = await submit(alice, TDS_BODY);
    await upload(job, JSON.stringify(workbook26Q({ rows: 14, tan: 'AHMA09719D', badPanRows: [...Array(12).keys()] })));
    const done = await pollUntilDone(alice, job.job_id);
    // The vendor's keys stay as they were.
    expect(done).to.include({ status: 'failed', message: 'Validation error' });
    expect(done.validation_report_url).to.be.a('string');
    const report = (await (await fetch(done.validation_report_json_url as string)).json()) as { errorCount: number; problems: Array<Record<string, unknown>> };
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(report.errorCount).to.equal(13);
    expect(done.problems).to.have.length(10);
    expect(done.problems).to.deep.equal(errors.slice(0, 10).map(({ severity: _severity, ...problem }) => problem));
    expect(done.problems_not_shown).to.equal(3);
    const mismatch = done.problems?.find((problem) => problem.code === 'TAN_MISMATCH');
    expect(mismatch, JSON.stringify(done.problems)).to.include({ message: 'The TAN in the payer list differs from the TAN this statement is for' });
    expect(mismatch?.sheet).to.be.a('string');
    const search = await host.call(alice, 'POST', '/tds/reports/txt/search', { '@entity': 'in.co.service.tds.reports.jobs.search', status: 'failed', page_size: 50 });
    const item = (search.body.data.items as StatementJobView[]).find((each) => each.job_id === job.job_id);
    expect(item).to.deep.include({ message: 'Validation error', problems: done.problems, problems_not_shown: 3 });
    const delivery = await eventually(async () => happy.received.find((each) => JSON.parse(each.body).data.job_id === job.job_id));
    const payload = verifyWebhook<{ data: StatementJobView }>({ secret: 'alice-hook-secret', body: delivery.body, headers: delivery.headers });
    expect(payload.data).to.deep.include({ problems: done.problems, problems_not_shown: 3 });
  });

  it('an .xlsx workbook\'s failed job names the cell of each error it shows', async () => {
    const job = await submit(alice, TDS_BODY);
    const xlsx = Buffer.from(await sheetJsonToXlsx(workbook26Q({ rows: 4, badPanRows: [1] })).xlsx.writeBuffer());
    expect((await fetch(job.json_url as string, { method: 'PUT', body: xlsx })).status).to.equal(200);
    const done = await pollUntilDone(alice, job.job_id);
    expect(done).to.include({ status: 'failed', problems_not_shown: 0 });
    // The block's title is Excel row 1 and its header row 2: the second payee is row 4.
    expect(done.problems?.map((problem) => [problem.code, problem.row, problem.cell])).to.deep.equal([['INVALID_PAN', 4, 'payee_sheet!B4']]);
  });

  it('of two PUTs racing to one json_url exactly one is taken (200) and the other is 409; the job converts the winner', async () => {
    const job = await submit(alice, TDS_BODY);
    const workbooks = [workbook26Q({ rows: 3 }), workbook26Q({ rows: 4 })];
    const releases: Array<() => void> = [];
    const puts = workbooks.map((workbook) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          // The first bytes go at once, the rest only when the test says: both uploads are under way together.
          const bytes = new TextEncoder().encode(JSON.stringify(workbook));
          controller.enqueue(bytes.subarray(0, 10));
          releases.push(() => {
            controller.enqueue(bytes.subarray(10));
            controller.close();
          });
        },
      });
      return fetch(job.json_url as string, { method: 'PUT', body, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit);
    });
    await eventually(async () => (await readdir(join(host.dataDir, '.tmp')).catch(() => [])).length >= 2);
    for (const release of releases) release();
    const responses = await Promise.all(puts);
    expect(responses.map((response) => response.status).sort()).to.deep.equal([200, 409]);
    const loser = responses.find((response) => response.status === 409) as Response;
    expect(await loser.json()).to.include({ code: 409 });
    const winner = workbooks[responses.findIndex((response) => response.status === 200)] as object;
    const done = await pollUntilDone(alice, job.job_id);
    expect(done.status).to.equal('succeeded');
    const expected = convert(winner, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
    expect(await (await fetch(done.txt_url as string)).text()).to.equal(expected.txt);
  });

  it('a non-JSON upload fails with Invalid Workbook', async () => {
    const job = await submit(alice, TDS_BODY);
    await upload(job, 'sr_no,pan,name\n1,ABCDE1234F,Someone\n');
    const done = await pollUntilDone(alice, job.job_id);
    expect(done).to.include({ status: 'failed', message: 'Invalid Workbook' });
    expect(done.validation_report_url).to.be.a('string');
  });

  it('another API key gets 521 for every job id of the first', async () => {
    const search = await host.call(alice, 'POST', '/tds/reports/txt/search', { '@entity': 'in.co.service.tds.reports.jobs.search', page_size: 50 });
    const ids = (search.body.data.items as StatementJobView[]).map((item) => item.job_id);
    expect(ids.length).to.be.greaterThan(2);
    for (const id of ids) {
      const res = await host.call(bob, 'GET', `/tds/reports/txt?job_id=${id}`);
      expect(res.status).to.equal(521);
      expect(res.body).to.include({ code: 521, message: `Data not found: ${id}` });
    }
    const bobs = await host.call(bob, 'POST', '/tds/reports/txt/search', { '@entity': 'in.co.service.tds.reports.jobs.search' });
    expect(bobs.body.data.items.filter((item: StatementJobView) => ids.includes(item.job_id))).to.deep.equal([]);
  });

  it('webhooks: received and verified; a receiver that fails twice gets the third try with the same webhook-id', async () => {
    const theirs = await submit(bob, TDS_BODY);
    await upload(theirs, JSON.stringify(workbook26Q()));
    await eventually(async () => flaky.received.length >= 3);
    const tries = flaky.received.slice(0, 3);
    expect(new Set(tries.map((t) => t.headers['webhook-id']))).to.have.property('size', 1);
    for (const attempt of tries) {
      const payload = verifyWebhook<{ data: StatementJobView }>({ secret: bob.webhookSecret as string, body: attempt.body, headers: attempt.headers });
      expect(payload.data).to.include({ job_id: theirs.job_id, status: 'succeeded' });
    }
    // Alice's earlier jobs reached her receiver too, each signed with her secret.
    expect(happy.received.length).to.be.greaterThan(0);
    for (const delivery of happy.received) {
      const payload = verifyWebhook<{ data: StatementJobView }>({ secret: 'alice-hook-secret', body: delivery.body, headers: delivery.headers });
      expect(['succeeded', 'failed']).to.include(payload.data.status);
    }
  });

  it('search: every filter and paging across 120 jobs', async () => {
    const made: Array<{ id: string; tan: string; form: string; quarter: string; fy: string }> = [];
    const tans = ['AHMA09719D', 'BLRC23456G'];
    const forms = ['24Q', '26Q', '27Q'];
    const quarters = ['Q1', 'Q2', 'Q3', 'Q4'];
    const years = ['FY 2024-25', 'FY 2025-26'];
    for (let i = 0; i < 120; i += 1) {
      const body = { '@entity': 'in.co.service.tds.reports.request', tan: tans[i % 2], form: forms[i % 3], quarter: quarters[i % 4], financial_year: years[(i >> 1) % 2] };
      const job = await submit(bob, body);
      made.push({ id: job.job_id, tan: body.tan as string, form: body.form as string, quarter: body.quarter as string, fy: body.financial_year as string });
    }
    const newestFirst = [...made].reverse();
    const walk = async (filters: Record<string, unknown>): Promise<string[]> => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await host.call(bob, 'POST', '/tds/reports/txt/search', {
          '@entity': 'in.co.service.tds.reports.jobs.search', page_size: 25, ...filters, ...(cursor ? { last_evaluated_key: cursor } : {}),
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        ids.push(...(res.body.data.items as StatementJobView[]).map((item) => item.job_id));
        cursor = res.body.data.last_evaluated_key as string | null;
      } while (cursor);
      return ids;
    };
    const createdIds = new Set(made.map((m) => m.id));
    const all = (await walk({ status: 'created' })).filter((id) => createdIds.has(id));
    expect(all).to.have.length(120);
    // Created in order, possibly within one millisecond: compare as sets per filter, order by created_at desc.
    const check = async (filters: Record<string, unknown>, keep: (m: (typeof made)[number]) => boolean): Promise<void> => {
      const got = (await walk(filters)).filter((id) => createdIds.has(id));
      expect(new Set(got), JSON.stringify(filters)).to.deep.equal(new Set(newestFirst.filter(keep).map((m) => m.id)));
      expect(got.length, JSON.stringify(filters)).to.equal(new Set(got).size);
    };
    await check({ tan: 'AHMA09719D' }, (m) => m.tan === 'AHMA09719D');
    await check({ form: '27Q' }, (m) => m.form === '27Q');
    await check({ quarter: 'Q4' }, (m) => m.quarter === 'Q4');
    await check({ financial_year: 'FY 2024-25' }, (m) => m.fy === 'FY 2024-25');
    await check({ status: 'created', tan: 'BLRC23456G', form: '24Q' }, (m) => m.tan === 'BLRC23456G' && m.form === '24Q');
    const first = await host.call(bob, 'GET', `/tds/reports/txt?job_id=${made[0]?.id}`);
    const last = await host.call(bob, 'GET', `/tds/reports/txt?job_id=${made[119]?.id}`);
    await check({ from_date: first.body.data.created_at, to_date: last.body.data.created_at }, () => true);
    await check({ to_date: first.body.data.created_at - 1 }, () => false);
  });
});
