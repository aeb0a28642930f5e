// @satyapan/form16-queue: Form 16 jobs over HTTP, the third family on the job framework (@satyapan/jobs).
export { Form16Service, type Form16ServiceOptions, type Form16SubmitRequest, type Form16Owner } from './service.js';
export { createForm16Worker, type Form16Worker, type Form16WorkerOptions } from './worker.js';
export { form16Area } from './routes.js';
export { FORM16_DEFAULTS, FORM16_PAGE_SIZE } from './defaults.js';
export { FORM16_QUEUE, FORM16_WEBHOOK_QUEUE } from './dispatch.js';
export { Form16Keys, form16OwnerOf, form16StorageKeys, refOfUploadKey } from './keys.js';
export { Form16JobStore, Form16JobStateError } from './store.js';
export { Form16Processor, type Form16RunResult } from './processor.js';
export {
  FORM16_JOB_ENTITY, FORM16_REQUEST_ENTITY, FORM16_LIST_ENTITY,
  type Form16JobRecord, type Form16JobView, type Form16JobPage, type Form16Problem,
} from './model.js';
export {
  ProcessGenerator, DEFAULT_GENERATION_LIMITS, GenerationLimitError, GenerationCrashedError, inlineGenerator,
  type GenerationLimits, type Form16Generator,
} from './generation/generator.js';
export type { GenerationRequest, GenerationOutcome } from './generation/types.js';
