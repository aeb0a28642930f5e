import { PENNY_DROP_TEST_ACCOUNTS as A, VENDOR_PENNY_DROP_ACCOUNTS as V } from './test-accounts.js';

/**
 * What Cashfree's sync verification answers, as its OpenAPI document (2023-12-18) shows it and no more: 200
 * carries only the five answers about the account (`account_status` VALID or INVALID); the bank's and the rails'
 * failures are 422 with lower-case codes (Cashfree's own spelling `benficiary_bank_offline` included) and
 * `error.reference_id`; the provider's own errors carry `{type, code, message}`.
 * Source: packages/sandbox/test/fixtures/cashfree/ (the contract tests hold the simulator to it).
 */

/** A business answer: HTTP 200 with the account's status. */
export interface AccountOutcome {
  kind: 'status';
  accountStatus: 'VALID' | 'INVALID';
  code: string;
  /** A rupee reaches the account only when the credit succeeds. */
  deposits: boolean;
}

/** A provider-level error answer. */
export interface ErrorOutcome {
  kind: 'error';
  status: number;
  type: string;
  code: string;
  message: string;
  /** The 422 bank and rail failures carry the verification's reference for a later status poll. */
  withReference: boolean;
}

export type Outcome = AccountOutcome | ErrorOutcome;

const status = (accountStatus: AccountOutcome['accountStatus'], code: string): AccountOutcome => ({
  kind: 'status', accountStatus, code, deposits: code === 'ACCOUNT_IS_VALID',
});
const error = (httpStatus: number, type: string, code: string, message: string, withReference = false): ErrorOutcome => ({
  kind: 'error', status: httpStatus, type, code, message, withReference,
});
/** The 422 answers of `422SyncBav`, messages as Cashfree writes them. */
const bankSide = (code: string, message: string): ErrorOutcome => error(422, 'validation_error', code, message, true);

const FRAUD = bankSide('fraud_account', 'Fraud activity detected for this account.');
const UNDER_PROCESS = bankSide('verification_already_under_process', 'verification already under process.');
const FAILED_AT_BANK = bankSide('failed_at_bank', 'failed at bank.');
const NPCI = bankSide('npci_unavailable', 'npci unavailable.');
const TIMEOUT = bankSide('connection_timeout', 'connection timeout from bank.');
const SOURCE_DECLINED = bankSide('source_bank_declined', 'source bank declined.');
const BENE_DECLINED = bankSide('bene_bank_declined', 'bene bank declined.');
const IMPS = bankSide('imps_mode_fail', 'imps mode fail.');
const BENE_OFFLINE = bankSide('benficiary_bank_offline', 'benficiary bank offline.');
const BALANCE = error(422, 'validation_error', 'insufficient_balance', 'Insufficient balance to process this request.');
const SERVER_ERROR = error(500, 'internal_error', 'verification_failed', 'something went wrong');
export const BAD_GATEWAY = error(502, 'internal_error', 'verification_failed', 'verification attempt failed');
export const RATE_LIMITED = error(429, 'rate_limit_error', 'too_many_requests_per_operation', 'Too many requests for this operation, rate limit reached');

const OUTCOMES: Readonly<Record<string, Outcome>> = {
  [A.valid]: status('VALID', 'ACCOUNT_IS_VALID'),
  [A.validSecond]: status('VALID', 'ACCOUNT_IS_VALID'),
  [A.invalidAccount]: status('INVALID', 'INVALID_ACCOUNT_FAIL'),
  [A.nreAccount]: status('INVALID', 'NRE_ACCOUNT_FAIL'),
  [A.blocked]: status('INVALID', 'ACCOUNT_BLOCKED'),
  [A.fraud]: FRAUD,
  [A.invalidIfsc]: status('INVALID', 'INVALID_IFSC_FAIL'),
  [A.impsModeFail]: IMPS,
  [A.beneficiaryBankDeclined]: BENE_DECLINED,
  [A.failedAtBank]: FAILED_AT_BANK,
  [A.connectionTimeout]: TIMEOUT,
  [A.npciUnavailable]: NPCI,
  [A.sourceBankDeclined]: SOURCE_DECLINED,
  [A.beneficiaryBankOffline]: BENE_OFFLINE,
  [A.insufficientBalance]: BALANCE,
  [A.underProcess]: UNDER_PROCESS,
  [A.serverError]: SERVER_ERROR,
  [A.rateLimited]: RATE_LIMITED,
  [V.valid]: status('VALID', 'ACCOUNT_IS_VALID'),
  [V.invalidAccount]: status('INVALID', 'INVALID_ACCOUNT_FAIL'),
  [V.nreAccount]: status('INVALID', 'NRE_ACCOUNT_FAIL'),
  [V.blocked]: status('INVALID', 'ACCOUNT_BLOCKED'),
  [V.invalidIfsc]: status('INVALID', 'INVALID_IFSC_FAIL'),
  [V.sourceBankDeclined]: SOURCE_DECLINED,
  [V.beneficiaryBankOffline]: BENE_OFFLINE,
  [V.npciUnavailable]: NPCI,
  [V.impsModeFail]: IMPS,
  [V.beneficiaryBankDeclined]: BENE_DECLINED,
  [V.badAccountInput]: error(400, 'validation_error', 'bank_account_value_invalid', 'bank_account should be alphanumeric.'),
  [V.badIfscInput]: error(400, 'validation_error', 'ifsc_value_invalid', 'ifsc should be of 11 characters and 5th character should be 0.'),
  [V.failedAtBank]: FAILED_AT_BANK,
  [V.transactionFailed]: TIMEOUT,
  [V.sourceUnavailable]: BAD_GATEWAY,
};

const UNKNOWN_ACCOUNT = status('INVALID', 'INVALID_ACCOUNT_FAIL');

export function outcomeFor(account: string): Outcome {
  return OUTCOMES[account] ?? UNKNOWN_ACCOUNT;
}
