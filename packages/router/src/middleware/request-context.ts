import type { NextFunction, Request, Response } from 'express';
import { newTransactionId, type Logger } from '@satyapan/core';
import type { ClientRecord } from '../clients.js';

/** Per-request state kept in `res.locals`, typed in one place. */
export interface RequestState {
  transactionId: string;
  logger: Logger;
  client?: ClientRecord;
  startedAt: number;
}

export function stateOf(res: Response): RequestState {
  return res.locals as RequestState;
}

/**
 * Gives every request its transaction id (sent back as `x-request-id` and written to every log line of the
 * request) and logs one line when the response is finished.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const transactionId = newTransactionId();
    const state = res.locals as RequestState;
    state.transactionId = transactionId;
    state.startedAt = performance.now();
    state.logger = logger.child({ request_id: transactionId });
    res.setHeader('x-request-id', transactionId);
    // A silent logger still runs winston's format pipeline (redaction included), so skip the call altogether.
    if (logger.silent || !logger.isInfoEnabled()) return next();
    res.on('finish', () => {
      state.logger.info('request', {
        method: req.method,
        // The route pattern, not the path: paths carry account numbers and other identifiers.
        route: req.route ? `${req.baseUrl}${String(req.route.path)}` : `${req.baseUrl} (unmatched)`,
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - state.startedAt) * 10) / 10,
        client_id: state.client?.id,
      });
    });
    next();
  };
}
