import { silentLogger, systemClock, type Clock, type Logger } from '@satyapan/core';
import { canonicalIfsc } from '../ifsc/branch.js';
import { assertAccountNumber, assertIfsc, assertMobile, assertName } from '../validation.js';
import { CachedVerifier, type VerificationSettings } from '../verification/cached-verifier.js';
import type { PennyDropOutcome, PennyDropProvider } from './port.js';

/** The spec's `@entity` of the penny-drop result, leading at-sign included. */
export const PENNY_DROP_ENTITY = '@in.co.service.bank.account.penny_drop_verification_response';

export interface VerifyAccountInput {
  /** Whose cache this is: answers are never shared between API keys. */
  apiKey: string;
  ifsc: string;
  accountNumber: string;
  name?: string;
  mobile?: string;
  /** `x-accept-cache: true`; false or absent always asks the provider. */
  acceptCache?: boolean;
}

/** `data` of operation 12. Fields the bank's answer does not determine are left out, as the vendor does. */
export interface PennyDropResult {
  '@entity': typeof PENNY_DROP_ENTITY;
  message: string;
  account_exists?: boolean;
  name_at_bank?: string;
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
  private readonly logger: Logger;
  private readonly clock: Clock;

  constructor(options: BankVerificationOptions) {
    this.provider = options.provider;
    this.verifier = new CachedVerifier(options, 'pd');
    this.logger = options.logger ?? silentLogger();
    this.clock = options.clock ?? systemClock;
  }

  /** `logger`: a request-scoped logger (e.g. with the request id); the service's own logger otherwise. */
  async verifyAccount(input: VerifyAccountInput, logger: Logger = this.logger): Promise<PennyDropResult> {
    assertIfsc(input.ifsc);
    assertAccountNumber(input.accountNumber);
    assertName(input.name);
    assertMobile(input.mobile);
    const ifsc = canonicalIfsc(input.ifsc);
    const id = this.verifier.verificationId(input.apiKey, ifsc, input.accountNumber);
    const log = logger.child({ ifsc, verification: id.slice(0, 12), provider: this.provider.name });
    const started = this.clock.now();
    const { outcome, fromCache } = await this.verifier.answer(id, input.acceptCache === true,
      () => this.provider.verify({ ...withOptional(input), ifsc, accountNumber: input.accountNumber }));
    log.info(fromCache ? 'penny drop answered from cache' : 'penny drop answered', {
      provider_code: outcome.providerCode, deposited: outcome.deposited && !fromCache, elapsed_ms: this.clock.now() - started,
    });
    return toResult(outcome, fromCache);
  }
}

function withOptional(input: VerifyAccountInput): { name?: string; mobile?: string } {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.mobile !== undefined ? { mobile: input.mobile } : {}),
  };
}

/** The API shape. A cached answer says `amount_deposited: "0"`: no money moved for this call. */
export function toResult(outcome: PennyDropOutcome, fromCache: boolean): PennyDropResult {
  const result: PennyDropResult = { '@entity': PENNY_DROP_ENTITY, message: outcome.message };
  if (outcome.accountExists !== undefined) result.account_exists = outcome.accountExists;
  if (outcome.nameAtBank !== undefined) result.name_at_bank = outcome.nameAtBank;
  if (outcome.utr !== undefined) result.utr = outcome.utr;
  if (outcome.deposited || fromCache) result.amount_deposited = fromCache ? '0' : '1';
  return result;
}
