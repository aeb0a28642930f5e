import * as oidc from 'openid-client';
import { LockerError, type LockerFailure } from './types.js';

/** OAuth error codes that mean "this token or grant is no longer any good". */
const DEAD_TOKEN_ERRORS = new Set(['invalid_token', 'invalid_grant', 'token_revoked', 'expired_token']);

/**
 * Turns whatever a locker call threw (or an HTTP status it answered) into a LockerError the service can act
 * on. The upstream's own message is kept as the cause for logs; it never reaches a caller.
 */
export function classifyLockerFailure(failure: unknown, context: string): LockerError {
  if (failure instanceof LockerError) return failure;
  if (failure instanceof Response) {
    return new LockerError(fromStatus(failure.status, null), context, failure.status, { retryAfter: failure.headers.get('retry-after') });
  }
  if (failure instanceof oidc.ResponseBodyError) {
    return new LockerError(fromStatus(failure.status, failure.error), `${context}: ${failure.error}`, failure.status, {
      cause: failure, retryAfter: failure.response.headers.get('retry-after'),
    });
  }
  if (failure instanceof oidc.WWWAuthenticateChallengeError) {
    return new LockerError(fromStatus(failure.status, null), `${context}: HTTP ${failure.status}`, failure.status, { cause: failure });
  }
  if (failure instanceof oidc.AuthorizationResponseError) {
    const kind: LockerFailure = failure.error === 'access_denied' ? 'denied' : 'failed';
    return new LockerError(kind, `${context}: authorization error ${failure.error}`, null, { cause: failure });
  }
  if (failure instanceof oidc.ClientError && failure.cause instanceof Response) {
    const response = failure.cause;
    return new LockerError(fromStatus(response.status, null), `${context}: HTTP ${response.status}`, response.status, {
      cause: failure, retryAfter: response.headers.get('retry-after'),
    });
  }
  if (isNetworkFailure(failure)) return new LockerError('unavailable', `${context}: the locker could not be reached`, null, { cause: failure });
  return new LockerError('failed', `${context}: unexpected failure`, null, { cause: failure });
}

function fromStatus(status: number, oauthError: string | null): LockerFailure {
  if (status === 429) return 'rate_limited';
  if (status === 401 || (oauthError !== null && DEAD_TOKEN_ERRORS.has(oauthError))) return 'token_invalid';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  if (status === 404) return 'not_found';
  return 'failed';
}

/** Node's socket errors (what the keep-alive transport rejects with) that mean "could not reach it". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'OAUTH_TIMEOUT', 'OAUTH_ABORT',
]);

/**
 * Refused connections, resets, DNS failures and timeouts, wherever they sit in the cause chain (openid-client
 * wraps what the transport threw; global fetch throws a TypeError "fetch failed" with the socket error as cause).
 */
function isNetworkFailure(failure: unknown): boolean {
  for (let error = failure, depth = 0; error instanceof Error && depth < 5; error = error.cause, depth += 1) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
    if (error instanceof TypeError && /fetch failed/i.test(error.message)) return true;
  }
  return false;
}
