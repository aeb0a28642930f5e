import {
  documentedError, keepAliveFetch, requireHttpUrl, requireText, serviceError, serviceErrorWith, silentLogger, type KeepAliveFetch, type Logger, type OperationError, type ServiceError,
} from '@satyapan/core';
import type { PennyLessOutcome, PennyLessProvider, PennyLessRequest } from './port.js';
import { FOUND, INVALID_BANK_DETAILS, NOT_FOUND, SETU_ACCOUNT_NUMBER } from './setu-status.js';

/** The vendor's 422 for an account or IFSC the provider refuses. */
const INVALID_INPUT = 'Invalid bank account number or ifsc provided';

/** What this adapter's failures answer, for the penny-less operation's OpenAPI errors. */
export const SETU_PENNY_LESS_ERRORS: readonly OperationError[] = [
  documentedError('UNPROCESSABLE', INVALID_INPUT), 'TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE', 'INTERNAL',
];

export interface SetuPennyLessOptions {
  /** https://dg.setu.co (production), https://dg-sandbox.setu.co (Setu's sandbox), or the simulator's URL. */
  baseUrl: string;
  /** Setu's `x-client-id`, `x-client-secret` and `x-product-instance-id`, issued per product by Setu. */
  clientId: string;
  clientSecret: string;
  productInstanceId: string;
  /** Whole-call timeout (default 10 s): a penny-less lookup asks records, it waits for no transfer. */
  timeoutMs?: number;
  logger?: Logger;
}

/** The fields of Setu's answer we read; others (ifscDetails, merchantDetails, ...) are ignored. */
interface SetuAnswer {
  status?: unknown;
  message?: unknown;
  data?: { bankAccountName?: unknown; entityType?: unknown };
  error?: { code?: unknown };
}

const PATH = '/api/verify/ban/pennyless';

/**
 * Setu's PennyLess drop API (sync): `POST {baseUrl}/api/verify/ban/pennyless {accountNumber, ifsc}` with
 * `x-client-id`, `x-client-secret`, `x-product-instance-id` (docs.setu.co/data/bav/pennyless-drop). Chosen
 * because its documentation is public, it answers synchronously, and its answer tells individuals from
 * businesses (`entityType`), the two kinds of success the vendor's examples show.
 *
 * What each answer means is setu-status.ts. Calls go over core's keep-alive transport with a whole-call
 * timeout. Timeouts, network failures and 5xx are 503 `Source Unavailable`; credentials or product instance
 * refused (401/403) are a 500 and one log line naming the cause; the provider's 429 is ours. An account number
 * outside Setu's pattern is refused here (422), never sent. Bodies are never logged: they carry the account
 * number and the holder's name.
 */
export class SetuPennyLessProvider implements PennyLessProvider {
  readonly name = 'setu';
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly transport: KeepAliveFetch;

  constructor(options: SetuPennyLessOptions) {
    const owner = 'SetuPennyLessProvider';
    this.url = `${requireHttpUrl(owner, 'baseUrl', options.baseUrl, 'the Setu Data API URL').href.replace(/\/+$/, '')}${PATH}`;
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      'x-client-id': requireText(owner, 'clientId', options.clientId),
      'x-client-secret': requireText(owner, 'clientSecret', options.clientSecret),
      'x-product-instance-id': requireText(owner, 'productInstanceId', options.productInstanceId),
    };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.logger = options.logger ?? silentLogger();
    this.transport = keepAliveFetch();
  }

  async verify(request: PennyLessRequest): Promise<PennyLessOutcome> {
    if (!SETU_ACCOUNT_NUMBER.test(request.accountNumber)) {
      this.logger.info('penny-less account number outside the provider\'s pattern; not sent', { provider: this.name });
      throw serviceError('UNPROCESSABLE', INVALID_INPUT);
    }
    let response: Response;
    let answer: SetuAnswer;
    try {
      response = await this.transport(this.url, {
        method: 'POST',
        headers: this.headers,
        body: JSON.stringify({ accountNumber: request.accountNumber, ifsc: request.ifsc }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      answer = await readAnswer(response);
    } catch (error) {
      const name = error instanceof Error ? (error as { code?: string }).code ?? error.name : 'unknown';
      this.logger.warn('penny-less provider unreachable', { provider: this.name, error_code: name });
      throw serviceErrorWith({ cause: error }, 'SOURCE_UNAVAILABLE');
    }
    if (response.status === 200) return this.outcomeOf(answer);
    throw this.statusFailure(response, answer);
  }

  close(): void {
    this.transport.close();
  }

  private outcomeOf(answer: SetuAnswer): PennyLessOutcome {
    const name = answer.data?.bankAccountName;
    if (answer.status === 'SUCCESS' && typeof name === 'string' && name.trim() !== '') {
      const entityType = typeof answer.data?.entityType === 'string' ? answer.data.entityType : 'UNKNOWN';
      return { providerCode: `SUCCESS/${entityType}`, ...FOUND, nameAtBank: name.trim() };
    }
    if (answer.status === 'ERROR' && answer.message === INVALID_BANK_DETAILS) return { providerCode: 'ERROR/INVALID_BANK_DETAILS', ...NOT_FOUND };
    const status = typeof answer.status === 'string' ? answer.status.slice(0, 32) : 'none';
    this.logger.error('penny-less provider answered 200 with an unknown outcome', { provider: this.name, provider_code: status });
    throw serviceError('SOURCE_UNAVAILABLE');
  }

  private statusFailure(response: Response, answer: SetuAnswer): ServiceError {
    const status = response.status;
    const meta = { provider: this.name, status, provider_code: typeof answer.error?.code === 'string' ? answer.error.code : '' };
    if (status === 401 || status === 403) {
      // Our credentials or product instance are wrong: the caller can do nothing about it, the operator can.
      this.logger.error('penny-less provider refused our credentials', {
        ...meta, cause: 'Setu refused the x-client-id / x-client-secret / x-product-instance-id of this environment',
      });
      return serviceError('INTERNAL');
    }
    if (status === 429) {
      this.logger.warn('penny-less provider rate limit reached', meta);
      const retryAfter = response.headers.get('retry-after');
      return serviceErrorWith(retryAfter && /^\d{1,6}$/.test(retryAfter) ? { headers: { 'Retry-After': retryAfter } } : {}, 'TOO_MANY_REQUESTS');
    }
    if (status === 400 || status === 422) {
      this.logger.info('penny-less provider rejected the input', meta);
      return serviceError('UNPROCESSABLE', INVALID_INPUT);
    }
    this.logger.warn('penny-less provider failed', meta);
    return serviceError('SOURCE_UNAVAILABLE');
  }
}

/** The JSON body, or an empty answer when there is none (a 502 from a proxy, say). */
async function readAnswer(response: Response): Promise<SetuAnswer> {
  const text = await response.text();
  if (text === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed as SetuAnswer : {};
  } catch {
    return {};
  }
}
