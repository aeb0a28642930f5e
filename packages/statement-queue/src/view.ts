import type { ObjectStorage } from '@satyapan/core';
import { jobEntity, type JobRecord, type StatementJobView } from './model.js';
import { periodStartYear, writtenForm } from './period.js';

export interface ViewOptions {
  storage: ObjectStorage;
  /** Validity of the download URLs put in a view. */
  downloadTtlSeconds: number;
}

/** The fields every view of a job has (search items stop here: the vendor lists no URLs). */
export function summaryView(record: JobRecord): StatementJobView {
  const view: StatementJobView = {
    '@entity': jobEntity(record.domain),
    job_id: record.jobId,
    tan: record.tan,
    quarter: record.quarter,
    ...(record.domain === 'tds' ? { form: record.form } : {}),
    financial_year: record.financialYear,
    ...(record.previousReceiptNumber !== null ? { previous_receipt_number: record.previousReceiptNumber } : {}),
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
  if (record.status === 'failed' && record.message) view.message = record.message;
  return view;
}

/** The job as polled: with a fresh pre-signed GET of the TXT (succeeded) or of the report (failed). */
export async function pollView(record: JobRecord, options: ViewOptions): Promise<StatementJobView> {
  const view = summaryView(record);
  const expiresInSeconds = options.downloadTtlSeconds;
  if (record.status === 'succeeded' && record.txtKey) {
    view.txt_url = await options.storage.presignGet(record.txtKey, { expiresInSeconds, downloadName: txtDownloadName(record) });
  }
  if (record.status === 'failed' && record.reportXlsxKey) {
    view.validation_report_url = await options.storage.presignGet(record.reportXlsxKey, {
      expiresInSeconds,
      downloadName: `${record.jobId}_validation_report.xlsx`,
    });
  }
  return view;
}

/** `26Q.txt`, or `140.txt` when the period calls for the new form: the name the filer expects. */
export function txtDownloadName(record: JobRecord): string {
  const year = periodStartYear(record.financialYear);
  return `${year === null ? record.form : writtenForm(record.form, year)}.txt`;
}
