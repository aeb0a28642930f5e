import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { ERROR_REGISTRY, serviceError, serviceErrorWith, silentLogger, type Logger, type ServiceError } from '@satyapan/core';
import { PROVIDER_SIDE_CODES, isKnownAccountStatusCode, mapAccountStatusCode, transferFailureMessage } from './cashfree-status.js';
import type { PennyDropOutcome, PennyDropProvider, PennyDropRequest } from './port.js';

export interface CashfreeOptions {
  /** e.g. https://api.cashfree.com/verification, https://sandbox.cashfree.com/verification, or the simulator's URL + /verification. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Sent as `x-api-version` when set. */
  apiVersion?: string;
  /** Whole-request timeout; a sync penny drop waits for the IMPS credit, which can take many seconds. */
  timeoutMs?: number;
  logger?: Logger;
}

/** The fields of the provider's answer we read (others are ignored). */
interface SyncResponse {
  reference_id?: number | string;
  name_at_bank?: string | null;
  utr?: string | null;
  account_status?: string;
  account_status_code?: string;
}

interface ProviderErrorBody {
  code?: unknown;
  type?: unknown;
}

const NETWORK_FAILURES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_CANCELED', 'ERR_NETWORK', 'EHOSTUNREACH']);

/**
 * Cashfree's Bank Account Verification v2, sync flavour (POST /bank-account/sync), over axios.
 * Timeouts, network failures and 5xx are 503 `Source Unavailable`; credentials refused (401/403) are a 500 that
 * says nothing about the provider's answer (an operator problem, logged); the provider's input errors are 422
 * with the vendor's messages. Request bodies and the provider's answers are never logged: they carry the
 * account number and the account holder's name.
 */
export class CashfreePennyDropProvider implements PennyDropProvider {
  readonly name = 'cashfree';
  private readonly http: AxiosInstance;
  private readonly logger: Logger;

  constructor(options: CashfreeOptions) {
    this.logger = options.logger ?? silentLogger();
    this.http = axios.create({
      baseURL: options.baseUrl.replace(/\/+$/, ''),
      timeout: options.timeoutMs ?? 30_000,
      maxRedirects: 0,
      validateStatus: () => true,
      headers: {
        'content-type': 'application/json',
        'x-client-id': options.clientId,
        'x-client-secret': options.clientSecret,
        ...(options.apiVersion ? { 'x-api-version': options.apiVersion } : {}),
      },
    });
  }

  async verify(request: PennyDropRequest): Promise<PennyDropOutcome> {
    const body: Record<string, string> = { bank_account: request.accountNumber, ifsc: request.ifsc };
    if (request.name !== undefined) body['name'] = request.name;
    if (request.mobile !== undefined) body['phone'] = request.mobile;
    let response: AxiosResponse<unknown>;
    try {
      response = await this.http.post('/bank-account/sync', body);
    } catch (error) {
      throw this.transportFailure(error);
    }
    if (response.status === 200) return this.outcomeOf(response.data);
    throw this.statusFailure(response);
  }

  private outcomeOf(data: unknown): PennyDropOutcome {
    const answer = (typeof data === 'object' && data !== null ? data : {}) as SyncResponse;
    const code = typeof answer.account_status_code === 'string' ? answer.account_status_code : '';
    if (PROVIDER_SIDE_CODES.has(code)) {
      this.logger.error('penny-drop provider refused the request on its side', { provider: this.name, provider_code: code });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    if (code === '') {
      this.logger.error('penny-drop provider answered 200 without an account_status_code', { provider: this.name });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    if (!isKnownAccountStatusCode(code)) this.logger.warn('unknown account_status_code', { provider: this.name, provider_code: code });
    const failed = transferFailureMessage(code);
    if (failed !== null) {
      this.logger.warn('penny-drop credit failed', { provider: this.name, provider_code: code });
      throw serviceError('BANK_TRANSFER_FAILED', failed);
    }
    const mapped = mapAccountStatusCode(code);
    const valid = code === 'ACCOUNT_IS_VALID';
    const outcome: PennyDropOutcome = { providerCode: code, ...mapped, deposited: valid };
    if (valid && typeof answer.name_at_bank === 'string') outcome.nameAtBank = answer.name_at_bank;
    if (typeof answer.utr === 'string' && answer.utr !== '') outcome.utr = answer.utr;
    return outcome;
  }

  private transportFailure(error: unknown): ServiceError {
    const code = axios.isAxiosError(error) ? error.code ?? '' : '';
    const known = NETWORK_FAILURES.has(code);
    this.logger.warn('penny-drop provider unreachable', { provider: this.name, error_code: known ? code : 'unknown' });
    return serviceErrorWith({ cause: new Error(`penny-drop provider ${code || 'failure'}`) }, 'SOURCE_UNAVAILABLE');
  }

  private statusFailure(response: AxiosResponse<unknown>): ServiceError {
    const status = response.status;
    const errorBody = (typeof response.data === 'object' && response.data !== null ? response.data : {}) as ProviderErrorBody;
    const providerCode = typeof errorBody.code === 'string' ? errorBody.code : '';
    const meta = { provider: this.name, status, provider_code: providerCode };
    if (status >= 500 || status === 409 || (status === 422 && /balance/i.test(providerCode))) {
      this.logger.warn('penny-drop provider failed', meta);
      return serviceError('SOURCE_UNAVAILABLE');
    }
    if (status === 401 || status === 403) {
      // Our credentials or IP allow-list are wrong: the caller can do nothing about it, the operator can.
      this.logger.error('penny-drop provider refused our credentials', meta);
      return serviceError('INTERNAL');
    }
    if (status === 429) {
      this.logger.warn('penny-drop provider rate limit reached', meta);
      const retryAfter = response.headers['retry-after'];
      return serviceErrorWith(typeof retryAfter === 'string' ? { headers: { 'Retry-After': retryAfter } } : {}, 'TOO_MANY_REQUESTS');
    }
    if (status === 400 || status === 422) {
      this.logger.info('penny-drop provider rejected the input', meta);
      return serviceError('UNPROCESSABLE', inputErrorMessage(providerCode));
    }
    this.logger.error('penny-drop provider answered an unexpected status', meta);
    return serviceError('INTERNAL');
  }
}

/** The vendor's 422 messages for input the provider refused after our own checks passed. */
function inputErrorMessage(providerCode: string): string {
  if (/ifsc/i.test(providerCode)) return 'Invalid IFSC provided';
  if (/account/i.test(providerCode)) return 'Please provide a valid bank account';
  if (/name/i.test(providerCode)) return 'Invalid name: rejected by the bank verification provider';
  if (/phone|mobile/i.test(providerCode)) return ERROR_REGISTRY.INVALID_PHONE.message();
  return 'Invalid bank account number or ifsc provided';
}
