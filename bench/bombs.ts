// npm run bench -- bombs [--small N] [--concurrency C]
// Every class of crafted upload (issue 22), each about 1 MB, sent through the HTTP API to a worker process
// (examples/worker, built code) while a steady load of small statement jobs runs one at a time. The baseline is
// the same small-job load with no bomb, measured first in this run. Prints, per bomb: its size, how its job
// ended (the report's code), how long it took, and the peak resident size of the worker and of its conversion
// processes; then the small jobs' p50/p99 under bombs against the unloaded p99 (goal: within 2x).
import { readFileSync, readdirSync } from 'node:fs';
import { QueueEvents } from 'bullmq';
import { createRedisConnection, readAll } from '@satyapan/core';
import { STATEMENT_QUEUE, ownerOf, storageKeys, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { startStatementsHost, type StatementsHost } from '../test/statements-support/host.js';
import { workbook26Q } from '../test/statements-support/workbooks.js';
import {
  STRINGS_HEAD, STRINGS_TAIL, STYLES_HEAD, STYLES_TAIL, WORKSHEET_HEAD, WORKSHEET_TAIL, bombXlsx, repeatedPart, unitOf, worksheet,
} from '../packages/statement-engine/test/support/bombs.js';

const CLIENT_ID = 'bench-bombs';
const CLIENT: ClientConfig = { id: CLIENT_ID, apiKey: 'key_bench_bombs', apiSecret: 'secret_bench_bombs' };
const REQUEST = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };

interface Bomb {
  name: string;
  /** Which upload of the job carries it; the others get a valid small file. */
  slot: 'workbook' | 'conso' | 'csi';
  bytes: () => Buffer;
}

const MiB = 1 << 20;

/** The attacks of issue 22, each in an upload of about 1 MB or less. */
const BOMBS: Bomb[] = [
  { name: '.xlsx styles: 150M <xf/>', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', worksheet('')]], styles: repeatedPart('styles', STYLES_HEAD, unitOf('<xf/>'), 750, STYLES_TAIL) }) },
  { name: '.xlsx shared strings: 40M', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', worksheet('')]], sharedStrings: repeatedPart('sst', STRINGS_HEAD, unitOf('<si><t>a</t></si>'), 680, STRINGS_TAIL) }) },
  { name: '.xlsx one 600M-character cell', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', repeatedPart('sheet', `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>`, unitOf('A'), 600, `</t></is></c></row>${WORKSHEET_TAIL}`)]] }) },
  { name: '.xlsx 10M nested elements', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<a>'), 30, WORKSHEET_TAIL)]] }) },
  { name: '.xlsx a 50 MB sheet listed 4,000 times', slot: 'workbook', bytes: () => repeatedEntries(4_000) },
  { name: '.xlsx 1M identical rows', slot: 'workbook', bytes: () => bombXlsx({ sheets: [['payment_sheet', repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<row><c t="inlineStr"><is><t>ABCPD1234E</t></is></c><c><v>1000</v></c></row>', 64 * 1024), 1_000, WORKSHEET_TAIL)]] }) },
  { name: 'JSON 1M nested arrays', slot: 'workbook', bytes: () => Buffer.from(`${'['.repeat(MiB)}${']'.repeat(MiB)}`) },
  { name: 'conso one 1 MB line', slot: 'conso', bytes: () => Buffer.from(`1^FH^${'x'.repeat(MiB)}`) },
  { name: 'CSI one 1 MB line', slot: 'csi', bytes: () => Buffer.from(`1^PNEG01234C^${'x'.repeat(MiB)}`) },
];

/** One worksheet of 50 MB of rows, listed `times` times in workbook.xml (each under its own name). */
function repeatedEntries(times: number): Buffer {
  const sheet = repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<row><c><v>1</v></c></row>'), 50, WORKSHEET_TAIL);
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const sheets = Array.from({ length: times }, (_, i) => `<sheet name="s${i}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const relationships = Array.from({ length: times }, (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`).join('');
  return bombXlsx({ sheets: [['s0', sheet]], entries: { sheets, relationships } });
}

function numberArg(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  const value = index >= 0 ? Number(args[index + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Resident size (MB) of a process and, separately, of its children (the conversion processes), from /proc. */
function treeRss(pid: number): { worker: number; conversions: number } {
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
  return { worker: rss(pid), conversions };
}

class Sampler {
  peakWorker = 0;
  peakConversions = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(pid: number) {
    this.timer = setInterval(() => {
      const now = treeRss(pid);
      this.peakWorker = Math.max(this.peakWorker, now.worker);
      this.peakConversions = Math.max(this.peakConversions, now.conversions);
    }, 50);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

/** Jobs through the HTTP API: submit, PUT each upload, wait for the end; the report's first code when it failed. */
class Jobs {
  private readonly ended = new Map<string, () => void>();
  private readonly done = new Set<string>();
  constructor(private readonly host: StatementsHost, events: QueueEvents) {
    const finish = ({ jobId }: { jobId: string }) => {
      this.done.add(jobId);
      this.ended.get(jobId)?.();
    };
    events.on('completed', finish);
    events.on('failed', finish);
  }

  async run(uploads: { workbook: Buffer | string; conso?: Buffer; csi?: Buffer }): Promise<{ ms: number; status: string; code: string | null }> {
    const started = performance.now();
    const body = { ...REQUEST, ...(uploads.conso ? { kind: 'correction' } : {}), ...(uploads.csi ? { csi: true } : {}) };
    const submitted = await this.host.call(CLIENT, 'POST', '/tds/reports/txt', body);
    if (submitted.status !== 200) throw new Error(`submit answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
    const job = submitted.body.data as StatementJobView;
    const ended = new Promise<void>((resolve) => {
      if (this.done.has(job.job_id)) resolve();
      this.ended.set(job.job_id, resolve);
    });
    await put(job.json_url as string, uploads.workbook);
    if (uploads.conso) await put(job.conso_url as string, uploads.conso);
    if (uploads.csi) await put(job.csi_url as string, uploads.csi);
    await ended;
    const ms = performance.now() - started;
    const polled = await this.host.call(CLIENT, 'GET', `/tds/reports/txt?job_id=${job.job_id}`);
    const status = String(polled.body?.data?.status ?? polled.status);
    if (status !== 'failed') return { ms, status, code: null };
    const report = JSON.parse((await readAll(await this.host.storage.get(storageKeys.reportJson({ owner: ownerOf(CLIENT_ID), jobId: job.job_id })))).toString('utf8')) as { problems: Array<{ code: string }> };
    return { ms, status, code: report.problems[0]?.code ?? null };
  }
}

async function put(url: string, body: Buffer | string): Promise<void> {
  const answer = await fetch(url, { method: 'PUT', body });
  if (answer.status !== 200) throw new Error(`upload answered ${answer.status}`);
}

/** Small jobs one at a time until `stop` says so (at least `min`); their latencies. */
async function steadyLoad(jobs: Jobs, small: string, min: number, stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (latencies.length < min || !stop()) {
    const run = await jobs.run({ workbook: small });
    if (run.status !== 'succeeded') throw new Error(`a small job ended ${run.status}`);
    latencies.push(run.ms);
  }
  return latencies;
}

export async function main(args: string[]): Promise<void> {
  const smallJobs = numberArg(args, 'small', 60);
  const concurrency = numberArg(args, 'concurrency', 2);
  const host = await startStatementsHost({ clients: [CLIENT] });
  const eventsConnection = createRedisConnection({ flavour: 'worker', connectionName: 'bench-bombs-events' });
  const events = new QueueEvents(STATEMENT_QUEUE, { connection: eventsConnection, prefix: `${host.keyPrefix}:bull` });
  const worker = host.spawnWorker({ SATYAPAN_WORKER_CONCURRENCY: String(concurrency), SATYAPAN_SWEEP_INTERVAL_MS: '60000' });
  try {
    await Promise.all([worker.ready(), events.waitUntilReady()]);
    const pid = worker.child.pid!;
    const jobs = new Jobs(host, events);
    const small = JSON.stringify(workbook26Q({ rows: 5 }));
    await steadyLoad(jobs, small, 10, () => true); // warm-up: conversion processes started, scripts loaded
    const unloaded = (await steadyLoad(jobs, small, smallJobs, () => true)).sort((a, b) => a - b);
    console.log(`small jobs, no bomb: p50 ${percentile(unloaded, 50).toFixed(1)} ms, p99 ${percentile(unloaded, 99).toFixed(1)} ms (${unloaded.length} jobs), worker concurrency ${concurrency}`);
    console.log('');
    console.log(`${'bomb'.padEnd(40)} ${'upload'.padStart(9)}  ${'outcome'.padEnd(26)} ${'time'.padStart(8)}  peak RSS worker / conversion processes`);
    const loaded: number[] = [];
    for (const bomb of BOMBS) {
      const bytes = bomb.bytes();
      const sampler = new Sampler(pid);
      let finished = false;
      const valid = { workbook: small };
      const attack = jobs.run(bomb.slot === 'workbook' ? { workbook: bytes } : { ...valid, [bomb.slot]: bytes }).finally(() => {
        finished = true;
      });
      const [result, latencies] = await Promise.all([attack, steadyLoad(jobs, small, 5, () => finished)]);
      sampler.stop();
      loaded.push(...latencies);
      const outcome = `${result.status}${result.code ? ` ${result.code}` : ''}`;
      console.log(`${bomb.name.padEnd(40)} ${`${(bytes.length / 1024).toFixed(0)} KiB`.padStart(9)}  ${outcome.padEnd(26)} ${`${(result.ms / 1000).toFixed(2)} s`.padStart(8)}  ${sampler.peakWorker.toFixed(0)} MB / ${sampler.peakConversions.toFixed(0)} MB`);
    }
    loaded.sort((a, b) => a - b);
    console.log('');
    console.log(`small jobs under bombs: p50 ${percentile(loaded, 50).toFixed(1)} ms, p99 ${percentile(loaded, 99).toFixed(1)} ms (${loaded.length} jobs)`);
    console.log(`ratio small-job p99 under bombs / unloaded: ${(percentile(loaded, 99) / percentile(unloaded, 99)).toFixed(2)} (goal <= 2)`);
  } finally {
    await events.close();
    eventsConnection.disconnect();
    await worker.kill('SIGTERM');
    await host.close();
  }
}
