import { JOB_DEFAULTS } from '@satyapan/jobs';

/** Defaults shared by the service (API side) and the worker; both sides must agree on them. */
export const FORM16_DEFAULTS = {
  /** Upload URLs valid 24 h, each upload (workbook, Part A zip, certificate) up to 50 MB, downloads valid 1 h. */
  ...JOB_DEFAULTS,
  /** Form 16 PDFs carry PANs and salaries: a job and its files are kept 30 days (download them, then they go). */
  retentionDays: 30,
  /** Form 16 jobs one client may have waiting or running: a year's certificates are made once, per TAN. */
  maxJobsPerClient: 20,
} as const;

export const FORM16_PAGE_SIZE = { default: 20, max: 50 } as const;
