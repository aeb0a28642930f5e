// npm run bench -- form16 [--employees 10000] [--signed 10000] [--job 10000] [--signed-job 10000]
//
// Form 16 for a 24Q Q4 workbook of N employees (issue 26), in one makeForm16s() job each: unsigned, then signed
// with a PKCS#12 certificate made by openssl for the run (`--signed` employees; 0 skips it). The baseline,
// measured in the same run: for each employee, the text of the same Part B lines (partBRows) written to its own
// file. Reported: per-PDF milliseconds and their ratio to the per-file baseline; the one conversion of the
// workbook (salaryAnnexure, inside each job) is timed on its own and included in the per-PDF figures.
// Then (`--job` employees, 0 skips) the same unsigned workbook as a Form 16 job on the job framework
// (@satyapan/form16-queue: service and worker in this process, a real Redis, FsStorage): from the upload to
// `succeeded`, the zip and index stored; reported against the library's unsigned job of this run. And
// (`--signed-job` employees, default `--signed`, 0 skips) a signed Form 16 job: the certificate uploaded to the
// job's slot with its password in the request, against the library's signed job of this run.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { salaryAnnexure, type ConvertOptions } from '../packages/statement-engine/src/index.js';
import { makeForm16s, partBRows } from '../packages/form16/src/index.js';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { FsStorage, Sealer, createRedisConnection, waitForRedis } from '@satyapan/core';
import { Form16Service, createForm16Worker } from '@satyapan/form16-queue';
import { OPTIONS_24Q_Q4 } from '../packages/statement-engine/test/support/more-fixtures.js';
import { manyEmployeesWorkbook as workbook } from '../packages/form16/test/support/workbook.js';

const NOW = new Date();
const PASSWORD = 'bench';

function argument(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The baseline: each employee's Part B lines as text, one file each. */
function textBaseline(book: unknown, options: ConvertOptions, dir: string): { ms: number; files: number } {
  const annexure = salaryAnnexure(book, options);
  const started = performance.now();
  for (const e of annexure.employees) {
    const text = partBRows(e).map((r) => [r.item, r.label, r.amount ?? r.gross ?? '', r.qualifying ?? '', r.deductible ?? ''].join('\t')).join('\n');
    writeFileSync(join(dir, `${e.detail.pan}.txt`), text);
  }
  return { ms: performance.now() - started, files: annexure.employees.length };
}

async function job(book: unknown, employees: number, dir: string, now: Date, certificate?: { path: string; password: string }): Promise<number> {
  const started = performance.now();
  const result = await makeForm16s({ workbook: book, financialYear: OPTIONS_24Q_Q4.financialYear, tan: OPTIONS_24Q_Q4.tan, outDir: dir, now, ...(certificate ? { certificate } : {}) });
  if (result.lines.length !== employees) throw new Error(`made ${result.lines.length} PDFs of ${employees}: ${JSON.stringify(result.report.problems.slice(0, 3))}`);
  return performance.now() - started;
}

/** A pre-signed PUT of the job's storage, done as the storage's own route would receive it. */
async function put(storage: FsStorage, presigned: string, bytes: Buffer): Promise<void> {
  const url = new URL(presigned);
  const grant = storage.verifySignedUrl('PUT', decodeURIComponent(url.pathname.replace(/^\/storage\//, '')), Object.fromEntries(url.searchParams));
  await storage.receiveUpload(grant, Readable.from([bytes]));
}

/**
 * The workbook as a Form 16 job: from the first upload to `succeeded`, in ms; its PDF count checked. With a
 * certificate, the job asks for one (`certificate_password`), which is uploaded before the workbook.
 */
async function httpJob(book: unknown, employees: number, dir: string, certificate?: { path: string; password: string }): Promise<number> {
  const keyPrefix = `bench-form16-${randomUUID()}`;
  const redis = createRedisConnection({ flavour: 'producer', connectionName: 'bench-form16' });
  const connection = createRedisConnection({ flavour: 'worker', connectionName: 'bench-form16-worker' });
  await waitForRedis(redis);
  const storage = new FsStorage({ root: dir, signingSecret: 'bench', publicBaseUrl: 'http://127.0.0.1:9/storage' });
  const sealer = new Sealer([{ id: 'k1', key: Sealer.generateKey() }]);
  const service = new Form16Service({ redis, storage, sealer, keyPrefix });
  const worker = createForm16Worker({ connection, storage, sealer, keyPrefix, sweepIntervalMs: 100, retentionIntervalMs: 0 });
  try {
    await worker.ready();
    const request = { tan: OPTIONS_24Q_Q4.tan, financialYear: OPTIONS_24Q_Q4.financialYear, ...(certificate ? { certificatePassword: certificate.password } : {}) };
    const job = await service.submit(request, { clientId: 'bench' });
    const started = performance.now();
    if (certificate) await put(storage, job.certificate_url as string, readFileSync(certificate.path));
    await put(storage, job.workbook_url as string, Buffer.from(JSON.stringify(book)));
    for (;;) {
      const view = await service.get('bench', job.job_id);
      if (view.status === 'succeeded') {
        if (view.pdfs !== employees) throw new Error(`the job made ${view.pdfs} PDFs of ${employees}`);
        return performance.now() - started;
      }
      if (view.status === 'failed') throw new Error(`the job failed: ${view.message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await worker.close({ timeoutMs: 2_000 });
    await service.close();
    for (const key of await redis.keys(`${keyPrefix}*`)) await redis.del(key);
    redis.disconnect();
    connection.disconnect();
  }
}

function certificate(dir: string): { path: string; password: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=Bench Signer/C=IN');
  run('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'cert.p12', '-passout', `pass:${PASSWORD}`);
  return { path: join(dir, 'cert.p12'), password: PASSWORD };
}

export async function main(args: string[]): Promise<void> {
  const employees = argument(args, 'employees', 10000);
  const signed = argument(args, 'signed', employees);
  const jobEmployees = argument(args, 'job', employees);
  const signedJob = argument(args, 'signed-job', signed);
  const root = mkdtempSync(join(tmpdir(), 'bench-form16-'));
  try {
    const book = workbook(employees);
    const options: ConvertOptions = { ...OPTIONS_24Q_Q4, now: () => NOW };
    const conversionStart = performance.now();
    const annexure = salaryAnnexure(book, options);
    const conversion = performance.now() - conversionStart;
    if (annexure.employees.length !== employees) throw new Error(`the workbook gives ${annexure.employees.length} SD records, not ${employees}: ${JSON.stringify(annexure.report.problems.slice(0, 3))}`);
    console.log(`workbook: ${employees} employees; one conversion (salaryAnnexure: TXT and records) ${seconds(conversion)}`);
    const base = textBaseline(book, options, mkdtempSync(join(root, 'text-')));
    const basePer = base.ms / base.files;
    console.log(`baseline: the same Part B lines as text, one file per employee: ${seconds(base.ms)}, ${basePer.toFixed(3)} ms per file`);
    const unsigned = await job(book, employees, join(root, 'unsigned'), NOW);
    const unsignedPer = unsigned / employees;
    console.log(`unsigned: ${employees} PDFs in one job ${seconds(unsigned)}, ${unsignedPer.toFixed(2)} ms per PDF`);
    console.log(`ratio unsigned Form 16 PDF / text file: ${(unsignedPer / basePer).toFixed(1)}x per employee`);
    if (jobEmployees > 0) {
      const ms = await httpJob(jobEmployees === employees ? book : workbook(jobEmployees), jobEmployees, mkdtempSync(join(root, 'job-')));
      const per = ms / jobEmployees;
      const library = jobEmployees === employees ? unsignedPer : (await job(workbook(jobEmployees), jobEmployees, join(root, 'unsigned-job'), NOW)) / jobEmployees;
      console.log(`job: ${jobEmployees} PDFs as a Form 16 job (upload to succeeded, zip and index stored) ${seconds(ms)}, ${per.toFixed(2)} ms per PDF`);
      console.log(`ratio Form 16 job / library, unsigned: ${(per / library).toFixed(2)}x per employee`);
    }
    if (signed > 0) {
      const subset = signed === employees ? book : workbook(signed);
      const cert = certificate(root);
      // After the certificate exists: it is valid from the whole second it was made.
      const ms = await job(subset, signed, join(root, 'signed'), new Date(), cert);
      const per = ms / signed;
      console.log(`signed: ${signed} PDFs in one job ${seconds(ms)}, ${per.toFixed(2)} ms per PDF`);
      console.log(`ratio signed Form 16 PDF / text file: ${(per / basePer).toFixed(1)}x per employee`);
      if (signedJob > 0) {
        const jobMs = await httpJob(signedJob === signed ? subset : workbook(signedJob), signedJob, mkdtempSync(join(root, 'signed-job-')), cert);
        const jobPer = jobMs / signedJob;
        const library = signedJob === signed ? per : (await job(workbook(signedJob), signedJob, join(root, 'signed-library'), new Date(), cert)) / signedJob;
        console.log(`signed job: ${signedJob} signed PDFs as a Form 16 job (certificate and workbook uploaded, zip and index stored) ${seconds(jobMs)}, ${jobPer.toFixed(2)} ms per PDF`);
        console.log(`ratio signed Form 16 job / library: ${(jobPer / library).toFixed(2)}x per employee; signed job / text file: ${(jobPer / basePer).toFixed(1)}x`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
