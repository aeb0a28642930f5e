import type { ObjectStorage } from '@satyapan/core';
import { isTerminal, jobEntity, type JobRecord, type StatementJobView } from './model.js';
import { periodStartYear, writtenForm } from './period.js';

export interface ViewOptions {
  storage: ObjectStorage;
  /** Validity of the download URLs put in a view. */
  downloadTtlSeconds: number;
}

/**
 * The fields every view of a job has (search items stop here: the vendor lists no URLs). A failed job's first
 * errors are among them: why it failed is what a list of jobs is read for.
 */
export function summaryView(record: JobRecord): StatementJobView {
  const view: StatementJobView = {
    '@entity': jobEntity(record.domain),
    job_id: record.jobId,
    tan: record.tan,
    quarter: record.quarter,
    ...(record.domain === 'tds' ? { form: record.form } : {}),
    financial_year: record.financialYear,
    ...(record.previousReceiptNumber !== null ? { previous_receipt_number: record.previousReceiptNumber } : {}),
    ...(record.csiExpected ? { csi: true as const } : {}),
    ...(record.correction
      ? {
          kind: 'correction' as const,
          ...(record.correction.originalReceiptNumber !== null ? { original_receipt_number: record.correction.originalReceiptNumber } : {}),
          ...(record.correction.lastCorrectionReceiptNumber !== null ? { last_correction_receipt_number: record.correction.lastCorrectionReceiptNumber } : {}),
          ...(record.correction.types !== null ? { correction_types: [...record.correction.types] } : {}),
        }
      : {}),
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
  if (record.status === 'failed' && record.message) view.message = record.message;
  if (record.status === 'failed' && record.problems !== null) {
    view.problems = record.problems;
    view.problems_not_shown = Math.max(0, (record.errorCount ?? 0) - record.problems.length);
  }
  if (record.status === 'succeeded' && record.warningCount !== null) view.warnings_count = record.warningCount;
  return view;
}

/**
 * The job as polled: with fresh pre-signed GETs of the TXT (succeeded) and of the reports a finished job has
 * (the .xlsx of a failed job or of a succeeded one with warnings; the JSON of every finished job).
 */
export async function pollView(record: JobRecord, options: ViewOptions): Promise<StatementJobView> {
  const view = summaryView(record);
  if (!isTerminal(record.status)) return view;
  const get = (key: string, downloadName: string): Promise<string> =>
    options.storage.presignGet(key, { expiresInSeconds: options.downloadTtlSeconds, downloadName });
  if (record.status === 'succeeded' && record.txtKey) view.txt_url = await get(record.txtKey, txtDownloadName(record));
  if (record.reportXlsxKey) view.validation_report_url = await get(record.reportXlsxKey, `${record.jobId}_validation_report.xlsx`);
  if (record.reportKey) view.validation_report_json_url = await get(record.reportKey, `${record.jobId}_validation_report.json`);
  return view;
}

/** `26Q.txt`, or `140.txt` when the period calls for the new form: the name the filer expects. */
export function txtDownloadName(record: JobRecord): string {
  const year = periodStartYear(record.financialYear);
  return `${year === null ? record.form : writtenForm(record.form, year)}.txt`;
}
