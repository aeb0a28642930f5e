import { FamilyKeys, JobFolderKeys, familyOwner, type JobRef } from '@satyapan/jobs';
import type { JobStatus, StatementDomain } from './model.js';

/** Where a job lives: its owner's slot (the hash of the client id) and its id. */
export type { JobRef };
export { refMember, parseRefMember } from '@satyapan/jobs';

export type IndexName = 'all' | 'tan' | 'form' | 'quarter' | 'fy' | 'status';

/** The owner of a client's statement jobs (the framework's familyOwner). */
export const ownerOf = familyOwner('statement');

/**
 * Redis key names. A client's job records and all of its search indexes share one hash tag, so every script
 * and transaction on them touches one Cluster slot; the global sets are the framework's (FamilyKeys).
 */
export class StatementKeys extends FamilyKeys {
  constructor(keyPrefix = 'satyapan') {
    super(keyPrefix, 'statements');
  }

  record(ref: JobRef): string {
    return this.space.tagged(ref.owner, 'job', ref.jobId);
  }

  index(owner: string, domain: StatementDomain, name: IndexName, value = ''): string {
    return name === 'all' ? this.space.tagged(owner, 'idx', domain, 'all') : this.space.tagged(owner, 'idx', domain, name, value);
  }

  statusIndexes(owner: string, domain: StatementDomain, statuses: readonly JobStatus[]): string[] {
    return statuses.map((status) => this.index(owner, domain, 'status', status));
  }

  /** Lock that keeps two processes from sweeping at once (sweeps are idempotent, this only saves work). */
  sweepLock(name: string): string {
    return this.space.plain('sweep-lock', name);
  }
}

/** The statements' storage folder: `statements/<owner>/<job>/<file>`; the upload slots are the workbook, CSI and conso files. */
const folders = new JobFolderKeys('statements', ['workbook.json', 'challans.csi', 'conso.tds']);

/** Storage keys of a job's files. Fixed names, so a retried or repeated conversion overwrites, never adds. */
export const storageKeys = {
  /** The folder of every job's folder. */
  root: 'statements',
  folder: (ref: JobRef) => folders.folder(ref),
  upload: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/workbook.json`,
  /** The CSI file's upload, for a job whose request said it sends one. */
  csiUpload: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/challans.csi`,
  /** Its copy taken when the job is queued, like frozenInput. */
  frozenCsi: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/input.csi`,
  /** The TRACES consolidated (conso) file's upload, for a correction job. */
  consoUpload: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/conso.tds`,
  /** Its copy taken when the job is queued, like frozenInput. */
  frozenConso: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/input.tds`,
  /** A copy of the upload taken when the job is queued, where the upload URL cannot overwrite it. */
  frozenInput: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/input.json`,
  /** Instead of the copy when the upload was over the size limit: holds the size seen, nothing else. */
  oversizeMarker: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/oversize.json`,
  txt: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/statement.txt`,
  reportJson: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/report.json`,
  reportXlsx: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}/report.xlsx`,
};

export function allStorageKeys(ref: JobRef): string[] {
  return [
    storageKeys.upload(ref), storageKeys.frozenInput(ref), storageKeys.oversizeMarker(ref),
    storageKeys.csiUpload(ref), storageKeys.frozenCsi(ref), storageKeys.consoUpload(ref), storageKeys.frozenConso(ref),
    storageKeys.txt(ref), storageKeys.reportJson(ref), storageKeys.reportXlsx(ref),
  ];
}

/** The job a storage key of a job's file belongs to (`statements/<owner>/<job>/<file>`), or null. */
export function refOfJobFile(key: string): JobRef | null {
  return folders.fileOf(key);
}

/**
 * The job an upload key (the workbook's, the CSI file's or the conso file's) belongs to, or null for any other
 * object. Takes a storage key, or an object key as an S3 event notification reports it (prefixed, URL-encoded).
 */
export function refOfUploadKey(key: string): JobRef | null {
  return folders.uploadOf(key);
}
