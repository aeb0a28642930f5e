/** Defaults shared by the service (API side) and the worker; both sides must agree on them. */
export const BULK_DEFAULTS = {
  /** Validity of `csv_url`. */
  uploadTtlSeconds: 24 * 3600,
  /** Largest CSV accepted. */
  maxUploadBytes: 50 * 1024 * 1024,
  /** Most data rows in one file. */
  maxRows: 200_000,
  /** Validity of `result_url` in a poll answer. */
  downloadTtlSeconds: 3600,
  /** How long a job and its files (account numbers, names) are kept. */
  retentionDays: 30,
  /** Rows per committed chunk. */
  chunkSize: 100,
  /** Rows checked at once within one job. */
  rowConcurrency: 8,
  /** Tries of a row the upstream refused with 429. */
  rateLimitRetries: 3,
} as const;
