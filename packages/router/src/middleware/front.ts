import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Logger, SatyapanMetrics } from '@satyapan/core';
import { checkApiVersion } from './api-version.js';
import { requestObserver } from './metrics.js';
import { requestContext } from './request-context.js';
import { constantSecurityHeaders } from './security-headers.js';

/**
 * Everything every request gets before routing, in one Express layer rather than four (each layer is a trip
 * through Express's dispatch, which showed in the router's profile): its context (id, logger, request log
 * line), the metrics observer, helmet's headers (recorded once at start) and the `x-api-version` check, in that
 * order. When helmet cannot be recorded, it runs per request as a layer of its own, in the same place.
 */
export function requestFront(logger: Logger, metrics: SatyapanMetrics | undefined): RequestHandler[] {
  const context = requestContext(logger);
  const observe = metrics ? requestObserver(metrics) : undefined;
  const headers = constantSecurityHeaders();
  if (!headers) {
    return [
      (req, res, next) => {
        context(req, res);
        observe?.(res);
        next();
      },
      helmet(),
      (req, res, next) => next(checkApiVersion(req, res)),
    ];
  }
  return [(req, res, next) => {
    context(req, res);
    observe?.(res);
    headers(res);
    next(checkApiVersion(req, res));
  }];
}
