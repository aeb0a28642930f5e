import type { Queue } from 'bullmq';
import type { Clock, Logger, ObjectStorage, RedisConnection } from '@satyapan/core';
import { UploadDispatcher, type JobRef, type JobRetryOptions, type UploadSlot } from '@satyapan/jobs';
import { form16StorageKeys, type Form16Keys } from './keys.js';
import type { Form16JobRecord } from './model.js';
import { Form16JobStateError, type Form16JobStore } from './store.js';

export const FORM16_QUEUE = '{form16}';
export const FORM16_WEBHOOK_QUEUE = '{form16-webhooks}';
export const MAKE_JOB = 'make';

/** A Form 16 job's upload slots: the 24Q Q4 workbook, and the Part A zip and certificate when its request said so. */
function slotsOf(ref: JobRef, record: Form16JobRecord): UploadSlot[] {
  const k = form16StorageKeys;
  const slots: UploadSlot[] = [{ name: 'workbook', upload: k.workbook(ref), frozen: k.frozenWorkbook(ref), contentType: 'application/octet-stream' }];
  if (record.partAExpected) slots.push({ name: 'part_a', upload: k.partA(ref), frozen: k.frozenPartA(ref), contentType: 'application/zip' });
  if (record.certificatePasswordSealed) slots.push({ name: 'certificate', upload: k.certificate(ref), frozen: k.frozenCertificate(ref), contentType: 'application/x-pkcs12' });
  return slots;
}

export interface Form16DispatcherOptions {
  redis: RedisConnection;
  storage: ObjectStorage;
  store: Form16JobStore;
  keys: Form16Keys;
  queue: Queue<JobRef>;
  clock: Clock;
  logger: Logger;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  retry?: JobRetryOptions;
}

/** The framework's dispatcher for Form 16 jobs; an oversize upload leaves a marker naming its slot. */
export function form16Dispatcher(options: Form16DispatcherOptions): UploadDispatcher<Form16JobRecord> {
  const { store, storage, clock } = options;
  return new UploadDispatcher<Form16JobRecord>({
    ...options,
    pendingKey: options.keys.pending,
    family: {
      label: 'form16',
      store,
      slotsOf,
      onOversize: async (ref, slot, size) => {
        await storage.put(form16StorageKeys.oversize(ref), JSON.stringify({ slot: slot.name, size }), { contentType: 'application/json' });
      },
      markQueued: (ref) => store.transition(ref, 'queued', clock.now()),
      queuedAlready: (error) => error instanceof Form16JobStateError,
      work: (ref) => ({ name: MAKE_JOB, data: { ...ref } }),
    },
  });
}
