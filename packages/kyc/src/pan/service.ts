import {
  CachedAnswers, serviceError, silentLogger, systemClock, type CachedAnswersSettings, type Clock, type Logger,
} from '@satyapan/core';
import { checkThreshold, matchNames } from '@satyapan/name-match';
import type { PanAadhaarLinkOutcome, PanAadhaarLinkProvider, PanAadhaarLinkState, PanRecord, PanVerificationProvider } from './port.js';
import {
  AADHAAR_NUMBER_PATTERN, PAN_NAME_MAX, PAN_PATTERN, VALIDATION, assertReason, hasConsent, isCalendarDate, panCategory, toIsoDate, type PanCategory,
} from './rules.js';

/** `@entity` of the answers, in our words (the vendor's `in.co.sandbox...` with `service`). */
export const PAN_VERIFICATION_ENTITY = 'in.co.service.kyc.pan_verification.response';
export const PAN_AADHAAR_STATUS_ENTITY = 'in.co.service.kyc.pan_aadhaar.status.response';

/** Default cache lifetimes: a PAN's record changes rarely (30 days, as penny drop); a link status changes when the holder links (1 day). */
export const PAN_CACHE_TTL_SECONDS = 30 * 24 * 60 * 60;
export const PAN_AADHAAR_LINK_CACHE_TTL_SECONDS = 24 * 60 * 60;

/** Settings both PAN services take besides their provider: the shared cache settings, a logger and a clock. */
export interface PanServiceSettings extends CachedAnswersSettings {
  logger?: Logger;
  clock?: Clock;
}

export interface PanVerificationOptions extends PanServiceSettings {
  provider: PanVerificationProvider;
  /** Decision threshold (0..1) of `name_as_per_pan_match`; default @satyapan/name-match's DEFAULT_NAME_MATCH_THRESHOLD. */
  nameMatchThreshold?: number;
}

export interface PanAadhaarLinkOptions extends PanServiceSettings {
  provider: PanAadhaarLinkProvider;
}

/** What a PAN verification is asked (the body of `POST /kyc/pan/verify`, and the caller's API key). */
export interface PanVerifyInput {
  /** Whose cache this is: answers are never shared between API keys. */
  apiKey: string;
  pan: string;
  nameAsPerPan: string;
  /** DD/MM/YYYY: date of birth, or of incorporation for a business. */
  dateOfBirth: string;
  /** `Y` or `y`. */
  consent: string;
  reason: string;
  /** `x-accept-cache: true`; false or absent always asks the provider. */
  acceptCache?: boolean;
  /**
   * Awaited right before the provider is asked, and only then (not for a cached or shared answer); a rejection
   * skips the call. Bulk jobs pace calls and journal a paid call there (core's `CachedAnswers.answer`).
   */
  beforeProviderCall?: () => Promise<void>;
}

export interface PanAadhaarLinkInput {
  apiKey: string;
  pan: string;
  aadhaarNumber: string;
  consent: string;
  reason: string;
  acceptCache?: boolean;
  /** As PanVerifyInput's: awaited right before the portal is asked, and only then (bulk jobs pace calls there). */
  beforeProviderCall?: () => Promise<void>;
}

export type AadhaarSeedingStatus = 'y' | 'n' | 'na';

/** `data` of `POST /kyc/pan/verify`, keys in the vendor's order. */
export interface PanVerificationResult {
  '@entity': typeof PAN_VERIFICATION_ENTITY;
  pan: string;
  category: PanCategory;
  status: 'valid' | 'invalid';
  remarks: string | null;
  name_as_per_pan_match: boolean;
  date_of_birth_match: boolean;
  aadhaar_seeding_status: AadhaarSeedingStatus;
}

/** `data` of `POST /kyc/pan-aadhaar/status`. */
export interface PanAadhaarLinkResult {
  '@entity': typeof PAN_AADHAAR_STATUS_ENTITY;
  aadhaar_seeding_status: 'y' | 'n';
  message: string;
}

/**
 * PAN verification as a library function (the route and bulk jobs call the same method): the vendor's checks
 * with its messages, then the provider's record from the per-API-key cache (on `acceptCache`) or the
 * provider (one call at a time per API key and PAN across processes), then the comparisons, made per request
 * so that a cached record is compared with this request's name and date. PANs, names and dates never reach
 * the logs: lines carry the category, the provider's code and a short hash of the verification id.
 */
export class PanVerificationService {
  private readonly provider: PanVerificationProvider;
  private readonly answers: CachedAnswers<PanRecord>;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly threshold: number | undefined;

  constructor(options: PanVerificationOptions) {
    this.provider = options.provider;
    this.answers = new CachedAnswers<PanRecord>({ ...options, cacheTtlSeconds: options.cacheTtlSeconds ?? PAN_CACHE_TTL_SECONDS }, 'pan', 'pan_verification');
    this.logger = options.logger ?? silentLogger();
    this.clock = options.clock ?? systemClock;
    this.threshold = options.nameMatchThreshold === undefined ? undefined : checkThreshold(options.nameMatchThreshold);
  }

  /** `logger`: a request-scoped logger (e.g. with the request id); the service's own otherwise. */
  async verifyPan(input: PanVerifyInput, logger?: Logger): Promise<PanVerificationResult> {
    assertPanVerifyInput(input);
    const category = panCategory(input.pan);
    const id = this.answers.id(input.apiKey, input.pan);
    const started = this.clock.now();
    const { outcome, fromCache } = await this.answers.answer(id, input.acceptCache === true,
      () => this.provider.lookup({ pan: input.pan, name: input.nameAsPerPan }), input.beforeProviderCall);
    (logger ?? this.logger).child({ provider: this.provider.name, verification: id.slice(0, 12) })
      .info(`PAN verification answered${fromCache ? ' from cache' : ''}`, { provider_code: outcome.providerCode, category, elapsed_ms: this.clock.now() - started });
    return {
      '@entity': PAN_VERIFICATION_ENTITY,
      pan: input.pan,
      category,
      status: outcome.valid ? 'valid' : 'invalid',
      remarks: outcome.remarks,
      name_as_per_pan_match: this.namesMatch(input.nameAsPerPan, outcome, category),
      date_of_birth_match: outcome.valid && outcome.dateOfBirth !== undefined && toIsoDate(input.dateOfBirth) === outcome.dateOfBirth,
      aadhaar_seeding_status: seedingStatus(outcome, category),
    };
  }

  close(): void {
    this.provider.close?.();
  }

  /** The caller's name against the registered one with @satyapan/name-match: a person's rules for an individual, a business's otherwise. */
  private namesMatch(name: string, record: PanRecord, category: PanCategory): boolean {
    if (!record.valid || record.registeredName === undefined) return false;
    const kind = category === 'individual' ? 'person' : 'business';
    return matchNames(name, record.registeredName, { kind, ...(this.threshold === undefined ? {} : { threshold: this.threshold }) }).result === 'match';
  }
}

/** The vendor's checks of a PAN verification, in its order; 422 with its messages. */
export function assertPanVerifyInput(input: Omit<PanVerifyInput, 'apiKey' | 'acceptCache' | 'beforeProviderCall'>): void {
  if (typeof input.pan !== 'string' || !PAN_PATTERN.test(input.pan)) throw serviceError('INVALID_PAN_PATTERN');
  const name = input.nameAsPerPan;
  if (typeof name !== 'string' || name.trim() === '' || name.length > PAN_NAME_MAX) throw serviceError('UNPROCESSABLE', VALIDATION.nameAsPerPan);
  if (typeof input.dateOfBirth !== 'string' || !isCalendarDate(input.dateOfBirth)) throw serviceError('UNPROCESSABLE', VALIDATION.dateOfBirth);
  assertReason(input.reason);
  if (!hasConsent(input.consent)) throw serviceError('PAN_CONSENT_REQUIRED');
}

/** Not applicable to a business, or to a PAN that is not valid; otherwise what the provider reports. */
function seedingStatus(record: PanRecord, category: PanCategory): AadhaarSeedingStatus {
  if (category !== 'individual' || !record.valid || record.aadhaarSeeded === undefined) return 'na';
  return record.aadhaarSeeded ? 'y' : 'n';
}

/** The vendor's messages per link state. The double space before the masked number is the vendor's. */
const LINK_MESSAGES: Readonly<Record<Exclude<PanAadhaarLinkState, 'linked'>, string>> = {
  not_linked: 'PAN not linked with Aadhaar',
  linked_elsewhere: 'Your Aadhaar Number is linked to some other PAN',
  // The portal's own words (its EF40026); the vendor's examples show no such answer.
  pan_linked_elsewhere: 'Your PAN is linked to some other Aadhaar Number',
  pan_not_found: 'PAN does not exist',
  invalid_aadhaar: 'Please enter a valid Aadhaar Number',
};

/**
 * The PAN-Aadhaar link status as a library function: the vendor's checks (an individual's PAN, consent, a
 * reason), then the source's answer from the per-API-key cache (on `acceptCache`, 1 day by default) or the
 * source, single-flight per (API key, PAN, Aadhaar number). The Aadhaar number is only ever part of a hashed
 * id (an HMAC with `keySecret`) and never logged.
 */
export class PanAadhaarLinkService {
  private readonly provider: PanAadhaarLinkProvider;
  private readonly answers: CachedAnswers<PanAadhaarLinkOutcome>;
  private readonly logger: Logger;
  private readonly clock: Clock;

  constructor(options: PanAadhaarLinkOptions) {
    this.provider = options.provider;
    this.answers = new CachedAnswers<PanAadhaarLinkOutcome>(
      { ...options, cacheTtlSeconds: options.cacheTtlSeconds ?? PAN_AADHAAR_LINK_CACHE_TTL_SECONDS }, 'pan-aadhaar', 'pan_aadhaar_link');
    this.logger = options.logger ?? silentLogger();
    this.clock = options.clock ?? systemClock;
  }

  async linkStatus(input: PanAadhaarLinkInput, logger?: Logger): Promise<PanAadhaarLinkResult> {
    assertPanAadhaarLinkInput(input);
    const id = this.answers.id(input.apiKey, input.pan, input.aadhaarNumber);
    const started = this.clock.now();
    const { outcome, fromCache } = await this.answers.answer(id, input.acceptCache === true,
      () => this.provider.linkStatus({ pan: input.pan, aadhaarNumber: input.aadhaarNumber }), input.beforeProviderCall);
    (logger ?? this.logger).child({ provider: this.provider.name, verification: id.slice(0, 12) })
      .info(`PAN-Aadhaar link status answered${fromCache ? ' from cache' : ''}`, { provider_code: outcome.providerCode, state: outcome.state, elapsed_ms: this.clock.now() - started });
    if (outcome.state === 'linked') {
      return { '@entity': PAN_AADHAAR_STATUS_ENTITY, aadhaar_seeding_status: 'y', message: `Your PAN is linked to Aadhaar Number  XXXX XXXX ${outcome.aadhaarLastFour ?? input.aadhaarNumber.slice(-4)}.` };
    }
    return { '@entity': PAN_AADHAAR_STATUS_ENTITY, aadhaar_seeding_status: 'n', message: LINK_MESSAGES[outcome.state] };
  }

  close(): void {
    this.provider.close?.();
  }
}

/** The vendor's checks of a link status request, in its order (reason before consent, as its examples show). */
export function assertPanAadhaarLinkInput(input: Omit<PanAadhaarLinkInput, 'apiKey' | 'acceptCache' | 'beforeProviderCall'>): void {
  if (typeof input.pan !== 'string' || !PAN_PATTERN.test(input.pan)) throw serviceError('INVALID_LINK_PAN_PATTERN');
  if (panCategory(input.pan) !== 'individual') throw serviceError('INDIVIDUAL_PAN_REQUIRED');
  if (typeof input.aadhaarNumber !== 'string' || !AADHAAR_NUMBER_PATTERN.test(input.aadhaarNumber)) throw serviceError('UNPROCESSABLE', VALIDATION.aadhaarNumber);
  assertReason(input.reason);
  if (!hasConsent(input.consent)) throw serviceError('LINK_CONSENT_REQUIRED');
}
