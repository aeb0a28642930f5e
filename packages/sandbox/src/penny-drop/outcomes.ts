import { PENNY_DROP_TEST_ACCOUNTS as A, VENDOR_PENNY_DROP_ACCOUNTS as V } from './test-accounts.js';

/** A business answer: HTTP 200 with the account's status. */
export interface AccountOutcome {
  kind: 'status';
  accountStatus: 'VALID' | 'INVALID' | 'FAILED';
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
}

export type Outcome = AccountOutcome | ErrorOutcome;

const status = (accountStatus: AccountOutcome['accountStatus'], code: string): AccountOutcome => ({
  kind: 'status', accountStatus, code, deposits: code === 'ACCOUNT_IS_VALID',
});
const error = (httpStatus: number, type: string, code: string, message: string): ErrorOutcome => ({
  kind: 'error', status: httpStatus, type, code, message,
});

const OUTCOMES: Readonly<Record<string, Outcome>> = {
  [A.valid]: status('VALID', 'ACCOUNT_IS_VALID'),
  [A.validSecond]: status('VALID', 'ACCOUNT_IS_VALID'),
  [A.invalidAccount]: status('INVALID', 'INVALID_ACCOUNT_FAIL'),
  [A.nreAccount]: status('INVALID', 'NRE_ACCOUNT_FAIL'),
  [A.blocked]: status('INVALID', 'ACCOUNT_BLOCKED'),
  [A.fraud]: status('INVALID', 'FRAUD_ACCOUNT'),
  [A.invalidIfsc]: status('INVALID', 'INVALID_IFSC_FAIL'),
  [A.impsModeFail]: status('FAILED', 'IMPS_MODE_FAIL'),
  [A.beneficiaryBankDeclined]: status('FAILED', 'BENE_BANK_DECLINED'),
  [A.failedAtBank]: status('FAILED', 'FAILED_AT_BANK'),
  [A.connectionTimeout]: status('FAILED', 'CONNECTION_TIMEOUT'),
  [A.npciUnavailable]: status('FAILED', 'NPCI_UNAVAILABLE'),
  [A.sourceBankDeclined]: status('FAILED', 'SOURCE_BANK_DECLINED'),
  [A.beneficiaryBankOffline]: status('FAILED', 'BENEFICIARY_BANK_OFFLINE'),
  [A.verificationBlocked]: status('INVALID', 'BAV_BLOCKED'),
  [A.insufficientBalance]: error(422, 'validation_error', 'insufficient_balance', 'Insufficient balance to process this request'),
  [A.underProcess]: error(409, 'validation_error', 'verification_already_under_process', 'Verification already under process, please try after some time'),
  [A.serverError]: error(500, 'api_error', 'internal_error', 'Something went wrong, please retry later'),
  [A.rateLimited]: error(429, 'rate_limit_error', 'too_many_requests', 'Too many requests'),
  [V.valid]: status('VALID', 'ACCOUNT_IS_VALID'),
  [V.invalidAccount]: status('INVALID', 'INVALID_ACCOUNT_FAIL'),
  [V.nreAccount]: status('INVALID', 'NRE_ACCOUNT_FAIL'),
  [V.blocked]: status('INVALID', 'ACCOUNT_BLOCKED'),
  [V.invalidIfsc]: status('INVALID', 'INVALID_IFSC_FAIL'),
  [V.sourceBankDeclined]: status('FAILED', 'SOURCE_BANK_DECLINED'),
  [V.beneficiaryBankOffline]: status('FAILED', 'BENEFICIARY_BANK_OFFLINE'),
  [V.npciUnavailable]: status('FAILED', 'NPCI_UNAVAILABLE'),
  [V.impsModeFail]: status('FAILED', 'IMPS_MODE_FAIL'),
  [V.beneficiaryBankDeclined]: status('FAILED', 'BENE_BANK_DECLINED'),
  [V.badAccountInput]: error(400, 'validation_error', 'bank_account_invalid', 'bank_account is invalid'),
  [V.badIfscInput]: error(400, 'validation_error', 'ifsc_invalid', 'ifsc is invalid'),
  [V.badDetailsInput]: error(422, 'validation_error', 'bank_details_invalid', 'The bank details are invalid'),
  [V.failedAtBank]: status('FAILED', 'FAILED_AT_BANK'),
  [V.transactionFailed]: status('FAILED', 'CONNECTION_TIMEOUT'),
  [V.sourceUnavailable]: error(503, 'api_error', 'service_unavailable', 'Service is temporarily unavailable'),
};

const UNKNOWN_ACCOUNT = status('INVALID', 'INVALID_ACCOUNT_FAIL');

export function outcomeFor(account: string): Outcome {
  return OUTCOMES[account] ?? UNKNOWN_ACCOUNT;
}
