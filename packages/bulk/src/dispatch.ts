import type { Queue } from 'bullmq';
import type { Clock, Logger, ObjectStorage, RedisConnection } from '@satyapan/core';
import { UploadDispatcher, type DispatchedFamily } from '@satyapan/jobs';
import type { BulkFairness } from './fairness.js';
import { BulkJobStateError, type BulkJobStore } from './store.js';
import { bulkStorageKeys, type BulkJobRef, type BulkKeys } from './keys.js';
import type { BulkJobRecord } from './model.js';
import { RUN_JOB, type BulkJobData, type BulkRetryOptions } from './queue.js';

export interface BulkDispatcherOptions {
  redis: RedisConnection;
  storage: ObjectStorage;
  store: BulkJobStore;
  keys: BulkKeys;
  queue: Queue<BulkJobData>;
  clock: Clock;
  logger: Logger;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  /** Renews a queued job's place in its client's count of jobs waiting or running. */
  fairness: BulkFairness;
  retry?: BulkRetryOptions;
}

export { UPLOAD_GRACE_MS } from '@satyapan/jobs';

/**
 * Bulk jobs on the framework's dispatcher (@satyapan/jobs `UploadDispatcher`): a job is queued once its CSV is in
 * storage, copied where no URL reaches first. An upload over the size limit is not copied: the worker fails the
 * job on its size (it reads the upload's size when the copy is missing).
 */
export class BulkDispatcher extends UploadDispatcher<BulkJobRecord> {
  constructor(options: BulkDispatcherOptions) {
    super({ ...options, pendingKey: options.keys.pending, family: bulkFamily(options) });
  }
}

/** What the dispatcher needs to know of bulk jobs: one CSV slot; a queued job's place in its client's count renewed. */
function bulkFamily({ store, clock, fairness }: BulkDispatcherOptions): DispatchedFamily<BulkJobRecord> {
  const slot = (ref: BulkJobRef) => ({ name: 'rows', upload: bulkStorageKeys.upload(ref), frozen: bulkStorageKeys.frozenInput(ref), contentType: 'text/csv' });
  return {
    label: 'bulk',
    store,
    slotsOf: (ref) => [slot(ref)],
    onOversize: async () => undefined,
    markQueued: (ref) => store.transition(ref, 'queued', clock.now()),
    queuedAlready: (error) => error instanceof BulkJobStateError,
    afterQueued: (ref) => fairness.renew(ref, clock.now()),
    work: (ref) => ({ name: RUN_JOB, data: { ...ref } satisfies BulkJobData }),
  };
}
