export {
  PAN_PATTERN, DATE_OF_BIRTH_PATTERN, PAN_CATEGORIES, panCategory, isCalendarDate, type PanCategory,
} from './rules.js';
export type {
  PanVerificationProvider, PanLookupRequest, PanRecord, PanAadhaarLinkProvider, PanAadhaarLinkRequest, PanAadhaarLinkOutcome, PanAadhaarLinkState,
} from './port.js';
export { CashfreePanProvider, type CashfreePanOptions } from './cashfree-pan.js';
export { IncomeTaxLinkStatusProvider, type IncomeTaxLinkStatusOptions } from './income-tax-link-status.js';
export {
  PanVerificationService, PanAadhaarLinkService, assertPanVerifyInput, assertPanAadhaarLinkInput,
  PAN_VERIFICATION_ENTITY, PAN_AADHAAR_STATUS_ENTITY, PAN_CACHE_TTL_SECONDS, PAN_AADHAAR_LINK_CACHE_TTL_SECONDS,
  type PanServiceSettings, type PanVerificationOptions, type PanAadhaarLinkOptions, type PanVerifyInput, type PanAadhaarLinkInput,
  type PanVerificationResult, type PanAadhaarLinkResult, type AadhaarSeedingStatus,
} from './service.js';
