export { BulkService, BULK_PAGE_SIZE, type BulkServiceOptions, type BulkOwner, type BulkSubmitRequest } from './service.js';
export { createBulkWorker, type BulkWorker, type BulkWorkerOptions } from './worker.js';
export { bulkArea } from './routes.js';
export { RowCheckRegistry, type RowCheck, type RowCheckContext, type RowResult } from './kinds.js';
export { bankRowChecks } from './bank-checks.js';
export { kycRowChecks } from './kyc-checks.js';
export { BULK_DEFAULTS } from './defaults.js';
export {
  BULK_JOB_ENTITY, BULK_REQUEST_ENTITY, BULK_LIST_ENTITY, ROW_OUTCOMES,
  type BulkJobRecord, type BulkJobView, type BulkJobPage, type RowOutcome, type OutcomeCounts,
} from './model.js';
export { BulkKeys, bulkOwnerOf, bulkStorageKeys, refOfUploadKey, type BulkJobRef } from './keys.js';
export { BulkJobStore, BulkJobStateError, type JournalEntry } from './store.js';
export { UpstreamRateLimiter } from './rate-limit.js';
export { BulkRunner, resultHeader, type BulkRunResult } from './runner.js';
export { BULK_QUEUE, createBulkQueue, type BulkJobData, type BulkRetryOptions } from './queue.js';
export { countCsvRows, csvCell, csvLine, csvLines, type CsvLimits, type CsvLine } from './csv.js';
export { BulkFairness, type FairnessLimits } from './fairness.js';
