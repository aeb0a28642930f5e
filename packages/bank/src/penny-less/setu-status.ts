import type { PennyLessOutcome } from './port.js';

/**
 * Setu PennyLess answers -> ours. A found account carries Setu's `entityType` (INDIVIDUAL, MERCHANT or
 * UNKNOWN) and the holder's name; the vendor's examples show individuals and businesses alike as
 * `account_exists: true` with `name_at_bank`. Failures carry a reason code in `error.code`; Setu's public page
 * shows the success body only, so these codes are our reading of its error object (`{code, detail}`) and are
 * the ones the sandbox simulator sends: confirm them against Setu's sandbox before going live (README).
 */
type Mapping = Omit<PennyLessOutcome, 'providerCode' | 'nameAtBank'>;

const about = (message: string, accountExists: boolean): Mapping => ({ message, accountExists, definitive: true });

export const SETU_FAILURE_CODES: Readonly<Record<string, Mapping>> = {
  'invalid-account': about('Invalid account number or ifsc provided', false),
  'invalid-ifsc': about('Invalid account number or ifsc provided', false),
  'account-blocked': about('Account is blocked', true),
  'nre-account': about('Given account is an NRE account', true),
  // The bank did not answer: existence is unknown and the answer is not worth keeping.
  'beneficiary-bank-offline': { message: 'Beneficiary bank offline', definitive: false },
};

export const FOUND: Mapping = { accountExists: true, definitive: true };
