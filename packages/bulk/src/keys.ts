import { JOB_ID_PATTERN, JOB_OWNER_PATTERN as OWNER_PATTERN, KeySpace, jobOwnerOf } from '@satyapan/core';

/** Where a job lives: its owner (a hash of the client id) and its id. */
export interface BulkJobRef {
  owner: string;
  jobId: string;
}

/** The owner of a client's bulk jobs: hashed, so client ids of any shape make safe key and path segments. */
export function bulkOwnerOf(clientId: string): string {
  return jobOwnerOf('bulk', clientId);
}

/**
 * Redis key names. Everything about one job (its record and the journal of the chunk being checked) shares the
 * job's hash tag, so the scripts that move a job on touch one Cluster slot; a client's list of jobs has the
 * client's tag; the global sets (uploads to dispatch, records to expire) and the upstream rate limits stand alone.
 */
export class BulkKeys {
  readonly space: KeySpace;
  /** BullMQ's own prefix (never ioredis keyPrefix), the same as the statement queue's. */
  readonly bullPrefix: string;

  constructor(keyPrefix = 'satyapan') {
    this.space = new KeySpace(keyPrefix).child('bulk');
    this.bullPrefix = `${keyPrefix}:bull`;
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

  /** Jobs whose upload is awaited or whose dispatch to the queue is not yet confirmed (score: created_at). */
  get pending(): string {
    return this.space.plain('pending');
  }

  /** Jobs by the time their record and files are to be deleted. */
  get retention(): string {
    return this.space.plain('retention');
  }

  /** The pacing of calls to one upstream, shared by every worker process. */
  rate(upstream: string): string {
    return this.space.tagged(`rate:${upstream}`, 'tat');
  }
}

function jobTag(ref: BulkJobRef): string {
  return `${ref.owner}/${ref.jobId}`;
}

/** `owner/jobId`, the member of the global sets. */
export function refMember(ref: BulkJobRef): string {
  return `${ref.owner}/${ref.jobId}`;
}

export function parseRefMember(member: string): BulkJobRef | null {
  const [owner, jobId, extra] = member.split('/');
  if (extra !== undefined || !owner || !jobId || !OWNER_PATTERN.test(owner) || !JOB_ID_PATTERN.test(jobId)) return null;
  return { owner, jobId };
}

/** Storage keys of a job's files; fixed names, so a repeated step overwrites and never adds. */
export const bulkStorageKeys = {
  root: 'bulk',
  folder: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}`,
  upload: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/rows.csv`,
  /** The copy taken when the job is queued, where the upload URL cannot overwrite it. */
  frozenInput: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/input.csv`,
  /** The result lines of one committed chunk, until the result file is assembled. */
  part: (ref: BulkJobRef, chunk: number) => `bulk/${ref.owner}/${ref.jobId}/part-${String(chunk).padStart(6, '0')}.csv`,
  result: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/result.csv`,
  /** Rows by outcome, code and message. */
  summary: (ref: BulkJobRef) => `bulk/${ref.owner}/${ref.jobId}/summary.csv`,
};

const UPLOAD_KEY = /(?:^|\/)bulk\/([0-9a-f]{24})\/([0-9a-f-]{36})\/rows\.csv$/;

/** The job an upload key belongs to (a storage key, or an S3 event's URL-encoded object key), or null. */
export function refOfUploadKey(key: string): BulkJobRef | null {
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
