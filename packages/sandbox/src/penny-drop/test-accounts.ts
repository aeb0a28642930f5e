/**
 * Bank accounts the penny-drop simulator knows, one per answer Cashfree's sync verification documents (its five
 * 200 answers, its 422 bank and rail failures, its own errors).
 * Any IFSC of the right shape works with them; any other account number is answered as an invalid account,
 * like the vendors' test environments do.
 *
 * | account        | provider answer (as Cashfree's sync verification gives it)       |
 * |----------------|-------------------------------------------------------------------|
 * | 100200300401   | 200 VALID / ACCOUNT_IS_VALID, name ANJALI RAO                     |
 * | 100200300402   | 200 VALID / ACCOUNT_IS_VALID, name RAHUL VERMA                    |
 * | 100200300410   | 200 INVALID / INVALID_ACCOUNT_FAIL                                |
 * | 100200300411   | 200 INVALID / NRE_ACCOUNT_FAIL                                    |
 * | 100200300412   | 200 INVALID / ACCOUNT_BLOCKED                                     |
 * | 100200300413   | 422 fraud_account                                                 |
 * | 100200300414   | 200 INVALID / INVALID_IFSC_FAIL                                   |
 * | 100200300415   | 422 imps_mode_fail                                                |
 * | 100200300416   | 422 bene_bank_declined                                            |
 * | 100200300417   | 422 failed_at_bank                                                |
 * | 100200300418   | 422 connection_timeout                                            |
 * | 100200300419   | 422 npci_unavailable                                              |
 * | 100200300420   | 422 source_bank_declined                                          |
 * | 100200300421   | 422 benficiary_bank_offline (Cashfree's spelling)                 |
 * | 100200300430   | 422 insufficient_balance (the merchant's wallet)                  |
 * | 100200300431   | 422 verification_already_under_process                            |
 * | 100200300432   | 500 internal_error / verification_failed                          |
 * | 100200300433   | 429 too_many_requests_per_operation                               |
 */
export const PENNY_DROP_TEST_ACCOUNTS = {
  valid: '100200300401',
  validSecond: '100200300402',
  invalidAccount: '100200300410',
  nreAccount: '100200300411',
  blocked: '100200300412',
  fraud: '100200300413',
  invalidIfsc: '100200300414',
  impsModeFail: '100200300415',
  beneficiaryBankDeclined: '100200300416',
  failedAtBank: '100200300417',
  connectionTimeout: '100200300418',
  npciUnavailable: '100200300419',
  sourceBankDeclined: '100200300420',
  beneficiaryBankOffline: '100200300421',
  insufficientBalance: '100200300430',
  underProcess: '100200300431',
  serverError: '100200300432',
  rateLimited: '100200300433',
} as const;

/** An IFSC to use with the test accounts (a real branch that is also in the shipped sample directory). */
export const PENNY_DROP_TEST_IFSC = 'KKBK0000131';

/**
 * The vendor's own sandbox values for penny drop (its Postman collection, `Bank / Bank Account Verification
 * [Penny-Drop]`, and its Testing Data table), so that a test suite written against the vendor runs against our
 * sandbox unchanged. The comment names the IFSC the vendor pairs with each account and the answer it shows;
 * the simulator keys on the account number. Left out: 793-795 (the vendor's own token and credit errors),
 * 801 (a 422 no documented answer of Cashfree's produces), 802 and 805 (500 messages no provider answer of ours
 * maps to).
 */
export const VENDOR_PENNY_DROP_ACCOUNTS = {
  /** SBIN0021745: verified, name John Doe. */
  valid: '40100123456781',
  /** SBIN0021745: Invalid account number or ifsc provided. */
  invalidAccount: '40100123456784',
  /** SBIN0021745: Given account is an NRE account. */
  nreAccount: '40100123456785',
  /** SBIN0021745: Account is blocked. */
  blocked: '40100123456786',
  /** SBIN0000002: IFSC is invalid. */
  invalidIfsc: '40100123456787',
  /** SBIN0021746: Source bank declined. */
  sourceBankDeclined: '40100123456788',
  /** SBIN0021745: Beneficiary bank offline. */
  beneficiaryBankOffline: '40100123456789',
  /** SBIN0021745: NPCI Unavailable. */
  npciUnavailable: '40100123456790',
  /** SBIN0021745: IMPS Mode fail. */
  impsModeFail: '40100123456791',
  /** SBIN0021745: Failed at beneficiary bank. */
  beneficiaryBankDeclined: '40100123456792',
  /** SBIN0021745: 422 Please provide a valid bank account. */
  badAccountInput: '40100123456798',
  /** SBIN0000003: 422 Invalid IFSC provided. */
  badIfscInput: '40100123456800',
  /** SBIN0021745: Failed at bank. */
  failedAtBank: '40100123456803',
  /** SBIN0021745: Transaction failed. */
  transactionFailed: '40100123456804',
  /** SBIN0021745: 503 Source Unavailable. */
  sourceUnavailable: '40100123456806',
} as const;

/** The names the bank holds for the accounts that verify. */
export const PENNY_DROP_TEST_NAMES: Readonly<Record<string, string>> = {
  [PENNY_DROP_TEST_ACCOUNTS.valid]: 'ANJALI RAO',
  [PENNY_DROP_TEST_ACCOUNTS.validSecond]: 'RAHUL VERMA',
  [VENDOR_PENNY_DROP_ACCOUNTS.valid]: 'John Doe',
};
