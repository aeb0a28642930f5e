import type { Logger } from '@satyapan/core';
import type { NameMatchAnswer } from '../verification/name-match.js';
import { CachedVerifier, type AccountCheckInput, type VerificationSettings } from '../verification/cached-verifier.js';
import type { PennyLessOutcome, PennyLessProvider } from './port.js';

/** `@entity` of the penny-less result: the vendor's, with our word for its segment, leading at-sign included. */
export const PENNY_LESS_ENTITY = '@in.co.service.bank.account.penny_less_verification_response';

/** Penny-less's input: the shared account check. */
export type PennyLessVerifyInput = AccountCheckInput;

/** `data` of the penny-less operation; fields the answer does not determine are left out, as the vendor does. */
export interface PennyLessResult {
  '@entity': typeof PENNY_LESS_ENTITY;
  message?: string;
  account_exists?: boolean;
  name_at_bank?: string;
  /** How the request's `name` compares with `name_at_bank`; present when both are. */
  name_match?: NameMatchAnswer;
}

export interface PennyLessOptions extends VerificationSettings {
  provider: PennyLessProvider;
}

/**
 * Penny-less verification (`GET /bank/{ifsc}/accounts/{account_number}/penniless-verify`): the account
 * holder's name without a deposit, with the same per-client cache and cross-process single flight as penny
 * drop (in their own keys). Account numbers and names never reach the logs.
 */
export class PennyLessVerificationService {
  private readonly provider: PennyLessProvider;
  private readonly verifier: CachedVerifier<PennyLessOutcome>;

  constructor(options: PennyLessOptions) {
    this.provider = options.provider;
    this.verifier = new CachedVerifier(options, 'pl', 'penny-less verification', 'penny_less');
  }

  /** `logger`: a request-scoped logger (e.g. with the request id); the service's own logger otherwise. */
  async verifyAccount(input: PennyLessVerifyInput, logger?: Logger): Promise<PennyLessResult> {
    const { outcome } = await this.verifier.verify(input, (request) => this.provider.verify(request),
      (logger ?? this.verifier.logger).child({ provider: this.provider.name }));
    return toPennyLessResult(outcome, this.verifier.compareNames(input.name, outcome.nameAtBank));
  }

  close(): void {
    this.provider.close?.();
  }
}

/** The API shape, keys in the vendor's order. A cached answer looks the same: no money moves either way. */
export function toPennyLessResult(outcome: PennyLessOutcome, nameMatch?: NameMatchAnswer): PennyLessResult {
  const result: PennyLessResult = { '@entity': PENNY_LESS_ENTITY };
  if (outcome.message !== undefined) result.message = outcome.message;
  if (outcome.accountExists !== undefined) result.account_exists = outcome.accountExists;
  if (outcome.nameAtBank !== undefined) result.name_at_bank = outcome.nameAtBank;
  if (nameMatch !== undefined) result.name_match = nameMatch;
  return result;
}
