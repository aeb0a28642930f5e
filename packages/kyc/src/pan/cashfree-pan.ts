import { randomUUID } from 'node:crypto';
import {
  CashfreeHeaders, checkedCashfreeBaseUrl, cashfreeRefusal, serviceError, silentLogger, type CashfreeCredentials, type Logger, type ServiceError,
} from '@satyapan/core';
import { JsonUpstream, str, type JsonAnswer } from './http.js';
import type { PanLookupRequest, PanRecord, PanVerificationProvider } from './port.js';
import { isCalendarDate, toIsoDate } from './rules.js';

/**
 * Cashfree Secure ID's `x-client-id` / `x-client-secret` (the same pair as Cashfree penny drop when one account
 * has both products) and the optional signing key.
 */
export interface CashfreePanOptions extends CashfreeCredentials {
  /**
   * The Verification API's server URL: https://api.cashfree.com/verification (production),
   * https://sandbox.cashfree.com/verification, or the simulator's URL + /verification (core's `cashfreeBaseUrl`).
   */
  baseUrl: string;
  /** Whole-call timeout; default 10 s (a lookup of records, no transfer to wait for). */
  timeoutMs?: number;
  logger?: Logger;
}

const PATH = '/pan/advance';

/**
 * Cashfree Secure ID "PAN 360" (`POST {baseUrl}/pan/advance {verification_id, pan, name}`), over the kyc
 * keep-alive transport. Chosen because it returns the registered name and date of birth (so the comparison
 * with the caller's name and date is ours, made with @satyapan/name-match, and explainable), whether Aadhaar is
 * linked, with JSON and client-id/secret authentication that a deployment already holds for Cashfree penny
 * drop. It gives no status remark (deceased, merger, ...): `remarks` is null with it (docs/VENDOR_COMPAT.md).
 *
 * Its failure vocabulary, from Cashfree's Verification OpenAPI (2023-12-18; the tests' fixtures/cashfree):
 * - 200 `status` VALID: a valid PAN (definitive); INVALID: not found, deleted, fake or deactivated (definitive);
 *   `date_of_birth` comes as `DD-MM-YYYY` (its example) or `DD/MM/YYYY` (its schema's example);
 * - 400 about the PAN (`pan_length_short`, `pan_missing`, ...): 422 `Invalid Pan pattern`;
 * - refusals about us (core's `cashfreeRefusal`): 400 about our setup, 401, 403 (IP not whitelisted, no valid
 *   signature): a 500; 422 `insufficient_balance` (the only 422 it documents; the wallet is empty, never a bad
 *   PAN): 503; each one error log line naming the cause;
 * - 409 (a verification id already used), other 422s, 5xx, timeouts: 503 `Source Unavailable`; 429 passed on.
 */
export class CashfreePanProvider implements PanVerificationProvider {
  readonly name = 'cashfree';
  private readonly upstream: JsonUpstream;
  private readonly headers: CashfreeHeaders;
  private readonly logger: Logger;

  constructor(options: CashfreePanOptions) {
    this.logger = options.logger ?? silentLogger();
    this.upstream = new JsonUpstream(checkedCashfreeBaseUrl('CashfreePanProvider', options), options.timeoutMs ?? 10_000, this.name, this.logger);
    this.headers = new CashfreeHeaders(options);
  }

  async lookup(request: PanLookupRequest): Promise<PanRecord> {
    // The verification id is ours to choose and must be unique per call; it never carries the PAN.
    const answer = await this.upstream.post(PATH, this.headers.current(), { verification_id: randomUUID(), pan: request.pan, name: request.name });
    if (answer.status !== 200) throw this.failure(answer);
    const status = str(answer.body['status']);
    if (status === 'INVALID') return { providerCode: 'INVALID', definitive: true, valid: false, remarks: null };
    if (status !== 'VALID') {
      this.logger.error('PAN provider answered 200 without a known status', { provider: this.name, provider_code: status ?? 'none' });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    const record: PanRecord = { providerCode: 'VALID', definitive: true, valid: true, remarks: null };
    const registeredName = str(answer.body['registered_name']) ?? str(answer.body['name_pan_card']);
    if (registeredName !== undefined) record.registeredName = registeredName;
    const dateOfBirth = isoDate(str(answer.body['date_of_birth']));
    if (dateOfBirth !== undefined) record.dateOfBirth = dateOfBirth;
    const linked = answer.body['aadhaar_linked'];
    if (typeof linked === 'boolean') record.aadhaarSeeded = linked;
    return record;
  }

  close(): void {
    this.upstream.close();
  }

  private failure(answer: JsonAnswer): ServiceError {
    const code = str(answer.body['code']) ?? '';
    const meta = { provider: this.name, status: answer.status, provider_code: code };
    const refusal = cashfreeRefusal(answer.status, code, this.headers.signed);
    if (refusal !== null) {
      this.logger.error('PAN provider refused the call', { ...meta, cause: refusal.cause });
      return serviceError(refusal.error);
    }
    if (answer.status === 400) {
      this.logger.info('PAN provider rejected the input', meta);
      return serviceError('INVALID_PAN_PATTERN');
    }
    return this.upstream.failure(answer, code);
  }
}

/** `DD-MM-YYYY`, `DD/MM/YYYY` (what PAN 360 sends) or `YYYY-MM-DD`, as `YYYY-MM-DD`; anything else, or no such day, is undefined. */
function isoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const yearFirst = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const dayFirst = yearFirst ? `${yearFirst[3]}/${yearFirst[2]}/${yearFirst[1]}` : value.replace(/-/g, '/');
  return isCalendarDate(dayFirst) ? toIsoDate(dayFirst) : undefined;
}
