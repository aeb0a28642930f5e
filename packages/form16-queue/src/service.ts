import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { JOB_ID_PATTERN, requirePresent, serviceError, watchQueueDepth, type ObjectStorage, type RedisConnection, type Sealer } from '@satyapan/core';
import { JobServiceBase, createJobQueue, settingsFrom, type JobRef, type JobServiceSettings, type RetentionSchedule, type UploadDispatcher } from '@satyapan/jobs';
import { FORM16_DEFAULTS, FORM16_PAGE_SIZE } from './defaults.js';
import { FORM16_QUEUE, form16Dispatcher } from './dispatch.js';
import { Form16Keys, form16OwnerOf, form16StorageKeys, refOfUploadKey } from './keys.js';
import { FORM16_LIST_ENTITY, type Form16JobPage, type Form16JobRecord, type Form16JobView } from './model.js';
import { form16Retention } from './retention.js';
import { certificatePasswordContext, form16WebhookSecretContext } from './sealing.js';
import { Form16JobStore } from './store.js';
import { pollView, summaryView } from './view.js';

/** The framework's service settings with the Form 16 defaults: uploads 24 h and 50 MB each, jobs kept 30 days. */
export interface Form16ServiceOptions extends JobServiceSettings {
  /** A producer-flavour connection (fails fast: callers get a 503, not a hung request). */
  redis: RedisConnection;
  storage: ObjectStorage;
  /** Seals each job's certificate password and webhook secret at rest; workers need the same keys. */
  sealer: Sealer;
}

export interface Form16SubmitRequest {
  tan: string;
  /** `FY 2025-26`: the financial year of the 24Q Q4 statement the certificates are for. */
  financialYear: string;
  /** The caller uploads a zip of TRACES Part A PDFs to `part_a_url`. */
  partA?: boolean;
  /** The caller uploads a PKCS#12 certificate to `certificate_url`; this is its password (sealed, never returned). */
  certificatePassword?: string;
  /** The verification place on each Part B; default the employer's town. */
  place?: string;
}

export interface Form16Owner {
  clientId: string;
  webhookUrl?: string | undefined;
  webhookSecret?: string | undefined;
}

/**
 * Form 16 jobs for callers (docs/API.md "Form 16 jobs"): submit (upload URLs for the workbook and, when asked
 * for, the Part A zip and the certificate), poll (the zip of PDFs and the index once made), list. The PDFs are
 * made elsewhere, by `createForm16Worker`.
 */
export class Form16Service extends JobServiceBase {
  readonly keys: Form16Keys;
  readonly store: Form16JobStore;
  readonly queue: Queue<JobRef>;
  protected readonly dispatcher: UploadDispatcher<Form16JobRecord>;
  protected readonly retention: RetentionSchedule;
  private readonly settings: Record<keyof typeof FORM16_DEFAULTS, number>;

  constructor(private readonly options: Form16ServiceOptions) {
    requirePresent('Form16Service', options, {
      redis: 'a producer connection, createRedisConnection({ url, flavour: \'producer\' })',
      storage: 'the object storage the router serves (the same as the router\'s and the workers\')',
      sealer: 'new Sealer(sealingKeys), the same keys as the workers',
    });
    super({ ...options, family: 'form16', connectionName: 'satyapan-form16', uploadOf: refOfUploadKey });
    this.keys = new Form16Keys(options.keyPrefix);
    this.store = new Form16JobStore(this.redis, this.keys, options.metrics);
    this.settings = settingsFrom(FORM16_DEFAULTS, options);
    this.queue = createJobQueue<JobRef>(FORM16_QUEUE, this.redis, this.keys.bullPrefix, this.logger, 'form16 queue');
    watchQueueDepth(options.metrics, this.queue);
    this.dispatcher = form16Dispatcher({
      redis: this.redis, storage: options.storage, store: this.store, keys: this.keys, queue: this.queue, clock: this.clock, logger: this.logger,
      uploadTtlSeconds: this.settings.uploadTtlSeconds, maxUploadBytes: this.settings.maxUploadBytes, ...(options.retry ? { retry: options.retry } : {}),
    });
    this.retention = form16Retention(this.redis, options.storage, this.store, this.keys, this.clock);
    this.watchUploads(options.watchUploads, { load: (ref) => this.store.get(ref), refuse: refuseExtraUpload, alreadyUploaded: () => 'File already uploaded' });
  }

  /** Creates a job in `created` with pre-signed upload URLs for its files. */
  async submit(request: Form16SubmitRequest, owner: Form16Owner): Promise<Form16JobView> {
    await this.connected();
    const ref: JobRef = { owner: form16OwnerOf(owner.clientId), jobId: randomUUID() };
    const now = this.clock.now();
    const upload = { expiresInSeconds: this.settings.uploadTtlSeconds, maxBytes: this.settings.maxUploadBytes };
    const storage = this.options.storage;
    const urls = {
      workbook_url: await storage.presignPut(form16StorageKeys.workbook(ref), upload),
      ...(request.partA ? { part_a_url: await storage.presignPut(form16StorageKeys.partA(ref), upload) } : {}),
      ...(request.certificatePassword !== undefined ? { certificate_url: await storage.presignPut(form16StorageKeys.certificate(ref), upload) } : {}),
    };
    const record = this.newRecord(ref.jobId, request, owner, now);
    // Global sets first: if the record write then fails, they hold an entry the sweeps drop.
    await Promise.all([this.dispatcher.markPending(ref, now), this.retention.schedule(ref, now + this.settings.retentionDays * 86_400_000)]);
    if (!(await this.store.create(ref, record))) throw new Error(`Form 16 job id collision: ${ref.jobId}`);
    return { ...summaryView(record), ...urls };
  }

  /** The caller's job; 521 for an unknown id or another client's. */
  async get(clientId: string, jobId: string): Promise<Form16JobView> {
    await this.connected();
    const record = JOB_ID_PATTERN.test(jobId) ? await this.store.get({ owner: form16OwnerOf(clientId), jobId }) : null;
    if (!record || record.clientId !== clientId) throw serviceError('JOB_NOT_FOUND', jobId);
    return pollView(record, this.options.storage, this.settings.downloadTtlSeconds);
  }

  /** The caller's jobs, newest first; `before` is the `last_evaluated_key` of the previous page. */
  async list(clientId: string, pageSize: number = FORM16_PAGE_SIZE.default, before?: string): Promise<Form16JobPage> {
    const offset = before === undefined ? 0 : Number(before);
    if (before !== undefined && (!/^\d+$/.test(before) || !Number.isSafeInteger(offset))) {
      throw serviceError('INVALID_PARAMETER', 'last_evaluated_key', `must be an integer of at most ${Number.MAX_SAFE_INTEGER}`);
    }
    await this.connected();
    const owner = form16OwnerOf(clientId);
    const size = Math.min(Math.max(pageSize, 1), FORM16_PAGE_SIZE.max);
    const ids = await this.redis.zrevrange(this.keys.jobs(owner), offset, offset + size);
    const records = await this.store.getMany(owner, ids.slice(0, size));
    const items = records.filter((record): record is Form16JobRecord => record !== null && record.clientId === clientId).map(summaryView);
    return { '@entity': FORM16_LIST_ENTITY, items, last_evaluated_key: ids.length > size ? String(offset + size) : null };
  }

  private newRecord(jobId: string, request: Form16SubmitRequest, owner: Form16Owner, now: number): Form16JobRecord {
    const { sealer } = this.options;
    return {
      jobId, clientId: owner.clientId, tan: request.tan, financialYear: request.financialYear,
      partAExpected: request.partA === true,
      certificatePasswordSealed: request.certificatePassword === undefined ? null : sealer.seal(request.certificatePassword, certificatePasswordContext(jobId)),
      place: request.place ?? null,
      status: 'created', createdAt: now, updatedAt: now, attempts: 0, message: null, code: null, problems: null, errorCount: null,
      pdfs: null, partAMerged: null, withoutPartA: null, partAMismatches: null,
      webhookUrl: owner.webhookUrl ?? null,
      webhookSecretSealed: owner.webhookUrl && owner.webhookSecret ? sealer.seal(owner.webhookSecret, form16WebhookSecretContext(jobId)) : null,
    };
  }
}

/** A Part A zip only for a job that asked for one, a certificate only for a job that gave its password. */
function refuseExtraUpload(key: string, ref: JobRef, record: Form16JobRecord): void {
  if (key.endsWith(form16StorageKeys.partA(ref)) && !record.partAExpected) throw serviceError('CONFLICT', 'This job takes no Part A file (submit it with part_a: true)');
  if (key.endsWith(form16StorageKeys.certificate(ref)) && record.certificatePasswordSealed === null) {
    throw serviceError('CONFLICT', 'This job takes no certificate (submit it with certificate_password)');
  }
}
