import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import {
  CashfreeHeaders, ERROR_REGISTRY, checkedCashfreeBaseUrl, cashfreeRefusal, documentedError, serviceError, serviceErrorWith, silentLogger,
  type CashfreeCredentials, type Logger, type OperationError, type ServiceError,
} from '@satyapan/core';
import { TRANSFER_FAILURES, UNKNOWN_CODE_FAILURE, classifyCashfreeCode, normaliseCashfreeCode, type CashfreeCodeKind } from './cashfree-status.js';
import type { PennyDropOutcome, PennyDropProvider, PennyDropRequest } from './port.js';

export interface CashfreeOptions extends CashfreeCredentials {
  /**
   * The Verification API's server URL: https://api.cashfree.com/verification (production),
   * https://sandbox.cashfree.com/verification, or the simulator's URL + /verification (core's `cashfreeBaseUrl`).
   */
  baseUrl: string;
  /** Whole-request timeout; a sync penny drop waits for the IMPS credit, which can take many seconds. */
  timeoutMs?: number;
  logger?: Logger;
}

/** The fields of the provider's answer we read (others are ignored). */
interface SyncResponse {
  name_at_bank?: string | null;
  utr?: string | null;
  account_status_code?: string;
}

interface ProviderErrorBody {
  code?: unknown;
  /** Cashfree's reference of the verification, for a later status poll (`GET /bank-account?reference_id=`). */
  error?: { reference_id?: unknown } | null;
}

const NETWORK_FAILURES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_CANCELED', 'ERR_NETWORK', 'EHOSTUNREACH']);

/**
 * Cashfree's Bank Account Verification v2, sync flavour (POST /bank-account/sync), over axios. What each answer
 * becomes is the vocabulary of cashfree-status.ts; beyond it: timeouts, network failures and 5xx are 503
 * `Source Unavailable`; a refusal core's `cashfreeRefusal` reads (our setup: 500; our standing: 503) is one error
 * log line naming the cause; the provider's input errors are 422 with the vendor's messages; 429 is passed on. Request
 * bodies and the provider's answers are never logged: they carry the account number and the holder's name.
 */
export class CashfreePennyDropProvider implements PennyDropProvider {
  readonly name = 'cashfree';
  private readonly http: AxiosInstance;
  private readonly headers: CashfreeHeaders;
  private readonly logger: Logger;

  constructor(options: CashfreeOptions) {
    this.logger = options.logger ?? silentLogger();
    const baseURL = checkedCashfreeBaseUrl('CashfreePennyDropProvider', options);
    this.headers = new CashfreeHeaders(options);
    this.http = axios.create({
      baseURL,
      timeout: options.timeoutMs ?? 30_000,
      maxRedirects: 0,
      validateStatus: () => true,
      headers: { 'content-type': 'application/json' },
    });
  }

  async verify(request: PennyDropRequest): Promise<PennyDropOutcome> {
    const body: Record<string, string> = { bank_account: request.accountNumber, ifsc: request.ifsc };
    const name = request.name === undefined ? '' : cashfreeName(request.name);
    if (name !== '') body['name'] = name;
    if (request.mobile !== undefined) body['phone'] = request.mobile;
    let response: AxiosResponse<unknown>;
    try {
      response = await this.http.post('/bank-account/sync', body, { headers: this.headers.current() });
    } catch (error) {
      throw this.transportFailure(error);
    }
    const data = (typeof response.data === 'object' && response.data !== null ? response.data : {}) as SyncResponse & ProviderErrorBody;
    if (response.status === 200) {
      const code = typeof data.account_status_code === 'string' ? data.account_status_code : '';
      return this.outcomeOf(data, code, classifyCashfreeCode(code));
    }
    const providerCode = typeof data.code === 'string' ? data.code : '';
    const refusal = cashfreeRefusal(response.status, providerCode, this.headers.signed);
    if (refusal !== null) {
      // The caller can do nothing about it, the operator can: one line that says what to fix.
      this.logger.error('penny-drop provider refused the call', { provider: this.name, status: response.status, provider_code: providerCode, cause: refusal.cause });
      throw serviceError(refusal.error);
    }
    const meaning = response.status === 422 ? classifyCashfreeCode(providerCode) : null;
    if (meaning !== null) {
      // Kept in the log (it names the verification, not the account) so an operator can poll its final status.
      const reference = data.error?.reference_id;
      if (typeof reference === 'number' || typeof reference === 'string') {
        this.logger.info('penny-drop provider answered a bank or rail failure', { provider: this.name, provider_code: providerCode, provider_reference: String(reference) });
      }
      return this.outcomeOf({}, providerCode, meaning);
    }
    throw this.statusFailure(response, providerCode);
  }

  /** An answer that carries a status code: a 200's `account_status_code` or a 422's bank or rail `code`, and its meaning. */
  private outcomeOf(answer: SyncResponse, rawCode: string, meaning: CashfreeCodeKind | null): PennyDropOutcome {
    if (rawCode === '') {
      this.logger.error('penny-drop provider answered 200 without an account_status_code', { provider: this.name });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    const code = normaliseCashfreeCode(rawCode);
    if (meaning === null || meaning.kind === 'transfer') {
      if (meaning === null) this.logger.warn('unknown account_status_code', { provider: this.name, provider_code: code });
      this.logger.warn('penny-drop credit failed', { provider: this.name, provider_code: code });
      throw serviceError('BANK_TRANSFER_FAILED', meaning?.kind === 'transfer' ? meaning.message : UNKNOWN_CODE_FAILURE);
    }
    if (meaning.kind === 'outage') {
      this.logger.error('penny-drop provider refused the call', { provider: this.name, provider_code: code, cause: meaning.cause });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    const valid = code === 'ACCOUNT_IS_VALID';
    const outcome: PennyDropOutcome = { providerCode: code, ...meaning.mapping, deposited: valid };
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

  private statusFailure(response: AxiosResponse<unknown>, providerCode: string): ServiceError {
    const status = response.status;
    const meta = { provider: this.name, status, provider_code: providerCode };
    if (status >= 500 || status === 409) {
      this.logger.warn('penny-drop provider failed', meta);
      return serviceError('SOURCE_UNAVAILABLE');
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

/**
 * The name as Cashfree accepts it: "only alphanumeric, whitespace, period, hyphen, slash and ampersand" (its
 * request schema), else the whole call is a 400. Cashfree's own score of it is not used (our matcher compares
 * `name_at_bank`), so an apostrophe or a diacritic is dropped rather than failing a real name.
 */
function cashfreeName(name: string): string {
  return name.normalize('NFKD').replace(/[^A-Za-z0-9 .\-/&]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
}

/** The vendor's 422 messages for input the provider refused after our own checks passed. */
/** The 422 messages of the provider's input errors, by what its code names (the vendor's words). */
const INPUT_ERRORS = {
  ifsc: ERROR_REGISTRY.UNKNOWN_IFSC.message(),
  account: 'Please provide a valid bank account',
  name: 'Invalid name: rejected by the bank verification provider',
  phone: ERROR_REGISTRY.INVALID_PHONE.message(),
  other: 'Invalid bank account number or ifsc provided',
} as const;

function inputErrorMessage(providerCode: string): string {
  if (/ifsc/i.test(providerCode)) return INPUT_ERRORS.ifsc;
  if (/account/i.test(providerCode)) return INPUT_ERRORS.account;
  if (/name/i.test(providerCode)) return INPUT_ERRORS.name;
  if (/phone|mobile/i.test(providerCode)) return INPUT_ERRORS.phone;
  return INPUT_ERRORS.other;
}

/** What this adapter's failures answer, for the penny-drop operation's OpenAPI errors. */
export const CASHFREE_PENNY_DROP_ERRORS: readonly OperationError[] = [
  ...TRANSFER_FAILURES.map((message) => documentedError('BANK_TRANSFER_FAILED', message)),
  ...Object.values(INPUT_ERRORS).map((message) => documentedError('UNPROCESSABLE', message)),
  'TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE', 'INTERNAL',
];
