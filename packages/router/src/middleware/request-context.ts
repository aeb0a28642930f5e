import type { Request, Response } from 'express';
import { newTransactionId, type Logger } from '@satyapan/core';
import type { ClientRecord } from '../clients.js';

/**
 * Per-request state, kept in `res.locals` under one name and typed in one place. The request's logger (a child
 * of the router's with the request id on every line) is made on first use: most successful requests log
 * nothing of their own, and a winston child per request showed in the router's profile.
 */
export class RequestState {
  client?: ClientRecord;
  readonly startedAt = performance.now();
  private child: Logger | undefined;

  constructor(readonly transactionId: string, private readonly parent: Logger) {}

  get logger(): Logger {
    return (this.child ??= this.parent.child({ request_id: this.transactionId }));
  }
}

const STATE = 'satyapan';

export function stateOf(res: Response): RequestState {
  return (res.locals as Record<string, RequestState>)[STATE]!;
}

/**
 * Gives every request its transaction id (sent back as `x-request-id` and written to every log line of the
 * request) and logs one line when the response is finished. A function, not a middleware: the router's front
 * layer (`requestFront`) calls it.
 */
export function requestContext(logger: Logger): (req: Request, res: Response) => void {
  return (req: Request, res: Response): void => {
    const state = new RequestState(newTransactionId(), logger);
    (res.locals as Record<string, RequestState>)[STATE] = state;
    res.setHeader('x-request-id', state.transactionId);
    // A silent logger still runs winston's format pipeline (redaction included), so skip the call altogether.
    if (logger.silent || !logger.isInfoEnabled()) return;
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
  };
}
