import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import {
  isTerminal, requirePresent, serviceError, JOB_ID_PATTERN, watchQueueDepth,
  type ObjectStorage, type Product, type RedisConnection, type Sealer,
} from '@satyapan/core';
import { JobServiceBase, settingsFrom, type JobServiceSettings } from '@satyapan/jobs';
import { BULK_DEFAULTS } from './defaults.js';
import { BulkDispatcher, UPLOAD_GRACE_MS } from './dispatch.js';
import { BulkFairness } from './fairness.js';
import { BulkKeys, bulkOwnerOf, bulkStorageKeys, refOfUploadKey, type BulkJobRef } from './keys.js';
import type { RowCheck, RowCheckRegistry } from './kinds.js';
import { BULK_LIST_ENTITY, zeroCounts, type BulkJobPage, type BulkJobRecord, type BulkJobView } from './model.js';
import { createBulkQueue, type BulkJobData } from './queue.js';
import { BulkRetention } from './retention.js';
import { apiKeyContext, bulkWebhookSecretContext } from './sealing.js';
import { BulkJobStore } from './store.js';
import { pollView, summaryView } from './view.js';

/**
 * The framework's service settings (@satyapan/jobs JobServiceSettings) with the bulk defaults: `csv_url` valid
 * 24 h, files up to 50 MB, `result_url` valid 1 h, jobs (account numbers, names) kept 30 days.
 */
export interface BulkServiceOptions extends JobServiceSettings {
  /** A producer-flavour connection (fails fast: callers get a 503, not a hung request). */
  redis: RedisConnection;
  storage: ObjectStorage;
  /** Seals each job's API key at rest; workers need the same keys. */
  sealer: Sealer;
  /** The row checks this API offers (`new RowCheckRegistry(bankRowChecks(bank))`); workers get the same kinds. */
  registry: RowCheckRegistry;
  /** Bulk jobs one client may have waiting or running; default 5 (a submit past it is a 429 naming the cap). */
  maxJobsPerClient?: number;
  /** Rows one client's jobs may take per `rowBudgetWindowHours`; default 1,000,000 per 24 h. Give the workers the same. */
  rowBudget?: number;
  rowBudgetWindowHours?: number;
}

/** Who submits a job: the authenticated client. */
export interface BulkOwner {
  clientId: string;
  apiKey: string;
  products: readonly Product[];
  /** Where the job's end is posted (the client's webhook, as for statement jobs); with its signing secret. */
  webhookUrl?: string | undefined;
  webhookSecret?: string | undefined;
}

export interface BulkSubmitRequest {
  kind: string;
  /** Rows may be answered from the client's verification cache (as `x-accept-cache: true`). */
  acceptCache?: boolean;
}

export const BULK_PAGE_SIZE = { default: 20, max: 50 } as const;

/**
 * Bulk verification jobs for callers (docs/API.md "Bulk verification jobs"): submit (an upload URL for the
 * CSV), poll (progress and, at the end, the result file), list, and the reaction to uploads. The rows are
 * checked elsewhere, by `createBulkWorker`.
 */
export class BulkService extends JobServiceBase {
  readonly keys: BulkKeys;
  readonly store: BulkJobStore;
  readonly queue: Queue<BulkJobData>;
  protected readonly dispatcher: BulkDispatcher;
  protected readonly retention: BulkRetention;
  private readonly fairness: BulkFairness;
  private readonly settings: { uploadTtlSeconds: number; maxUploadBytes: number; downloadTtlSeconds: number; retentionDays: number };

  constructor(private readonly options: BulkServiceOptions) {
    requirePresent('BulkService', options, {
      redis: 'a producer connection, createRedisConnection({ url, flavour: \'producer\' })',
      storage: 'the object storage the router serves (the same as the router\'s)',
      sealer: 'new Sealer(sealingKeys), the same keys as the workers',
      registry: 'the row checks, new RowCheckRegistry([...bankRowChecks(bank), ...kycRowChecks({ pan })])',
    });
    super({ ...options, family: 'bulk', connectionName: 'satyapan-bulk', uploadOf: refOfUploadKey });
    this.keys = new BulkKeys(options.keyPrefix);
    this.store = new BulkJobStore(this.redis, this.keys, options.metrics);
    const { uploadTtlSeconds, maxUploadBytes, downloadTtlSeconds, retentionDays } = BULK_DEFAULTS;
    this.settings = settingsFrom({ uploadTtlSeconds, maxUploadBytes, downloadTtlSeconds, retentionDays }, options);
    this.queue = createBulkQueue(this.redis, this.keys.bullPrefix, this.logger);
    watchQueueDepth(options.metrics, this.queue);
    this.fairness = new BulkFairness(this.redis, this.keys, {
      maxJobsPerClient: options.maxJobsPerClient ?? BULK_DEFAULTS.maxJobsPerClient,
      rowBudget: options.rowBudget ?? BULK_DEFAULTS.rowBudget,
      rowBudgetWindowHours: options.rowBudgetWindowHours ?? BULK_DEFAULTS.rowBudgetWindowHours,
    });
    this.dispatcher = new BulkDispatcher({
      redis: this.redis, storage: options.storage, store: this.store, keys: this.keys, queue: this.queue, clock: this.clock, fairness: this.fairness,
      logger: this.logger, uploadTtlSeconds: this.settings.uploadTtlSeconds, maxUploadBytes: this.settings.maxUploadBytes,
      ...(options.retry ? { retry: options.retry } : {}),
    });
    this.retention = new BulkRetention(this.redis, options.storage, this.store, this.keys, this.clock);
    this.watchUploads(options.watchUploads, { load: (ref) => this.store.get(ref), alreadyUploaded: () => 'CSV file already uploaded' });
  }

  get registry(): RowCheckRegistry {
    return this.options.registry;
  }

  /**
   * Creates a job in `created` with a pre-signed `csv_url`; 422 for a kind this API does not offer, 403 for one the
   * client may not use, 429 when the client is at its cap of jobs waiting or running or has spent its row budget.
   */
  async submit(request: BulkSubmitRequest, owner: BulkOwner): Promise<BulkJobView> {
    const check = this.options.registry.get(request.kind);
    if (!check) throw serviceError('INVALID_FIELD', 'kind', `must be one of ${this.options.registry.kinds.join(', ')}`);
    if (!owner.products.includes(check.product)) throw serviceError('INSUFFICIENT_PRIVILEGE');
    await this.connected();
    const jobId = randomUUID();
    const ref: BulkJobRef = { owner: bulkOwnerOf(owner.clientId), jobId };
    const now = this.clock.now();
    await this.fairness.ensureBudgetLeft(ref.owner, now);
    // Counted until it ends; one whose upload never comes lapses when the dispatcher gives up on it.
    await this.fairness.admit(ref, now, now + this.settings.uploadTtlSeconds * 1000 + UPLOAD_GRACE_MS, async (id) => {
      const record = await this.store.get({ owner: ref.owner, jobId: id });
      return record !== null && !isTerminal(record.status);
    });
    try {
      return await this.create(ref, check, request, owner, now);
    } catch (error) {
      // A submit that failed gives its place back (best effort: else it lapses with the upload URL).
      await this.fairness.release(ref).catch(() => undefined);
      throw error;
    }
  }

  /** Writes the job's record (and its entries in the global sets) and signs its upload URL. */
  private async create(ref: BulkJobRef, check: RowCheck, request: BulkSubmitRequest, owner: BulkOwner, now: number): Promise<BulkJobView> {
    const { jobId } = ref;
    const csvUrl = await this.options.storage.presignPut(bulkStorageKeys.upload(ref), {
      expiresInSeconds: this.settings.uploadTtlSeconds, maxBytes: this.settings.maxUploadBytes,
    });
    const record: BulkJobRecord = {
      jobId, clientId: owner.clientId, kind: check.kind, acceptCache: request.acceptCache === true,
      apiKeySealed: this.options.sealer.seal(owner.apiKey, apiKeyContext(jobId)),
      status: 'created', createdAt: now, updatedAt: now, attempts: 0, message: null, code: null,
      rowsTotal: null, rowsDone: 0, chunksDone: 0, counts: zeroCounts(), resultKey: null,
      webhookUrl: owner.webhookUrl ?? null,
      webhookSecretSealed: owner.webhookUrl && owner.webhookSecret ? this.options.sealer.seal(owner.webhookSecret, bulkWebhookSecretContext(jobId)) : null,
    };
    // Global sets first: if the record write then fails, they hold an entry the sweeps drop.
    await Promise.all([this.dispatcher.markPending(ref, now), this.retention.schedule(ref, now + this.settings.retentionDays * 86_400_000)]);
    if (!(await this.store.create(ref, record))) throw new Error(`Bulk job id collision: ${jobId}`);
    return { ...summaryView(record), csv_url: csvUrl };
  }

  /** The caller's job; 521 for an unknown id or another client's. */
  async get(clientId: string, jobId: string): Promise<BulkJobView> {
    await this.connected();
    const ref: BulkJobRef = { owner: bulkOwnerOf(clientId), jobId };
    const record = JOB_ID_PATTERN.test(jobId) ? await this.store.get(ref) : null;
    if (!record || record.clientId !== clientId) throw serviceError('JOB_NOT_FOUND', jobId);
    const inFlight = record.status === 'in_progress' ? await this.redis.hlen(this.keys.journal(ref)) : 0;
    return pollView(record, inFlight, this.options.storage, this.settings.downloadTtlSeconds);
  }

  /** The caller's jobs, newest first; `before` is the `last_evaluated_key` of the previous page. */
  async list(clientId: string, pageSize: number = BULK_PAGE_SIZE.default, before?: string): Promise<BulkJobPage> {
    if (before !== undefined && !/^\d+$/.test(before)) throw serviceError('INVALID_FIELD', 'last_evaluated_key', 'not a cursor of a previous page');
    // Digits past 2^53 would reach Redis as `1e+20` (not an integer): the caller's mistake, a 400, never a 500.
    const offset = before === undefined ? 0 : Number(before);
    if (!Number.isSafeInteger(offset)) throw serviceError('INVALID_PARAMETER', 'last_evaluated_key', `must be an integer of at most ${Number.MAX_SAFE_INTEGER}`);
    await this.connected();
    const owner = bulkOwnerOf(clientId);
    const size = Math.min(Math.max(pageSize, 1), BULK_PAGE_SIZE.max);
    const ids = await this.redis.zrevrange(this.keys.jobs(owner), offset, offset + size);
    const records = await this.store.getMany(owner, ids.slice(0, size));
    const items = records.filter((record): record is BulkJobRecord => record !== null && record.clientId === clientId).map((record) => summaryView(record));
    return { '@entity': BULK_LIST_ENTITY, items, last_evaluated_key: ids.length > size ? String(offset + size) : null };
  }
}
