import {
  constantTimeEqual, hmacSign, serviceError, silentLogger, type KeySpace, type Logger, type ServiceError,
} from '@satyapan/core';
import type { RedisClient } from '../sessions/session-store.js';
import { ENTITY_PREFIX } from '../sessions/model.js';
import { isValidAadhaarNumber } from './verhoeff.js';
import type { EkycRecord, OtpProviderPort, OtpSendOutcome } from './otp-provider.js';

export interface AadhaarOtpServiceOptions {
  redis: RedisClient;
  keys: KeySpace;
  provider: OtpProviderPort;
  /**
   * Key of the HMAC that stands for an Aadhaar number in Redis keys. A plain hash would not do: there are
   * only 10^12 numbers, so an unkeyed hash can be reversed by trying them all.
   */
  numberHashSecret: string | Buffer;
  logger?: Logger;
  /** Seconds before the same number may get another OTP (45 s, as the identity authority enforces). */
  resendAfterSeconds?: number;
  /** How long a reference id can be verified (10 minutes). */
  referenceTtlSeconds?: number;
  /**
   * Numbers a test deployment accepts without the Verhoeff and first-digit checks: a vendor's sandbox test
   * numbers (e.g. `123456789012`), which its clients' test suites send. Never set this in production.
   */
  testNumbers?: Iterable<string>;
}

export interface OtpRequest {
  aadhaar_number: string;
  consent: string;
  reason: string;
}

/** Both fields may be missing: the vendor answers that with 422s (OTP first), not with a schema error. */
export interface OtpVerifyRequest {
  reference_id?: string | number;
  otp?: string;
}

/** A send either reaches the provider (`data`) or is throttled (a top-level message without `data`). */
export type OtpSendAnswer =
  | { kind: 'data'; data: { '@entity': string; reference_id?: number; message: string } }
  | { kind: 'throttled'; message: string };

const SEND_MESSAGES: Record<Exclude<OtpSendOutcome, 'throttled'>, string> = {
  sent: 'OTP sent successfully',
  invalid_aadhaar: 'Invalid Aadhaar Card',
  not_linked: 'Aadhaar not linked to mobile number',
};

const VERIFY_MESSAGES = {
  invalid_otp: 'Invalid OTP',
  expired: 'OTP Expired',
  invalid_reference: 'Invalid Reference Id',
  in_progress: 'Request under process, please try after 30 seconds',
} as const;

/**
 * Claims the number's window for `owner` (KEYS[1] throttle key; ARGV[1] owner, ARGV[2] window in ms).
 * Returns {1, 1} when claimed, else {0, 1 if the window is the owner's own else 0}.
 */
const CLAIM_WINDOW = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, 1} end
local own = 0
if redis.call('GET', KEYS[1]) == ARGV[1] then own = 1 end
return {0, own}`;

/**
 * What a client gets while another client's OTP for the same number is in its window: exactly what a provider
 * outage gives (503 Source Unavailable, no Retry-After, since an outage has none). The provider's "please try
 * after" message would tell the client that somebody else is verifying this person right now.
 */
function notRevealingAnotherClient(): ServiceError {
  return serviceError('SOURCE_UNAVAILABLE');
}

/** The vendor's words exactly (its collection, "OTP Already Generated"). */
export const OTP_THROTTLED_MESSAGE = 'OTP generated for this aadhaar, please try after 45 sec';

/**
 * Aadhaar OTP e-KYC (deprecated upstream, still offered): send an OTP, then verify it into the e-KYC record.
 * Business outcomes are answers, not errors. The Aadhaar number is never stored, logged or used as a key in
 * clear: Redis sees only its keyed hash.
 */
export class AadhaarOtpService {
  private readonly logger: Logger;
  private readonly resendMs: number;
  private readonly referenceMs: number;
  private readonly testNumbers: ReadonlySet<string>;

  constructor(private readonly options: AadhaarOtpServiceOptions) {
    this.logger = options.logger ?? silentLogger();
    this.testNumbers = new Set(options.testNumbers ?? []);
    this.resendMs = (options.resendAfterSeconds ?? 45) * 1000;
    this.referenceMs = (options.referenceTtlSeconds ?? 600) * 1000;
  }

  async sendOtp(owner: string, request: OtpRequest): Promise<OtpSendAnswer> {
    if (!this.testNumbers.has(request.aadhaar_number) && !isValidAadhaarNumber(request.aadhaar_number)) throw serviceError('UNPROCESSABLE', 'Invalid Aadhaar number pattern');
    if (request.consent !== 'Y' && request.consent !== 'y') throw serviceError('UNPROCESSABLE', 'Consent is required');
    const throttleKey = this.options.keys.plain('otp-throttle', hmacSign(this.options.numberHashSecret, request.aadhaar_number));
    // Claim the 45 s window first, so two concurrent requests cannot both reach the provider.
    const [claimed, ownWindow] = await this.options.redis.eval(CLAIM_WINDOW, 1, throttleKey, owner, String(this.resendMs)) as [number, number];
    if (claimed !== 1) {
      if (ownWindow === 1) return { kind: 'throttled', message: OTP_THROTTLED_MESSAGE };
      throw notRevealingAnotherClient();
    }
    let result;
    try {
      result = await this.options.provider.sendOtp(request.aadhaar_number);
    } catch (error) {
      await this.options.redis.del(throttleKey);
      throw error;
    }
    if (result.outcome === 'throttled') {
      // Someone else's window at the provider (another system on the same account): not ours to reveal. A sandbox
      // test number stands for nobody, so it gets the vendor's answer, which its examples show for that number.
      await this.options.redis.del(throttleKey);
      if (this.testNumbers.has(request.aadhaar_number)) return { kind: 'throttled', message: OTP_THROTTLED_MESSAGE };
      throw notRevealingAnotherClient();
    }
    if (result.outcome !== 'sent') await this.options.redis.del(throttleKey); // only a sent OTP starts the wait
    if (result.outcome === 'sent' && result.referenceId !== null) {
      await this.options.redis.set(this.referenceKey(result.referenceId), owner, 'PX', this.referenceMs);
    }
    // The reason is the caller's free text (names, e-mails: the logger's scrubbing cannot know them all): only
    // its length is logged, as the number never is.
    this.logger.info('aadhaar otp requested', { outcome: result.outcome, reason_length: request.reason.length });
    return {
      kind: 'data',
      data: {
        '@entity': `${ENTITY_PREFIX}.aadhaar.okyc.otp.response`,
        ...(result.referenceId !== null ? { reference_id: result.referenceId } : {}),
        message: SEND_MESSAGES[result.outcome],
      },
    };
  }

  async verifyOtp(owner: string, request: OtpVerifyRequest): Promise<Record<string, unknown>> {
    const entity = `${ENTITY_PREFIX}.aadhaar.okyc`;
    // The OTP is checked first: the vendor answers a body with `ref_id` and an empty `otp` with the OTP message.
    const otp = request.otp ?? '';
    if (!/^[0-9]{6}$/.test(otp)) throw serviceError('OTP_MISSING');
    const referenceId = String(request.reference_id ?? '');
    if (!/^[0-9]{1,15}$/.test(referenceId)) throw serviceError('INVALID_REFERENCE_ID');
    // A reference belongs to the API key that sent the OTP; for any other key it does not exist.
    const holder = await this.options.redis.get(this.referenceKey(Number(referenceId)));
    if (holder === null || !constantTimeEqual(holder, owner)) return { '@entity': entity, message: VERIFY_MESSAGES.invalid_reference };
    const result = await this.options.provider.verifyOtp(referenceId, otp);
    this.logger.info('aadhaar otp verified', { outcome: result.outcome });
    if (result.outcome !== 'valid') return { '@entity': entity, message: VERIFY_MESSAGES[result.outcome] };
    await this.options.redis.del(this.referenceKey(Number(referenceId)));
    return ekycData(entity, result.record);
  }

  /** Releases the provider's connections (a host calls it on shutdown, with the PAN services' `close()`). */
  close(): void {
    this.options.provider.close?.();
  }

  private referenceKey(referenceId: number): string {
    return this.options.keys.plain('otp-reference', String(referenceId));
  }
}

function ekycData(entity: string, record: EkycRecord): Record<string, unknown> {
  const a = record.address;
  return {
    '@entity': entity,
    reference_id: record.referenceId,
    status: 'VALID',
    message: 'Aadhaar Card Exists',
    care_of: record.careOf,
    full_address: record.fullAddress,
    date_of_birth: record.dob,
    year_of_birth: record.yearOfBirth,
    gender: record.gender,
    name: record.name,
    email_hash: record.emailHash,
    mobile_hash: record.mobileHash,
    photo: record.photo,
    share_code: record.shareCode,
    address: {
      '@entity': `${entity}.address`,
      country: a.country, district: a.district, house: a.house, landmark: a.landmark, pincode: a.pincode,
      post_office: a.postOffice, state: a.state, street: a.street, subdistrict: a.subdistrict, vtc: a.vtc,
    },
  };
}
