import type { JobStatus } from '@satyapan/core';
import type { JobRecordBase } from '@satyapan/jobs';

/** How a row ended. */
export type RowOutcome = 'ok' | 'invalid' | 'error' | 'interrupted';
export const ROW_OUTCOMES: readonly RowOutcome[] = ['ok', 'invalid', 'error', 'interrupted'];

export const BULK_JOB_ENTITY = 'in.co.service.bulk.verification.job';
export const BULK_REQUEST_ENTITY = 'in.co.service.bulk.verification.request';
export const BULK_LIST_ENTITY = 'in.co.service.bulk.verification.paginated_list';

/** Counts of rows by outcome. */
export type OutcomeCounts = Record<RowOutcome, number>;

export function zeroCounts(): OutcomeCounts {
  return { ok: 0, invalid: 0, error: 0, interrupted: 0 };
}

/** Everything Redis keeps about one bulk job (a hash). */
export interface BulkJobRecord extends JobRecordBase {
  kind: string;
  acceptCache: boolean;
  /** The client's API key, sealed (bound to the job id): the caches a row reads and writes are this key's. */
  apiKeySealed: string;
  /** The coded reason of a failed job (a CSV limit, a row budget), when it has one. */
  code: string | null;
  /** Data rows in the file; null until the worker has read it. */
  rowsTotal: number | null;
  /** Rows whose outcome is committed (the chunks before `chunksDone`). */
  rowsDone: number;
  chunksDone: number;
  counts: OutcomeCounts;
  resultKey: string | null;
}

/** A job as polled (docs/API.md "Bulk verification jobs"). */
export interface BulkJobView {
  '@entity': typeof BULK_JOB_ENTITY;
  job_id: string;
  kind: string;
  accept_cache: boolean;
  status: JobStatus;
  created_at: number;
  updated_at: number;
  /** Pre-signed PUT for the CSV (submit only). */
  csv_url?: string;
  rows_total?: number;
  rows_done: number;
  /** Rows by outcome, of the rows done so far. */
  summary: OutcomeCounts;
  /** Pre-signed GET of the result CSV (succeeded). */
  result_url?: string;
  /** Pre-signed GET of the summary CSV: rows by outcome, code and message (succeeded). */
  summary_url?: string;
  message?: string;
  /** Failed jobs: the registered code of the reason, e.g. `BULK_TOO_MANY_ROWS`. */
  code?: string;
}

export interface BulkJobPage {
  '@entity': typeof BULK_LIST_ENTITY;
  items: BulkJobView[];
  last_evaluated_key: string | null;
}

/** Job-level failure messages (rows never fail a job; a file that cannot be read at all does). */
export const BULK_FAILURES = {
  processing: 'Processing error',
} as const;
