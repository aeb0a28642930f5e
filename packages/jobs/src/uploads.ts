import type { FsStorage, Logger, UploadPolicy } from '@satyapan/core';

export interface FsUploadWatch {
  /** Runs before FsStorage accepts an upload: throws to refuse it, answers a policy (create-only) to take it. */
  guard(key: string): Promise<UploadPolicy | undefined>;
  /** Reacts to a completed upload (queues its job when every file is there). */
  created(key: string): Promise<void>;
  label: string;
  logger: Logger;
}

/**
 * With FsStorage the service hears of uploads itself (S3 needs its event notifications wired to the service):
 * uploads are guarded, and a job is queued as soon as its last file is in. Returns what detaches both.
 */
export function watchFsUploads(storage: FsStorage, watch: FsUploadWatch): Array<() => void> {
  return [
    storage.addUploadGuard((key) => watch.guard(key)),
    storage.onObjectCreated(({ key }) => watch.created(key).catch((error: unknown) => {
      // The pending entry stays: the next sweep queues the job.
      watch.logger.warn(`queueing a ${watch.label} job after its upload failed; the sweep will retry`, { error: (error as Error).message });
    })),
  ];
}
