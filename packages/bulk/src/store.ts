import { JOB_STATUSES, LuaScript, isTerminal, sourcesOf, type JobStatus, type RedisConnection, type SatyapanMetrics } from '@satyapan/core';
import { CREATE_RECORD, TRANSITION_RECORD, baseHash, baseOfHash, hashPairs } from '@satyapan/jobs';
import type { BulkJobRef, BulkKeys } from './keys.js';
import { ROW_OUTCOMES, type BulkJobRecord, type OutcomeCounts, type RowOutcome } from './model.js';

/** Thrown when a job moves where the lifecycle does not allow, or is gone. */
export class BulkJobStateError extends Error {
  override readonly name = 'BulkJobStateError';
  constructor(readonly jobId: string, readonly from: JobStatus | null, readonly to: JobStatus) {
    super(from === null ? `Bulk job ${jobId} does not exist` : `Bulk job ${jobId} cannot move from ${from} to ${to}`);
  }
}

/** A row's entry in the journal: in flight (a paid call was started), or its outcome and result line. */
export type JournalEntry = { inFlight: true } | { inFlight: false; outcome: RowOutcome; line: string };

const IN_FLIGHT = '~';

// KEYS[1] the record, KEYS[2] the journal. ARGV: chunk, rows, now, then a count per outcome in ROW_OUTCOMES order.
// Commits a chunk once: a chunk committed already (a repeated run) changes nothing.
const COMMIT_CHUNK = new LuaScript(`
local done = tonumber(redis.call('HGET', KEYS[1], 'chunks_done') or '-1')
if done ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'chunks_done', done + 1, 'updated_at', ARGV[3])
redis.call('HINCRBY', KEYS[1], 'rows_done', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'count_ok', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'count_invalid', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'count_error', ARGV[6])
redis.call('HINCRBY', KEYS[1], 'count_interrupted', ARGV[7])
redis.call('DEL', KEYS[2])
return 1
`);

/**
 * Bulk job records in Redis: one hash per job, and the journal of the chunk being checked (a hash of row index
 * to outcome, or to an in-flight marker written before a paid call). Both carry the job's hash tag, so a chunk
 * is committed (progress and counts moved on, journal emptied) by one script on one slot.
 */
export class BulkJobStore {
  /**
   * `metrics`: where jobs entering each state (`satyapan_bulk_jobs_total`) and committed rows by outcome
   * (`satyapan_bulk_rows_total`) are counted, by the process whose write took effect, so nothing counts twice.
   */
  constructor(private readonly redis: RedisConnection, readonly keys: BulkKeys, private readonly metrics?: SatyapanMetrics) {}

  /** Writes a new record and lists it under its owner; false when the id exists. */
  async create(ref: BulkJobRef, record: BulkJobRecord): Promise<boolean> {
    // The owner's list first (another slot): a lost record write leaves an entry that reads skip.
    await this.redis.zadd(this.keys.jobs(ref.owner), record.createdAt, ref.jobId);
    const created = (await CREATE_RECORD.run(this.redis, [this.keys.record(ref)], [record.createdAt, record.jobId, ...toHash(record)])) === 1;
    if (created) this.counted(record);
    return created;
  }

  async get(ref: BulkJobRef): Promise<BulkJobRecord | null> {
    return fromHash(await this.redis.hgetall(this.keys.record(ref)));
  }

  async getMany(owner: string, jobIds: readonly string[]): Promise<Array<BulkJobRecord | null>> {
    // One command per record: each job has its own slot.
    return Promise.all(jobIds.map((jobId) => this.get({ owner, jobId })));
  }

  async transition(ref: BulkJobRef, to: JobStatus, now: number, fields: Record<string, string | number> = {}): Promise<BulkJobRecord> {
    const pairs = Object.entries(fields).flatMap(([name, value]) => [name, String(value)]);
    // No status indexes: a client's jobs are listed by time only.
    const args = [ref.jobId, to, now, sourcesOf(to).join(','), JOB_STATUSES.join(','), ...pairs];
    const [outcome, previous] = (await TRANSITION_RECORD.run(this.redis, [this.keys.record(ref)], args)) as [string, string];
    if (outcome === 'missing') throw new BulkJobStateError(ref.jobId, null, to);
    if (outcome === 'illegal') throw new BulkJobStateError(ref.jobId, previous as JobStatus, to);
    // An ended job no longer counts against its client's cap of jobs waiting or running.
    if (isTerminal(to)) await this.redis.zrem(this.keys.active(ref.owner), ref.jobId);
    const record = await this.get(ref);
    if (!record) {
      this.metrics?.bulkJobs.inc({ state: to });
      throw new BulkJobStateError(ref.jobId, null, to);
    }
    this.counted(record);
    return record;
  }

  /** A job that entered its state, by the process whose write took effect: in all and by kind. */
  private counted(record: BulkJobRecord): void {
    this.metrics?.bulkJobs.inc({ state: record.status });
    this.metrics?.jobsByKind.inc({ family: 'bulk', kind: record.kind, state: record.status });
  }

  async setRowsTotal(ref: BulkJobRef, rowsTotal: number): Promise<void> {
    await this.redis.hset(this.keys.record(ref), 'rows_total', rowsTotal);
  }

  /** The journal of the chunk being checked, by row index. */
  async journal(ref: BulkJobRef): Promise<Map<number, JournalEntry>> {
    const hash = await this.redis.hgetall(this.keys.journal(ref));
    const entries = new Map<number, JournalEntry>();
    for (const [field, value] of Object.entries(hash)) {
      if (value === IN_FLIGHT) {
        entries.set(Number(field), { inFlight: true });
        continue;
      }
      const tab = value.indexOf('\t');
      entries.set(Number(field), { inFlight: false, outcome: value.slice(0, tab) as RowOutcome, line: value.slice(tab + 1) });
    }
    return entries;
  }

  /**
   * Records that a paid call for the row is about to be made. False when the row has an entry already (an
   * outcome, or an earlier attempt's marker): the call must then not be made.
   */
  async markInFlight(ref: BulkJobRef, row: number): Promise<boolean> {
    return (await this.redis.hsetnx(this.keys.journal(ref), String(row), IN_FLIGHT)) === 1;
  }

  /** A row's outcome, durable before the worker moves on. */
  async recordRow(ref: BulkJobRef, row: number, outcome: RowOutcome, line: string): Promise<void> {
    await this.redis.hset(this.keys.journal(ref), String(row), `${outcome}\t${line}`);
  }

  /** Moves progress past `chunk` and empties the journal; false when that chunk was committed already. */
  async commitChunk(ref: BulkJobRef, chunk: number, rows: number, counts: OutcomeCounts, now: number): Promise<boolean> {
    const args = [chunk, rows, now, ...ROW_OUTCOMES.map((outcome) => counts[outcome])];
    const committed = (await COMMIT_CHUNK.run(this.redis, [this.keys.record(ref), this.keys.journal(ref)], args)) === 1;
    if (committed) for (const outcome of ROW_OUTCOMES) this.metrics?.bulkRows.inc({ outcome }, counts[outcome]);
    return committed;
  }

  async delete(ref: BulkJobRef): Promise<void> {
    await this.redis.del(this.keys.record(ref));
    await this.redis.del(this.keys.journal(ref));
    await this.redis.zrem(this.keys.jobs(ref.owner), ref.jobId);
    await this.redis.zrem(this.keys.active(ref.owner), ref.jobId);
  }
}

function toHash(record: BulkJobRecord): string[] {
  const fields: Record<string, string | number | null> = {
    ...baseHash(record),
    kind: record.kind,
    accept_cache: record.acceptCache ? 1 : 0,
    api_key: record.apiKeySealed,
    code: record.code,
    rows_total: record.rowsTotal,
    rows_done: record.rowsDone,
    chunks_done: record.chunksDone,
    count_ok: record.counts.ok,
    count_invalid: record.counts.invalid,
    count_error: record.counts.error,
    count_interrupted: record.counts.interrupted,
    result_key: record.resultKey,
  };
  return hashPairs(fields);
}

function fromHash(hash: Record<string, string>): BulkJobRecord | null {
  const base = baseOfHash(hash);
  if (!base) return null;
  const num = (name: string): number => Number(hash[name] ?? 0);
  return {
    ...base,
    kind: hash['kind'] ?? '',
    acceptCache: hash['accept_cache'] === '1',
    apiKeySealed: hash['api_key'] ?? '',
    code: hash['code'] ?? null,
    rowsTotal: hash['rows_total'] === undefined ? null : num('rows_total'),
    rowsDone: num('rows_done'),
    chunksDone: num('chunks_done'),
    counts: { ok: num('count_ok'), invalid: num('count_invalid'), error: num('count_error'), interrupted: num('count_interrupted') },
    resultKey: hash['result_key'] ?? null,
  };
}
