import { JOB_ID_PATTERN, JOB_OWNER_PATTERN as OWNER_PATTERN, KeySpace, jobOwnerOf } from '@satyapan/core';
import type { JobStatus, StatementDomain } from './model.js';

/** Where a job lives: its owner's slot and its id. Everything else about a job is found from these two. */
export interface JobRef {
  /** Hash of the client id: the Redis hash tag and the storage folder of the client's jobs. */
  owner: string;
  jobId: string;
}

export type IndexName = 'all' | 'tan' | 'form' | 'quarter' | 'fy' | 'status';

/** The owner of a client's jobs. Hashed so client ids of any shape make safe key and path segments. */
export function ownerOf(clientId: string): string {
  return jobOwnerOf('statement', clientId);
}

/**
 * Redis key names. A client's job records and all of its search indexes share one hash tag, so every script
 * and transaction on them touches one Cluster slot; the two global sets (uploads still to dispatch, records
 * to expire) are written before the records they point at, so a lost write leaves a harmless dangling entry.
 */
export class StatementKeys {
  readonly space: KeySpace;
  /** BullMQ's own prefix (never ioredis keyPrefix). */
  readonly bullPrefix: string;

  constructor(keyPrefix = 'satyapan') {
    this.space = new KeySpace(keyPrefix).child('statements');
    this.bullPrefix = `${keyPrefix}:bull`;
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

  /** Jobs whose upload is awaited or whose dispatch to the queue is not yet confirmed (score: created_at). */
  get pending(): string {
    return this.space.plain('pending');
  }

  /** Jobs by the time their record and files are to be deleted. */
  get retention(): string {
    return this.space.plain('retention');
  }

  /** Lock that keeps two processes from sweeping at once (sweeps are idempotent, this only saves work). */
  sweepLock(name: string): string {
    return this.space.plain('sweep-lock', name);
  }
}

/** `owner/jobId`, the member of the global sets. */
export function refMember(ref: JobRef): string {
  return `${ref.owner}/${ref.jobId}`;
}

export function parseRefMember(member: string): JobRef | null {
  const [owner, jobId, extra] = member.split('/');
  if (extra !== undefined || !owner || !jobId || !OWNER_PATTERN.test(owner) || !JOB_ID_PATTERN.test(jobId)) return null;
  return { owner, jobId };
}

/** Storage keys of a job's files. Fixed names, so a retried or repeated conversion overwrites, never adds. */
export const storageKeys = {
  /** The folder of every job's folder. */
  root: 'statements',
  folder: (ref: JobRef) => `statements/${ref.owner}/${ref.jobId}`,
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

const JOB_FILE_KEY = /^statements\/([0-9a-f]{24})\/([0-9a-f-]{36})\/[^/]+$/;

/** The job a storage key of a job's file belongs to (`statements/<owner>/<job>/<file>`), or null. */
export function refOfJobFile(key: string): JobRef | null {
  const match = JOB_FILE_KEY.exec(key);
  if (!match || !JOB_ID_PATTERN.test(match[2] as string)) return null;
  return { owner: match[1] as string, jobId: match[2] as string };
}

const UPLOAD_KEY = /(?:^|\/)statements\/([0-9a-f]{24})\/([0-9a-f-]{36})\/(?:workbook\.json|challans\.csi|conso\.tds)$/;

/**
 * The job an upload key (the workbook's, the CSI file's or the conso file's) belongs to, or null for any other object. Takes a storage key, or an object key as an S3
 * event notification reports it: behind the S3Storage key prefix, and URL-encoded.
 */
export function refOfUploadKey(key: string): JobRef | null {
  let decoded = key;
  try {
    decoded = decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return null;
  }
  const match = UPLOAD_KEY.exec(decoded);
  if (!match || !JOB_ID_PATTERN.test(match[2] as string)) return null;
  return { owner: match[1] as string, jobId: match[2] as string };
}
