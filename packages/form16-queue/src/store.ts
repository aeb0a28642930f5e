import { JOB_STATUSES, sourcesOf, type JobStatus, type RedisConnection, type SatyapanMetrics } from '@satyapan/core';
import { CREATE_RECORD, TRANSITION_RECORD, baseHash, baseOfHash, hashPairs, type JobRef } from '@satyapan/jobs';
import type { Form16Keys } from './keys.js';
import type { Form16JobRecord, Form16Problem } from './model.js';

/** Thrown when a job moves where the lifecycle does not allow, or is gone. */
export class Form16JobStateError extends Error {
  override readonly name = 'Form16JobStateError';
  constructor(readonly jobId: string, readonly from: JobStatus | null, readonly to: JobStatus) {
    super(from === null ? `Form 16 job ${jobId} does not exist` : `Form 16 job ${jobId} cannot move from ${from} to ${to}`);
  }
}

/** Fields a transition may set besides status and updated_at, by their record names. */
export type Form16Fields = Partial<Pick<Form16JobRecord, 'message' | 'code' | 'problems' | 'errorCount' | 'pdfs' | 'partAMerged' | 'withoutPartA' | 'partAMismatches'>>;

const FIELD_NAMES: Record<keyof Form16Fields, string> = {
  message: 'message', code: 'code', problems: 'problems', errorCount: 'error_count',
  pdfs: 'pdfs', partAMerged: 'part_a_merged', withoutPartA: 'without_part_a', partAMismatches: 'part_a_mismatches',
};

/**
 * Form 16 job records in Redis: a hash per job and its client's list, both in the client's hash tag, written by
 * the framework's record scripts (create-only; transitions checked against the state machine).
 */
export class Form16JobStore {
  constructor(private readonly redis: RedisConnection, readonly keys: Form16Keys, private readonly metrics?: SatyapanMetrics) {}

  async create(ref: JobRef, record: Form16JobRecord): Promise<boolean> {
    const keys = [this.keys.record(ref), this.keys.jobs(ref.owner)];
    const created = (await CREATE_RECORD.run(this.redis, keys, [record.createdAt, record.jobId, ...toHash(record)])) === 1;
    if (created) this.counted(record.status);
    return created;
  }

  async get(ref: JobRef): Promise<Form16JobRecord | null> {
    return fromHash(await this.redis.hgetall(this.keys.record(ref)));
  }

  async getMany(owner: string, jobIds: readonly string[]): Promise<Array<Form16JobRecord | null>> {
    return Promise.all(jobIds.map((jobId) => this.get({ owner, jobId })));
  }

  async transition(ref: JobRef, to: JobStatus, now: number, fields: Form16Fields = {}): Promise<Form16JobRecord> {
    const pairs = Object.entries(fields)
      .filter(([, value]) => value !== undefined && value !== null)
      .flatMap(([name, value]) => [FIELD_NAMES[name as keyof Form16Fields], typeof value === 'object' ? JSON.stringify(value) : String(value)]);
    const args = [ref.jobId, to, now, sourcesOf(to).join(','), JOB_STATUSES.join(','), ...pairs];
    const [outcome, previous] = (await TRANSITION_RECORD.run(this.redis, [this.keys.record(ref)], args)) as [string, string];
    if (outcome === 'missing') throw new Form16JobStateError(ref.jobId, null, to);
    if (outcome === 'illegal') throw new Form16JobStateError(ref.jobId, previous as JobStatus, to);
    this.counted(to);
    const record = await this.get(ref);
    if (!record) throw new Form16JobStateError(ref.jobId, null, to);
    return record;
  }

  async delete(ref: JobRef): Promise<void> {
    await this.redis.del(this.keys.record(ref));
    await this.redis.zrem(this.keys.jobs(ref.owner), ref.jobId);
  }

  private counted(state: JobStatus): void {
    this.metrics?.jobsByKind.inc({ family: 'form16', kind: 'form16', state });
  }
}

function toHash(record: Form16JobRecord): string[] {
  return hashPairs({
    ...baseHash(record),
    tan: record.tan,
    financial_year: record.financialYear,
    part_a: record.partAExpected ? 1 : 0,
    certificate_password: record.certificatePasswordSealed,
    place: record.place,
    code: record.code,
  });
}

function fromHash(hash: Record<string, string>): Form16JobRecord | null {
  const base = baseOfHash(hash);
  if (!base) return null;
  const count = (name: string): number | null => (hash[name] === undefined ? null : Number(hash[name]));
  return {
    ...base,
    tan: hash['tan'] ?? '',
    financialYear: hash['financial_year'] ?? '',
    partAExpected: hash['part_a'] === '1',
    certificatePasswordSealed: hash['certificate_password'] ?? null,
    place: hash['place'] ?? null,
    code: hash['code'] ?? null,
    problems: hash['problems'] === undefined ? null : (JSON.parse(hash['problems']) as Form16Problem[]),
    errorCount: count('error_count'),
    pdfs: count('pdfs'),
    partAMerged: count('part_a_merged'),
    withoutPartA: count('without_part_a'),
    partAMismatches: count('part_a_mismatches'),
  };
}
