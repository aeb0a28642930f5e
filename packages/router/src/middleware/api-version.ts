import type { NextFunction, Request, Response } from 'express';
import { serviceError } from '@satyapan/core';

const VERSION = /^[0-9]+(\.[0-9]+){0,2}$/;

/** Every version-shaped `x-api-version` is served by the current API and echoed back (docs/API.md). */
export function apiVersion() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requested = req.headers['x-api-version'];
    if (requested === undefined) return next();
    const value = Array.isArray(requested) ? requested.join(',') : requested;
    if (!VERSION.test(value)) return next(serviceError('UNSUPPORTED_API_VERSION', value.slice(0, 40)));
    res.setHeader('x-api-version', value);
    next();
  };
}
