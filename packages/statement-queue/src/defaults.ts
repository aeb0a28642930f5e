/** Defaults shared by the service (API side) and the worker; both sides must agree on them. */
export const DEFAULTS = {
  /** Validity of `json_url`. */
  uploadTtlSeconds: 24 * 3600,
  /** Largest workbook accepted. */
  maxUploadBytes: 50 * 1024 * 1024,
  /** Validity of `txt_url` and `validation_report_url` in a poll answer or webhook. */
  downloadTtlSeconds: 3600,
  /** How long a job and its files are kept. */
  retentionDays: 90,
  /**
   * Statement jobs (TDS and TCS together) one client may have waiting or running: a deductor files a handful a
   * quarter, a platform filing for many deductors submits in waves of this size (docs/OPERATIONS.md "Limits").
   */
  maxJobsPerClient: 1_000,
} as const;
