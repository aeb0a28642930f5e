import { JOB_ID_PATTERN, JOB_OWNER_PATTERN, jobOwnerOf } from '@satyapan/core';

/** Where a job lives: its owner (a hash of the client id, see core's jobOwnerOf) and its id. */
export interface JobRef {
  owner: string;
  jobId: string;
}

/**
 * The owner function of a family: a client's jobs of `family` live under a hash of its id, so client ids of any
 * shape make safe key and path segments, and one family's owner says nothing of another's.
 */
export function familyOwner(family: string): (clientId: string) => string {
  return (clientId) => jobOwnerOf(family, clientId);
}

/** `owner/jobId`, the member of a family's global sets (uploads to dispatch, records to expire). */
export function refMember(ref: JobRef): string {
  return `${ref.owner}/${ref.jobId}`;
}

/** The ref a global-set member names, or null for anything that is not `owner/jobId` of our shapes. */
export function parseRefMember(member: string): JobRef | null {
  const [owner, jobId, extra] = member.split('/');
  if (extra !== undefined || !owner || !jobId || !JOB_OWNER_PATTERN.test(owner) || !JOB_ID_PATTERN.test(jobId)) return null;
  return { owner, jobId };
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A reader of `<root>/<owner>/<job>/<file>` keys for one family's storage folder: `uploadOf` knows only the
 * upload slots' file names, `fileOf` any file of a job folder.
 */
export class JobFolderKeys {
  private readonly upload: RegExp;
  private readonly anyFile: RegExp;

  constructor(readonly root: string, uploadFiles: readonly string[]) {
    this.upload = new RegExp(`(?:^|/)${escaped(root)}/([0-9a-f]{24})/([0-9a-f-]{36})/(?:${uploadFiles.map(escaped).join('|')})$`);
    this.anyFile = new RegExp(`^${escaped(root)}/([0-9a-f]{24})/([0-9a-f-]{36})/[^/]+$`);
  }

  folder(ref: JobRef): string {
    return `${this.root}/${ref.owner}/${ref.jobId}`;
  }

  file(ref: JobRef, name: string): string {
    return `${this.folder(ref)}/${name}`;
  }

  /**
   * The job an upload key belongs to, or null for any other object. Takes a storage key, or an object key as an
   * S3 event notification reports it: behind the S3Storage key prefix, and URL-encoded.
   */
  uploadOf(key: string): JobRef | null {
    let decoded = key;
    try {
      decoded = decodeURIComponent(key.replace(/\+/g, ' '));
    } catch {
      return null;
    }
    return refOf(this.upload.exec(decoded));
  }

  /** The job a storage key of a job's file belongs to, or null. */
  fileOf(key: string): JobRef | null {
    return refOf(this.anyFile.exec(key));
  }
}

function refOf(match: RegExpExecArray | null): JobRef | null {
  if (!match || !JOB_ID_PATTERN.test(match[2] as string)) return null;
  return { owner: match[1] as string, jobId: match[2] as string };
}
