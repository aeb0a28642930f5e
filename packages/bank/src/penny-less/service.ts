import { silentLogger, systemClock, type Clock, type Logger } from '@satyapan/core';
import { canonicalIfsc } from '../ifsc/branch.js';
import { assertAccountNumber, assertIfsc, assertMobile, assertName } from '../validation.js';
import { CachedVerifier, type VerificationSettings } from '../verification/cached-verifier.js';
import type { PennyLessOutcome, PennyLessProvider } from './port.js';

/** `@entity` of the penny-less result: the vendor's, with our word for its segment, leading at-sign included. */
export const PENNY_LESS_ENTITY = '@in.co.service.bank.account.penny_less_verification_response';

export interface PennyLessVerifyInput {
  /** Whose cache this is: answers are never shared between API keys. */
  apiKey: string;
  ifsc: string;
  accountNumber: string;
  name?: string;
  mobile?: string;
  /** `x-accept-cache: true`; false or absent always asks the provider. */
  acceptCache?: boolean;
}

/** `data` of the penny-less operation; fields the answer does not determine are left out, as the vendor does. */
export interface PennyLessResult {
  '@entity': typeof PENNY_LESS_ENTITY;
  message?: string;
  account_exists?: boolean;
  name_at_bank?: string;
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
  private readonly logger: Logger;
  private readonly clock: Clock;

  constructor(options: PennyLessOptions) {
    this.provider = options.provider;
    this.verifier = new CachedVerifier(options, 'pl');
    this.logger = options.logger ?? silentLogger();
    this.clock = options.clock ?? systemClock;
  }

  async verifyAccount(input: PennyLessVerifyInput, logger: Logger = this.logger): Promise<PennyLessResult> {
    assertIfsc(input.ifsc);
    assertAccountNumber(input.accountNumber);
    assertName(input.name);
    assertMobile(input.mobile);
    const ifsc = canonicalIfsc(input.ifsc);
    const id = this.verifier.verificationId(input.apiKey, ifsc, input.accountNumber);
    const log = logger.child({ ifsc, verification: id.slice(0, 12), provider: this.provider.name });
    const started = this.clock.now();
    const { outcome, fromCache } = await this.verifier.answer(id, input.acceptCache === true, () => this.provider.verify({
      ifsc,
      accountNumber: input.accountNumber,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.mobile !== undefined ? { mobile: input.mobile } : {}),
    }));
    log.info(fromCache ? 'penny-less verification answered from cache' : 'penny-less verification answered', {
      provider_code: outcome.providerCode, elapsed_ms: this.clock.now() - started,
    });
    return toPennyLessResult(outcome);
  }

  close(): void {
    this.provider.close?.();
  }
}

/** The API shape, keys in the vendor's order. A cached answer looks the same: no money moves either way. */
export function toPennyLessResult(outcome: PennyLessOutcome): PennyLessResult {
  const result: PennyLessResult = { '@entity': PENNY_LESS_ENTITY };
  if (outcome.message !== undefined) result.message = outcome.message;
  if (outcome.accountExists !== undefined) result.account_exists = outcome.accountExists;
  if (outcome.nameAtBank !== undefined) result.name_at_bank = outcome.nameAtBank;
  return result;
}
