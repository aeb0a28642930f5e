import {
  CashfreeHeaders, checkedCashfreeBaseUrl, cashfreeRefusal, serviceError, silentLogger, type CashfreeCredentials, type Logger, type ServiceError,
} from '@satyapan/core';
import { JsonUpstream, str, type JsonAnswer } from '../pan/http.js';

/**
 * The port to an offline-Aadhaar OTP provider, and its implementation on Cashfree Secure ID's offline Aadhaar
 * API (`POST {baseUrl}/offline-aadhaar/otp` and `/verify`, `x-client-id` / `x-client-secret`).
 */

export type OtpSendOutcome = 'sent' | 'invalid_aadhaar' | 'not_linked' | 'throttled';

export interface OtpSendResult {
  outcome: OtpSendOutcome;
  referenceId: number | null;
}

/** The e-KYC record of a verified OTP, in the provider's terms. */
export interface EkycRecord {
  referenceId: number;
  name: string;
  /** DD-MM-YYYY. */
  dob: string;
  yearOfBirth: string;
  gender: string;
  careOf: string;
  fullAddress: string;
  address: {
    country: string; district: string; house: string; landmark: string; pincode: string; postOffice: string;
    state: string; street: string; subdistrict: string; vtc: string;
  };
  emailHash: string;
  mobileHash: string;
  photo: string;
  shareCode: string;
}

export type OtpVerifyResult =
  | { outcome: 'valid'; record: EkycRecord }
  | { outcome: 'invalid_otp' | 'expired' | 'invalid_reference' | 'in_progress' };

export interface OtpProviderPort {
  sendOtp(aadhaarNumber: string): Promise<OtpSendResult>;
  verifyOtp(referenceId: string, otp: string): Promise<OtpVerifyResult>;
  /** Releases the adapter's connections. */
  close?(): void;
}

export interface HttpOtpProviderConfig extends CashfreeCredentials {
  /**
   * Cashfree's Verification API server URL: https://api.cashfree.com/verification (production),
   * https://sandbox.cashfree.com/verification, or the simulator's URL + /verification (core's `cashfreeBaseUrl`;
   * a URL without `/verification`, the form this adapter took before, gets it appended).
   */
  baseUrl: string;
  /** Whole-call timeout; default 10 s. */
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * Cashfree's verify answers told apart by `message` (its `Response400VerifyOtp` examples all say
 * `code: verification_failed`). A dead session is a reference that can no longer be verified: the API's
 * "Invalid Reference Id" (the caller must send a new OTP either way).
 */
const VERIFY_MESSAGES: ReadonlyArray<[RegExp, OtpVerifyResult['outcome']]> = [
  [/^OTP entered is invalid/i, 'invalid_otp'],
  [/^Otp expired/i, 'expired'],
  [/^Session expired/i, 'invalid_reference'],
  [/^Invalid Aadhaar Card/i, 'invalid_reference'],
  [/^Aadhaar not linked to mobile number/i, 'invalid_reference'],
];

/** Cashfree's 400 codes for an OTP of the wrong shape or none (`otp_invalid`, `otp_empty`). */
const OTP_FORMAT_CODES = new Set(['otp_invalid', 'otp_empty']);

/**
 * Cashfree Secure ID's offline Aadhaar (OKYC) OTP: `POST {baseUrl}/offline-aadhaar/otp` and
 * `/offline-aadhaar/verify`. Its failure vocabulary, from Cashfree's Verification OpenAPI (2023-12-18; the tests'
 * fixtures/cashfree):
 * - send 200 `SUCCESS` "OTP sent successfully": sent; `SUCCESS` "Aadhaar not linked to mobile number": not linked;
 *   `INVALID`: no such Aadhaar; 409 `verification_pending`: an OTP was sent for it moments ago (throttled);
 * - verify 200 `VALID`: the e-KYC record; 400 `verification_failed` told apart by `message` (above); 400
 *   `otp_invalid` / `otp_empty`: a wrong OTP; 409 `verification_pending`: still being processed;
 * - `ref_id` comes as a number or a numeric string: both are read;
 * - refusals about us (core's `cashfreeRefusal`): setup 400s, 401, 403: a 500; 422 `insufficient_balance`: 503;
 *   each one error log line naming the cause;
 * - 5xx, other 409s and 422s, timeouts, an unknown message: 503; 429 passed on with its Retry-After; another 4xx: 500.
 *
 * Over kyc's keep-alive JSON transport: `close()` releases its connections.
 */
export class HttpOtpProvider implements OtpProviderPort {
  private readonly upstream: JsonUpstream;
  private readonly headers: CashfreeHeaders;
  private readonly logger: Logger;

  constructor(config: HttpOtpProviderConfig) {
    this.logger = config.logger ?? silentLogger();
    this.upstream = new JsonUpstream(checkedCashfreeBaseUrl('HttpOtpProvider', config), config.timeoutMs ?? 10_000, 'cashfree', this.logger);
    this.headers = new CashfreeHeaders(config);
  }

  async sendOtp(aadhaarNumber: string): Promise<OtpSendResult> {
    const answer = await this.upstream.post('/offline-aadhaar/otp', this.headers.current(), { aadhaar_number: aadhaarNumber });
    const { status, body } = answer;
    if (status === 409 && body['code'] === 'verification_pending') return { outcome: 'throttled', referenceId: null };
    if (status === 400 && body['code'] === 'aadhaar_invalid') return { outcome: 'invalid_aadhaar', referenceId: null };
    if (status !== 200) throw this.failure(answer);
    const referenceId = referenceOf(body['ref_id']);
    const message = typeof body['message'] === 'string' ? body['message'] : '';
    if (body['status'] === 'INVALID') return { outcome: 'invalid_aadhaar', referenceId };
    if (/not linked/i.test(message)) return { outcome: 'not_linked', referenceId };
    if (body['status'] === 'SUCCESS' && referenceId !== null) return { outcome: 'sent', referenceId };
    this.logger.error('Aadhaar OTP provider answered 200 without a known outcome', { provider: 'cashfree', provider_code: String(body['status'] ?? 'none').slice(0, 32) });
    throw serviceError('SOURCE_UNAVAILABLE');
  }

  async verifyOtp(referenceId: string, otp: string): Promise<OtpVerifyResult> {
    const answer = await this.upstream.post('/offline-aadhaar/verify', this.headers.current(), { ref_id: referenceId, otp });
    const { status, body } = answer;
    if (status === 200 && body['status'] === 'VALID') return { outcome: 'valid', record: recordOf(body) };
    const code = typeof body['code'] === 'string' ? body['code'] : '';
    if (status === 409 && code === 'verification_pending') return { outcome: 'in_progress' };
    if (status === 400 && OTP_FORMAT_CODES.has(code)) return { outcome: 'invalid_otp' };
    if (status === 400 && code === 'verification_failed') {
      const message = typeof body['message'] === 'string' ? body['message'] : '';
      const outcome = VERIFY_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
      if (outcome) return { outcome } as OtpVerifyResult;
      this.logger.error('Aadhaar OTP provider answered verification_failed with an unknown message', { provider: 'cashfree', status });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    throw this.failure(answer);
  }

  close(): void {
    this.upstream.close();
  }

  /** A non-answer: a refusal about us (logged), another 4xx (500, logged), or what kyc's transport makes of it (429, 503). */
  private failure(answer: JsonAnswer): ServiceError {
    const code = str(answer.body['code']) ?? '';
    const meta = { provider: 'cashfree', status: answer.status, provider_code: code };
    const refusal = cashfreeRefusal(answer.status, code, this.headers.signed);
    if (refusal !== null) {
      this.logger.error('Aadhaar OTP provider refused the call', { ...meta, cause: refusal.cause });
      return serviceError(refusal.error);
    }
    if (answer.status < 500 && answer.status !== 409 && answer.status !== 422 && answer.status !== 429) {
      this.logger.error('Aadhaar OTP provider answered an unexpected status', meta);
      return serviceError('INTERNAL');
    }
    return this.upstream.failure(answer, code);
  }
}

/** `ref_id` as Cashfree sends it: a number (its send examples) or a numeric string (its schema, its verify example). */
function referenceOf(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^[0-9]{1,15}$/.test(text) ? Number(text) : null;
}

function recordOf(body: Record<string, unknown>): EkycRecord {
  const s = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
  const split = (typeof body['split_address'] === 'object' && body['split_address'] !== null ? body['split_address'] : {}) as Record<string, unknown>;
  const dob = s(body['dob']);
  return {
    referenceId: referenceOf(body['ref_id']) ?? 0,
    name: s(body['name']), dob, yearOfBirth: s(body['year_of_birth']) || dob.slice(6), gender: s(body['gender']),
    careOf: s(body['care_of']), fullAddress: s(body['address']),
    address: {
      country: s(split['country']), district: s(split['dist']), house: s(split['house']), landmark: s(split['landmark']),
      pincode: s(split['pincode']), postOffice: s(split['po']), state: s(split['state']), street: s(split['street']),
      subdistrict: s(split['subdist']), vtc: s(split['vtc']),
    },
    emailHash: s(body['email']), mobileHash: s(body['mobile_hash']), photo: s(body['photo_link']), shareCode: s(body['share_code']),
  };
}
