import type { JobStatus } from '@satyapan/core';
import type { JobProblem, JobRecordBase } from '@satyapan/jobs';

export const FORM16_REQUEST_ENTITY = 'in.co.service.tds.form16.request';
export const FORM16_JOB_ENTITY = 'in.co.service.tds.form16.job';
export const FORM16_LIST_ENTITY = 'in.co.service.tds.form16.paginated_list';

/** A failed job's first problems shown in its poll (the rest are in report.json). */
export const SHOWN_PROBLEMS = 20;

/** A problem of the statement the PDFs would be made from (the engine's, with its Excel cell for an .xlsx). */
export type Form16Problem = JobProblem;

/** Everything Redis keeps about one Form 16 job (a hash). */
export interface Form16JobRecord extends JobRecordBase {
  tan: string;
  financialYear: string;
  /** The caller uploads TRACES Part A files (a zip) to merge. */
  partAExpected: boolean;
  /** The caller uploads a PKCS#12 certificate; its password, sealed (bound to the job id). */
  certificatePasswordSealed: string | null;
  /** The verification place printed on each Part B; null for the employer's town. */
  place: string | null;
  code: string | null;
  problems: Form16Problem[] | null;
  errorCount: number | null;
  /** Succeeded: PDFs made, Part A files merged, employees without one, Part A files not merged. */
  pdfs: number | null;
  partAMerged: number | null;
  withoutPartA: number | null;
  partAMismatches: number | null;
}

/** A job as polled (docs/API.md "Form 16 jobs"). */
export interface Form16JobView {
  '@entity': typeof FORM16_JOB_ENTITY;
  job_id: string;
  tan: string;
  financial_year: string;
  status: JobStatus;
  created_at: number;
  updated_at: number;
  part_a: boolean;
  signed: boolean;
  /** Submit only: pre-signed PUTs of the uploads. */
  workbook_url?: string;
  part_a_url?: string;
  certificate_url?: string;
  pdfs?: number;
  part_a_merged?: number;
  without_part_a?: number;
  part_a_mismatches?: number;
  /** Succeeded: pre-signed GETs, fresh on each poll. */
  zip_url?: string;
  index_url?: string;
  part_a_mismatches_url?: string;
  message?: string;
  code?: string;
  problems?: Form16Problem[];
  problems_not_shown?: number;
}

export interface Form16JobPage {
  '@entity': typeof FORM16_LIST_ENTITY;
  items: Form16JobView[];
  last_evaluated_key: string | null;
}

/** Messages of a failed job. */
export const FORM16_FAILURES = {
  invalid: 'Validation error',
  processing: 'Processing error',
} as const;
