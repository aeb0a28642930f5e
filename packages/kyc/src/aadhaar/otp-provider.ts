import { serviceError, serviceErrorWith, type ServiceError } from '@satyapan/core';
import { requiresInsecureTransport } from '../transport.js';

/**
 * The port to an offline-Aadhaar OTP provider, and its HTTP implementation for providers with the common
 * reseller shape (`POST /verification/offline-aadhaar/otp` and `/verify`, `x-client-id` / `x-client-secret`).
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
}

export interface HttpOtpProviderConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
}

const VERIFY_FAILURES: Record<string, OtpVerifyResult['outcome']> = {
  otp_invalid: 'invalid_otp',
  otp_expired: 'expired',
  ref_id_invalid: 'invalid_reference',
  request_in_progress: 'in_progress',
};

export class HttpOtpProvider implements OtpProviderPort {
  private readonly base: string;

  constructor(private readonly config: HttpOtpProviderConfig) {
    this.base = config.baseUrl.replace(/\/+$/, '');
    requiresInsecureTransport(this.base); // http is accepted on loopback only, as for the lockers
  }

  async sendOtp(aadhaarNumber: string): Promise<OtpSendResult> {
    const { status, body } = await this.post('/verification/offline-aadhaar/otp', { aadhaar_number: aadhaarNumber });
    if (status === 409) return { outcome: 'throttled', referenceId: null };
    if (status !== 200) throw providerFailure(status);
    const referenceId = typeof body['ref_id'] === 'number' ? body['ref_id'] : null;
    const message = typeof body['message'] === 'string' ? body['message'] : '';
    if (body['status'] === 'INVALID') return { outcome: 'invalid_aadhaar', referenceId };
    if (/not linked/i.test(message)) return { outcome: 'not_linked', referenceId };
    if (body['status'] === 'SUCCESS' && referenceId !== null) return { outcome: 'sent', referenceId };
    throw serviceError('INTERNAL');
  }

  async verifyOtp(referenceId: string, otp: string): Promise<OtpVerifyResult> {
    const { status, body } = await this.post('/verification/offline-aadhaar/verify', { ref_id: referenceId, otp });
    if (status === 200 && body['status'] === 'VALID') return { outcome: 'valid', record: recordOf(body) };
    const failure = typeof body['code'] === 'string' ? VERIFY_FAILURES[body['code']] : undefined;
    if ((status === 400 || status === 409) && failure) return { outcome: failure } as OtpVerifyResult;
    throw providerFailure(status);
  }

  private async post(path: string, payload: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-id': this.config.clientId, 'x-client-secret': this.config.clientSecret },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw serviceErrorWith({ cause: error }, 'SOURCE_UNAVAILABLE');
    }
    const body = (await response.json().catch(() => ({}))) as unknown;
    return { status: response.status, body: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {} };
  }
}

/** 429 is passed on; a provider that fails or is down is "Source Unavailable"; anything else is ours to fix. */
function providerFailure(status: number): ServiceError {
  if (status === 429) return serviceError('TOO_MANY_REQUESTS');
  if (status >= 500) return serviceError('SOURCE_UNAVAILABLE');
  return serviceError('INTERNAL');
}

function recordOf(body: Record<string, unknown>): EkycRecord {
  const s = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');
  const split = (typeof body['split_address'] === 'object' && body['split_address'] !== null ? body['split_address'] : {}) as Record<string, unknown>;
  const dob = s(body['dob']);
  return {
    referenceId: Number(body['ref_id']),
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
