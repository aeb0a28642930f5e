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
