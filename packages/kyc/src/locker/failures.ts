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

/** fetch() rejects with a TypeError for refused connections and DNS failures, and times out with a DOMException. */
function isNetworkFailure(failure: unknown): boolean {
  if (failure instanceof TypeError && /fetch failed|network/i.test(failure.message)) return true;
  return failure instanceof Error && (failure.name === 'TimeoutError' || failure.name === 'AbortError');
}
