// The attacks of issue 22 on bulk uploads, generated here at full size: a 3 MB header of 100,000 columns, a
// 45 MB quoted cell, a file one row over the cap. Each is run by an in-process worker, so the event loop measured
// is the one a router sharing the process would have: it must keep ticking, and memory must stay flat.
import { expect } from 'chai';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { PENNY_DROP_TEST_IFSC as IFSC } from '@satyapan/sandbox';
import { BULK_DEFAULTS } from '@satyapan/bulk';
import { CLIENT, startBulkEnv, type BulkEnv } from './support/env.js';

/**
 * Watches the process while a job runs: the longest event-loop stall and the highest RSS above the start. A stall
 * is a gap between two ticks of a 10 ms timer counted at most as the CPU the process used in it: code that blocks
 * the loop burns CPU all the gap long, while a process the OS did not schedule (this machine is shared and busy)
 * waits without any, and is not what is measured here.
 */
function watchProcess(): { stop(): { maxStallMs: number; rssGrowthMb: number } } {
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  let maxStallMs = 0;
  let lastAt = performance.now();
  let lastCpu = process.cpuUsage();
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    maxStallMs = Math.max(maxStallMs, Math.min(now - lastAt, (cpu.user + cpu.system) / 1_000));
    lastAt = now;
    lastCpu = process.cpuUsage();
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  return {
    stop() {
      clearInterval(ticker);
      return { maxStallMs, rssGrowthMb: (peakRss - startRss) / 2 ** 20 };
    },
  };
}

/** Longest event-loop stall allowed while a bomb is read (a router in the process must keep answering). */
const MAX_STALL_MS = 200;

describe('bulk: bounded uploads (the attacks of issue 22, generated at full size)', function () {
  this.timeout(60_000);
  let env: BulkEnv;
  beforeEach(async () => {
    env = await startBulkEnv();
  });
  afterEach(() => env.close());

  it('the control: the watch sees a loop blocked for 300 ms of CPU', async () => {
    const watch = watchProcess();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const started = process.cpuUsage();
    for (let spent = 0; spent < 300_000; spent = process.cpuUsage(started).user) Math.sqrt(spent);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(watch.stop().maxStallMs).to.be.at.least(MAX_STALL_MS);
  });

  it('a 3 MB header of 100,000 columns fails the job (line too long) at once, without stalling the process', async () => {
    await env.startWorker();
    const columns = ['ifsc', ...Array.from({ length: 99_999 }, (_, i) => `column_the_attacker_added_${String(i).padStart(6, '0')}`)];
    const header = columns.join(',');
    expect(header.length).to.be.above(3_000_000);
    const rows = Array.from({ length: 2_000 }, () => IFSC).join('\n');
    const watch = watchProcess();
    const done = await env.finished((await env.submitAndUpload('ifsc', `${header}\n${rows}\n`)).job_id);
    const { maxStallMs } = watch.stop();
    expect(done).to.include({ status: 'failed', code: 'BULK_LINE_TOO_LONG', message: `Line 1 is too long: the limit is ${BULK_DEFAULTS.maxLineBytes} bytes` });
    expect(done.rows_done).to.equal(0);
    expect(maxStallMs, 'longest event-loop stall (ms)').to.be.below(MAX_STALL_MS);
  });

  it('a header wider than the column limit (but within the line limit) fails the job naming the limit', async () => {
    await env.startWorker();
    const header = ['ifsc', ...Array.from({ length: 999 }, (_, i) => `c${i}`)].join(',');
    const done = await env.finished((await env.submitAndUpload('ifsc', `${header}\n${IFSC}\n`)).job_id);
    expect(done).to.include({ status: 'failed', code: 'BULK_TOO_MANY_COLUMNS', message: 'Too many columns in the header: 1000; the limit is 64' });
  });

  it('a 45 MB quoted cell is that row\'s problem (line too long), never held: the other rows are checked, the loop keeps ticking, RSS stays flat', async () => {
    await env.startWorker();
    const job = await env.service.submit({ kind: 'ifsc' }, CLIENT);
    // Streamed to storage in 1 MiB pieces of one buffer: the test never holds the cell either.
    const piece = Buffer.alloc(2 ** 20, 'A');
    async function* bomb(): AsyncGenerator<Buffer> {
      yield Buffer.from(`reference,ifsc\nbefore,${IFSC}\ncell,"`);
      for (let i = 0; i < 45; i++) yield piece;
      yield Buffer.from(`"\nafter,${IFSC}\n`);
    }
    const watch = watchProcess();
    await env.upload(job.csv_url as string, Readable.from(bomb()));
    const done = await env.finished(job.job_id, 50_000);
    const { maxStallMs, rssGrowthMb } = watch.stop();
    expect(done).to.include({ status: 'succeeded', rows_total: 3 });
    expect(done.summary).to.deep.equal({ ok: 2, invalid: 1, error: 0, interrupted: 0 });
    const [, before, cell, after] = await env.resultLines(done);
    expect(before).to.match(/^2,before,/);
    expect(cell).to.equal(`3,,,invalid,BULK_LINE_TOO_LONG,Line 3 is too long: the limit is ${BULK_DEFAULTS.maxLineBytes} bytes${',' .repeat(12)}`);
    expect(after).to.match(/^4,after,.*,ok,OK,/);
    expect(maxStallMs, 'longest event-loop stall (ms)').to.be.below(MAX_STALL_MS);
    // The old reader took 2 GB for this file; streaming holds a line at most (64 KiB) plus the storage buffers.
    expect(rssGrowthMb, 'RSS growth (MB)').to.be.below(150);
  });

  it('a cell over the cell limit is that row\'s problem, naming the line, the column and the limit', async () => {
    await env.startWorker();
    const done = await env.finished((await env.submitAndUpload('ifsc', `reference,ifsc\n${'r'.repeat(1_025)},${IFSC}\nok,${IFSC}\n`)).job_id);
    expect(done.summary).to.deep.equal({ ok: 1, invalid: 1, error: 0, interrupted: 0 });
    const [, long] = await env.resultLines(done);
    expect(long).to.contain(',invalid,BULK_CELL_TOO_LONG,"Line 2, column 1: the cell is too long; the limit is 1024 characters"');
  });

  it('a file one row over the row limit fails before any paid call, counted as it streams', async () => {
    await env.startWorker();
    const rows = BULK_DEFAULTS.maxRows + 1;
    const job = await env.service.submit({ kind: 'penny_drop' }, CLIENT);
    const line = Buffer.from(`${IFSC},100200300400\n`);
    async function* file(): AsyncGenerator<Buffer> {
      yield Buffer.from('ifsc,account_number\n');
      for (let i = 0; i < rows; i += 1_000) yield Buffer.concat(Array.from({ length: Math.min(1_000, rows - i) }, () => line));
    }
    const watch = watchProcess();
    await env.upload(job.csv_url as string, Readable.from(file()));
    const done = await env.finished(job.job_id, 50_000);
    const { maxStallMs } = watch.stop();
    expect(done).to.include({
      status: 'failed', code: 'BULK_TOO_MANY_ROWS', message: `Too many rows: more than ${BULK_DEFAULTS.maxRows}; the limit is ${BULK_DEFAULTS.maxRows}`,
    });
    expect(env.pennyDrop.requests()).to.equal(0);
    expect(maxStallMs, 'longest event-loop stall (ms)').to.be.below(MAX_STALL_MS);
  });

  it('keeps the result file of a valid CSV byte for byte: BOM, CRLF, quotes, blank lines, a wide header mapped once', async () => {
    await env.startWorker();
    const csv = `\uFEFFReference , IFSC,extra\r\n"r,1",${IFSC},x\r\n\r\n  \r\n"r""2",${IFSC.toLowerCase()}\r\nr3,"${IFSC}",,,,,\r\n`;
    const done = await env.finished((await env.submitAndUpload('ifsc', csv)).job_id);
    const lines = await env.resultLines(done);
    const directory = ',Kotak Mahindra Bank,KKBK,KANPUR,"17/3 B, THE MALL,MEGHDOOT HOTEL BUILDING,KANPUR,UP - 208 001",KANPUR,KANPUR,UTTAR PRADESH,208485002,true,true,true,true';
    // Line numbers are the file's (the blank lines 3 and 4 skipped); quoted cells echoed quoted; extra columns ignored.
    expect(lines).to.deep.equal([
      'line,reference,ifsc,outcome,code,message,bank,bankcode,branch,address,city,district,state,micr,imps,neft,rtgs,upi',
      `2,"r,1",${IFSC},ok,OK,${directory}`,
      `5,"r""2",${IFSC.toLowerCase()},ok,OK,${directory}`,
      `6,r3,${IFSC},ok,OK,${directory}`,
    ]);
  });
});

describe('bulk: any bytes uploaded as a CSV end their job (property)', function () {
  this.timeout(180_000);
  let env: BulkEnv;
  before(async () => {
    env = await startBulkEnv();
    await env.startWorker();
  });
  after(() => env.close());

  it('random bytes, and a valid file with bytes changed: succeeded with rows accounted for, or failed with a code; the process bounded', async () => {
    const valid = Buffer.from(`reference,ifsc\nr1,${IFSC}\n"r,2",${IFSC}\nr3,HDFC0000001\n`);
    const mutated = fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 })
      .map((edits) => {
        const copy = Buffer.from(valid);
        for (const [at, value] of edits) copy[at] = value;
        return copy;
      });
    const bytes = fc.oneof(fc.uint8Array({ maxLength: 4096 }).map((array) => Buffer.from(array)), mutated);
    const watch = watchProcess();
    await fc.assert(fc.asyncProperty(bytes, async (csv) => {
      const job = await env.service.submit({ kind: 'ifsc' }, CLIENT);
      await env.upload(job.csv_url as string, Readable.from([csv]));
      const done = await env.finished(job.job_id, 30_000);
      if (done.status === 'failed') {
        expect(done.code, JSON.stringify(done)).to.match(/^[A-Z][A-Z0-9_]+$/);
      } else {
        expect(done.status).to.equal('succeeded');
        const counted = Object.values(done.summary as Record<string, number>).reduce((sum, rows) => sum + rows, 0);
        expect(counted).to.equal(done.rows_total);
      }
    }), { numRuns: 60 });
    const { maxStallMs, rssGrowthMb } = watch.stop();
    expect(maxStallMs, 'longest event-loop stall (ms)').to.be.below(MAX_STALL_MS);
    expect(rssGrowthMb, 'RSS growth (MB)').to.be.below(150);
  });
});
