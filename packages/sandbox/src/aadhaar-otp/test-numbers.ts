/**
 * Aadhaar numbers the OTP provider simulator knows, one per outcome. All pass the Verhoeff check and start
 * with a digit from 2 to 9, so a caller that validates numbers before calling (as ours does) lets them through.
 * Any other well-formed number is answered as "Invalid Aadhaar Card", like the vendors' test environments do.
 */
export const AADHAAR_TEST_NUMBERS = {
  /** OTP sent; verifying with {@link AADHAAR_TEST_OTP} gives the full e-KYC record. */
  otpSent: '499931110008',
  /** OTP sent; verifying always reports the OTP as expired. */
  otpExpires: '499931110012',
  /** OTP sent; verifying reports that the request is still being processed. */
  verificationPending: '499931110020',
  /** The provider says the Aadhaar number does not exist. */
  invalidAadhaar: '499931110031',
  /** The Aadhaar exists but has no mobile number to send the OTP to. */
  notLinkedToMobile: '499931110049',
  /** The provider fails with a server error (the identity authority is unreachable). */
  providerError: '499931110054',
  /** A second person whose OTP can be sent and verified, for tests that need two numbers. */
  otpSentSecond: '499931110065',
} as const;

/** The OTP that verifies for every number whose OTP was sent. */
export const AADHAAR_TEST_OTP = '121212';

/**
 * The vendor's own sandbox Aadhaar numbers (its Postman collection, `Aadhaar / Aadhaar Offline e-KYC Generate
 * OTP` and `Verify OTP`), so that a test suite written against the vendor runs against our sandbox unchanged.
 * They fail the Verhoeff check and start with 1, so a deployment must name them as accepted test numbers
 * (`aadhaarOtp.testNumbers` of `createKycServices`). Each answers with the reference id of the vendor's
 * example, so the vendor's verify examples (which name those reference ids) work as written.
 */
export const VENDOR_AADHAAR_NUMBERS = {
  /** OTP sent (reference 1234567); OTP 121212 gives John Doe's e-KYC record, OTP 121213 a 503. */
  otpSent: '123456789012',
  /** OTP sent (reference 1234568); every OTP is answered "Invalid OTP". */
  invalidOtp: '123456789015',
  /** OTP sent (reference 1234569); verifying says "OTP Expired". */
  otpExpired: '123456789016',
  /** OTP sent (reference 1234566); verifying says "Invalid Reference Id". */
  invalidReference: '123456789017',
  /** OTP sent (reference 1234570); verifying says the request is under process. */
  underProcess: '123456789018',
  /** "Invalid Aadhaar Card" (reference 78829). */
  invalidAadhaar: '123456789013',
  /** "OTP generated for this aadhaar, please try after 45 sec" on every request. */
  alreadyGenerated: '123456789014',
  /** 503 Source Unavailable. */
  sourceUnavailable: '123456789011',
} as const;

/** The reference id the vendor's examples show for each of its numbers. */
export const VENDOR_AADHAAR_REFERENCE_IDS: Readonly<Record<string, number>> = {
  [VENDOR_AADHAAR_NUMBERS.otpSent]: 1234567,
  [VENDOR_AADHAAR_NUMBERS.invalidOtp]: 1234568,
  [VENDOR_AADHAAR_NUMBERS.otpExpired]: 1234569,
  [VENDOR_AADHAAR_NUMBERS.invalidReference]: 1234566,
  [VENDOR_AADHAAR_NUMBERS.underProcess]: 1234570,
  [VENDOR_AADHAAR_NUMBERS.invalidAadhaar]: 78829,
};

/** The OTP the vendor's verify example answers with 503 Source Unavailable (for its own numbers only). */
export const VENDOR_SOURCE_UNAVAILABLE_OTP = '121213';
