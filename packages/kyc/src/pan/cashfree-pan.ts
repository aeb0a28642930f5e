import { randomUUID } from 'node:crypto';
import { serviceError, silentLogger, type Logger } from '@satyapan/core';
import { JsonUpstream, str } from './http.js';
import type { PanLookupRequest, PanRecord, PanVerificationProvider } from './port.js';

export interface CashfreePanOptions {
  /** https://api.cashfree.com/verification (production), https://sandbox.cashfree.com/verification, or the simulator's URL + /verification. */
  baseUrl: string;
  /** Cashfree Secure ID `x-client-id` / `x-client-secret`: the same pair as Cashfree penny drop when one account has both products. */
  clientId: string;
  clientSecret: string;
  /** Sent as `x-api-version` when set. */
  apiVersion?: string;
  /** Whole-call timeout; default 10 s (a lookup of records, no transfer to wait for). */
  timeoutMs?: number;
  logger?: Logger;
}

const PATH = '/pan/advance';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Cashfree Secure ID "PAN 360" (`POST {baseUrl}/pan/advance {verification_id, pan, name}`), over the kyc
 * keep-alive transport. Chosen because it returns the registered name and date of birth (so the comparison
 * with the caller's name and date is ours, made with @satyapan/name-match, and explainable), whether Aadhaar is
 * linked, with JSON and client-id/secret authentication that a deployment already holds for Cashfree penny
 * drop. It gives no status remark (deceased, merger, ...): `remarks` is null with it (docs/VENDOR_COMPAT.md).
 *
 * `status` VALID is a valid PAN; INVALID (not found, deleted, fake, deactivated) an invalid one. Timeouts,
 * network failures and 5xx are 503; 401/403 a logged 500; 429 passed on; 400/422 (input the provider refused
 * after our checks) 422 `Invalid Pan pattern`.
 */
export class CashfreePanProvider implements PanVerificationProvider {
  readonly name = 'cashfree';
  private readonly upstream: JsonUpstream;
  private readonly headers: Record<string, string>;
  private readonly logger: Logger;

  constructor(options: CashfreePanOptions) {
    this.logger = options.logger ?? silentLogger();
    this.upstream = new JsonUpstream(options.baseUrl.replace(/\/+$/, ''), options.timeoutMs ?? 10_000, this.name, this.logger);
    this.headers = {
      'x-client-id': options.clientId,
      'x-client-secret': options.clientSecret,
      ...(options.apiVersion ? { 'x-api-version': options.apiVersion } : {}),
    };
  }

  async lookup(request: PanLookupRequest): Promise<PanRecord> {
    // The verification id is ours to choose and must be unique per call; it never carries the PAN.
    const answer = await this.upstream.post(PATH, this.headers, { verification_id: randomUUID(), pan: request.pan, name: request.name });
    const code = str(answer.body['code']) ?? str(answer.body['status']) ?? '';
    if (answer.status === 400 || answer.status === 422) {
      this.logger.info('PAN provider rejected the input', { provider: this.name, status: answer.status, provider_code: code });
      throw serviceError('INVALID_PAN_PATTERN');
    }
    if (answer.status !== 200) throw this.upstream.failure(answer, code);
    const status = str(answer.body['status']);
    if (status === 'INVALID') return { providerCode: 'INVALID', definitive: true, valid: false, remarks: null };
    if (status !== 'VALID') {
      this.logger.error('PAN provider answered 200 without a known status', { provider: this.name, provider_code: status ?? 'none' });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    const record: PanRecord = { providerCode: 'VALID', definitive: true, valid: true, remarks: null };
    const registeredName = str(answer.body['registered_name']) ?? str(answer.body['name_pan_card']);
    if (registeredName !== undefined) record.registeredName = registeredName;
    const dateOfBirth = str(answer.body['date_of_birth']);
    if (dateOfBirth !== undefined && DATE.test(dateOfBirth)) record.dateOfBirth = dateOfBirth;
    const linked = answer.body['aadhaar_linked'];
    if (typeof linked === 'boolean') record.aadhaarSeeded = linked;
    return record;
  }

  close(): void {
    this.upstream.close();
  }
}
