export {
  LockerError, isLockerError,
  type LockerKind, type LockerClientConfig, type LockerTokens, type LockerPerson, type LockerBusiness, type LockerGender,
  type IssuedFileInfo, type DownloadedFile, type AuthorizationRequest, type LockerPort, type LockerFailure, type AccountQuery,
} from './locker/types.js';
export { OpenIdLockerClient } from './locker/openid-locker-client.js';
export { requiresInsecureTransport } from './transport.js';
export { verhoeffValid, verhoeffCheckDigit, isValidAadhaarNumber } from './aadhaar/verhoeff.js';
export {
  KycService,
  type KycServiceOptions, type InitSessionRequest, type InitSessionResponse, type SdkSessionRequest, type CallbackOutcome,
  type RequestContext, type UserVerificationRequest,
} from './sessions/kyc-service.js';
export {
  DOCVAULT_DOC_TYPES, ENTITYVAULT_DOC_TYPES, docTypesOf, isDocTypeOf,
  type SessionVariant, type SessionStatus, type Flow, type ApiDocType, type DocvaultDocType, type EntityvaultDocType,
  type SessionOptions,
} from './sessions/model.js';
export type { SessionStatusView, StoredFileView, DocvaultProfile } from './sessions/representations.js';
export type { RedisClient } from './sessions/session-store.js';
export {
  AadhaarOtpService, OTP_THROTTLED_MESSAGE,
  type AadhaarOtpServiceOptions, type OtpRequest, type OtpVerifyRequest, type OtpSendAnswer,
} from './aadhaar/aadhaar-otp-service.js';
export {
  HttpOtpProvider,
  type HttpOtpProviderConfig, type OtpProviderPort, type OtpSendResult, type OtpSendOutcome, type OtpVerifyResult, type EkycRecord,
} from './aadhaar/otp-provider.js';
export { createKycServices, type KycServicesConfig, type KycServices, type PanCacheConfig } from './factory.js';
export { kycArea, type KycAreaServices } from './routes.js';
export * from './pan/index.js';
