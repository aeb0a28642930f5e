export {
  LockerError, isLockerError,
  type LockerKind, type LockerClientConfig, type LockerTokens, type LockerPerson, type LockerBusiness, type LockerGender,
  type IssuedFileInfo, type DownloadedFile, type AuthorizationRequest, type LockerPort, type LockerFailure,
} from './locker/types.js';
export { OpenIdLockerClient, requiresInsecureTransport } from './locker/openid-locker-client.js';
export { verhoeffValid, verhoeffCheckDigit, isValidAadhaarNumber } from './aadhaar/verhoeff.js';
