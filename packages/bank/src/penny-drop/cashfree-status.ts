import type { PennyDropOutcome } from './port.js';

/**
 * Cashfree BAV v2 `account_status_code` -> our answer. Messages and `account_exists` follow the vendor whose
 * API ours copies: verified accounts exist; NRE and blocked accounts exist but cannot be credited; an invalid
 * account does not exist; when the rails or a bank fail, existence is unknown and `account_exists` is left out.
 * Only answers about the account itself are `definitive` (cached); rail and bank failures are not.
 */
type Mapping = Omit<PennyDropOutcome, 'providerCode' | 'nameAtBank' | 'utr' | 'deposited'>;

const about = (message: string, accountExists: boolean | undefined): Mapping => (
  accountExists === undefined ? { message, definitive: true } : { message, accountExists, definitive: true }
);
const transient = (message: string): Mapping => ({ message, definitive: false });

export const VERIFIED_MESSAGE = 'Bank Account details verified successfully.';

const STATUS_CODES: Readonly<Record<string, Mapping>> = {
  ACCOUNT_IS_VALID: about(VERIFIED_MESSAGE, true),
  INVALID_ACCOUNT_FAIL: about('Invalid account number or ifsc provided', false),
  NRE_ACCOUNT_FAIL: about('Given account is an NRE account', true),
  ACCOUNT_BLOCKED: about('Account is blocked', true),
  FRAUD_ACCOUNT: about('Account is blocked', true),
  INVALID_IFSC_FAIL: about('IFSC is invalid', undefined),
  BAV_BLOCKED: transient('Account is blocked'),
  IMPS_MODE_FAIL: transient('IMPS Mode fail'),
  BENE_BANK_DECLINED: transient('Failed at beneficiary bank'),
  NPCI_UNAVAILABLE: transient('NPCI Unavailable'),
  SOURCE_BANK_DECLINED: transient('Source bank declined'),
  BENEFICIARY_BANK_OFFLINE: transient('Beneficiary bank offline'),
};

/**
 * Codes that describe our standing with the provider rather than the account (the wallet is empty, the same
 * verification is already running there): the caller should retry later, so they become 503.
 */
export const PROVIDER_SIDE_CODES = new Set(['INSUFFICIENT_BALANCE', 'VERIFICATION_ALREADY_UNDER_PROCESS']);

/**
 * Codes whose credit failed for a reason that says nothing about the account: the vendor answers these with a
 * 500 error envelope carrying the message (its collection: "500 - Failed at bank", "500 - Transaction failed"),
 * not with a 200. An unknown code is a failed transaction too.
 */
const TRANSFER_FAILURES: Readonly<Record<string, string>> = {
  FAILED_AT_BANK: 'Failed at bank',
  CONNECTION_TIMEOUT: 'Transaction failed',
};
const UNKNOWN_CODE_FAILURE = 'Transaction failed';

/** The 500 message for a code whose credit failed, or null when the code is an answer about the account. */
export function transferFailureMessage(code: string): string | null {
  if (code in STATUS_CODES) return null;
  return TRANSFER_FAILURES[code] ?? UNKNOWN_CODE_FAILURE;
}

/** The mapping for a status code that answers about the account (see {@link transferFailureMessage} first). */
export function mapAccountStatusCode(code: string): Mapping {
  return STATUS_CODES[code] ?? transient(UNKNOWN_CODE_FAILURE);
}

export function isKnownAccountStatusCode(code: string): boolean {
  return code in STATUS_CODES || code in TRANSFER_FAILURES;
}
