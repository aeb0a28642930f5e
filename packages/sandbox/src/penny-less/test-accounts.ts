/**
 * Bank accounts the penny-less simulator knows, one per outcome of the vendor's penny-less examples. Any IFSC
 * of the right shape works with them; any other account number is answered as an invalid account, like the
 * vendors' test environments do.
 *
 * | account        | answer                                              |
 * |----------------|-----------------------------------------------------|
 * | 100200300501   | found, individual: ANJALI RAO                       |
 * | 100200300502   | found, business: SATYAPAN DEMO TECHNOLOGIES PVT LTD |
 * | 100200300510   | invalid account or IFSC                             |
 * | 100200300511   | beneficiary bank offline                            |
 * | 100200300512   | account blocked                                     |
 * | 100200300513   | NRE account                                         |
 * | 100200300530   | the provider is down (503: Source Unavailable)      |
 * | 100200300531   | the provider's rate limit (429)                     |
 */
export const PENNY_LESS_TEST_ACCOUNTS = {
  individual: '100200300501',
  business: '100200300502',
  invalidAccount: '100200300510',
  bankOffline: '100200300511',
  blocked: '100200300512',
  nreAccount: '100200300513',
  sourceUnavailable: '100200300530',
  rateLimited: '100200300531',
} as const;

/**
 * The vendor's own sandbox values for penny-less verification, from the examples of its Postman collection
 * (`Bank / Bank Account Verification [Penny-Less]`), so that a test suite written against the vendor runs
 * against our sandbox unchanged. The IFSC each example pairs with the account is listed; the simulator keys on
 * the account number.
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
  /** SBIN0021744: Beneficiary bank offline. */
  bankOffline: '60100123456444',
  /** SBIN0071744: Account is blocked. */
  blocked: '60100123456777',
  /** SBIN0061746: Given account is an NRE account. */
  nreAccount: '60100123456666',
  /** SBIN0021745: 503 Source Unavailable. */
  sourceUnavailable: '60100123456791',
} as const;

export type PennyLessScenario =
  | { kind: 'found'; name: string; entityType: 'INDIVIDUAL' | 'MERCHANT' }
  | { kind: 'failed'; code: string; detail: string }
  | { kind: 'error'; status: number; code: string; detail: string };

const found = (name: string, entityType: 'INDIVIDUAL' | 'MERCHANT'): PennyLessScenario => ({ kind: 'found', name, entityType });
const failed = (code: string, detail: string): PennyLessScenario => ({ kind: 'failed', code, detail });
const INVALID = failed('invalid-account', 'The bank account number or IFSC is invalid');
const OFFLINE = failed('beneficiary-bank-offline', 'The beneficiary bank is offline');
const BLOCKED = failed('account-blocked', 'The account is blocked');
const NRE = failed('nre-account', 'The account is an NRE account');
const DOWN: PennyLessScenario = { kind: 'error', status: 503, code: 'service-unavailable', detail: 'Service is temporarily unavailable' };

const A = PENNY_LESS_TEST_ACCOUNTS;
const V = VENDOR_PENNY_LESS_ACCOUNTS;

const SCENARIOS: Readonly<Record<string, PennyLessScenario>> = {
  [A.individual]: found('ANJALI RAO', 'INDIVIDUAL'),
  [A.business]: found('SATYAPAN DEMO TECHNOLOGIES PVT LTD', 'MERCHANT'),
  [A.invalidAccount]: INVALID,
  [A.bankOffline]: OFFLINE,
  [A.blocked]: BLOCKED,
  [A.nreAccount]: NRE,
  [A.sourceUnavailable]: DOWN,
  [A.rateLimited]: { kind: 'error', status: 429, code: 'too-many-requests', detail: 'Rate limit exceeded' },
  [V.individual]: found('JOHN DOE', 'INDIVIDUAL'),
  [V.individualSecond]: found('JANE DOE', 'INDIVIDUAL'),
  [V.business]: found('JOHN DOE PVT LTD', 'MERCHANT'),
  [V.businessSecond]: found('JAKE INCORPORATED', 'MERCHANT'),
  [V.invalidAccount]: INVALID,
  [V.bankOffline]: OFFLINE,
  [V.blocked]: BLOCKED,
  [V.nreAccount]: NRE,
  [V.sourceUnavailable]: DOWN,
};

export function pennyLessScenario(account: string): PennyLessScenario {
  return SCENARIOS[account] ?? INVALID;
}
