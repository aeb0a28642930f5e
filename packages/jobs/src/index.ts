export { JobFolderKeys, familyOwner, refMember, parseRefMember, type JobRef } from './refs.js';
export { createJobQueue, jobOptions, type JobRetryOptions } from './queue.js';
export { freezeUpload, type Frozen } from './freeze.js';
export { UploadDispatcher, UPLOAD_GRACE_MS, type DispatchedFamily, type UploadDispatcherOptions, type UploadSlot } from './dispatch.js';
export { RetentionSchedule } from './retention.js';
export {
  settleAbandonedJobs, type AbandonedJobsOptions, type JobWorkerHandle, type WorkerParts, workerHandle,
  workerBasics, type WorkerBasicsOptions,
} from './abandoned.js';
export { watchFsUploads, type FsUploadWatch } from './uploads.js';
export {
  CREATE_RECORD, TRANSITION_RECORD, hashPairs, webhookHash, webhookOfHash, settingsFrom, baseHash, baseOfHash,
  type WebhookFields, type JobRecordBase, type JobProblem,
} from './record-scripts.js';
export { JobsError } from './errors.js';
export {
  signWebhook, verifyWebhook, WebhookVerificationError, DEFAULT_TOLERANCE_SECONDS,
  type WebhookHeaders, type VerifyOptions, type WebhookScheme,
} from './webhooks/signature.js';
export {
  WebhookSender, enqueueDelivery, recordWebhooks, webhookBackoff, webhookAttempts, deliveryJobOptions, webhookId, DELIVER_JOB, WEBHOOK_BACKOFF_TYPE,
  type WebhookOptions, type WebhookRetryOptions, type DeliveryOutcome, type WebhookJobData, type WebhookSource, type WebhookTarget, type WebhookSenderOptions,
} from './webhooks/delivery.js';
export { isNonPublicAddress, isAllowListed, BlockedAddressError } from './webhooks/address-guard.js';
export { createDeliveryWorker, type WebhookWorkerOptions, type DeliveryCounter } from './webhooks/webhook-worker.js';
export { JobServiceBase, type JobServiceBaseOptions, type JobServiceSettings, type UploadRules } from './service-base.js';
export { FamilyKeys } from './keys.js';
export { JOB_DEFAULTS } from './defaults.js';
export {
  ChildProcessPool, type ChildLimits, type ChildEntry, type ChildPoolErrors, type ChildPoolOptions,
} from './child-process/pool.js';
export { serveRequests, type ChildReply } from './child-process/serve.js';
