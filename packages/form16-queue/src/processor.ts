import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WaitingError, type Job } from 'bullmq';
import yazl from 'yazl';
import { isTerminal, readAll, type Clock, type Logger, type ObjectStorage, type Sealer } from '@satyapan/core';
import { Form16Error, type Form16Result } from '@satyapan/form16';
import { StatementEngineError } from '@satyapan/statement-engine';
import type { JobRef } from '@satyapan/jobs';
import { GenerationLimitError, inlineGenerator, type Form16Generator } from './generation/generator.js';
import { form16StorageKeys } from './keys.js';
import { FORM16_FAILURES, SHOWN_PROBLEMS, type Form16JobRecord, type Form16Problem } from './model.js';
import { certificatePasswordContext } from './sealing.js';
import { Form16JobStateError, type Form16Fields, type Form16JobStore } from './store.js';

export interface Form16ProcessorOptions {
  store: Form16JobStore;
  storage: ObjectStorage;
  sealer: Sealer;
  clock: Clock;
  logger: Logger;
  /** Parent of each job's scratch folder; default the OS temp directory. */
  tmpDir?: string;
  /**
   * Where the PDFs are made: the worker gives a child process with limits (ProcessGenerator); default on the
   * calling thread, with none.
   */
  generator?: Form16Generator;
  /** Told of every job that ended (its webhook is queued here), after its record says so. */
  onEnded?: (ref: JobRef, record: Form16JobRecord) => Promise<void>;
}

export type Form16RunResult = { outcome: 'succeeded' | 'failed' } | { outcome: 'skipped'; reason: 'job-gone' | 'already-finished' };

/** The local copies of a job's files in its scratch folder. */
interface LocalInputs {
  workbook: string;
  partA?: string;
  certificate?: string;
}

/**
 * Makes one job's Form 16 PDFs with @satyapan/form16 (`makeForm16s`: Part B from the same records the 24Q TXT is
 * written from, Part A merged, signed) in a scratch folder, then stores a zip of the PDFs, the index and the Part A
 * mismatches. A workbook with errors, an unreadable certificate or Part A zip fails the job with its code and is
 * never retried (the input is wrong, not the machine), and so does a generation that ended its process or passed
 * its limits (`CONVERSION_LIMIT`); anything else is retried by BullMQ.
 */
export class Form16Processor {
  constructor(private readonly options: Form16ProcessorOptions) {}

  /** `signal` aborts when the worker's shutdown runs out of time: the job is handed back to the queue. */
  async process(job: Job<JobRef>, token?: string, signal?: AbortSignal): Promise<Form16RunResult> {
    const ref: JobRef = { owner: job.data.owner, jobId: job.data.jobId };
    const record = await this.options.store.get(ref);
    if (!record) return { outcome: 'skipped', reason: 'job-gone' };
    if (isTerminal(record.status)) {
      // Its webhook may not have been queued (the worker died in between): queued again, delivered once.
      await this.options.onEnded?.(ref, record);
      return { outcome: 'skipped', reason: 'already-finished' };
    }
    try {
      await this.options.store.transition(ref, 'in_progress', this.options.clock.now());
      return await this.make(ref, record, signal);
    } catch (error) {
      if (signal?.aborted) {
        // Another worker makes it (a new attempt of the same record); this one is shutting down.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      if (error instanceof Form16JobStateError && error.from !== null && isTerminal(error.from)) return { outcome: 'skipped', reason: 'already-finished' };
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await this.failAfterError(ref, error);
      throw error;
    }
  }

  /** Marks a job failed when BullMQ gave up on it without this processor seeing the last failure (stalls). */
  async failAbandoned(ref: JobRef, reason: string): Promise<void> {
    const record = await this.options.store.get(ref);
    if (record && !isTerminal(record.status)) await this.failAfterError(ref, new Error(reason));
  }

  private async make(ref: JobRef, record: Form16JobRecord, signal?: AbortSignal): Promise<Form16RunResult> {
    const oversize = await this.oversize(ref);
    if (oversize) return this.fail(ref, { code: 'UPLOAD_TOO_LARGE', message: `The ${oversize.slot} upload is ${oversize.size} bytes, over the limit` });
    const scratch = await mkdtemp(join(this.options.tmpDir ?? tmpdir(), `satyapan-form16-${ref.jobId}-`));
    try {
      const inputs = await this.download(ref, record, scratch);
      const made = await this.makePdfs(record, inputs, join(scratch, 'out'), signal);
      if (made.kind === 'refused') return this.fail(ref, { code: made.code, message: made.message.split(scratch).join('<upload>') });
      const { result } = made;
      if (!result.report.valid) return this.failInvalid(ref, result);
      await this.store(ref, record, result, join(scratch, 'out'));
      return this.end(ref, 'succeeded', {
        pdfs: result.lines.length, partAMerged: result.lines.filter((line) => line.partA !== 'missing' && line.partA !== 'not given').length,
        withoutPartA: result.withoutPartA.length, partAMismatches: result.partAMismatches.length,
      });
    } catch (error) {
      // The input is wrong (a certificate, a Part A zip, a TAN the FVU refuses), or it ended the generation's process
      // or passed its limits: the job fails with the reason, never retried.
      if (error instanceof Form16Error || error instanceof StatementEngineError || error instanceof GenerationLimitError) return this.fail(ref, { code: error.code, message: error.message.split(scratch).join('<upload>') });
      throw error;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** The PDFs, by the generator (the certificate's password opened here, handed over in the request alone). */
  private makePdfs(record: Form16JobRecord, inputs: LocalInputs, outDir: string, signal?: AbortSignal): ReturnType<Form16Generator['generate']> {
    const password = record.certificatePasswordSealed === null ? null : this.options.sealer.unsealText(record.certificatePasswordSealed, certificatePasswordContext(record.jobId));
    return (this.options.generator ?? inlineGenerator).generate({
      workbookPath: inputs.workbook, financialYear: record.financialYear, tan: record.tan, outDir, now: this.options.clock.now(),
      ...(inputs.partA ? { partAPath: inputs.partA } : {}),
      ...(inputs.certificate && password !== null ? { certificate: { path: inputs.certificate, password } } : {}),
      ...(record.place ? { place: record.place } : {}),
    }, signal);
  }

  /** The frozen copies to local files; an .xlsx workbook (a zip: `PK`) is named so, whichever URL it came by. */
  private async download(ref: JobRef, record: Form16JobRecord, scratch: string): Promise<LocalInputs> {
    const k = form16StorageKeys;
    const staged = join(scratch, 'workbook');
    await this.fetch(k.frozenWorkbook(ref), staged);
    const head = Buffer.alloc(2);
    const file = await open(staged, 'r');
    await file.read(head, 0, 2, 0).finally(() => file.close());
    const workbook = `${staged}${head.toString('latin1') === 'PK' ? '.xlsx' : '.json'}`;
    await rename(staged, workbook);
    const inputs: LocalInputs = { workbook };
    if (record.partAExpected) await this.fetch(k.frozenPartA(ref), (inputs.partA = join(scratch, 'part-a.zip')));
    if (record.certificatePasswordSealed !== null) await this.fetch(k.frozenCertificate(ref), (inputs.certificate = join(scratch, 'certificate.p12')));
    return inputs;
  }

  private async fetch(key: string, path: string): Promise<void> {
    await pipeline(await this.options.storage.get(key), createWriteStream(path));
  }

  /** The zip of the PDFs (stored, not compressed again: PDF streams are compressed already), the index, the mismatches. */
  private async store(ref: JobRef, record: Form16JobRecord, result: Form16Result, outDir: string): Promise<void> {
    const zip = new yazl.ZipFile();
    for (const line of result.lines) zip.addFile(join(outDir, line.file), line.file, { compress: false });
    zip.addFile(join(outDir, 'index.csv'), 'index.csv');
    zip.end();
    const { storage } = this.options;
    await storage.put(form16StorageKeys.zip(ref), Readable.from(zip.outputStream), { contentType: 'application/zip' });
    await storage.put(form16StorageKeys.index(ref), createReadStream(join(outDir, 'index.csv')), { contentType: 'text/csv' });
    if (record.partAExpected) await storage.put(form16StorageKeys.mismatches(ref), createReadStream(join(outDir, 'part-a-mismatches.csv')), { contentType: 'text/csv' });
  }

  /** The statement has errors: no PDF; the first problems in the record, the whole report in report.json. */
  private async failInvalid(ref: JobRef, result: Form16Result): Promise<Form16RunResult> {
    const errors = result.report.problems.filter((problem) => problem.severity === 'error');
    const problems: Form16Problem[] = errors.slice(0, SHOWN_PROBLEMS).map(({ code, message, sheet, row, column, cell }) => ({ code, message, sheet, row, column, ...(cell ? { cell } : {}) }));
    await this.options.storage.put(form16StorageKeys.report(ref), JSON.stringify(result.report), { contentType: 'application/json' });
    return this.end(ref, 'failed', { message: FORM16_FAILURES.invalid, problems, errorCount: result.report.errorCount });
  }

  private async fail(ref: JobRef, reason: { code: string; message: string }): Promise<Form16RunResult> {
    return this.end(ref, 'failed', { message: reason.message, code: reason.code });
  }

  private async failAfterError(ref: JobRef, error: unknown): Promise<void> {
    this.options.logger.error('form16 job failed after its last attempt', { job_id: ref.jobId, error: (error as Error).message });
    try {
      await this.end(ref, 'failed', { message: FORM16_FAILURES.processing });
    } catch (endError) {
      this.options.logger.error('could not mark the form16 job failed', { job_id: ref.jobId, error: (endError as Error).message });
    }
  }

  private async end(ref: JobRef, to: 'succeeded' | 'failed', fields: Form16Fields): Promise<Form16RunResult> {
    const record = await this.options.store.transition(ref, to, this.options.clock.now(), fields);
    await this.options.onEnded?.(ref, record);
    return { outcome: to };
  }

  private async oversize(ref: JobRef): Promise<{ slot: string; size: number } | null> {
    const key = form16StorageKeys.oversize(ref);
    if (!(await this.options.storage.head(key))) return null;
    return JSON.parse((await readAll(await this.options.storage.get(key))).toString('utf8')) as { slot: string; size: number };
  }
}
