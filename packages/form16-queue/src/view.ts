import { isTerminal, type ObjectStorage } from '@satyapan/core';
import { form16OwnerOf, form16StorageKeys } from './keys.js';
import { FORM16_JOB_ENTITY, type Form16JobRecord, type Form16JobView } from './model.js';

/** The job without URLs (list items, and the base of a poll). */
export function summaryView(record: Form16JobRecord): Form16JobView {
  const counts = record.status === 'succeeded'
    ? { pdfs: record.pdfs ?? 0, part_a_merged: record.partAMerged ?? 0, without_part_a: record.withoutPartA ?? 0, part_a_mismatches: record.partAMismatches ?? 0 }
    : {};
  const failure = record.status === 'failed'
    ? {
        ...(record.message ? { message: record.message } : {}),
        ...(record.code ? { code: record.code } : {}),
        ...(record.problems ? { problems: record.problems, problems_not_shown: Math.max(0, (record.errorCount ?? 0) - record.problems.length) } : {}),
      }
    : {};
  return {
    '@entity': FORM16_JOB_ENTITY,
    job_id: record.jobId,
    tan: record.tan,
    financial_year: record.financialYear,
    status: record.status,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    part_a: record.partAExpected,
    signed: record.certificatePasswordSealed !== null,
    ...counts,
    ...failure,
  };
}

/** The job as polled: a succeeded job with fresh pre-signed GETs of the zip, the index and the Part A mismatches. */
export async function pollView(record: Form16JobRecord, storage: ObjectStorage, downloadTtlSeconds: number): Promise<Form16JobView> {
  const view = summaryView(record);
  if (!isTerminal(record.status) || record.status !== 'succeeded') return view;
  const ref = { owner: form16OwnerOf(record.clientId), jobId: record.jobId };
  const get = (key: string, name: string) => storage.presignGet(key, { expiresInSeconds: downloadTtlSeconds, downloadName: `${record.jobId}_${name}` });
  view.zip_url = await get(form16StorageKeys.zip(ref), 'form16.zip');
  view.index_url = await get(form16StorageKeys.index(ref), 'index.csv');
  if (record.partAExpected) view.part_a_mismatches_url = await get(form16StorageKeys.mismatches(ref), 'part_a_mismatches.csv');
  return view;
}
