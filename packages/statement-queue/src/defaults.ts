import { JOB_DEFAULTS } from '@satyapan/jobs';

/** Defaults shared by the service (API side) and the worker; both sides must agree on them. */
export const DEFAULTS = {
  /** `json_url` valid 24 h, workbooks up to 50 MB, `txt_url` and `validation_report_url` valid 1 h. */
  ...JOB_DEFAULTS,
  /** How long a job and its files are kept. */
  retentionDays: 90,
  /**
   * Statement jobs (TDS and TCS together) one client may have waiting or running: a deductor files a handful a
   * quarter, a platform filing for many deductors submits in waves of this size (docs/OPERATIONS.md "Limits").
   */
  maxJobsPerClient: 1_000,
} as const;
