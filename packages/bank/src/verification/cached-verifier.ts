import {
  CachedAnswers, serviceError, silentLogger, systemClock, type Clock, type KeySpace, type Logger, type SatyapanMetrics, type Sealer, type SingleFlightOptions,
} from '@satyapan/core';
import { canonicalIfsc } from '../ifsc/branch.js';
import { assertAccountNumber, assertIfsc, assertMobile, assertName } from '../validation.js';
import type { RedisClient } from './redis-client.js';
import { checkThreshold } from '@satyapan/name-match';
import { nameMatchAtBank, type NameMatchAnswer } from './name-match.js';

/** Settings every account verification service takes besides its provider. */
export interface VerificationSettings {
  redis: RedisClient;
  /** Key space for the cache, locks and flight answers (e.g. `ctx.keys.child('bank')`); each kind of verification takes a child of it. */
  keys: KeySpace;
  /** Default 30 days. */
  cacheTtlSeconds?: number;
  /** Decision threshold of `name_match` (0..1); default @satyapan/name-match's DEFAULT_NAME_MATCH_THRESHOLD. */
  nameMatchThreshold?: number;
  /** Encrypts cached answers (they hold the account holder's name). */
  sealer?: Sealer;
  /**
   * HMAC key of the cache's Redis keys (16 bytes or more, the same in every process and worker), so that a Redis
   * dump cannot be brute-forced back to account numbers. Required.
   */
  keySecret: string;
  singleFlight?: SingleFlightOptions;
  logger?: Logger;
  clock?: Clock;
  /** Where cache hits and provider call durations are counted (`createMetrics()` from @satyapan/core). */
  metrics?: SatyapanMetrics;
  /**
   * Whether a bank has this IFSC (given in upper case). One it has not is refused with the vendor's 422 `Invalid
   * IFSC provided` before the cache, the single flight or the provider are asked: a paid call the provider would
   * refuse is not made. createBankService sets it from its directory (`refuseUnknownIfsc`); absent: no check.
   */
  knownIfsc?: (ifsc: string) => boolean;
}

/** A provider's answer: its own code (for logs) and whether it is worth caching (answers about the account are, failures of the rails are not). */
export interface Definitive {
  providerCode: string;
  definitive: boolean;
}

/** What an account verification is asked, as the router passes it on. */
export interface AccountCheckInput {
  /** Whose cache this is: answers are never shared between API keys. */
  apiKey: string;
  ifsc: string;
  accountNumber: string;
  name?: string;
  mobile?: string;
  /** `x-accept-cache: true`; false or absent always asks the provider. */
  acceptCache?: boolean;
  /**
   * Called right before the provider is asked, and only then: not for an answer from the cache or one shared
   * from another caller's flight. A rejection skips the call and rejects the verification. Bulk jobs use it to
   * pace calls under the provider's rate limit and to journal a paid call before it is made.
   */
  beforeProviderCall?: () => Promise<void>;
}

/** What a provider is asked: the checked input, IFSC in upper case. */
export interface ProviderRequest {
  ifsc: string;
  accountNumber: string;
  name?: string;
  mobile?: string;
}

export interface VerifierAnswer<T> {
  outcome: T;
  fromCache: boolean;
}

/**
 * What penny drop and penny-less verification share: the spec's input checks, a per-client Redis cache read
 * only on `x-accept-cache: true`, one provider call at a time per (API key, IFSC, account) across every process
 * sharing the Redis (concurrent duplicates get the leader's answer), and log lines that carry the IFSC, the
 * provider's code and a short hash of the verification id, never the account number or the name.
 */
export class CachedVerifier<T extends Definitive> {
  private readonly answers: CachedAnswers<T>;
  readonly logger: Logger;
  private readonly clock: Clock;
  private readonly nameMatchThreshold: number | undefined;
  private readonly knownIfsc: ((ifsc: string) => boolean) | undefined;

  /**
   * `kind` (`pd`, `pl`) keeps each kind of verification in its own keys; `label` names it in log lines;
   * `upstream` (`penny_drop`, `penny_less`) names it in metrics.
   */
  constructor(settings: VerificationSettings, kind: string, private readonly label: string, upstream: string) {
    this.answers = new CachedAnswers<T>(settings, kind, upstream);
    this.logger = settings.logger ?? silentLogger();
    this.clock = settings.clock ?? systemClock;
    this.nameMatchThreshold = settings.nameMatchThreshold === undefined ? undefined : checkThreshold(settings.nameMatchThreshold);
    this.knownIfsc = settings.knownIfsc;
  }

  /** `name_match` of the request's name against the bank's, at the configured threshold; undefined without both. */
  compareNames(name: string | undefined, nameAtBank: string | undefined): NameMatchAnswer | undefined {
    return nameMatchAtBank(name, nameAtBank, this.nameMatchThreshold);
  }

  /**
   * Checks the input (422s with the vendor's messages) and that the IFSC is known, then answers from the cache or through `ask` (one
   * call per verification id at a time). `logger`: a request-scoped logger; the settings' one otherwise.
   */
  async verify(input: AccountCheckInput, ask: (request: ProviderRequest) => Promise<T>, logger: Logger = this.logger,
    logFields: (answer: VerifierAnswer<T>) => Record<string, unknown> = () => ({})): Promise<VerifierAnswer<T>> {
    assertIfsc(input.ifsc);
    assertAccountNumber(input.accountNumber);
    assertName(input.name);
    assertMobile(input.mobile);
    const ifsc = canonicalIfsc(input.ifsc);
    if (this.knownIfsc && !this.knownIfsc(ifsc)) {
      logger.child({ ifsc }).info(`${this.label} refused: the IFSC is not in the branch directory`);
      throw serviceError('UNKNOWN_IFSC');
    }
    const id = this.verificationId(input.apiKey, ifsc, input.accountNumber);
    const started = this.clock.now();
    const answer = await this.answer(id, input.acceptCache === true, () => ask({
      ifsc,
      accountNumber: input.accountNumber,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.mobile !== undefined ? { mobile: input.mobile } : {}),
    }), input.beforeProviderCall);
    logger.child({ ifsc, verification: id.slice(0, 12) }).info(`${this.label} answered${answer.fromCache ? ' from cache' : ''}`, {
      provider_code: answer.outcome.providerCode, ...logFields(answer), elapsed_ms: this.clock.now() - started,
    });
    return answer;
  }

  /** The id of a verification: answers are never shared between API keys. `ifsc` is the canonical (upper-case) one. */
  verificationId(apiKey: string, ifsc: string, accountNumber: string): string {
    return this.answers.id(apiKey, ifsc, accountNumber.toUpperCase());
  }

  /** The cache and single flight of @satyapan/core's CachedAnswers, which PAN verification shares; `beforeCall` as there. */
  answer(id: string, acceptCache: boolean, ask: () => Promise<T>, beforeCall?: () => Promise<void>): Promise<VerifierAnswer<T>> {
    return this.answers.answer(id, acceptCache, ask, beforeCall);
  }
}
