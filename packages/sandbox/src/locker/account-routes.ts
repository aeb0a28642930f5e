import express, { type Request as ExpressRequest, type Router } from 'express';
import { constantTimeEqual, sha256Hex, type Clock } from '@satyapan/core';
import type { AuthorizationState } from './authorization-state.js';
import { findIndividualAccount } from './fixtures.js';
import { oauthError } from './oauth-routes.js';
import { faultGate, type LockerSwitches } from './switches.js';

/** How old a request's `ts` may be, as the partner API specification says. */
const MAX_AGE_SECONDS = 30 * 60;

/**
 * The individual locker's "Verify Account" meta API, as the Authorized Partner API specification describes it
 * (`POST /account/2/verify`, multipart form): `clientid`, `ts` (Unix seconds, at most 30 minutes old), `hmac`
 * (SHA-256 hex of client secret + client id + ts) and `uid` (Aadhaar number) and/or `mobile`. Answers
 * `{registered: "true" | "false", digilockerid}`; errors in the OAuth style (`{error, error_description}`).
 */
export function accountRoutes(state: AuthorizationState, switches: LockerSwitches, clock: Clock, count: (name: string) => void): Router {
  const router = express.Router();
  router.post('/account/2/verify', faultGate(switches, true), express.raw({ type: 'multipart/form-data', limit: '16kb' }), async (req, res) => {
    count('account');
    const form = await readForm(req);
    if (!form) return void oauthError(res, 400, 'invalid_parameter', 'The request must be a multipart form');
    const field = (name: string): string | undefined => {
      const value = form.get(name);
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const clientId = field('clientid') ?? '';
    const client = state.client(clientId);
    if (!client) return void oauthError(res, 401, 'invalid_client_id', 'The client_id parameter is invalid');
    const ts = field('ts');
    const age = ts !== undefined && /^\d{1,12}$/.test(ts) ? clock.now() / 1000 - Number(ts) : Number.NaN;
    if (!(age >= -60 && age <= MAX_AGE_SECONDS)) return void oauthError(res, 400, 'invalid_parameter', 'Timestamp parameter is missing or invalid');
    if (!constantTimeEqual(field('hmac') ?? '', sha256Hex(`${client.clientSecret}${clientId}${ts}`))) {
      return void oauthError(res, 400, 'invalid_parameter', 'HMAC parameter is missing or invalid');
    }
    const uid = field('uid');
    const mobile = field('mobile');
    if (uid === undefined && mobile === undefined) return void oauthError(res, 400, 'invalid_parameter', 'Either one of uid or mobile number is mandatory');
    const user = findIndividualAccount(uid, mobile);
    res.json({ registered: user ? 'true' : 'false', digilockerid: user?.id ?? '' });
  });
  return router;
}

async function readForm(req: ExpressRequest): Promise<FormData | null> {
  if (!Buffer.isBuffer(req.body)) return null;
  try {
    return await new Request('http://locker.local/', {
      method: 'POST', headers: { 'content-type': req.get('content-type') ?? '' }, body: req.body,
    }).formData();
  } catch {
    return null;
  }
}
