import type { NextFunction, Request, Response } from 'express';
import { errorEnvelope, serviceError, toServiceError, type Clock, type ServiceError } from '@satyapan/core';
import { stateOf } from './request-context.js';

/** Errors raised by body-parser carry a `type`; map them to our codes. */
function fromBodyParser(error: unknown): ServiceError | null {
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') {
    const limit = (error as { limit?: number }).limit;
    return serviceError('PAYLOAD_TOO_LARGE', `${limit ?? '?'} bytes`);
  }
  if (type === 'entity.parse.failed') return serviceError('MALFORMED_JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return serviceError('UNSUPPORTED_MEDIA_TYPE', 'application/json; charset=utf-8');
  if (type === 'request.aborted' || type === 'request.size.invalid') return serviceError('INVALID_REQUEST_BODY', 'body', 'was incomplete');
  return null;
}

/** The router's last handler: every error leaves as the error envelope. No HTML, no stack trace, ever. */
export function errorHandler(clock: Clock) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const failure = fromBodyParser(error) ?? toServiceError(error);
    const state = stateOf(res);
    if (failure.status >= 500) {
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
