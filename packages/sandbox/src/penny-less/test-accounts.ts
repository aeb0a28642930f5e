/**
 * Bank accounts the penny-less simulator knows, one per answer Setu's PennyLess documentation shows (SetuHQ/docs;
 * the tests' fixtures/setu). Any IFSC of the right shape works with them; any other account number is answered
 * as Setu answers an account it cannot find (200 `status: "ERROR"`, "Invalid bank details").
 *
 * | account        | answer                                                       |
 * |----------------|--------------------------------------------------------------|
 * | 100200300501   | 200 SUCCESS, entityType INDIVIDUAL: ANJALI RAO               |
 * | 100200300502   | 200 SUCCESS, entityType MERCHANT: SATYAPAN DEMO TECHNOLOGIES PVT LTD |
 * | 100200300503   | 200 SUCCESS, entityType UNKNOWN: MEERA IYER                  |
 * | 100200300510   | 200 ERROR, Invalid bank details                              |
 * | 100200300530   | 500 upstream_service_error                                   |
 * | 100200300531   | 429, the simulator's rate limit (Setu documents none)        |
 */
export const PENNY_LESS_TEST_ACCOUNTS = {
  individual: '100200300501',
  business: '100200300502',
  unknownEntity: '100200300503',
  invalidAccount: '100200300510',
  sourceUnavailable: '100200300530',
  rateLimited: '100200300531',
} as const;

/** Setu's own sandbox accounts (its quickstart), with UTIB0002083. */
export const SETU_SANDBOX_ACCOUNTS = { merchant: '1234567890', individual: '1234567891' } as const;

/**
 * The vendor's own sandbox values for penny-less verification, from the examples of its Postman collection
 * (`Bank / Bank Account Verification [Penny-Less]`), so that a test suite written against the vendor runs
 * against our sandbox unchanged. The IFSC each example pairs with the account is listed; the simulator keys on
 * the account number. Setu shows no blocked, NRE or bank-offline answer, so the vendor's accounts for those
 * (`bankOffline`, `blocked`, `nreAccount`) get Setu's answer for an account it cannot find.
 */
export const VENDOR_PENNY_LESS_ACCOUNTS = {
  /** SBIN0021745: JOHN DOE. */
  individual: '60100123456781',
  /** SBIN0021746: JANE DOE. */
  individualSecond: '60100123456787',
  /** SBIN0021745: JOHN DOE PVT LTD. */
  business: '60100123400123',
  /** HDFC0009595: JAKE INCORPORATED. */
  businessSecond: '780312749124122',
  /** SBIN0021745: Invalid account number or ifsc provided. */
  invalidAccount: '60100123456789',
  /** SBIN0021744: the vendor's "Beneficiary bank offline"; here Setu's "Invalid bank details" (no such account). */
  bankOffline: '60100123456444',
  /** SBIN0071744: the vendor's "Account is blocked"; here Setu's "Invalid bank details" (no such account). */
  blocked: '60100123456777',
  /** SBIN0061746: the vendor's "Given account is an NRE account"; here Setu's "Invalid bank details" (no such account). */
  nreAccount: '60100123456666',
  /** SBIN0021745: 503 Source Unavailable. */
  sourceUnavailable: '60100123456791',
} as const;

export type PennyLessScenario =
  | { kind: 'found'; name: string; entityType: 'INDIVIDUAL' | 'MERCHANT' | 'UNKNOWN' }
  | { kind: 'notFound' }
  | { kind: 'error'; status: number; code: string; detail: string };

const found = (name: string, entityType: 'INDIVIDUAL' | 'MERCHANT' | 'UNKNOWN'): PennyLessScenario => ({ kind: 'found', name, entityType });
const NOT_FOUND: PennyLessScenario = { kind: 'notFound' };
const DOWN: PennyLessScenario = {
  kind: 'error', status: 500, code: 'upstream_service_error', detail: 'Upstream service error. Please reach out to support along with the traceId.',
};

const A = PENNY_LESS_TEST_ACCOUNTS;
const V = VENDOR_PENNY_LESS_ACCOUNTS;
const S = SETU_SANDBOX_ACCOUNTS;

const SCENARIOS: Readonly<Record<string, PennyLessScenario>> = {
  [A.individual]: found('ANJALI RAO', 'INDIVIDUAL'),
  [A.business]: found('SATYAPAN DEMO TECHNOLOGIES PVT LTD', 'MERCHANT'),
  [A.unknownEntity]: found('MEERA IYER', 'UNKNOWN'),
  [A.invalidAccount]: NOT_FOUND,
  [A.sourceUnavailable]: DOWN,
  [A.rateLimited]: { kind: 'error', status: 429, code: 'too_many_requests', detail: 'Rate limit exceeded' },
  [S.merchant]: found('Pavankumar Kamat Biz', 'MERCHANT'),
  [S.individual]: found('Pavankumar Kamat', 'INDIVIDUAL'),
  [V.individual]: found('JOHN DOE', 'INDIVIDUAL'),
  [V.individualSecond]: found('JANE DOE', 'INDIVIDUAL'),
  [V.business]: found('JOHN DOE PVT LTD', 'MERCHANT'),
  [V.businessSecond]: found('JAKE INCORPORATED', 'MERCHANT'),
  [V.invalidAccount]: NOT_FOUND,
  [V.sourceUnavailable]: DOWN,
};

export function pennyLessScenario(account: string): PennyLessScenario {
  return SCENARIOS[account] ?? NOT_FOUND;
}
