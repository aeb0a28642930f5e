import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WaitingError, type Job, type Queue } from 'bullmq';
import { FsStorage, isServiceError, readAll, type Clock, type Logger, type ObjectStorage, type SatyapanMetrics } from '@satyapan/core';
import type { InputLimits } from '@satyapan/statement-engine';
import type { ConversionOptions, ConversionOutcome, ConversionReport, Converter } from './conversion/types.js';
import { singleProblemReport } from './conversion/types.js';
import { ConversionLimitError } from './conversion/process-converter.js';
import { IllegalTransitionError } from './errors.js';
import type { JobStore, TransitionFields } from './job-store.js';
import type { OversizeFile } from './dispatch.js';
import { storageKeys, type JobRef } from './keys.js';
import { FAILURE_MESSAGES, isTerminal, type JobRecord } from './model.js';
import type { ConvertJobData, DeliveryJobData } from './queues.js';
import { failureSummary } from './problems.js';
import type { ScratchSpace } from './scratch.js';
import type { WebhookRetryOptions } from '@satyapan/jobs';
import { enqueueWebhook } from './webhooks.js';

export interface ProcessorOptions {
  store: JobStore;
  storage: ObjectStorage;
  converter: Converter;
  clock: Clock;
  logger: Logger;
  maxUploadBytes: number;
  /** Absent when webhooks are off. */
  webhookQueue: Queue<DeliveryJobData> | null;
  webhookRetry?: WebhookRetryOptions;
  /** Where per-job scratch folders (workbook copy, TXT, engine spill files) are made. */
  scratch: ScratchSpace;
  /** Where conversion durations are recorded (`satyapan_statement_conversion_duration_seconds`). */
  metrics?: SatyapanMetrics;
  /** The engine's input limits over its defaults. */
  inputLimits?: Partial<InputLimits>;
}

export type ProcessResult = { outcome: 'succeeded' | 'failed' } | { outcome: 'skipped'; reason: 'job-gone' | 'already-finished' };

/**
 * One conversion job: workbook in, TXT and report out, record moved on, webhook queued. Safe to run again for
 * the same job (after a crash, a retry, a stalled lock): outputs have fixed names and are overwritten, a job
 * already finished is only re-announced (its webhook is deduplicated by id), and the record's transitions are
 * checked atomically. Workbook problems end the job; infrastructure failures throw so BullMQ retries them.
 */
export class StatementProcessor {
  constructor(private readonly options: ProcessorOptions) {}

  async process(job: Job<ConvertJobData>, token?: string, signal?: AbortSignal): Promise<ProcessResult> {
    const ref: JobRef = { owner: job.data.owner, jobId: job.data.jobId };
    const record = await this.options.store.get(ref);
    if (!record) return { outcome: 'skipped', reason: 'job-gone' };
    if (isTerminal(record.status)) {
      await this.announce(record, ref);
      return { outcome: 'skipped', reason: 'already-finished' };
    }
    const startedAt = this.options.clock.now();
    try {
      await this.options.store.transition(ref, record.domain, 'in_progress', startedAt);
      const result = await this.convert(ref, record, signal);
      this.logRun(ref, record, job, startedAt, result.outcome);
      return result;
    } catch (error) {
      this.logRun(ref, record, job, startedAt, signal?.aborted ? 'handed-back' : 'error');
      if (signal?.aborted) return this.handBack(job, token);
      if (error instanceof IllegalTransitionError && isTerminal(error.from)) return { outcome: 'skipped', reason: 'already-finished' };
      if (isFinalAttempt(job)) await this.failAfterInfrastructureError(ref, record, error);
      throw error;
    }
  }

  /** One line per run of a job, for operators: when it started and ended, how it ended, how long it took. */
  private logRun(ref: JobRef, record: JobRecord, job: Job<ConvertJobData>, startedAt: number, outcome: string): void {
    const endedAt = this.options.clock.now();
    this.options.logger.info('statement job run', {
      job_id: ref.jobId, form: record.form, attempt: job.attemptsMade + 1, outcome,
      started_at: new Date(startedAt).toISOString(), ended_at: new Date(endedAt).toISOString(), duration_ms: endedAt - startedAt,
    });
  }

  /** Marks a job failed when BullMQ gave up on it without our processor seeing the last failure (stalls). */
  async failAbandoned(ref: JobRef, reason: string): Promise<void> {
    const record = await this.options.store.get(ref);
    if (!record || isTerminal(record.status)) return;
    await this.failAfterInfrastructureError(ref, record, new Error(reason));
  }

  private async convert(ref: JobRef, record: JobRecord, signal?: AbortSignal): Promise<ProcessResult> {
    const tooLarge = await this.oversize(ref);
    if (tooLarge !== null) {
      const what = tooLarge.file === 'csi' ? ['CSI_TOO_LARGE', 'CSI file'] : tooLarge.file === 'conso' ? ['CONSO_TOO_LARGE', 'conso file'] : ['WORKBOOK_TOO_LARGE', 'workbook'];
      const report = singleProblemReport(what[0]!, `The ${what[1]} is ${tooLarge.size} bytes; the limit is ${this.options.maxUploadBytes} bytes`);
      return this.finish(ref, record, { kind: 'invalid-workbook', report, reportXlsx: await this.options.converter.reportXlsx(report) });
    }
    // Made empty, removing what an earlier run of this job left behind in any worker's folder (it was killed).
    const scratch = await this.options.scratch.forJob(ref.jobId);
    try {
      const inputPath = await this.localFile(ref, [storageKeys.frozenInput(ref), storageKeys.upload(ref)], join(scratch, 'workbook.json'));
      const csiPath = record.csiExpected
        ? await this.localFile(ref, [storageKeys.frozenCsi(ref), storageKeys.csiUpload(ref)], join(scratch, 'challans.csi'))
        : undefined;
      const consoPath = record.correction
        ? await this.localFile(ref, [storageKeys.frozenConso(ref), storageKeys.consoUpload(ref)], join(scratch, 'conso.tds'))
        : undefined;
      const request = {
        inputPath, outputPath: join(scratch, 'statement.txt'), scratchDir: scratch, options: conversionOptions(record),
        ...(this.options.inputLimits ? { limits: this.options.inputLimits } : {}),
        ...(csiPath ? { csiPath } : {}), ...(consoPath ? { consoPath } : {}),
      };
      return await this.finish(ref, record, await this.runConversion(request, signal));
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /**
   * The engine's run alone (not the download or the uploads of the outputs), timed by outcome (a limit's time holds
   * its one-problem .xlsx report too). A conversion that ended on its input (past its time or memory, or killed by
   * what it read) fails the job with that reason; retrying would only end another process the same way.
   */
  private async runConversion(request: Parameters<Converter['convert']>[0], signal?: AbortSignal): Promise<ConversionOutcome> {
    const { metrics, converter } = this.options;
    const started = performance.now();
    let outcome = 'error';
    try {
      const converted = await converter.convert(request, signal);
      outcome = converted.kind === 'converted' ? 'converted' : 'invalid_workbook';
      return converted;
    } catch (error) {
      if (!(error instanceof ConversionLimitError)) throw error;
      outcome = 'limit';
      const report = singleProblemReport(error.code, error.message);
      return { kind: 'converted', txtPath: null, report, reportXlsx: await converter.reportXlsx(report) };
    } finally {
      metrics?.conversionDuration.observe({ outcome }, (performance.now() - started) / 1000);
    }
  }

  /** The size of an upload over the limit, from the dispatcher's marker (S3) or the workbook it reads; else null. */
  private async oversize(ref: JobRef): Promise<{ size: number; file: OversizeFile } | null> {
    const { storage, maxUploadBytes } = this.options;
    try {
      const marker = JSON.parse((await readAll(await storage.get(storageKeys.oversizeMarker(ref)))).toString('utf8')) as { size: number; file?: OversizeFile };
      return { size: marker.size, file: marker.file ?? 'workbook' };
    } catch (error) {
      if (!(isServiceError(error) && error.code === 'OBJECT_NOT_FOUND')) throw error;
    }
    const input = (await storage.head(storageKeys.frozenInput(ref))) ?? (await storage.head(storageKeys.upload(ref)));
    return input && input.size > maxUploadBytes ? { size: input.size, file: 'workbook' } : null;
  }

  /**
   * An upload (workbook or CSI file) as a local file. On FsStorage the object's own file, read in place: no URL
   * reaches the frozen copy and FsStorage never changes a file in place, so nothing can change it under the
   * engine (a 1M-row workbook is not copied once more). Elsewhere it is streamed to `scratchPath`.
   */
  private async localFile(ref: JobRef, keys: readonly string[], scratchPath: string): Promise<string> {
    const { storage } = this.options;
    if (storage instanceof FsStorage) {
      for (const key of keys) {
        const path = await storage.localPath(key);
        if (path !== null) return path;
      }
      throw new Error(`An upload of job ${ref.jobId} is not in storage`);
    }
    await this.download(ref, keys, scratchPath);
    return scratchPath;
  }

  /**
   * Streams an upload (workbook or CSI file) to a local file: the copy taken at queueing time, or the upload
   * itself for a job queued before copies were taken on FsStorage too.
   */
  private async download(ref: JobRef, keys: readonly string[], path: string): Promise<void> {
    const { storage } = this.options;
    for (const key of keys) {
      try {
        await pipeline(await storage.get(key), createWriteStream(path));
        return;
      } catch (error) {
        if (!(isServiceError(error) && error.code === 'OBJECT_NOT_FOUND')) throw error;
      }
    }
    throw new Error(`An upload of job ${ref.jobId} is not in storage`);
  }

  private async finish(ref: JobRef, record: JobRecord, outcome: ConversionOutcome): Promise<ProcessResult> {
    const reports = await this.writeReports(ref, outcome.report, outcome.reportXlsx);
    if (outcome.kind === 'converted' && outcome.txtPath !== null) {
      const { storage } = this.options;
      // On FsStorage the TXT is linked into place when the scratch folder is on the same filesystem (no copy).
      if (storage instanceof FsStorage) await storage.putFile(storageKeys.txt(ref), outcome.txtPath);
      else await storage.put(storageKeys.txt(ref), createReadStream(outcome.txtPath), { contentType: 'text/plain; charset=us-ascii' });
      await this.end(ref, record, 'succeeded', { ...reports, txtKey: storageKeys.txt(ref) });
      return { outcome: 'succeeded' };
    }
    const message = outcome.kind === 'invalid-workbook' ? FAILURE_MESSAGES.invalidWorkbook : FAILURE_MESSAGES.validation;
    await this.end(ref, record, 'failed', { ...reports, message, ...failureSummary(outcome.report) });
    return { outcome: 'failed' };
  }

  /** The JSON report always (a succeeded job's warnings are in it); the .xlsx when there is one. */
  private async writeReports(ref: JobRef, report: ConversionReport, xlsx: Uint8Array | null): Promise<TransitionFields> {
    const { storage } = this.options;
    await storage.put(storageKeys.reportJson(ref), JSON.stringify(report), { contentType: 'application/json' });
    const fields: TransitionFields = { reportKey: storageKeys.reportJson(ref), warningCount: report.warningCount };
    if (!xlsx) return fields;
    await storage.put(storageKeys.reportXlsx(ref), Buffer.from(xlsx.buffer, xlsx.byteOffset, xlsx.byteLength));
    return { ...fields, reportXlsxKey: storageKeys.reportXlsx(ref) };
  }

  private async end(ref: JobRef, record: JobRecord, status: 'succeeded' | 'failed', fields: TransitionFields): Promise<void> {
    const { record: ended } = await this.options.store.transition(ref, record.domain, status, this.options.clock.now(), fields);
    await this.announce(ended, ref);
  }

  private async announce(record: JobRecord, ref: JobRef): Promise<void> {
    if (this.options.webhookQueue) await enqueueWebhook(this.options.webhookQueue, record, ref, this.options.webhookRetry);
  }

  private async failAfterInfrastructureError(ref: JobRef, record: JobRecord, error: unknown): Promise<void> {
    this.options.logger.error('statement job failed after its last attempt', { job_id: ref.jobId, error: (error as Error).message });
    const report = singleProblemReport('PROCESSING_ERROR', 'The statement could not be processed; submit the job again');
    let fields: TransitionFields = { message: FAILURE_MESSAGES.processing, ...failureSummary(report) };
    try {
      fields = { ...fields, ...(await this.writeReports(ref, report, await this.options.converter.reportXlsx(report))) };
    } catch {
      // Storage may be what failed: the job still ends, without a report.
    }
    try {
      await this.end(ref, record, 'failed', fields);
    } catch (endError) {
      this.options.logger.error('could not mark the statement job failed', { job_id: ref.jobId, error: (endError as Error).message });
    }
  }

  /** Shutdown ran out of time: give the job back to the queue for another worker, as it was. */
  private async handBack(job: Job<ConvertJobData>, token?: string): Promise<never> {
    await job.moveToWait(token);
    throw new WaitingError();
  }
}

function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

function conversionOptions(record: JobRecord): ConversionOptions {
  return {
    form: record.form,
    quarter: record.quarter,
    financialYear: record.financialYear,
    tan: record.tan,
    ...(record.previousReceiptNumber !== null ? { previousReceiptNumber: record.previousReceiptNumber } : {}),
    ...(record.correction
      ? {
          correction: {
            ...(record.correction.originalReceiptNumber !== null ? { originalReceiptNumber: record.correction.originalReceiptNumber } : {}),
            ...(record.correction.lastCorrectionReceiptNumber !== null ? { lastCorrectionReceiptNumber: record.correction.lastCorrectionReceiptNumber } : {}),
            ...(record.correction.types !== null ? { types: record.correction.types } : {}),
          },
        }
      : {}),
    createdAt: record.createdAt,
  };
}
