import { hmacSign, sha256Hex, silentLogger, systemClock, type Clock, type KeySpace, type Logger, type Sealer } from '@satyapan/core';
import { canonicalIfsc } from '../ifsc/branch.js';
import { assertAccountNumber, assertIfsc, assertMobile, assertName } from '../validation.js';
import { DEFAULT_CACHE_TTL_SECONDS, PennyDropCache } from './cache.js';
import type { PennyDropOutcome, PennyDropProvider } from './port.js';
import type { RedisClient } from './redis-client.js';
import { RedisSingleFlight, type SingleFlightOptions } from './single-flight.js';

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

export interface BankVerificationOptions {
  provider: PennyDropProvider;
  redis: RedisClient;
  /** Key space for the cache, locks and flight answers (e.g. `ctx.keys.child('bank')`). */
  keys: KeySpace;
  /** Default 30 days. */
  cacheTtlSeconds?: number;
  /** Encrypts cached answers (they hold the account holder's name). */
  sealer?: Sealer;
  /** Keys cache entries with an HMAC instead of a plain hash, so Redis keys cannot be brute-forced back to account numbers. */
  keySecret?: string;
  singleFlight?: SingleFlightOptions;
  logger?: Logger;
  clock?: Clock;
}

/**
 * Operation 12: penny-drop verification with a per-client Redis cache and one provider call at a time per
 * (API key, IFSC, account) across all processes. Account numbers and names never reach the logs: entries
 * carry the IFSC, the provider's status code and a short hash of the verification id.
 */
export class BankVerificationService {
  private readonly provider: PennyDropProvider;
  private readonly cache: PennyDropCache;
  private readonly flights: RedisSingleFlight;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly keySecret: string | undefined;

  constructor(options: BankVerificationOptions) {
    this.provider = options.provider;
    const keys = options.keys.child('pd');
    this.cache = new PennyDropCache(options.redis, keys, options.cacheTtlSeconds ?? DEFAULT_CACHE_TTL_SECONDS, options.sealer);
    this.flights = new RedisSingleFlight(options.redis, keys, options.singleFlight);
    this.logger = options.logger ?? silentLogger();
    this.clock = options.clock ?? systemClock;
    this.keySecret = options.keySecret;
  }

  /** `logger`: a request-scoped logger (e.g. with the request id); the service's own logger otherwise. */
  async verifyAccount(input: VerifyAccountInput, logger: Logger = this.logger): Promise<PennyDropResult> {
    assertIfsc(input.ifsc);
    assertAccountNumber(input.accountNumber);
    assertName(input.name);
    assertMobile(input.mobile);
    const ifsc = canonicalIfsc(input.ifsc);
    const id = this.verificationId(input.apiKey, ifsc, input.accountNumber);
    const log = logger.child({ ifsc, verification: id.slice(0, 12), provider: this.provider.name });
    if (input.acceptCache === true) {
      const cached = await this.cache.get(id);
      if (cached) {
        log.info('penny drop answered from cache', { provider_code: cached.providerCode });
        return toResult(cached, true);
      }
    }
    const started = this.clock.now();
    const outcome = await this.flights.run(id, async () => {
      const fresh = await this.provider.verify({ ...withOptional(input), ifsc, accountNumber: input.accountNumber });
      if (fresh.definitive) await this.cache.set(id, fresh);
      return fresh;
    });
    log.info('penny drop answered', {
      provider_code: outcome.providerCode, deposited: outcome.deposited, elapsed_ms: this.clock.now() - started,
    });
    return toResult(outcome, false);
  }

  private verificationId(apiKey: string, ifsc: string, accountNumber: string): string {
    const material = `${apiKey}\n${ifsc}\n${accountNumber.toUpperCase()}`;
    return this.keySecret ? hmacSign(this.keySecret, material, 'hex') : sha256Hex(material);
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
