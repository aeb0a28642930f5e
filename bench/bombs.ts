// npm run bench -- bombs [--small N] [--per-bomb M] [--concurrency C]
// Every class of crafted upload of issue 22, each of about 1 MB, sent through the HTTP API of the demo host app
// (`npm start`'s program, built code: router, statement and bulk workers in one process, conversions in child
// processes, two at once as on a 2-core worker: SATYAPAN_WORKER_CONCURRENCY=2) while a steady load of small
// statement jobs runs one at a time. The baseline is the same small-job
// load with no bomb, measured first in this run. Prints, per bomb: its upload size, how its job ended (the
// report's first code, or the bulk job's), how long it took, and the peak resident size of the host process and
// of its conversion processes; then the small jobs' p50/p99 under bombs against the unloaded p99 (goal: 2x).
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startDemoApi, type ProgramProcess } from '../test/support/spawn-program.js';
import { workbook26Q } from '../test/statements-support/workbooks.js';
import { numberArg, percentile } from './_http.js';
import {
  STRINGS_HEAD, STRINGS_TAIL, STYLES_HEAD, STYLES_TAIL, WORKSHEET_HEAD, WORKSHEET_TAIL, bombXlsx, repeatedPart, unitOf, worksheet,
} from '../packages/statement-engine/test/support/bombs.js';

const MiB = 1 << 20;
const DEMO = fileURLToPath(new URL('../examples/host-app/dist/main.js', import.meta.url));
const STATEMENT = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface Bomb {
  name: string;
  /** A statement job's upload (the others get a valid small file), or a bulk job's CSV. */
  slot: 'workbook' | 'conso' | 'csi' | 'bulk';
  bytes: () => Buffer;
}

/** The attacks of issue 22, each in an upload of about 1 MB. */
const BOMBS: Bomb[] = [
  { name: '.xlsx styles: 150M <xf/>', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', worksheet('')]], styles: repeatedPart('styles', STYLES_HEAD, unitOf('<xf/>'), 750, STYLES_TAIL) }) },
  { name: '.xlsx shared strings: 40M', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', worksheet('')]], sharedStrings: repeatedPart('sst', STRINGS_HEAD, unitOf('<si><t>a</t></si>'), 680, STRINGS_TAIL) }) },
  { name: '.xlsx one 600M-character cell', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', repeatedPart('sheet', `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>`, unitOf('A'), 600, `</t></is></c></row>${WORKSHEET_TAIL}`)]] }) },
  { name: '.xlsx 10M nested elements', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<a>'), 30, WORKSHEET_TAIL)]] }) },
  { name: '.xlsx a 50 MB sheet listed 4,000 times', slot: 'workbook', bytes: () => repeatedEntries(4_000) },
  { name: '.xlsx 1M identical rows', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<row><c t="inlineStr"><is><t>ABCPD1234E</t></is></c><c><v>1000</v></c></row>', 64 * 1024), 1_000, WORKSHEET_TAIL)]] }) },
  { name: 'JSON 1M nested arrays', slot: 'workbook', bytes: () => Buffer.from(`${'['.repeat(MiB / 2)}${']'.repeat(MiB / 2)}`) },
  { name: 'conso one 1 MB line', slot: 'conso', bytes: () => Buffer.from(`1^FH^${'x'.repeat(MiB)}`) },
  { name: 'CSI one 1 MB line', slot: 'csi', bytes: () => Buffer.from(`1^PNEG01234C^${'x'.repeat(MiB)}`) },
  { name: 'bulk CSV 100,000-column header', slot: 'bulk', bytes: () => Buffer.from(`${Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(',')}\nHDFC0000001\n`) },
  { name: 'bulk CSV one 1 MB quoted cell', slot: 'bulk', bytes: () => Buffer.from(`ifsc,reference\nHDFC0000001,"${'x'.repeat(MiB)}"\n`) },
  { name: 'bulk CSV 200,001 rows', slot: 'bulk', bytes: () => Buffer.from(`ifsc\n${'HDFC0000001\n'.repeat(200_001)}`) },
];

/** One worksheet of 50 MB of rows, listed `times` times in workbook.xml (each under its own name). */
function repeatedEntries(times: number): Buffer {
  const sheet = repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<row><c><v>1</v></c></row>'), 50, WORKSHEET_TAIL);
  const sheets = Array.from({ length: times }, (_, i) => `<sheet name="s${i}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const relationships = Array.from({ length: times }, (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`).join('');
  return bombXlsx({ sheets: [['s0', sheet]], entries: { sheets, relationships } });
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident size (MB) of a process and, separately, of all its children (the conversion processes), from /proc. */
function treeRss(pid: number): { host: number; conversions: number } {
  const rss = (id: number) => {
    try {
      return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'latin1'))?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  let conversions = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').trim();
    for (const child of children ? children.split(/\s+/) : []) conversions += rss(Number(child));
  }
  return { host: rss(pid), conversions };
}

/** The peak resident sizes while it runs, sampled every 50 ms. */
class Sampler {
  peakHost = 0;
  peakConversions = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(pid: number) {
    this.timer = setInterval(() => {
      const now = treeRss(pid);
      this.peakHost = Math.max(this.peakHost, now.host);
      this.peakConversions = Math.max(this.peakConversions, now.conversions);
    }, 50);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

interface Ended {
  ms: number;
  status: string;
  code: string | null;
}

/** The demo's API as its demo client: statement and bulk jobs submitted, uploaded and polled to their end. */
class Api {
  constructor(private readonly base: string, private readonly headers: Record<string, string>) {}

  async statementJob(uploads: { workbook: Buffer | string; conso?: Buffer; csi?: Buffer }): Promise<Ended> {
    const started = performance.now();
    const body = { ...STATEMENT, ...(uploads.conso ? { kind: 'correction' } : {}), ...(uploads.csi ? { csi: true } : {}) };
    const job = await this.call('POST', '/tds/reports/txt', body);
    await put(job.json_url, uploads.workbook);
    if (uploads.conso) await put(job.conso_url, uploads.conso);
    if (uploads.csi) await put(job.csi_url, uploads.csi);
    const done = await this.until(`/tds/reports/txt?job_id=${job.job_id}`);
    const ms = performance.now() - started;
    if (done.status !== 'failed') return { ms, status: done.status, code: null };
    const report = (await (await fetch(done.validation_report_json_url)).json()) as { problems: Array<{ code: string }> };
    return { ms, status: done.status, code: report.problems[0]?.code ?? null };
  }

  async bulkJob(csv: Buffer): Promise<Ended> {
    const started = performance.now();
    const job = await this.call('POST', '/bulk/verifications', { '@entity': 'in.co.service.bulk.verification.request', kind: 'ifsc' });
    await put(job.csv_url, csv);
    const done = await this.until(`/bulk/verifications/${job.job_id}`);
    return { ms: performance.now() - started, status: done.status, code: done.code ?? null };
  }

  /** Polls every 10 ms until the job succeeded or failed. */
  private async until(path: string): Promise<any> {
    for (;;) {
      const job = await this.call('GET', path);
      if (job.status === 'succeeded' || job.status === 'failed') return job;
      await sleep(10);
    }
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<any> {
    const answer = await fetch(`${this.base}${path}`, { method, headers: this.headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    const json = (await answer.json()) as { data?: unknown };
    if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(json)}`);
    return json.data;
  }
}

async function put(url: string, body: Buffer | string): Promise<void> {
  const answer = await fetch(url, { method: 'PUT', body });
  if (answer.status !== 200) throw new Error(`upload answered ${answer.status}`);
}

/** Small statement jobs one at a time until `stop` says so (at least `min`); their latencies. */
async function steadyLoad(api: Api, small: string, min: number, stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (latencies.length < min || !stop()) {
    const run = await api.statementJob({ workbook: small });
    if (run.status !== 'succeeded') throw new Error(`a small job ended ${run.status}`);
    latencies.push(run.ms);
  }
  return latencies;
}

/** The demo from its built code, with a data folder, a key prefix and a demo client of its own. */
async function startDemo(concurrency: number): Promise<{ demo: ProgramProcess; api: Api; close(): Promise<unknown> }> {
  const demo = await startDemoApi('bombs', undefined, {
    main: DEMO, nodeArgs: [], readyTimeoutMs: 60_000,
    env: {
      SATYAPAN_KEY_PREFIX: `bench-bombs-${randomUUID().slice(0, 8)}`, SATYAPAN_DEMO_RATE_LIMIT: '1000000', LOG_LEVEL: 'warn',
      // A worker with a conversion lane per core (OPERATIONS.md), so a small job does not queue behind a bomb.
      SATYAPAN_WORKER_CONCURRENCY: String(concurrency),
    },
  });
  return { demo: demo.demo, api: new Api(demo.api, demo.headers), close: demo.close };
}

export async function main(args: string[]): Promise<void> {
  // p99 of N samples is their max below 100: enough samples on both sides that one outlier is not the figure.
  const smallJobs = numberArg(args, 'small', 200);
  const perBomb = numberArg(args, 'per-bomb', 16);
  const concurrency = numberArg(args, 'concurrency', 2);
  const { demo, api, close } = await startDemo(concurrency);
  try {
    const pid = demo.child.pid!;
    const small = JSON.stringify(workbook26Q({ rows: 5 }));
    await steadyLoad(api, small, 10, () => true); // warm-up: the conversion process started, scripts loaded
    const unloaded = (await steadyLoad(api, small, smallJobs, () => true)).sort((a, b) => a - b);
    console.log(`demo host app, statement worker concurrency ${concurrency}`);
    console.log(`small statement jobs, no bomb: p50 ${percentile(unloaded, 50).toFixed(1)} ms, p99 ${percentile(unloaded, 99).toFixed(1)} ms (${unloaded.length} jobs, submit -> poll says succeeded)`);
    console.log('');
    console.log(`${'bomb'.padEnd(40)} ${'upload'.padStart(9)}  ${'outcome'.padEnd(30)} ${'time'.padStart(8)}  ${'small jobs p50 / max'.padEnd(22)} peak RSS host / conversion processes`);
    const loaded: number[] = [];
    for (const bomb of BOMBS) {
      const bytes = bomb.bytes();
      const sampler = new Sampler(pid);
      let finished = false;
      const attack = (bomb.slot === 'bulk' ? api.bulkJob(bytes) : api.statementJob(bomb.slot === 'workbook' ? { workbook: bytes } : { workbook: small, [bomb.slot]: bytes }))
        .finally(() => { finished = true; });
      const [result, latencies] = await Promise.all([attack, steadyLoad(api, small, perBomb, () => finished)]);
      sampler.stop();
      loaded.push(...latencies);
      const outcome = `${result.status}${result.code ? ` ${result.code}` : ''}`;
      // Which bomb slows the small jobs down: their median and worst while it ran.
      const during = [...latencies].sort((a, b) => a - b);
      const smallJobsNow = `${percentile(during, 50).toFixed(0)} / ${during[during.length - 1]!.toFixed(0)} ms`;
      console.log(`${bomb.name.padEnd(40)} ${`${(bytes.length / 1024).toFixed(0)} KiB`.padStart(9)}  ${outcome.padEnd(30)} ${`${(result.ms / 1000).toFixed(2)} s`.padStart(8)}  ${smallJobsNow.padEnd(22)} ${sampler.peakHost.toFixed(0)} MB / ${sampler.peakConversions.toFixed(0)} MB`);
    }
    loaded.sort((a, b) => a - b);
    console.log('');
    console.log(`small statement jobs under bombs: p50 ${percentile(loaded, 50).toFixed(1)} ms, p99 ${percentile(loaded, 99).toFixed(1)} ms (${loaded.length} jobs)`);
    console.log(`ratio small-job p99 under bombs / unloaded: ${(percentile(loaded, 99) / percentile(unloaded, 99)).toFixed(2)} (goal <= 2)`);
  } finally {
    await close();
  }
}
