import type { PennyLessOutcome } from './port.js';

/**
 * Setu PennyLess answers -> ours: the adapter's failure vocabulary. Setu's published material (SetuHQ/docs:
 * the PennyLess OpenAPI document and its quickstart; the tests' fixtures/setu) shows exactly these answers:
 * - 200 `status: "SUCCESS"` with `data.bankAccountName` and `data.entityType` (MERCHANT, INDIVIDUAL or
 *   UNKNOWN): the account exists (definitive, cached);
 * - 200 `status: "ERROR"`, `message: "Invalid bank details"`: no such account at that IFSC (definitive, cached);
 * - 400 `error.code: "bad_request"`: the request broke Setu's schema (our checks let through what Setu refuses);
 * - 500 `upstream_service_error` / `internal_server_error`: an outage (503, retryable, never cached).
 * Setu shows no blocked, NRE or bank-offline answer; any other 200 is read as unknown (503, logged), not guessed.
 */
type Mapping = Omit<PennyLessOutcome, 'providerCode' | 'nameAtBank'>;

export const FOUND: Mapping = { accountExists: true, definitive: true };
export const NOT_FOUND: Mapping = { message: 'Invalid account number or ifsc provided', accountExists: false, definitive: true };

/** Setu's documented `message` for an account it cannot find. */
export const INVALID_BANK_DETAILS = 'Invalid bank details';

/** Setu's request schema: `accountNumber` `^\d{9,18}$`; an account number outside it is never sent. */
export const SETU_ACCOUNT_NUMBER = /^\d{9,18}$/;
