import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { constantTimeEqual } from '@satyapan/core';
import { ENTITIES, INDIVIDUALS, findEntityByUser, findIndividual, type LockerDocType, type LockerUser } from './fixtures.js';
import type { AuthorizationState, IssuedTokens, LockerKind, PendingConsent, SimulatorClient } from './authorization-state.js';
import { renderConsentPage, renderErrorPage, type ConsentChoice } from './consent-page.js';
import { faultGate, type LockerSwitches } from './switches.js';

/** The OAuth 2.0 side of a locker: consent page, token endpoint, revocation. */

export interface LockerProfile {
  kind: LockerKind;
  /** Shown as the page title. */
  displayName: string;
  /** Document types this locker holds, in display order. */
  documentTypes: readonly LockerDocType[];
  scope: string;
}

const DOC_LABELS: Record<LockerDocType, string> = {
  ADHAR: 'Aadhaar Card (ADHAR)',
  PANCR: 'PAN Verification Record (PANCR)',
  DRVLC: 'Driving License (DRVLC)',
  CPMTD: 'Company Master Details (CPMTD)',
  GSTND: 'GSTN Details (GSTND)',
  UDCER: 'Udyam Certificate (UDCER)',
};

export function oauthRoutes(profile: LockerProfile, state: AuthorizationState, switches: LockerSwitches, count: (name: string) => void): Router {
  const router = express.Router();
  const machine = faultGate(switches, false);
  router.use('/oauth2/1/authorize', notFramed);
  router.get('/oauth2/1/authorize', (req, res) => {
    count('authorize');
    if (switches.down) return void res.status(503).type('html').send(renderErrorPage(profile.displayName, 'The locker is down for maintenance.'));
    showConsentPage(profile, state, req, res);
  });
  router.post('/oauth2/1/authorize', express.urlencoded({ extended: false }), (req, res) => {
    count('consent');
    if (switches.down) return void res.status(503).type('html').send(renderErrorPage(profile.displayName, 'The locker is down for maintenance.'));
    answerConsent(profile, state, req, res);
  });
  router.post('/oauth2/1/token', machine, express.urlencoded({ extended: false }), (req, res) => {
    count('token');
    tokenEndpoint(profile, state, req, res);
  });
  router.post('/oauth2/1/revoke', machine, express.urlencoded({ extended: false }), (req, res) => {
    count('revoke');
    const client = authenticate(state, req);
    if (!client) return void oauthError(res, 401, 'invalid_client', 'Client authentication failed');
    const token = stringParam(req.body, 'token');
    if (!token) return void oauthError(res, 400, 'invalid_request', 'The token parameter is required');
    state.revokeToken(client.clientId, token);
    res.status(200).json({});
  });
  return router;
}

/** The consent page (and its error pages) may not be framed: a framed Allow button can be clickjacked. */
function notFramed(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  next();
}

/** One cookie per consent request, so two open consent pages do not overwrite each other's token. */
function csrfCookieName(requestId: string): string {
  return `consent_${requestId}`;
}

function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The decision carries the page's token, in the form and in the cookie (which a cross-site post does not send). */
function postedFromOurPage(req: Request, body: Record<string, unknown>, pending: PendingConsent): boolean {
  const formToken = stringParam(body, 'csrf_token') ?? '';
  const cookieToken = cookieValue(req, csrfCookieName(pending.id)) ?? '';
  const formOk = constantTimeEqual(formToken, pending.csrfToken);
  const cookieOk = constantTimeEqual(cookieToken, pending.csrfToken);
  return formOk && cookieOk;
}

function showConsentPage(profile: LockerProfile, state: AuthorizationState, req: Request, res: Response): void {
  const query = req.query as Record<string, unknown>;
  const page = (status: number, message: string): void => void res.status(status).type('html').send(renderErrorPage(profile.displayName, message));
  const client = state.client(stringParam(query, 'client_id') ?? '');
  if (!client) return page(400, 'Unknown client_id.');
  const redirectUri = stringParam(query, 'redirect_uri');
  // Never redirect to an unregistered URI: that would make the locker an open redirector.
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) return page(400, 'The redirect_uri is not registered for this client.');
  if (stringParam(query, 'response_type') !== 'code') return page(400, 'Only response_type=code is supported.');
  const stateParam = stringParam(query, 'state');
  if (!stateParam) return page(400, 'The state parameter is required.');
  const challenge = stringParam(query, 'code_challenge');
  if (!challenge || stringParam(query, 'code_challenge_method') !== 'S256') {
    return page(400, 'The code_challenge and code_challenge_method parameter is required (S256).');
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return page(400, 'The code_challenge is not a base64url SHA-256 value.');
  const requested = parseRequestedTypes(profile, stringParam(query, 'req_doctype'));
  if (requested === 'invalid') return page(400, 'req_doctype names a document type this locker does not hold.');
  const validTill = parseValidTill(stringParam(query, 'consent_valid_till'), state.now());
  if (validTill === 'invalid') return page(400, 'consent_valid_till must be a future Unix time in seconds.');
  const pending = state.addPending({
    kind: profile.kind, clientId: client.clientId, redirectUri, state: stateParam, codeChallenge: challenge, requested,
    consentValidTill: validTill, signup: stringParam(query, 'dl_flow') === 'signup',
    verifiedMobile: stringParam(query, 'verified_mobile') ?? null,
  });
  res.cookie(csrfCookieName(pending.id), pending.csrfToken, { httpOnly: true, sameSite: 'strict', path: req.baseUrl + req.path, maxAge: 15 * 60_000 });
  res.status(200).type('html').set('Cache-Control', 'no-store').send(renderConsentPage({
    lockerName: profile.displayName, clientName: client.name, requestId: pending.id, csrfToken: pending.csrfToken, action: req.baseUrl + req.path,
    people: peopleOf(profile.kind), documents: (requested ?? profile.documentTypes).map((type) => ({ type, label: DOC_LABELS[type] })),
    consentValidTill: validTill, signup: pending.signup, verifiedMobile: pending.verifiedMobile,
  }));
}

function answerConsent(profile: LockerProfile, state: AuthorizationState, req: Request, res: Response): void {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const pending = state.takePending(stringParam(body, 'request_id') ?? '', (candidate) => postedFromOurPage(req, body, candidate));
  if (pending === 'refused') {
    return void res.status(403).type('html').send(renderErrorPage(profile.displayName, 'This decision was not sent from the consent page: open the page again.'));
  }
  if (!pending || pending.kind !== profile.kind) {
    return void res.status(400).type('html').send(renderErrorPage(profile.displayName, 'This consent request is unknown or has already been answered.'));
  }
  const target = new URL(pending.redirectUri);
  target.searchParams.set('state', pending.state);
  const userId = stringParam(body, 'user') ?? '';
  const known = profile.kind === 'docvault' ? findIndividual(userId) : findEntityByUser(userId);
  if (stringParam(body, 'decision') !== 'allow' || !known) {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'The user denied the request');
    return void res.redirect(302, target.toString());
  }
  const offered = pending.requested ?? profile.documentTypes;
  const chosen = arrayParam(body, 'documents').filter((type): type is LockerDocType => offered.includes(type as LockerDocType));
  target.searchParams.set('code', state.issueCode(pending, userId, chosen));
  res.redirect(302, target.toString());
}

function tokenEndpoint(profile: LockerProfile, state: AuthorizationState, req: Request, res: Response): void {
  const client = authenticate(state, req);
  if (!client) return void oauthError(res, 401, 'invalid_client', 'Client authentication failed');
  const body = (req.body ?? {}) as Record<string, unknown>;
  const grantType = stringParam(body, 'grant_type');
  let result: IssuedTokens | string;
  if (grantType === 'authorization_code') {
    result = state.redeemCode(profile.kind, client.clientId, stringParam(body, 'code') ?? '',
      stringParam(body, 'redirect_uri') ?? '', stringParam(body, 'code_verifier') ?? '');
  } else if (grantType === 'refresh_token') {
    result = state.refresh(profile.kind, client.clientId, stringParam(body, 'refresh_token') ?? '');
  } else {
    return void oauthError(res, 400, 'unsupported_grant_type', 'Supported: authorization_code, refresh_token');
  }
  if (typeof result === 'string') return void oauthError(res, 400, result, 'The grant is invalid, expired, revoked or does not match');
  res.status(200).set('Cache-Control', 'no-store').json(tokenResponse(profile, result));
}

/** The token response carries the user's details next to the tokens, as the national lockers do. */
function tokenResponse(profile: LockerProfile, tokens: IssuedTokens): Record<string, unknown> {
  const { grant } = tokens;
  const user = profile.kind === 'docvault' ? findIndividual(grant.userId) : findEntityByUser(grant.userId)?.user;
  const base: Record<string, unknown> = {
    access_token: tokens.accessToken, expires_in: tokens.expiresIn, token_type: 'Bearer', scope: profile.scope,
    refresh_token: tokens.refreshToken, consent_valid_till: Math.floor(grant.consentValidTill / 1000),
    ...(user ? userFields(user) : {}), new_account: 'N',
  };
  if (profile.kind === 'entityvault') base['entitylockerid'] = findEntityByUser(grant.userId)?.id;
  return base;
}

/**
 * The partner API's "Get User Details" answer (`GET /oauth2/1/user`), with the fields its specification lists
 * (API Setu's authpartner OpenAPI: digilockerid, name, dob as DDMMYYYY, gender, eaadhaar) and no mobile or
 * email: those come with the token answer only.
 */
export function accountDetails(user: LockerUser): Record<string, string> {
  return { digilockerid: user.id, name: user.name, dob: user.dob, gender: user.gender, eaadhaar: user.eaadhaar ? 'Y' : 'N' };
}

/** The user block of the token response: the account details and what comes with the token answer only. */
function userFields(user: LockerUser): Record<string, string> {
  return {
    ...accountDetails(user), mobile: user.mobile, reference_key: `ref-${user.id.slice(0, 8)}`, ...(user.email ? { email: user.email } : {}),
  };
}

function peopleOf(kind: LockerKind): ConsentChoice[] {
  if (kind === 'docvault') return INDIVIDUALS.map((user) => ({ value: user.id, label: user.name }));
  return ENTITIES.map((entity) => ({ value: entity.user.id, label: `${entity.user.name} for ${entity.name}` }));
}

function parseRequestedTypes(profile: LockerProfile, raw: string | undefined): LockerDocType[] | null | 'invalid' {
  if (!raw) return null;
  const types = raw.split(',').map((t) => t.trim()).filter(Boolean);
  if (types.some((t) => !profile.documentTypes.includes(t as LockerDocType))) return 'invalid';
  return [...new Set(types as LockerDocType[])];
}

function parseValidTill(raw: string | undefined, now: number): number | null | 'invalid' {
  if (raw === undefined) return null;
  const seconds = Number(raw);
  return Number.isSafeInteger(seconds) && seconds * 1000 > now ? seconds : 'invalid';
}

/** client_secret_post, or HTTP Basic (RFC 6749 section 2.3.1: form-encoded id and secret). */
function authenticate(state: AuthorizationState, req: Request): SimulatorClient | null {
  const header = req.get('authorization');
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const id = formDecoded(decoded.slice(0, colon));
    const secret = formDecoded(decoded.slice(colon + 1));
    return id === null || secret === null ? null : state.authenticateClient(id, secret);
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  return state.authenticateClient(stringParam(body, 'client_id'), stringParam(body, 'client_secret'));
}

/** RFC 6749 2.3.1 form-encodes id and secret; a malformed escape is a failed authentication, not a crash. */
function formDecoded(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

export function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}

export function stringParam(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function arrayParam(source: Record<string, unknown>, name: string): string[] {
  const value = source[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}
