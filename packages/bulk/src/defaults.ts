import { JOB_DEFAULTS } from '@satyapan/jobs';

/** Defaults shared by the service (API side) and the worker; both sides must agree on them. */
export const BULK_DEFAULTS = {
  /** `csv_url` valid 24 h, CSV files up to 50 MB, `result_url` valid 1 h. */
  ...JOB_DEFAULTS,
  /** Most data rows in one file (docs/API.md "Bulk verification jobs"). */
  maxRows: 200_000,
  /**
   * Most columns in the header. A kind needs at most six (PAN: reference and five inputs); 64 leaves room for
   * the caller's own columns, which are ignored, and keeps a header from costing more than a row.
   */
  maxColumns: 64,
  /** Most characters in one cell: the longest input (a name, a reason) is a few hundred. */
  maxCellLength: 1_024,
  /** Most bytes in one line: 64 cells of 1,024 characters fit; a longer line is never held in memory. */
  maxLineBytes: 65_536,
  /** How long a job and its files (account numbers, names) are kept. */
  retentionDays: 30,
  /** Rows per committed chunk. */
  chunkSize: 100,
  /** Rows checked at once within one job. */
  rowConcurrency: 8,
  /** Tries of a row the upstream refused with 429. */
  rateLimitRetries: 3,
  /** Chunks a job checks before it lets a waiting job have the lane (it goes to the back of the queue). */
  sliceChunks: 10,
  /** Or this long, whichever comes first: a slice reads its rows from one storage stream. */
  sliceMs: 30_000,
  /** Bulk jobs one client may have waiting or running (created, queued, in progress). */
  maxJobsPerClient: 5,
  /** Rows one client's bulk jobs may take per `rowBudgetWindowHours` (a back-book of a million accounts a day). */
  rowBudget: 1_000_000,
  rowBudgetWindowHours: 24,
  /**
   * Calls per second to each upstream, shared by every worker: under what the providers allow a standard account
   * (set yours with `rateLimits`; `Infinity` turns pacing of an upstream off).
   */
  // The e-filing portal publishes no rate; 2 calls a second keeps a back-book check from looking like a scraper.
  rateLimits: { penny_drop: 5, penny_less: 10, pan_verification: 10, pan_aadhaar_link: 2 } as Readonly<Record<string, number>>,
} as const;
