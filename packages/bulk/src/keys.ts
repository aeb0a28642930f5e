import { FamilyKeys, JobFolderKeys, familyOwner, type JobRef } from '@satyapan/jobs';

/** Where a job lives: its owner (a hash of the client id) and its id (the framework's JobRef). */
export type BulkJobRef = JobRef;
export { refMember, parseRefMember } from '@satyapan/jobs';

/** The owner of a client's bulk jobs (the framework's familyOwner). */
export const bulkOwnerOf = familyOwner('bulk');

/**
 * Redis key names. Everything about one job (its record and the journal of the chunk being checked) shares the
 * job's hash tag, so the scripts that move a job on touch one Cluster slot; a client's list of jobs has the
 * client's tag; the global sets (the framework's FamilyKeys) and the upstream rate limits stand alone.
 */
export class BulkKeys extends FamilyKeys {
  constructor(keyPrefix = 'satyapan') {
    super(keyPrefix, 'bulk');
  }

  record(ref: BulkJobRef): string {
    return this.space.tagged(jobTag(ref), 'job');
  }

  /** Outcomes (and in-flight markers) of the rows of the chunk being checked; emptied when the chunk is committed. */
  journal(ref: BulkJobRef): string {
    return this.space.tagged(jobTag(ref), 'rows');
  }

  /** A client's jobs by created_at. */
  jobs(owner: string): string {
    return this.space.tagged(owner, 'jobs');
  }

  /**
   * A client's jobs waiting or running (created, queued, in progress), scored by when the entry lapses: the
   * per-client cap counts these. A job leaves it when it ends; a lapsed entry (an upload that never came, a
   * job whose end was never recorded) is dropped when the cap is next checked.
   */
  active(owner: string): string {
    return this.space.tagged(owner, 'active');
  }

  /** Rows a client's jobs were charged, by job: a sorted set by time, a hash of rows and their total (the row budget). */
  budget(owner: string): { times: string; rows: string; total: string } {
    return { times: this.space.tagged(owner, 'budget-times'), rows: this.space.tagged(owner, 'budget-rows'), total: this.space.tagged(owner, 'budget-total') };
  }

  /** The pacing of calls to one upstream, shared by every worker process. */
  rate(upstream: string): string {
    return this.space.tagged(`rate:${upstream}`, 'tat');
  }
}

function jobTag(ref: BulkJobRef): string {
  return `${ref.owner}/${ref.jobId}`;
}

/** The bulk storage folder: `bulk/<owner>/<job>/<file>`; the one upload slot is `rows.csv`. */
const folders = new JobFolderKeys('bulk', ['rows.csv']);

/** Storage keys of a job's files; fixed names, so a repeated step overwrites and never adds. */
export const bulkStorageKeys = {
  root: 'bulk',
  folder: (ref: BulkJobRef) => folders.folder(ref),
  upload: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/rows.csv`,
  /** The copy taken when the job is queued, where the upload URL cannot overwrite it. */
  frozenInput: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/input.csv`,
  /** The result lines of one committed chunk, until the result file is assembled. */
  part: (ref: BulkJobRef, chunk: number) => `bulk/${ref.owner}/${ref.jobId}/part-${String(chunk).padStart(6, '0')}.csv`,
  result: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/result.csv`,
  /** Rows by outcome, code and message. */
  summary: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/summary.csv`,
};

/** The job an upload key belongs to (a storage key, or an S3 event's URL-encoded object key), or null. */
export function refOfUploadKey(key: string): BulkJobRef | null {
  return folders.uploadOf(key);
}
