import { keepAliveFetch, serviceError, serviceErrorWith, type KeepAliveFetch, type Logger, type ServiceError } from '@satyapan/core';
import { requiresInsecureTransport } from '../transport.js';

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

/**
 * A JSON upstream over core's keep-alive transport with a whole-call timeout: plain http on loopback only (the
 * sandbox), https elsewhere. Timeouts and network failures are 503 `Source Unavailable`. Bodies are never
 * logged: they carry PANs, Aadhaar numbers and names.
 */
export class JsonUpstream {
  private readonly transport: KeepAliveFetch;

  constructor(private readonly baseUrl: string, private readonly timeoutMs: number, private readonly provider: string, private readonly logger: Logger) {
    requiresInsecureTransport(baseUrl);
    this.transport = keepAliveFetch();
  }

  async post(path: string, headers: Record<string, string>, payload: unknown): Promise<JsonAnswer> {
    try {
      const response = await this.transport(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return { status: response.status, body: await readJson(response), retryAfter: response.headers.get('retry-after') };
    } catch (error) {
      const code = error instanceof Error ? (error as { code?: string }).code ?? error.name : 'unknown';
      this.logger.warn('upstream unreachable', { provider: this.provider, error_code: code });
      throw serviceErrorWith({ cause: error }, 'SOURCE_UNAVAILABLE');
    }
  }

  /** A non-200 answer: 401/403 are ours to fix (500, logged for the operator), 429 is passed on, the rest is 503. */
  failure(answer: JsonAnswer, providerCode: string): ServiceError {
    const meta = { provider: this.provider, status: answer.status, provider_code: providerCode };
    if (answer.status === 401 || answer.status === 403) {
      this.logger.error('upstream refused our credentials', meta);
      return serviceError('INTERNAL');
    }
    if (answer.status === 429) {
      this.logger.warn('upstream rate limit reached', meta);
      const retryAfter = answer.retryAfter;
      return serviceErrorWith(retryAfter && /^\d{1,6}$/.test(retryAfter) ? { headers: { 'Retry-After': retryAfter } } : {}, 'TOO_MANY_REQUESTS');
    }
    this.logger.warn('upstream failed', meta);
    return serviceError('SOURCE_UNAVAILABLE');
  }

  close(): void {
    this.transport.close();
  }
}

/** The JSON object of a body, or an empty one when there is none (a 502 page from a proxy, say). */
async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (text === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
