export { StatementService, type StatementServiceOptions, type SubmitRequest } from './service.js';
export { DEFAULTS } from './defaults.js';
export {
  DOMAINS, JOB_STATUSES, QUARTERS, TDS_FORMS, FAILURE_MESSAGES, SHOWN_PROBLEMS, jobEntity, listEntity, isTerminal,
  type StatementDomain, type JobStatus, type Quarter, type TdsForm, type JobRecord, type JobProblem, type JobOwner, type StatementJobView, type SearchPage,
} from './model.js';
export { JobStore, type TransitionFields, type TransitionResult } from './job-store.js';
export { StatementKeys, ownerOf, storageKeys, refOfUploadKey, type JobRef } from './keys.js';
export { canMove, sourcesOf } from '@satyapan/core';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type SearchQuery } from './search.js';
export { StatementQueueError, IllegalTransitionError, JobMissingError } from './errors.js';
export { periodStartYear, writtenForm } from './period.js';
export {
  STATEMENT_QUEUE, WEBHOOK_QUEUE, createStatementQueue, createWebhookQueue,
  type ConvertJobData, type DeliveryJobData, type ConversionRetryOptions,
} from './queues.js';
export {
  signWebhook, verifyWebhook, WebhookVerificationError, DEFAULT_TOLERANCE_SECONDS,
  WebhookSender, webhookBackoff, webhookAttempts, deliveryJobOptions, isNonPublicAddress, BlockedAddressError,
  type WebhookHeaders, type VerifyOptions, type WebhookScheme, type WebhookOptions, type WebhookRetryOptions, type DeliveryOutcome,
} from '@satyapan/jobs';
export { enqueueWebhook, createWebhookWorker, statementWebhooks, type WebhookWorkerOptions } from './webhooks.js';
export { createStatementWorker, type StatementWorker, type StatementWorkerOptions } from './worker.js';
export { StatementProcessor, type ProcessResult } from './processor.js';
export { ScratchSpace, SCRATCH_ROOT, type ScratchOptions } from './scratch.js';
export {
  ProcessConverter, InlineConverter, DEFAULT_CONVERSION_LIMITS,
  ConversionCrashedError, ConversionAbortedError, ConversionLimitError, type ConversionLimits,
} from './conversion/process-converter.js';
export type { Converter, ConversionRequest, ConversionOutcome, ConversionReport, ReportProblem, ConversionOptions } from './conversion/types.js';
export { statementsArea } from './routes.js';
