import type { Request } from 'express';
import { constantTimeEqual } from '@satyapan/core';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * Whether a request carries the provider's client id and secret in `x-client-id` and `x-client-secret`, the
 * way the commercial verification providers authenticate their callers. A missing header never matches.
 */
export function hasClientCredentials(req: Request, expected: ClientCredentials): boolean {
  const id = req.get('x-client-id');
  const secret = req.get('x-client-secret');
  // Both comparisons always run, so the time taken does not say which of the two was wrong.
  const idOk = constantTimeEqual(id ?? '', expected.clientId);
  const secretOk = constantTimeEqual(secret ?? '', expected.clientSecret);
  return id !== undefined && secret !== undefined && idOk && secretOk;
}
