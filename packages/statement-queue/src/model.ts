// The statement job as stored and as shown to callers. docs/API.md "Statement jobs" is the contract for the shown
// shape; the stored record adds what the worker and the webhook sender need.
import { JOB_STATUSES, isTerminal, type JobStatus } from '@satyapan/core';

/** The job lifecycle is core's, shared with every job queue (re-exported here for existing importers). */
export { JOB_STATUSES, isTerminal, type JobStatus };

/** TDS statements (24Q/26Q/27Q, 138/140/144) and TCS statements (27EQ/143) have separate routes and indexes. */
export type StatementDomain = 'tds' | 'tcs';
export const DOMAINS: readonly StatementDomain[] = ['tds', 'tcs'];


export type Quarter = 'Q1' | 'Q2' | 'Q3' | 'Q4';
export const QUARTERS: readonly Quarter[] = ['Q1', 'Q2', 'Q3', 'Q4'];

/** Form names a caller may send for TDS; either name of a form is accepted (docs/API.md). */
export const TDS_FORMS = ['24Q', '138', '26Q', '140', '27Q', '144'] as const;
export type TdsForm = (typeof TDS_FORMS)[number];

/**
 * A regular statement, or a correction statement built from the TRACES consolidated (conso) file and a corrected
 * workbook. Only an explicit `kind` makes a correction: `previous_receipt_number` never does.
 */
export type StatementKind = 'regular' | 'correction';
export const STATEMENT_KINDS: readonly StatementKind[] = ['regular', 'correction'];
/** The correction types a request may allow (Y, cancellation, is discontinued at TIN; C4 is refused by the engine). */
export const CORRECTION_TYPES = ['C1', 'C2', 'C3', 'C5', 'C9'] as const;

/** What a correction job carries besides the regular fields. */
export interface CorrectionRequest {
  /** Token of the regular statement (BH 8); null: the conso file's. */
  originalReceiptNumber: string | null;
  /** Token of the last accepted correction (BH 9); null: this is the first correction. */
  lastCorrectionReceiptNumber: string | null;
  /** Types allowed; null: all the engine writes. */
  types: string[] | null;
}

/** Short `message` of a failed job, as the vendor words it. */
export const FAILURE_MESSAGES = {
  validation: 'Validation error',
  invalidWorkbook: 'Invalid Workbook',
  processing: 'Processing error',
} as const;

/** A problem of a failed job's report as its poll shows it (docs/API.md "Statement jobs"); only errors are shown. */
export type { JobProblem } from '@satyapan/jobs';
import type { JobProblem } from '@satyapan/jobs';

/** How many of a failed job's errors its poll, search item and webhook show; the reports hold them all. */
export const SHOWN_PROBLEMS = 10;

/** Everything Redis keeps about one job (a hash; absent optional fields are simply not stored). */
export interface JobRecord {
  jobId: string;
  domain: StatementDomain;
  /** Id of the API client that created the job. */
  clientId: string;
  tan: string;
  /** As the caller sent it (TDS); for TCS the form the period calls for (27EQ or 143), never shown. */
  form: string;
  quarter: Quarter;
  financialYear: string;
  previousReceiptNumber: string | null;
  /** The request said a CSI file will be uploaded: the job waits for it and the challans are checked against it. */
  csiExpected: boolean;
  /** Null for a regular statement; a correction job waits for the conso file too. */
  correction: CorrectionRequest | null;
  status: JobStatus;
  createdAt: number;
  updatedAt: number;
  /** Processing attempts started (a worker crash or an infrastructure error starts another). */
  attempts: number;
  message: string | null;
  /** Storage keys of what the worker wrote; null until written. */
  txtKey: string | null;
  reportKey: string | null;
  reportXlsxKey: string | null;
  /** Warnings in the engine's report; null until a report is written. */
  warningCount: number | null;
  /** Failed jobs: the report's first SHOWN_PROBLEMS errors; null for other jobs and jobs failed before they were kept. */
  problems: JobProblem[] | null;
  /** Failed jobs: every error in the report (the report may keep fewer; the count is exact); null with `problems`. */
  errorCount: number | null;
  webhookUrl: string | null;
  /** Sealed with the service's Sealer (AES-256-GCM), bound to the job id. */
  webhookSecretSealed: string | null;
}

/** Who submits a job: the authenticated client, and where it wants webhooks (from its client record). */
export interface JobOwner {
  clientId: string;
  webhookUrl?: string | undefined;
  webhookSecret?: string | undefined;
}

/** A job as polled (docs/API.md), the `data` of the poll and submit responses and of webhooks. */
export interface StatementJobView {
  '@entity': string;
  job_id: string;
  tan: string;
  quarter: Quarter;
  form?: string;
  financial_year: string;
  previous_receipt_number?: string;
  /** Present (true) when the job takes a CSI file. */
  csi?: true;
  /** Present for a correction statement job. */
  kind?: 'correction';
  original_receipt_number?: string;
  last_correction_receipt_number?: string;
  correction_types?: string[];
  status: JobStatus;
  created_at: number;
  updated_at: number;
  json_url?: string;
  /** Pre-signed PUT for the CSI file (submit of a job with `csi: true`). */
  csi_url?: string;
  /** Pre-signed PUT for the TRACES conso file (submit of a correction job). */
  conso_url?: string;
  txt_url?: string;
  /** The .xlsx report: every failed job, and a succeeded job with warnings. */
  validation_report_url?: string;
  /** The same report as JSON (the engine's `ValidationReport`): every finished job that has one. */
  validation_report_json_url?: string;
  /** Succeeded jobs: how many warnings the report holds (the TXT was written regardless). */
  warnings_count?: number;
  message?: string;
  /** Failed jobs: the report's first SHOWN_PROBLEMS errors, in report order. */
  problems?: JobProblem[];
  /** Failed jobs: how many more errors the report holds than `problems` shows. */
  problems_not_shown?: number;
}

export interface SearchPage {
  '@entity': string;
  items: StatementJobView[];
  /** Opaque cursor for the next page; null when there is none. */
  last_evaluated_key: string | null;
}

export function jobEntity(domain: StatementDomain): string {
  return `in.co.service.${domain}.reports.job`;
}

export function listEntity(domain: StatementDomain): string {
  return `in.co.service.${domain}.reports.paginated_list`;
}
