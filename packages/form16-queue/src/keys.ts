import { FamilyKeys, JobFolderKeys, familyOwner, type JobRef } from '@satyapan/jobs';

/** The owner of a client's form16 jobs (the framework's familyOwner). */
export const form16OwnerOf = familyOwner('form16');

/** Redis names: a job's record and its client's list share the client's hash tag; the global sets are the framework's. */
export class Form16Keys extends FamilyKeys {
  constructor(keyPrefix = 'satyapan') {
    super(keyPrefix, 'form16');
  }

  record(ref: JobRef): string {
    return this.space.tagged(ref.owner, 'job', ref.jobId);
  }

  /** A client's jobs by created_at. */
  jobs(owner: string): string {
    return this.space.tagged(owner, 'jobs');
  }
}

const folders = new JobFolderKeys('form16', ['workbook.json', 'part-a.zip', 'certificate.p12']);

/** The job an upload key belongs to (a storage key, or an S3 event's URL-encoded object key), or null. */
export function refOfUploadKey(key: string): JobRef | null {
  return folders.uploadOf(key);
}

/** Storage keys of a job's files: its three upload slots, their frozen copies, and what the job makes. */
export const form16StorageKeys = {
  folder: (ref: JobRef) => folders.folder(ref),
  workbook: (ref: JobRef) => folders.file(ref, 'workbook.json'),
  partA: (ref: JobRef) => folders.file(ref, 'part-a.zip'),
  certificate: (ref: JobRef) => folders.file(ref, 'certificate.p12'),
  frozenWorkbook: (ref: JobRef) => folders.file(ref, 'input-workbook'),
  frozenPartA: (ref: JobRef) => folders.file(ref, 'input-part-a.zip'),
  frozenCertificate: (ref: JobRef) => folders.file(ref, 'input.p12'),
  /** Instead of a frozen copy when an upload was over the size limit: its slot and size. */
  oversize: (ref: JobRef) => folders.file(ref, 'oversize.json'),
  zip: (ref: JobRef) => folders.file(ref, 'form16.zip'),
  index: (ref: JobRef) => folders.file(ref, 'index.csv'),
  mismatches: (ref: JobRef) => folders.file(ref, 'part-a-mismatches.csv'),
  report: (ref: JobRef) => folders.file(ref, 'report.json'),
};

/** Every file a job may have, for retention. */
export function allForm16Keys(ref: JobRef): string[] {
  return Object.entries(form16StorageKeys).filter(([name]) => name !== 'folder').map(([, key]) => (key as (r: JobRef) => string)(ref));
}
