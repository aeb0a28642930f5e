import type { Request, Response } from 'express';
import { serviceError, type ServiceError } from '@satyapan/core';

const VERSION = /^[0-9]+(\.[0-9]+){0,2}$/;

/**
 * Every version-shaped `x-api-version` is served by the current API and echoed back (docs/API.md); anything else
 * is the error to pass on.
 */
export function checkApiVersion(req: Request, res: Response): ServiceError | undefined {
  const requested = req.headers['x-api-version'];
  if (requested === undefined) return undefined;
  const value = Array.isArray(requested) ? requested.join(',') : requested;
  if (!VERSION.test(value)) return serviceError('UNSUPPORTED_API_VERSION', value.slice(0, 40));
  res.setHeader('x-api-version', value);
  return undefined;
}
