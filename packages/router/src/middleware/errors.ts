import type { NextFunction, Request, Response } from 'express';
import { errorEnvelope, serviceError, toServiceError, type Clock, type ServiceError } from '@satyapan/core';
import { stateOf } from './request-context.js';

/** Errors raised by body-parser carry a `type`; map them to our codes. */
function fromBodyParser(error: unknown, req: Request): ServiceError | null {
  const { type, status } = (error ?? {}) as { type?: string; status?: number };
  if (type === 'entity.too.large') {
    const limit = (error as { limit?: number }).limit;
    return serviceError('PAYLOAD_TOO_LARGE', `${limit ?? '?'} bytes`);
  }
  if (type === 'entity.parse.failed') return serviceError('MALFORMED_JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return serviceError('UNSUPPORTED_MEDIA_TYPE', 'application/json; charset=utf-8');
  if (type === 'request.aborted' || type === 'request.size.invalid') return serviceError('INVALID_REQUEST_BODY', 'body', 'was incomplete');
  // body-parser passes a failed gzip, deflate or br stream on as a plain 400 without a type.
  const encoding = req.headers['content-encoding'];
  if (status === 400 && type === undefined && encoding) return serviceError('INVALID_REQUEST_BODY', 'body', `is not valid ${String(encoding).slice(0, 20)} data`);
  return null;
}

/** Express answers a path parameter it cannot percent-decode with a URIError (status 400). */
function fromPathDecoding(error: unknown): ServiceError | null {
  return error instanceof URIError ? serviceError('INVALID_PARAMETER', 'path', 'is not valid percent-encoding') : null;
}

/**
 * Statuses of 520 and above are the API's business outcomes (unknown id 521, session lifecycle 523): answers,
 * not faults of ours, so they are not error-level log lines (the request line records them).
 */
function isServerFault(status: number): boolean {
  return status >= 500 && status < 520;
}

/** The router's last handler: every error leaves as the error envelope. No HTML, no stack trace, ever. */
export function errorHandler(clock: Clock) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const failure = fromBodyParser(error, req) ?? fromPathDecoding(error) ?? toServiceError(error);
    const state = stateOf(res);
    if (isServerFault(failure.status)) {
      state.logger?.error('request failed', { code: failure.code, status: failure.status, cause: failure.cause ?? error });
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(failure.headers)) res.setHeader(name, value);
    res.status(failure.status).json(errorEnvelope(failure, state.transactionId, clock));
  };
}

export function notFound() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    next(serviceError('ROUTE_NOT_FOUND', req.method, req.baseUrl + req.path));
  };
}
