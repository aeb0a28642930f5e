import type { Logger } from '@satyapan/core';
import type { NameMatchAnswer } from '../verification/name-match.js';
import { CachedVerifier, type AccountCheckInput, type VerificationSettings } from '../verification/cached-verifier.js';
import type { PennyDropOutcome, PennyDropProvider } from './port.js';

/** The spec's `@entity` of the penny-drop result, leading at-sign included. */
export const PENNY_DROP_ENTITY = '@in.co.service.bank.account.penny_drop_verification_response';

/** Penny drop's input: the shared account check. */
export type VerifyAccountInput = AccountCheckInput;

/** `data` of operation 12. Fields the bank's answer does not determine are left out, as the vendor does. */
export interface PennyDropResult {
  '@entity': typeof PENNY_DROP_ENTITY;
  message: string;
  account_exists?: boolean;
  name_at_bank?: string;
  /** How the request's `name` compares with `name_at_bank`; present when both are. */
  name_match?: NameMatchAnswer;
  utr?: string;
  amount_deposited?: string;
}

export interface BankVerificationOptions extends VerificationSettings {
  provider: PennyDropProvider;
}

/**
 * Operation 12: penny-drop verification with a per-client Redis cache and one provider call at a time per
 * (API key, IFSC, account) across all processes. Account numbers and names never reach the logs: entries
 * carry the IFSC, the provider's status code and a short hash of the verification id.
 */
export class BankVerificationService {
  private readonly provider: PennyDropProvider;
  private readonly verifier: CachedVerifier<PennyDropOutcome>;

  constructor(options: BankVerificationOptions) {
    this.provider = options.provider;
    this.verifier = new CachedVerifier(options, 'pd', 'penny drop', 'penny_drop');
  }

  /** `logger`: a request-scoped logger (e.g. with the request id); the service's own logger otherwise. */
  async verifyAccount(input: VerifyAccountInput, logger?: Logger): Promise<PennyDropResult> {
    const { outcome, fromCache } = await this.verifier.verify(input, (request) => this.provider.verify(request),
      (logger ?? this.verifier.logger).child({ provider: this.provider.name }),
      (answer) => ({ deposited: answer.outcome.deposited && !answer.fromCache }));
    return toResult(outcome, fromCache, this.verifier.compareNames(input.name, outcome.nameAtBank));
  }
}

/** The API shape. A cached answer says `amount_deposited: "0"`: no money moved for this call. */
export function toResult(outcome: PennyDropOutcome, fromCache: boolean, nameMatch?: NameMatchAnswer): PennyDropResult {
  const result: PennyDropResult = { '@entity': PENNY_DROP_ENTITY, message: outcome.message };
  if (outcome.accountExists !== undefined) result.account_exists = outcome.accountExists;
  if (outcome.nameAtBank !== undefined) result.name_at_bank = outcome.nameAtBank;
  if (nameMatch !== undefined) result.name_match = nameMatch;
  if (outcome.utr !== undefined) result.utr = outcome.utr;
  if (outcome.deposited || fromCache) result.amount_deposited = fromCache ? '0' : '1';
  return result;
}
