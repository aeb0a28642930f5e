import { CASHFREE_REFUSAL_CAUSES } from '@satyapan/core';
import type { PennyDropOutcome } from './port.js';

/**
 * Cashfree Bank Account Verification v2 (sync) -> our answers: the adapter's failure vocabulary.
 *
 * What Cashfree's Verification OpenAPI (2023-12-18) shows for `POST /bank-account/sync`:
 * - 200 carries only answers about the account: ACCOUNT_IS_VALID, INVALID_ACCOUNT_FAIL, ACCOUNT_BLOCKED,
 *   INVALID_IFSC_FAIL, NRE_ACCOUNT_FAIL (`account_status_code`);
 * - 422 carries the bank's and the rails' failures as lower-case `code`s (`npci_unavailable`,
 *   `benficiary_bank_offline` spelt so, `fraud_account`, `insufficient_balance`, ...), with `error.reference_id`;
 * - the upper-case forms of those codes (FRAUD_ACCOUNT, NPCI_UNAVAILABLE, ...) belong to the status endpoint's
 *   200 answers; they are read the same way, so that either endpoint's answer means one thing here.
 *
 * Kinds, and what each becomes for our callers:
 * - `answer`: 200 with the vendor's message: about the account itself (definitive, cached), or the bank or the
 *   rails could not answer now (no `account_exists`, not definitive, never cached; the vendor's API answers these
 *   with 200);
 * - `transfer`: the credit failed for a reason that says nothing about the account: the vendor's 500 envelope
 *   with its message ("Failed at bank", "Transaction failed"), never cached;
 * - `outage`: our standing with the provider (wallet empty, the same verification already running there): 503,
 *   retryable, never cached, logged with core's cause (the 422 spellings are read by core's `cashfreeRefusal`
 *   before these; the entries serve the status endpoint's upper-case forms).
 */
type Mapping = Omit<PennyDropOutcome, 'providerCode' | 'nameAtBank' | 'utr' | 'deposited'>;

export type CashfreeCodeKind =
  | { kind: 'answer'; mapping: Mapping }
  | { kind: 'transfer'; message: string }
  | { kind: 'outage'; cause: string };

const about = (message: string, accountExists: boolean | undefined): CashfreeCodeKind => ({
  kind: 'answer', mapping: accountExists === undefined ? { message, definitive: true } : { message, accountExists, definitive: true },
});
const rail = (message: string): CashfreeCodeKind => ({ kind: 'answer', mapping: { message, definitive: false } });
const transfer = (message: string): CashfreeCodeKind => ({ kind: 'transfer', message });
const outage = (cause: string): CashfreeCodeKind => ({ kind: 'outage', cause });

/** Keyed by the upper-case code; {@link classifyCashfreeCode} folds the 422 spellings onto these. */
const CODES: Readonly<Record<string, CashfreeCodeKind>> = {
  ACCOUNT_IS_VALID: about('Bank Account details verified successfully.', true),
  INVALID_ACCOUNT_FAIL: about('Invalid account number or ifsc provided', false),
  NRE_ACCOUNT_FAIL: about('Given account is an NRE account', true),
  ACCOUNT_BLOCKED: about('Account is blocked', true),
  FRAUD_ACCOUNT: about('Account is blocked', true),
  INVALID_IFSC_FAIL: about('IFSC is invalid', undefined),
  BAV_BLOCKED: rail('Account is blocked'),
  IMPS_MODE_FAIL: rail('IMPS Mode fail'),
  BENE_BANK_DECLINED: rail('Failed at beneficiary bank'),
  NPCI_UNAVAILABLE: rail('NPCI Unavailable'),
  SOURCE_BANK_DECLINED: rail('Source bank declined'),
  BENEFICIARY_BANK_OFFLINE: rail('Beneficiary bank offline'),
  FAILED_AT_BANK: transfer('Failed at bank'),
  CONNECTION_TIMEOUT: transfer('Transaction failed'),
  INSUFFICIENT_BALANCE: outage(CASHFREE_REFUSAL_CAUSES.insufficient_balance),
  VERIFICATION_ALREADY_UNDER_PROCESS: outage(CASHFREE_REFUSAL_CAUSES.verification_already_under_process),
};

/** Cashfree's own misspelling on the 422 answer, folded onto the status endpoint's spelling. */
const SPELLINGS: Readonly<Record<string, string>> = { BENFICIARY_BANK_OFFLINE: 'BENEFICIARY_BANK_OFFLINE' };

/** The upper-case code we log and report as `providerCode`, whichever answer carried it. */
export function normaliseCashfreeCode(code: string): string {
  const upper = code.toUpperCase();
  return SPELLINGS[upper] ?? upper;
}

/** What a code means, or null for a code the provider's material does not show (the adapter treats it as a failed transfer). */
export function classifyCashfreeCode(code: string): CashfreeCodeKind | null {
  return CODES[normaliseCashfreeCode(code)] ?? null;
}

export const UNKNOWN_CODE_FAILURE = 'Transaction failed';

/** Every message of a failed transfer (the vendor's 500 envelope), known codes and unknown ones. */
export const TRANSFER_FAILURES: readonly string[] = [...new Set([
  ...Object.values(CODES).flatMap((meaning) => (meaning.kind === 'transfer' ? [meaning.message] : [])), UNKNOWN_CODE_FAILURE,
])];
