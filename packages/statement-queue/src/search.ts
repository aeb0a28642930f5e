import { scoredEntries, serviceError, type Sealer, type RedisConnection } from '@satyapan/core';
import type { JobStore } from './job-store.js';
import type { IndexName, StatementKeys } from './keys.js';
import type { JobRecord, JobStatus, Quarter, StatementDomain } from './model.js';
import { formKind, periodStartYear } from './period.js';
import { cursorContext } from './sealing.js';

export interface SearchQuery {
  tan?: string;
  form?: string;
  quarter?: Quarter;
  financialYear?: string;
  status?: JobStatus;
  /** Inclusive bounds on created_at, Unix ms. */
  fromDate?: number;
  toDate?: number;
  /** 1..50, default 20. */
  pageSize?: number;
  lastEvaluatedKey?: string;
}

export interface SearchResult {
  records: JobRecord[];
  lastEvaluatedKey: string | null;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
/** Most index entries one request looks at; past it the page is returned short, with a cursor to go on. */
const MAX_SCANNED = 2_000;
const BATCH = 100;

interface Position {
  score: number;
  member: string;
}

/**
 * Search over a client's own indexes, newest first, with keyset paging: a cursor is the position (created_at,
 * job id) of the last entry looked at, so jobs created meanwhile never shift later pages. The cursor is sealed
 * (AES-GCM) with the owner and domain as associated data: opaque, tamper-evident, and useless to anyone else.
 * The indexes searched are chosen from the caller's client id, never from the cursor.
 */
export class JobSearch {
  constructor(
    private readonly redis: RedisConnection,
    private readonly keys: StatementKeys,
    private readonly store: JobStore,
    private readonly sealer: Sealer,
  ) {}

  async search(owner: string, domain: StatementDomain, query: SearchQuery): Promise<SearchResult> {
    const pageSize = Math.min(Math.max(query.pageSize ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = query.lastEvaluatedKey ? this.openCursor(owner, domain, query.lastEvaluatedKey) : null;
    const index = await this.narrowestIndex(owner, domain, query);
    const matches = matcher(domain, query);
    const records: JobRecord[] = [];
    let last: Position | null = null;
    let scanned = 0;
    let exhausted = true;
    for await (const batch of this.scan(index, query, after)) {
      const found = await this.store.getMany(owner, batch.map((entry) => entry.member));
      for (const [i, entry] of batch.entries()) {
        scanned += 1;
        last = entry;
        const record = found[i];
        if (record && matches(record)) records.push(record);
        if (records.length === pageSize || scanned >= MAX_SCANNED) break;
      }
      if (records.length === pageSize || scanned >= MAX_SCANNED) {
        exhausted = !(await this.hasEntryAfter(index, query, last as Position));
        break;
      }
    }
    return { records, lastEvaluatedKey: exhausted || !last ? null : this.sealCursor(owner, domain, last) };
  }

  /** Of the indexes the filters name, the one with the fewest entries; the full index without filters. */
  private async narrowestIndex(owner: string, domain: StatementDomain, query: SearchQuery): Promise<string> {
    const named: Array<[IndexName, string]> = [];
    if (query.tan) named.push(['tan', query.tan]);
    if (query.form) named.push(['form', formKind(query.form) ?? query.form]);
    if (query.quarter) named.push(['quarter', query.quarter]);
    if (query.financialYear) named.push(['fy', String(periodStartYear(query.financialYear))]);
    if (query.status) named.push(['status', query.status]);
    const candidates = named.map(([name, value]) => this.keys.index(owner, domain, name, value));
    if (candidates.length === 0) return this.keys.index(owner, domain, 'all');
    if (candidates.length === 1) return candidates[0] as string;
    const pipeline = this.redis.pipeline();
    for (const key of candidates) pipeline.zcard(key);
    const sizes = ((await pipeline.exec()) ?? []).map(([error, size]) => {
      if (error) throw error;
      return Number(size);
    });
    let best = 0;
    sizes.forEach((size, i) => {
      if (size < (sizes[best] as number)) best = i;
    });
    return candidates[best] as string;
  }

  /** Index entries below `after` (exclusive) within the date bounds, newest first, in batches. */
  private async *scan(index: string, query: SearchQuery, after: Position | null): AsyncGenerator<Position[]> {
    const floor = query.fromDate ?? '-inf';
    let ceiling: number | '+inf' = query.toDate ?? '+inf';
    if (after && (ceiling === '+inf' || after.score <= ceiling)) ceiling = after.score;
    let offset = 0;
    for (;;) {
      const rows: Position[] = scoredEntries(await this.redis.zrevrangebyscore(index, ceiling, floor, 'WITHSCORES', 'LIMIT', offset, BATCH));
      if (rows.length === 0) return;
      const fresh = rows.filter((row) => !after || row.score !== after.score || row.member < after.member);
      if (fresh.length > 0) yield fresh;
      // Continue at the last score seen; entries already read at that score are skipped by offset.
      const lastScore = (rows[rows.length - 1] as Position).score;
      const tied = rows.filter((row) => row.score === lastScore).length;
      offset = lastScore === ceiling ? offset + tied : tied;
      ceiling = lastScore;
      if (rows.length < BATCH) return;
    }
  }

  private async hasEntryAfter(index: string, query: SearchQuery, position: Position): Promise<boolean> {
    for await (const batch of this.scan(index, query, position)) {
      if (batch.length > 0) return true;
    }
    return false;
  }

  private sealCursor(owner: string, domain: StatementDomain, position: Position): string {
    const sealed = this.sealer.seal(JSON.stringify({ s: position.score, m: position.member }), cursorContext(owner, domain));
    return Buffer.from(sealed).toString('base64url');
  }

  private openCursor(owner: string, domain: StatementDomain, cursor: string): Position {
    try {
      const text = this.sealer.unsealText(Buffer.from(cursor, 'base64url').toString('utf8'), cursorContext(owner, domain));
      const parsed = JSON.parse(text) as { s?: unknown; m?: unknown };
      if (typeof parsed.s !== 'number' || typeof parsed.m !== 'string') throw new Error('cursor shape');
      return { score: parsed.s, member: parsed.m };
    } catch {
      throw serviceError('INVALID_FIELD', 'last_evaluated_key', 'not a cursor of a previous search');
    }
  }
}

/** The filters as a predicate on a record (the index scanned covers at most one of them). */
function matcher(domain: StatementDomain, query: SearchQuery): (record: JobRecord) => boolean {
  const kind = query.form ? formKind(query.form) : null;
  const year = query.financialYear ? periodStartYear(query.financialYear) : null;
  return (record) =>
    record.domain === domain
    && (!query.tan || record.tan === query.tan)
    && (!kind || formKind(record.form) === kind)
    && (!query.quarter || record.quarter === query.quarter)
    && (year === null || periodStartYear(record.financialYear) === year)
    && (!query.status || record.status === query.status)
    && (query.fromDate === undefined || record.createdAt >= query.fromDate)
    && (query.toDate === undefined || record.createdAt <= query.toDate);
}
