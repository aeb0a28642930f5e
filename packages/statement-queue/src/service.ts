import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import {
  requirePresent, serviceError, JOB_ID_PATTERN,
  type ObjectStorage, type RedisConnection, type Sealer,
} from '@satyapan/core';
import { JobServiceBase, settingsFrom, type JobServiceSettings } from '@satyapan/jobs';
import { DEFAULTS } from './defaults.js';
import { Dispatcher } from './dispatch.js';
import { JobStore } from './job-store.js';
import { StatementKeys, ownerOf, refOfUploadKey, storageKeys, type JobRef } from './keys.js';
import { listEntity, type CorrectionRequest, type JobOwner, type StatementKind, type JobRecord, type Quarter, type SearchPage, type StatementDomain, type StatementJobView } from './model.js';
import { domainOfForm, requestStartYear, tcsForm } from './period.js';
import { createStatementQueue, watchQueueDepth, type ConvertJobData } from './queues.js';
import { Retention } from './retention.js';
import { webhookSecretContext } from './sealing.js';
import { JobSearch, type SearchQuery } from './search.js';
import { pollView, summaryView } from './view.js';

export interface SubmitRequest {
  domain: StatementDomain;
  tan: string;
  /** TDS only: either name of a form (24Q/138, 26Q/140, 27Q/144). */
  form?: string;
  quarter: Quarter;
  /** `FY 2025-26` or `TY 2026-27`. */
  financialYear: string;
  previousReceiptNumber?: string;
  /** The caller will upload a CSI file too: the job gets a second upload URL and waits for both files. */
  csi?: boolean;
  /** `correction`: a correction statement; the job gets a `conso_url` for the TRACES conso file and waits for it. */
  kind?: StatementKind;
  originalReceiptNumber?: string;
  lastCorrectionReceiptNumber?: string;
  correctionTypes?: string[];
}

/**
 * The framework's service settings (@satyapan/jobs JobServiceSettings) with the statements' defaults: `json_url`
 * valid 24 h, workbooks up to 50 MB, `txt_url` and `validation_report_url` valid 1 h, jobs kept 90 days.
 */
export interface StatementServiceOptions extends JobServiceSettings {
  /** A producer-flavour connection: fails fast, so callers get a 503 instead of a hung request. */
  redis: RedisConnection;
  storage: ObjectStorage;
  /** Seals webhook secrets at rest and search cursors. Workers need the same keys. */
  sealer: Sealer;
  /** Statement jobs (TDS and TCS together) one client may have waiting or running; default 1,000 (a submit past it is a 429). */
  maxJobsPerClient?: number;
}

/** What a StatementService cannot work without, and what to give for each. */
const SERVICE_NEEDS = {
  redis: 'a producer connection, createRedisConnection({ url, flavour: \'producer\' })',
  storage: 'the object storage the router serves (the same as the router\'s and the workers\')',
  sealer: 'new Sealer(sealingKeys), the same keys as the workers',
} as const;

/**
 * The statement job workflow for callers (docs/API.md "Statement jobs"): submit, poll, search, and the reaction
 * to uploads. Conversion happens elsewhere, in `createStatementWorker`.
 */
export class StatementService extends JobServiceBase {
  readonly keys: StatementKeys;
  readonly store: JobStore;
  readonly queue: Queue<ConvertJobData>;
  private readonly search: JobSearch;
  protected readonly dispatcher: Dispatcher;
  protected readonly retention: Retention;
  private readonly settings: { [K in keyof typeof DEFAULTS]: number };

  constructor(private readonly options: StatementServiceOptions) {
    requirePresent('StatementService', options, SERVICE_NEEDS);
    super({ ...options, family: 'statement', connectionName: 'satyapan-statements', uploadOf: refOfUploadKey });
    this.keys = new StatementKeys(options.keyPrefix);
    this.store = new JobStore(this.redis, this.keys, options.metrics);
    this.settings = settingsFrom(DEFAULTS, options);
    this.queue = createStatementQueue(this.redis, this.keys.bullPrefix, this.logger);
    watchQueueDepth(options.metrics, this.queue);
    this.search = new JobSearch(this.redis, this.keys, this.store, options.sealer);
    this.dispatcher = new Dispatcher({
      redis: this.redis, storage: options.storage, store: this.store, keys: this.keys, queue: this.queue,
      clock: this.clock, logger: this.logger, uploadTtlSeconds: this.settings.uploadTtlSeconds,
      maxUploadBytes: this.settings.maxUploadBytes,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    this.retention = new Retention(this.redis, options.storage, this.store, this.keys, this.clock, this.logger);
    this.watchUploads(options.watchUploads, { load: (ref) => this.store.get(ref), refuse: refuseExtraUpload, alreadyUploaded });
  }

  /** Creates a job in `created` with a pre-signed `json_url` for the workbook (and `csi_url` when asked for). */
  async submitJob(request: SubmitRequest, owner: JobOwner): Promise<StatementJobView> {
    await this.connected();
    const startYear = requestStartYear(request.financialYear, this.clock.now());
    if (startYear === null) throw serviceError('UNPROCESSABLE', `Invalid financial year: ${request.financialYear}`);
    const form = this.formOf(request, startYear);
    const correction = correctionOf(request);
    const jobId = randomUUID();
    const ref: JobRef = { owner: ownerOf(owner.clientId), jobId };
    const now = this.clock.now();
    await this.ensureUnderJobCap(ref.owner, now);
    // Signed before anything is written, so nothing is left behind if signing fails.
    const upload = { expiresInSeconds: this.settings.uploadTtlSeconds, maxBytes: this.settings.maxUploadBytes };
    const jsonUrl = await this.options.storage.presignPut(storageKeys.upload(ref), upload);
    const csiUrl = request.csi === true ? await this.options.storage.presignPut(storageKeys.csiUpload(ref), upload) : null;
    const consoUrl = correction ? await this.options.storage.presignPut(storageKeys.consoUpload(ref), upload) : null;
    const record = this.newRecord(request, owner, jobId, form, now, correction);
    // Global sets first: if the record write then fails, they hold an entry the sweeps drop.
    await Promise.all([this.dispatcher.markPending(ref, now), this.retention.schedule(ref, now + this.retentionMs())]);
    if (!(await this.store.create(ref, record))) throw new Error(`Job id collision: ${jobId}`);
    return { ...summaryView(record), json_url: jsonUrl, ...(csiUrl !== null ? { csi_url: csiUrl } : {}), ...(consoUrl !== null ? { conso_url: consoUrl } : {}) };
  }

  /** The caller's job; 521 for an unknown id, another client's id, or a job of the other domain. */
  async getJob(domain: StatementDomain, clientId: string, jobId: string): Promise<StatementJobView> {
    await this.connected();
    const record = await this.findOwned(domain, clientId, jobId);
    return pollView(record, { storage: this.options.storage, downloadTtlSeconds: this.settings.downloadTtlSeconds });
  }

  async searchJobs(domain: StatementDomain, clientId: string, query: SearchQuery): Promise<SearchPage> {
    if (query.financialYear !== undefined && requestStartYear(query.financialYear, this.clock.now()) === null) {
      throw serviceError('UNPROCESSABLE', `Invalid financial year: ${query.financialYear}`);
    }
    if (query.fromDate !== undefined && query.toDate !== undefined && query.fromDate > query.toDate) {
      throw serviceError('INVALID_FIELD', 'from_date', 'must not be after to_date');
    }
    await this.connected();
    const result = await this.search.search(ownerOf(clientId), domain, query);
    return { '@entity': listEntity(domain), items: result.records.map(summaryView), last_evaluated_key: result.lastEvaluatedKey };
  }

  /**
   * Deletes the files of jobs whose record is gone (after Redis lost data); only files older than an hour.
   * Returns how many jobs' files were deleted.
   */
  async purgeOrphans(limit = 500): Promise<number> {
    await this.connected();
    return this.retention.purgeOrphans(limit);
  }

  /** A 429 naming the cap when the client has `maxJobsPerClient` jobs waiting or running (two racing submits may pass it, by one each). */
  private async ensureUnderJobCap(owner: string, now: number): Promise<void> {
    const held = await this.store.activeCount(owner, now - this.settings.uploadTtlSeconds * 1000);
    if (held >= this.settings.maxJobsPerClient) throw serviceError('STATEMENT_JOBS_LIMIT', held, this.settings.maxJobsPerClient);
  }

  private formOf(request: SubmitRequest, startYear: number): string {
    if (request.domain === 'tcs') return tcsForm(startYear);
    const form = request.form ?? '';
    if (domainOfForm(form) !== 'tds') throw serviceError('UNPROCESSABLE', `Invalid form type: ${form}`);
    return form;
  }

  private newRecord(request: SubmitRequest, owner: JobOwner, jobId: string, form: string, now: number, correction: CorrectionRequest | null): JobRecord {
    const secret = owner.webhookUrl && owner.webhookSecret ? owner.webhookSecret : null;
    return {
      jobId,
      domain: request.domain,
      clientId: owner.clientId,
      tan: request.tan,
      form,
      quarter: request.quarter,
      financialYear: request.financialYear,
      previousReceiptNumber: request.previousReceiptNumber ?? null,
      csiExpected: request.csi === true,
      correction,
      status: 'created',
      createdAt: now,
      updatedAt: now,
      attempts: 0,
      message: null,
      txtKey: null,
      reportKey: null,
      reportXlsxKey: null,
      warningCount: null,
      problems: null,
      errorCount: null,
      webhookUrl: owner.webhookUrl ?? null,
      webhookSecretSealed: secret === null ? null : this.options.sealer.seal(secret, webhookSecretContext(jobId)),
    };
  }

  private async findOwned(domain: StatementDomain, clientId: string, jobId: string): Promise<JobRecord> {
    // The id is looked up only under the caller's own owner tag: another client's job is simply not there.
    const record = JOB_ID_PATTERN.test(jobId) ? await this.store.get({ owner: ownerOf(clientId), jobId }) : null;
    if (!record || record.domain !== domain || record.clientId !== clientId) throw serviceError('JOB_NOT_FOUND', jobId);
    return record;
  }

  private retentionMs(): number {
    return this.settings.retentionDays * 24 * 3600 * 1000;
  }
}

/** A CSI file only for a job whose request asked for one, a conso file only for a correction. */
function refuseExtraUpload(key: string, ref: JobRef, record: JobRecord): void {
  if (key.endsWith(storageKeys.csiUpload(ref)) && !record.csiExpected) throw serviceError('CONFLICT', 'This job takes no CSI file (submit it with csi: true)');
  if (key.endsWith(storageKeys.consoUpload(ref)) && !record.correction) throw serviceError('CONFLICT', 'This job takes no conso file (submit it with kind: correction)');
}

function alreadyUploaded(key: string, ref: JobRef): string {
  if (key.endsWith(storageKeys.csiUpload(ref))) return 'CSI file already uploaded';
  return key.endsWith(storageKeys.consoUpload(ref)) ? 'Conso file already uploaded' : 'Workbook already uploaded';
}

/**
 * The correction part of a request. Only `kind: 'correction'` makes a correction; its fields without it, and
 * `previous_receipt_number` with it (the regular statement's BH 9, not a correction's token), are refused.
 */
function correctionOf(request: SubmitRequest): CorrectionRequest | null {
  const extras = ([
    ['original_receipt_number', request.originalReceiptNumber],
    ['last_correction_receipt_number', request.lastCorrectionReceiptNumber],
    ['correction_types', request.correctionTypes],
  ] as const).filter(([, value]) => value !== undefined);
  if (request.kind !== 'correction') {
    if (extras.length > 0) throw serviceError('INVALID_FIELD', extras[0]![0], 'is only for a correction job (kind: correction)');
    return null;
  }
  if (request.previousReceiptNumber !== undefined) {
    throw serviceError('INVALID_FIELD', 'previous_receipt_number', 'is for a regular statement; a correction takes original_receipt_number and last_correction_receipt_number');
  }
  return {
    originalReceiptNumber: request.originalReceiptNumber ?? null,
    lastCorrectionReceiptNumber: request.lastCorrectionReceiptNumber ?? null,
    types: request.correctionTypes ? [...new Set(request.correctionTypes)] : null,
  };
}
