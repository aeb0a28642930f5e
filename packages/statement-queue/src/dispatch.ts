import type { Queue } from 'bullmq';
import type { Clock, Logger, ObjectStorage, RedisConnection } from '@satyapan/core';
import { UploadDispatcher, type DispatchedFamily, type JobRef, type UploadSlot } from '@satyapan/jobs';
import { IllegalTransitionError } from './errors.js';
import type { JobStore } from './job-store.js';
import { storageKeys, type StatementKeys } from './keys.js';
import type { JobRecord } from './model.js';
import { CONVERT_JOB, type ConversionRetryOptions, type ConvertJobData } from './queues.js';

export interface DispatcherOptions {
  redis: RedisConnection;
  storage: ObjectStorage;
  store: JobStore;
  keys: StatementKeys;
  queue: Queue<ConvertJobData>;
  clock: Clock;
  logger: Logger;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  retry?: ConversionRetryOptions;
}

/** Which upload an oversize marker is about (markers written before CSI uploads existed have no `file`). */
export type OversizeFile = 'workbook' | 'csi' | 'conso';

/**
 * A statement job's upload slots: the workbook, a CSI file when its request asked for one, the TRACES conso file
 * for a correction. The job is queued once all of them are in, in any order.
 */
function slotsOf(ref: JobRef, record: JobRecord): UploadSlot[] {
  const slots: UploadSlot[] = [{ name: 'workbook', upload: storageKeys.upload(ref), frozen: storageKeys.frozenInput(ref), contentType: 'application/json' }];
  if (record.csiExpected) slots.push({ name: 'csi', upload: storageKeys.csiUpload(ref), frozen: storageKeys.frozenCsi(ref), contentType: 'text/plain' });
  if (record.correction) slots.push({ name: 'conso', upload: storageKeys.consoUpload(ref), frozen: storageKeys.frozenConso(ref), contentType: 'text/plain' });
  return slots;
}

/**
 * Statement jobs on the framework's dispatcher (@satyapan/jobs `UploadDispatcher`): moves a job from `created`
 * to the queue once its files are in storage, each copied where no URL reaches first. An upload over the size
 * limit is not copied: a marker records its size and slot, and the worker fails the job on it.
 */
export class Dispatcher extends UploadDispatcher<JobRecord> {
  constructor(options: DispatcherOptions) {
    super({ ...options, pendingKey: options.keys.pending, family: statementFamily(options) });
  }
}

/** What the dispatcher needs to know of statement jobs. */
function statementFamily({ store, storage, clock }: DispatcherOptions): DispatchedFamily<JobRecord> {
  return {
    label: 'statement',
    store,
    slotsOf,
    async onOversize(ref, slot, size) {
      await storage.put(storageKeys.oversizeMarker(ref), JSON.stringify({ size, file: slot.name }), { contentType: 'application/json' });
    },
    markQueued: (ref, record) => store.transition(ref, record.domain, 'queued', clock.now()),
    queuedAlready: (error) => error instanceof IllegalTransitionError,
    work: (ref, record) => ({ name: CONVERT_JOB, data: { ...ref, domain: record.domain } satisfies ConvertJobData }),
  };
}
