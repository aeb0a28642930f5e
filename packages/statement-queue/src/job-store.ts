import type { SatyapanMetrics, RedisConnection } from '@satyapan/core';
import { IllegalTransitionError, JobMissingError } from './errors.js';
import { StatementKeys, type JobRef } from './keys.js';
import { LuaScript } from '@satyapan/core';
import { CREATE_RECORD, TRANSITION_RECORD, hashPairs, webhookHash, webhookOfHash } from '@satyapan/jobs';
import { JOB_STATUSES, type JobProblem, type JobRecord, type JobStatus, type Quarter, type StatementDomain } from './model.js';
import { formKind, periodStartYear } from './period.js';
import { sourcesOf } from '@satyapan/core';

/** Record fields a transition may set besides status and updated_at. */
export interface TransitionFields {
  message?: string;
  txtKey?: string;
  reportKey?: string;
  reportXlsxKey?: string;
  warningCount?: number;
  /** A failed job's first errors (stored as JSON) and its error count: what its poll shows of the report. */
  problems?: JobProblem[];
  errorCount?: number;
}

export interface TransitionResult {
  previous: JobStatus;
  record: JobRecord;
}

// KEYS[1] the record, KEYS[2..] every index it may be in.
const DELETE = new LuaScript(`
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end
return 1
`);

const FIELD_NAMES: Record<keyof TransitionFields, string> = {
  message: 'message',
  txtKey: 'txt_key',
  reportKey: 'report_key',
  reportXlsxKey: 'report_xlsx_key',
  warningCount: 'warning_count',
  problems: 'problems',
  errorCount: 'error_count',
};

/**
 * Job records in Redis: one hash per job plus sorted-set indexes (score: created_at) for search. Every write is
 * one Lua script on one slot, so a record and its indexes never disagree, and transitions are checked and
 * applied atomically against the state machine.
 */
export class JobStore {
  /** `metrics`: where jobs entering each state are counted (`satyapan_statement_jobs_total`). */
  constructor(private readonly redis: RedisConnection, readonly keys: StatementKeys, private readonly metrics?: SatyapanMetrics) {}

  /** Writes a new record and its index entries; false when a job with that id already exists. */
  async create(ref: JobRef, record: JobRecord): Promise<boolean> {
    const keys = [this.keys.record(ref), ...this.indexesOf(ref.owner, record, ['created'])];
    const created = await CREATE_RECORD.run(this.redis, keys, [record.createdAt, record.jobId, ...toHash(record)]);
    if (created === 1) this.counted(record);
    return created === 1;
  }

  async exists(ref: JobRef): Promise<boolean> {
    return (await this.redis.exists(this.keys.record(ref))) === 1;
  }

  async get(ref: JobRef): Promise<JobRecord | null> {
    return fromHash(await this.redis.hgetall(this.keys.record(ref)));
  }

  /** Records of one owner, in the order asked; null where a record is gone. One round trip. */
  async getMany(owner: string, jobIds: readonly string[]): Promise<Array<JobRecord | null>> {
    if (jobIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const jobId of jobIds) pipeline.hgetall(this.keys.record({ owner, jobId }));
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, value]) => {
      if (error) throw error;
      return fromHash(value as Record<string, string>);
    });
  }

  /** Moves a job to `to` if the state machine allows it from where it is now; throws otherwise. */
  async transition(ref: JobRef, domain: StatementDomain, to: JobStatus, now: number, fields: TransitionFields = {}): Promise<TransitionResult> {
    const keys = [this.keys.record(ref), ...this.keys.statusIndexes(ref.owner, domain, JOB_STATUSES)];
    const pairs = Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .flatMap(([name, value]) => [FIELD_NAMES[name as keyof TransitionFields], hashValue(value)]);
    const args = [ref.jobId, to, now, sourcesOf(to).join(','), JOB_STATUSES.join(','), ...pairs];
    const [outcome, previous] = (await TRANSITION_RECORD.run(this.redis, keys, args)) as [string, string];
    if (outcome === 'missing') throw new JobMissingError(ref.jobId);
    if (outcome === 'illegal') throw new IllegalTransitionError(ref.jobId, previous as JobStatus, to);
    const record = await this.get(ref);
    if (!record) {
      this.metrics?.statementJobs.inc({ state: to });
      throw new JobMissingError(ref.jobId);
    }
    this.counted(record);
    return { previous: previous as JobStatus, record };
  }

  /** A job that entered its state, by the process whose write took effect: in all and by kind. */
  private counted(record: JobRecord): void {
    this.metrics?.statementJobs.inc({ state: record.status });
    this.metrics?.jobsByKind.inc({ family: 'statement', kind: record.correction ? 'correction' : 'regular', state: record.status });
  }

  /** Removes a record and its index entries (retention). */
  async delete(ref: JobRef, record: JobRecord): Promise<void> {
    const keys = [this.keys.record(ref), ...this.indexesOf(ref.owner, record, JOB_STATUSES)];
    await DELETE.run(this.redis, keys, [ref.jobId]);
  }

  /**
   * A client's jobs waiting or running, TDS and TCS together: queued or in progress, or created since
   * `createdSince` (an older created job's upload URL has expired: it can no longer be queued). The status indexes
   * share the client's hash tag, so one pipeline reads them.
   */
  async activeCount(owner: string, createdSince: number): Promise<number> {
    const pipeline = this.redis.pipeline();
    for (const domain of ['tds', 'tcs'] as const) {
      const [created, queued, running] = this.keys.statusIndexes(owner, domain, ['created', 'queued', 'in_progress']) as [string, string, string];
      pipeline.zcount(created, createdSince, '+inf');
      pipeline.zcard(queued);
      pipeline.zcard(running);
    }
    return ((await pipeline.exec()) ?? []).reduce((sum, [error, count]) => {
      if (error) throw error;
      return sum + Number(count);
    }, 0);
  }

  /** The sorted sets a record is listed in; `statuses` says which status indexes to name. */
  private indexesOf(owner: string, record: JobRecord, statuses: readonly JobStatus[]): string[] {
    const { domain } = record;
    return [
      this.keys.index(owner, domain, 'all'),
      this.keys.index(owner, domain, 'tan', record.tan),
      this.keys.index(owner, domain, 'form', formKind(record.form) ?? record.form),
      this.keys.index(owner, domain, 'quarter', record.quarter),
      this.keys.index(owner, domain, 'fy', String(periodStartYear(record.financialYear))),
      ...this.keys.statusIndexes(owner, domain, statuses),
    ];
  }
}

/** A hash field's text: lists of objects as JSON, anything else as its string. */
function hashValue(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function toHash(record: JobRecord): string[] {
  const fields: Record<string, string | number | null> = {
    job_id: record.jobId,
    domain: record.domain,
    client_id: record.clientId,
    tan: record.tan,
    form: record.form,
    quarter: record.quarter,
    financial_year: record.financialYear,
    previous_receipt_number: record.previousReceiptNumber,
    csi_expected: record.csiExpected ? 1 : null,
    kind: record.correction ? 'correction' : null,
    original_receipt_number: record.correction?.originalReceiptNumber ?? null,
    last_correction_receipt_number: record.correction?.lastCorrectionReceiptNumber ?? null,
    correction_types: record.correction?.types ? record.correction.types.join(',') : null,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    attempts: record.attempts,
    message: record.message,
    txt_key: record.txtKey,
    report_key: record.reportKey,
    report_xlsx_key: record.reportXlsxKey,
    warning_count: record.warningCount,
    problems: record.problems === null ? null : hashValue(record.problems),
    error_count: record.errorCount,
    ...webhookHash(record),
  };
  return hashPairs(fields);
}

function fromHash(hash: Record<string, string>): JobRecord | null {
  if (!hash['job_id']) return null;
  const text = (name: string): string | null => hash[name] ?? null;
  return {
    jobId: hash['job_id'],
    domain: hash['domain'] as StatementDomain,
    clientId: hash['client_id'] ?? '',
    tan: hash['tan'] ?? '',
    form: hash['form'] ?? '',
    quarter: hash['quarter'] as Quarter,
    financialYear: hash['financial_year'] ?? '',
    previousReceiptNumber: text('previous_receipt_number'),
    csiExpected: hash['csi_expected'] === '1',
    correction: hash['kind'] === 'correction'
      ? {
          originalReceiptNumber: text('original_receipt_number'),
          lastCorrectionReceiptNumber: text('last_correction_receipt_number'),
          types: hash['correction_types'] === undefined ? null : hash['correction_types'].split(',').filter((t) => t !== ''),
        }
      : null,
    status: hash['status'] as JobStatus,
    createdAt: Number(hash['created_at']),
    updatedAt: Number(hash['updated_at']),
    attempts: Number(hash['attempts'] ?? 0),
    message: text('message'),
    txtKey: text('txt_key'),
    reportKey: text('report_key'),
    reportXlsxKey: text('report_xlsx_key'),
    warningCount: hash['warning_count'] === undefined ? null : Number(hash['warning_count']),
    problems: hash['problems'] === undefined ? null : (JSON.parse(hash['problems']) as JobProblem[]),
    errorCount: hash['error_count'] === undefined ? null : Number(hash['error_count']),
    ...webhookOfHash(hash),
  };
}
