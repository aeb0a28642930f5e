import { isTerminal, type ObjectStorage } from '@satyapan/core';
import { bulkStorageKeys } from './keys.js';
import { BULK_JOB_ENTITY, type BulkJobRecord, type BulkJobView } from './model.js';

/** The job without URLs; `inFlight`: journalled rows of the chunk being checked, added to `rows_done`. */
export function summaryView(record: BulkJobRecord, inFlight = 0): BulkJobView {
  const rowsDone = record.rowsTotal === null ? record.rowsDone : Math.min(record.rowsTotal, record.rowsDone + (isTerminal(record.status) ? 0 : inFlight));
  return {
    '@entity': BULK_JOB_ENTITY,
    job_id: record.jobId,
    kind: record.kind,
    accept_cache: record.acceptCache,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    ...(record.rowsTotal !== null ? { rows_total: record.rowsTotal } : {}),
    rows_done: rowsDone,
    summary: { ...record.counts },
    ...(record.status === 'failed' && record.message ? { message: record.message } : {}),
    ...(record.status === 'failed' && record.code ? { code: record.code } : {}),
  };
}

/** The job as polled: with a fresh pre-signed GET of the result file once it succeeded. */
export async function pollView(record: BulkJobRecord, inFlight: number, storage: ObjectStorage, downloadTtlSeconds: number): Promise<BulkJobView> {
  const view = summaryView(record, inFlight);
  if (record.status === 'succeeded' && record.resultKey) {
    view.result_url = await storage.presignGet(record.resultKey, { expiresInSeconds: downloadTtlSeconds, downloadName: `${record.jobId}_${record.kind}_result.csv` });
    const owner = record.resultKey.split('/')[1] as string;
    view.summary_url = await storage.presignGet(bulkStorageKeys.summary({ owner, jobId: record.jobId }), {
      expiresInSeconds: downloadTtlSeconds, downloadName: `${record.jobId}_${record.kind}_summary.csv`,
    });
  }
  return view;
}
