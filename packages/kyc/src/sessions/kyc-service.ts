import { randomUUID } from 'node:crypto';
import {
  ServiceError, constantTimeEqual, serviceError, serviceErrorWith, silentLogger, systemClock,
  type Clock, type KeySpace, type Logger, type ObjectStorage, type Sealer,
} from '@satyapan/core';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { LockerError, isLockerError, type LockerKind, type LockerPort } from '../locker/types.js';
import { DocumentVault } from '../documents/document-vault.js';
import {
  ENTITY_PREFIX, apiDocTypeOf, docTypesOf, isDocTypeOf, lockerCodeOf,
  type ApiDocType, type Flow, type SessionOptions, type SessionRecord, type SessionStatus, type SessionTokens, type SessionVariant,
} from './model.js';
import { SessionStore, type RedisClient } from './session-store.js';
import { StateSigner } from './state-token.js';
import {
  docvaultProfile, docvaultSdkProfile, entityDetails, entityvaultProfile, sdkSessionCreated, sessionStatus,
  type SessionStatusView, type StoredFileView,
} from './representations.js';

export interface KycServiceOptions {
  redis: RedisClient;
  /** Where this service's keys live, e.g. `new KeySpace('satyapan').child('kyc')`. */
  keys: KeySpace;
  lockers: Record<LockerKind, LockerPort>;
  /** Seals the PKCE verifier and the upstream tokens at rest. */
  sealer: Sealer;
  /** HMAC secret of the OAuth `state`; every process serving callbacks needs the same one. */
  stateSecret: string | Buffer;
  storage: ObjectStorage;
  clock?: Clock;
  logger?: Logger;
  /** How long a session is kept after its consent expiry, so that it can still say `expired` (default 24 h). */
  retentionAfterExpiryMs?: number;
  /** Lifetime of document download URLs and stored copies (default 3600 s). */
  documentRetentionSeconds?: number;
}

export interface InitSessionRequest {
  flow: Flow;
  redirect_url: string;
  /** Required for docvault; the entity locker lets the user pick. */
  doc_types?: string[];
  options?: SessionOptions;
  /** Unix seconds or ms (see {@link consentExpiryMs}), one hour to 365 days ahead; default 24 h ahead. */
  consent_expiry?: number;
}

export interface SdkSessionRequest {
  flow: Flow;
  doc_types: string[];
}

export interface InitSessionResponse {
  '@entity': string;
  session_id: string;
  authorization_url: string;
}

/** Where the request came in: the route passes the callback URL of its router. */
export interface RequestContext {
  /** Absolute URL of `GET /kyc/<kind>/callback` on the router serving this request. */
  callbackUrl?: string;
}

/** Body of the locker account check (`POST /kyc/docvault/user/verify`), `@entity` removed. */
export interface UserVerificationRequest {
  aadhaar_number?: string;
  mobile?: string;
}

export interface CallbackOutcome {
  sessionId: string;
  status: SessionStatus;
  /** Where to send the user: the caller's redirect_url with session_id and status; null for SDK sessions. */
  redirectUrl: string | null;
}

/** What an unexpected upstream failure becomes: operation 2 has its own message. */
type FailedAs = 'INTERNAL' | 'USER_DETAILS_FAILED';

const HOUR_MS = 3_600_000;
const DEFAULT_CONSENT_MS = 24 * HOUR_MS;
/**
 * The longest consent we ask a locker for: a year, the consent the locker simulator gives when a client sets
 * no limit and the vendor's own 365-day horizon (token refresh window). Past it, sealed locker tokens would be
 * kept in Redis for as long as the caller liked (issue 12: the year 2343 was accepted).
 */
export const MAX_CONSENT_MS = 365 * 24 * HOUR_MS;
/** Below this, `consent_expiry` is Unix seconds: read as ms it would be before September 2001. */
const SECONDS_BELOW = 1e12;
/** Statuses in which the consent expiry still matters. */
const LIVE: readonly SessionStatus[] = ['created', 'initialized', 'authorized', 'succeeded'];

/**
 * Locker sessions (docvault and entityvault, API and SDK variants): initiation, the OAuth callback, and the
 * reads of profile, entity, status and documents. Sessions live in Redis and belong to the API key that
 * created them; another key gets exactly what an unknown id gets.
 */
/** How many sessions' opened tokens a process remembers, and for how long (KycService.openTokens). */
const OPENED_TOKENS_KEPT = 1_000;
const OPENED_TOKENS_MS = 60_000;

export class KycService {
  private readonly store: SessionStore;
  private readonly states: StateSigner;
  private readonly vault: DocumentVault;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly retentionMs: number;
  /** Opened upstream tokens by session id and sealed value (openTokens), oldest first. */
  private readonly opened = new Map<string, { tokens: SessionTokens; until: number }>();

  constructor(private readonly options: KycServiceOptions) {
    this.store = new SessionStore(options.redis, options.keys);
    this.states = new StateSigner(options.stateSecret);
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger();
    this.retentionMs = options.retentionAfterExpiryMs ?? 24 * HOUR_MS;
    this.vault = new DocumentVault({
      storage: options.storage, redis: options.redis, keys: options.keys, clock: this.clock, logger: this.logger,
      ...(options.documentRetentionSeconds ? { retentionSeconds: options.documentRetentionSeconds } : {}),
    });
  }

  // ---- creating sessions -------------------------------------------------------------------------------

  async initSession(owner: string, kind: LockerKind, request: InitSessionRequest, context: RequestContext = {}): Promise<InitSessionResponse> {
    const consentExpiry = this.consentExpiry(request.consent_expiry);
    const docTypes = kind === 'docvault' ? this.checkDocTypes(kind, request.doc_types) : null;
    const session = this.newRecord(owner, kind, 'api', request.flow, docTypes, consentExpiry);
    session.redirectUrl = request.redirect_url;
    session.options = request.options ?? {};
    session.callbackUrl = this.callbackUrlFor(kind, context);
    const { url, nonce, sealedVerifier } = await this.authorization(session);
    session.sealedVerifier = sealedVerifier;
    session.authorizationUrl = url;
    await this.store.create(session, nonce, this.ttlOf(session));
    this.logger.info('locker session created', { session_id: session.id, kind, variant: 'api' });
    return { '@entity': `${ENTITY_PREFIX}.${kind}.session.response`, session_id: session.id, authorization_url: url };
  }

  async createSdkSession(owner: string, kind: LockerKind, request: SdkSessionRequest): Promise<Record<string, unknown>> {
    const docTypes = this.checkDocTypes(kind, request.doc_types);
    const session = this.newRecord(owner, kind, 'sdk', request.flow, docTypes, this.clock.now() + DEFAULT_CONSENT_MS);
    await this.store.create(session, null, this.ttlOf(session));
    this.logger.info('locker session created', { session_id: session.id, kind, variant: 'sdk' });
    return sdkSessionCreated(session);
  }

  /** Hands out the authorization URL of an SDK session, once minted always the same one. */
  async sdkAuthorizationUrl(owner: string, kind: LockerKind, id: string, context: RequestContext = {}): Promise<Record<string, unknown>> {
    let session = await this.load(owner, kind, 'sdk', id);
    if (session.status === 'created') {
      session.callbackUrl = this.callbackUrlFor(kind, context);
      const { url, nonce, sealedVerifier } = await this.authorization(session);
      const moved = await this.store.transition(id, ['created'], {
        status: 'initialized', sealedVerifier, authorizationUrl: url, callbackUrl: session.callbackUrl, updatedAt: this.clock.now(),
      });
      if (moved) await this.store.addState(id, nonce);
      session = await this.load(owner, kind, 'sdk', id);
    }
    if (session.status !== 'initialized' || !session.authorizationUrl) throw this.statusError(session);
    return { '@entity': `${ENTITY_PREFIX}.${kind}.sdk.authorization_url`, id, authorization_url: session.authorizationUrl };
  }

  // ---- the OAuth callback ------------------------------------------------------------------------------

  /**
   * The locker sent the user back with `code` (or `error`) and our `state`. A forged, replayed or stale state
   * is refused with INVALID_SIGNATURE before anything else happens.
   */
  async handleCallback(kind: LockerKind, query: URLSearchParams): Promise<CallbackOutcome> {
    const state = query.get('state');
    const reference = this.states.verify(kind, state);
    if (!reference || !(await this.store.consumeState(reference.sessionId, reference.nonce))) {
      this.logger.warn('locker callback refused: state forged, replayed or expired', { kind });
      throw serviceError('INVALID_SIGNATURE');
    }
    let session = await this.store.get(reference.sessionId);
    if (!session || session.kind !== kind) throw serviceError('INVALID_SIGNATURE');
    session = await this.expireIfDue(session);
    const waiting: SessionStatus = session.variant === 'api' ? 'created' : 'initialized';
    if (session.status === waiting) session = await this.completeConsent(session, query, state as string, waiting);
    return {
      sessionId: session.id,
      status: session.status,
      redirectUrl: session.redirectUrl ? withOutcome(session.redirectUrl, session.id, session.status) : null,
    };
  }

  private async completeConsent(session: SessionRecord, query: URLSearchParams, state: string, waiting: SessionStatus): Promise<SessionRecord> {
    const fail = async (reason: string): Promise<SessionRecord> => {
      await this.store.transition(session.id, [waiting], { status: 'failed', updatedAt: this.clock.now() });
      this.logger.info('locker session failed', { session_id: session.id, reason });
      return this.reload(session);
    };
    if (query.has('error')) return fail(query.get('error') === 'access_denied' ? 'consent denied' : 'locker error');
    const locker = this.options.lockers[session.kind];
    let tokens: SessionTokens;
    try {
      const verifier = this.options.sealer.unsealText(session.sealedVerifier ?? '', session.id);
      const issued = await locker.exchangeCode(query, state, verifier, session.callbackUrl ?? '');
      tokens = {
        accessToken: issued.accessToken, refreshToken: issued.refreshToken,
        accessExpiresAt: issued.expiresInSeconds === null ? null : this.clock.now() + issued.expiresInSeconds * 1000,
        ...(issued.mobile ? { mobile: issued.mobile } : {}),
      };
    } catch (error) {
      return fail(`code exchange: ${describe(error)}`);
    }
    const sealedTokens = this.sealTokens(session.id, tokens);
    if (session.variant === 'sdk') {
      // SDK sessions stop at `authorized`; the documents are listed when the session is next read.
      await this.store.transition(session.id, [waiting], { status: 'authorized', sealedTokens, sealedVerifier: null, updatedAt: this.clock.now() });
      return this.reload(session);
    }
    try {
      const consented = await this.consentedDocTypes(session.kind, tokens.accessToken);
      await this.store.transition(session.id, [waiting], {
        status: 'succeeded', sealedTokens, sealedVerifier: null, documentsConsented: consented, updatedAt: this.clock.now(),
      });
      this.logger.info('locker session succeeded', { session_id: session.id });
      return this.reload(session);
    } catch (error) {
      return fail(`listing documents: ${describe(error)}`);
    }
  }

  // ---- reads -------------------------------------------------------------------------------------------

  async status(owner: string, kind: LockerKind, variant: SessionVariant, id: string): Promise<SessionStatusView> {
    return sessionStatus(await this.loadSettled(owner, kind, variant, id));
  }

  /** Operations 2, 4 and 6: the locker's person in the shape of the path group. */
  async profile(owner: string, kind: LockerKind, variant: SessionVariant, id: string): Promise<Record<string, unknown>> {
    const session = this.requireSucceeded(await this.loadSettled(owner, kind, variant, id));
    const found = await this.withAccessToken(session, (token) => this.options.lockers[kind].person(token), 'USER_DETAILS_FAILED');
    // The user answer carries no mobile: the token answer's, kept with the tokens, stands in.
    const person = found.mobile === '' ? { ...found, mobile: this.openTokens(session).mobile ?? '' } : found;
    if (kind === 'entityvault') return entityvaultProfile(person);
    return { ...(variant === 'sdk' ? docvaultSdkProfile(person) : docvaultProfile(person)) };
  }

  /** Operation 7. */
  async entity(owner: string, variant: SessionVariant, id: string): Promise<Record<string, unknown>> {
    const session = this.requireSucceeded(await this.loadSettled(owner, 'entityvault', variant, id));
    return entityDetails(await this.withAccessToken(session, (token) => this.options.lockers.entityvault.business(token), 'INTERNAL'));
  }

  /** Operation 5 and the docvault documents: copies in our storage behind 1-hour pre-signed URLs. */
  async documents(owner: string, kind: LockerKind, variant: SessionVariant, id: string, docType: string): Promise<{ files: StoredFileView[] }> {
    const session = await this.loadSettled(owner, kind, variant, id);
    // The SDK document reads are not in the spec: they answer the vendor's own message (docs/API.md).
    if (session.status !== 'succeeded') throw variant === 'sdk' ? serviceError('INVALID_SESSION_LIFECYCLE') : this.statusError(session);
    if (!isDocTypeOf(kind, docType) || !session.documentsConsented?.includes(docType)) {
      throw serviceError('CONSENT_NOT_PROVIDED', docType);
    }
    const locker = this.options.lockers[kind];
    const files = await this.withAccessToken(session, async (token) => {
      const listed = (await locker.issuedFiles(token)).filter((file) => apiDocTypeOf(kind, file.doctype) === docType);
      const stored: StoredFileView[] = [];
      for (const file of listed) stored.push(await this.vault.keep(session.id, file, await locker.download(token, file)));
      return stored;
    }, 'INTERNAL');
    return { files };
  }

  // ---- locker accounts ---------------------------------------------------------------------------------

  /**
   * Whether a docvault account exists for an Aadhaar number and/or a mobile number, asked of the locker's
   * partner API; a caller uses it to pick `signin` or `signup`. Nothing is stored; the numbers are never logged.
   */
  async verifyUser(request: UserVerificationRequest): Promise<{ '@entity': string; user_exists: boolean }> {
    const { aadhaar_number: aadhaarNumber, mobile } = request;
    if (aadhaarNumber === undefined && mobile === undefined) throw serviceError('INVALID_REQUEST_BODY', 'aadhaar_number or mobile', 'is required');
    const by = [aadhaarNumber !== undefined ? 'aadhaar' : null, mobile !== undefined ? 'mobile' : null].filter(Boolean).join('+');
    let exists: boolean;
    try {
      exists = await this.options.lockers.docvault.accountExists({
        ...(aadhaarNumber !== undefined ? { aadhaarNumber } : {}), ...(mobile !== undefined ? { mobile } : {}),
      });
    } catch (error) {
      throw this.accountCheckFailure(error);
    }
    this.logger.info('locker account checked', { kind: 'docvault', by, user_exists: exists });
    return { '@entity': `${ENTITY_PREFIX}.docvault.user.verification.response`, user_exists: exists };
  }

  // ---- housekeeping ------------------------------------------------------------------------------------

  /** Deletes stored document copies whose hour is over. */
  purgeExpiredDocuments(): Promise<number> {
    return this.vault.purgeExpired();
  }

  startHousekeeping(intervalMs?: number): void {
    this.vault.startSweeping(intervalMs);
  }

  /** Lockers with no configured callback URL: the host must then give one with each request (RequestContext). */
  lockersWithoutCallbackUrl(): LockerKind[] {
    return (Object.keys(this.options.lockers) as LockerKind[]).filter((kind) => !this.options.lockers[kind].callbackUrl);
  }

  close(): void {
    this.vault.stopSweeping();
    for (const locker of Object.values(this.options.lockers)) locker.close?.();
  }

  // ---- internals ---------------------------------------------------------------------------------------

  private newRecord(owner: string, kind: LockerKind, variant: SessionVariant, flow: Flow, docTypes: ApiDocType[] | null, consentExpiry: number): SessionRecord {
    return {
      id: randomUUID(), kind, variant, owner, status: 'created', flow, redirectUrl: null, callbackUrl: null, docTypes, options: {},
      consentExpiry, createdAt: this.clock.now(), updatedAt: null, documentsConsented: null, sealedVerifier: null,
      sealedTokens: null, authorizationUrl: null,
    };
  }

  /** The consent expiry in Unix ms: default 24 h ahead; at least 1 hour and at most 365 days ahead. */
  private consentExpiry(requested: number | undefined): number {
    const now = this.clock.now();
    if (requested === undefined) return now + DEFAULT_CONSENT_MS;
    const expiry = consentExpiryMs(requested);
    if (expiry < now + HOUR_MS) throw serviceError('INVALID_FIELD', 'consent_expiry', 'must be at least 1 hour in the future');
    if (expiry > now + MAX_CONSENT_MS) throw serviceError('INVALID_FIELD', 'consent_expiry', 'must be at most 365 days ahead');
    return expiry;
  }

  private checkDocTypes(kind: LockerKind, docTypes: string[] | undefined): ApiDocType[] {
    if (!docTypes || docTypes.length === 0) throw serviceError('INVALID_FIELD', 'doc_types', 'at least one document type is required');
    const unknown = docTypes.find((docType) => !isDocTypeOf(kind, docType));
    if (unknown !== undefined) throw serviceError('INVALID_FIELD', 'doc_types', `must be among ${docTypesOf(kind).join(', ')}`);
    return [...new Set(docTypes as ApiDocType[])];
  }

  /** A fresh PKCE pair and signed state, and the locker's authorize URL carrying them. */
  private async authorization(session: SessionRecord): Promise<{ url: string; nonce: string; sealedVerifier: string }> {
    const verifier = randomPKCECodeVerifier();
    const nonce = StateSigner.newNonce();
    const state = this.states.sign(session.kind, { sessionId: session.id, nonce });
    const { options } = session;
    const url = this.options.lockers[session.kind].authorizationUrl({
      redirectUri: session.callbackUrl ?? '',
      state,
      codeChallenge: await calculatePKCECodeChallenge(verifier),
      ...(session.docTypes ? { docTypes: session.docTypes.map(lockerCodeOf) } : {}),
      consentValidTill: Math.floor(session.consentExpiry / 1000),
      signup: session.flow === 'signup',
      ...(options.pinless !== undefined ? { pinless: options.pinless } : {}),
      ...(options.usernameless !== undefined ? { usernameless: options.usernameless } : {}),
      ...(options.verification_method ? { verificationMethods: options.verification_method } : {}),
      ...(options.verified_mobile ? { verifiedMobile: options.verified_mobile } : {}),
    });
    return { url: url.toString(), nonce, sealedVerifier: this.options.sealer.seal(verifier, session.id) };
  }

  /** The configured callback wins (it is what the locker has registered); else the router's own URL. */
  private callbackUrlFor(kind: LockerKind, context: RequestContext): string {
    const url = this.options.lockers[kind].callbackUrl ?? context.callbackUrl;
    if (!url) throw new Error(`No callback URL for the ${kind} locker: configure one or pass it with the request`);
    return url;
  }

  private ttlOf(session: SessionRecord): number {
    return Math.max(1, session.consentExpiry - this.clock.now()) + this.retentionMs;
  }

  /** The session if it exists and belongs to `owner` under this path group; 521 otherwise. */
  private async load(owner: string, kind: LockerKind, variant: SessionVariant, id: string): Promise<SessionRecord> {
    const session = await this.store.get(id);
    if (!session || session.kind !== kind || session.variant !== variant || !constantTimeEqual(session.owner, owner)) {
      throw serviceError('DATA_NOT_FOUND', id);
    }
    return this.expireIfDue(session);
  }

  /** {@link load}, and an SDK session waiting at `authorized` gets its documents listed now. */
  private async loadSettled(owner: string, kind: LockerKind, variant: SessionVariant, id: string): Promise<SessionRecord> {
    const session = await this.load(owner, kind, variant, id);
    if (session.status !== 'authorized') return session;
    const consented = await this.withAccessToken(session, (token) => this.consentedDocTypes(kind, token), 'INTERNAL');
    await this.store.transition(id, ['authorized'], { status: 'succeeded', documentsConsented: consented, updatedAt: this.clock.now() });
    this.logger.info('locker session succeeded', { session_id: id });
    return this.reload(session);
  }

  private async expireIfDue(session: SessionRecord): Promise<SessionRecord> {
    if (!LIVE.includes(session.status) || this.clock.now() < session.consentExpiry) return session;
    await this.store.transition(session.id, LIVE, { status: 'expired', updatedAt: this.clock.now() });
    this.logger.info('locker session expired', { session_id: session.id, reason: 'consent expiry passed' });
    return this.reload(session);
  }

  private async reload(session: SessionRecord): Promise<SessionRecord> {
    const fresh = await this.store.get(session.id);
    if (!fresh) throw serviceError('DATA_NOT_FOUND', session.id);
    return fresh;
  }

  private requireSucceeded(session: SessionRecord): SessionRecord {
    if (session.status !== 'succeeded') throw this.statusError(session);
    return session;
  }

  private statusError(session: SessionRecord): ServiceError {
    return session.status === 'expired' ? serviceError('SESSION_EXPIRED') : serviceError('INVALID_SESSION_STATUS', session.status);
  }

  private async consentedDocTypes(kind: LockerKind, accessToken: string): Promise<ApiDocType[]> {
    const listed = new Set((await this.options.lockers[kind].issuedFiles(accessToken)).map((file) => apiDocTypeOf(kind, file.doctype)));
    return docTypesOf(kind).filter((docType) => listed.has(docType));
  }

  /**
   * Runs `use` with a working access token: refreshed first when it is known to be past its lifetime, and
   * refreshed once more when the locker calls it invalid. When the grant itself is gone, the session becomes
   * `expired` and the caller gets 523 `Session expired`.
   */
  private async withAccessToken<T>(session: SessionRecord, use: (accessToken: string) => Promise<T>, failedAs: FailedAs): Promise<T> {
    let tokens = this.openTokens(session);
    let refreshed = false;
    try {
      if (tokens.accessExpiresAt !== null && tokens.accessExpiresAt <= this.clock.now()) {
        tokens = await this.refresh(session, tokens);
        refreshed = true;
      }
      try {
        return await use(tokens.accessToken);
      } catch (error) {
        if (refreshed || !isLockerError(error) || error.failure !== 'token_invalid') throw error;
        tokens = await this.refresh(session, tokens);
        return await use(tokens.accessToken);
      }
    } catch (error) {
      throw await this.upstreamFailure(session, error, failedAs);
    }
  }

  private async refresh(session: SessionRecord, tokens: SessionTokens): Promise<SessionTokens> {
    if (!tokens.refreshToken) throw new LockerError('token_invalid', 'The access token is dead and there is no refresh token');
    const issued = await this.options.lockers[session.kind].refresh(tokens.refreshToken);
    const next: SessionTokens = {
      accessToken: issued.accessToken,
      refreshToken: issued.refreshToken ?? tokens.refreshToken,
      accessExpiresAt: issued.expiresInSeconds === null ? null : this.clock.now() + issued.expiresInSeconds * 1000,
      ...(issued.mobile ?? tokens.mobile ? { mobile: (issued.mobile ?? tokens.mobile)! } : {}),
    };
    await this.store.update(session.id, { sealedTokens: this.sealTokens(session.id, next) });
    return next;
  }

  /** A failed account check: the locker's rate limit and outages as for sessions; anything else is ours to fix. */
  private accountCheckFailure(error: unknown): unknown {
    if (!isLockerError(error)) return error;
    this.logger.warn('locker account check failed', { kind: 'docvault', failure: error.failure, status: error.status });
    if (error.failure === 'rate_limited') return serviceErrorWith({ cause: error, headers: retryAfter(error) }, 'TOO_MANY_REQUESTS');
    if (error.failure === 'unavailable') return serviceErrorWith({ cause: error, headers: retryAfter(error) }, 'SOURCE_UNAVAILABLE');
    return serviceErrorWith({ cause: error }, 'INTERNAL');
  }

  /** Maps a failed locker call to the API's answer; a dead grant also moves the session to `expired`. */
  private async upstreamFailure(session: SessionRecord, error: unknown, failedAs: FailedAs): Promise<unknown> {
    if (!isLockerError(error)) return error;
    this.logger.warn('locker call failed', { session_id: session.id, failure: error.failure, status: error.status, detail: error.message });
    switch (error.failure) {
      case 'token_invalid':
        await this.expireForLostGrant(session);
        return serviceError('SESSION_EXPIRED');
      case 'rate_limited':
        return serviceErrorWith({ cause: error, headers: retryAfter(error) }, 'TOO_MANY_REQUESTS');
      case 'unavailable':
        return serviceErrorWith({ cause: error, headers: retryAfter(error) }, 'SOURCE_UNAVAILABLE');
      default:
        return serviceErrorWith({ cause: error }, failedAs);
    }
  }

  private async expireForLostGrant(session: SessionRecord): Promise<void> {
    try {
      await this.store.transition(session.id, ['authorized', 'succeeded'], { status: 'expired', updatedAt: this.clock.now() });
      this.logger.info('locker session expired', { session_id: session.id, reason: 'upstream grant no longer valid' });
    } catch (error) {
      throw serviceErrorWith({ cause: error }, 'EXPIRE_SESSION_FAILED');
    }
  }

  /**
   * The session's upstream tokens, unsealed. Every read of a succeeded session opens them, so the opened tokens
   * are remembered in this process for a minute, under the session id and the sealed value itself: a refresh
   * seals new tokens (a new value, so a miss), and a sealed value copied to another session is never taken from
   * here (it fails authentication, as before). Only Redis holds the tokens at rest, sealed as before.
   */
  private openTokens(session: SessionRecord): SessionTokens {
    if (!session.sealedTokens) throw serviceError('SESSION_EXPIRED');
    const cacheKey = `${session.id}\n${session.sealedTokens}`;
    const now = this.clock.now();
    const known = this.opened.get(cacheKey);
    if (known && known.until > now) return known.tokens;
    const tokens = Object.freeze(JSON.parse(this.options.sealer.unsealText(session.sealedTokens, session.id)) as SessionTokens);
    if (known) this.opened.delete(cacheKey);
    else if (this.opened.size >= OPENED_TOKENS_KEPT) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(cacheKey, { tokens, until: now + OPENED_TOKENS_MS });
    return tokens;
  }

  private sealTokens(sessionId: string, tokens: SessionTokens): string {
    return this.options.sealer.seal(JSON.stringify(tokens), sessionId);
  }
}

/** The locker's Retry-After, passed on so that callers wait as long as the locker asks. */
function retryAfter(error: LockerError): Record<string, string> {
  return error.retryAfter && /^\d{1,6}$/.test(error.retryAfter) ? { 'Retry-After': error.retryAfter } : {};
}

function withOutcome(redirectUrl: string, sessionId: string, status: SessionStatus): string {
  const url = new URL(redirectUrl);
  url.searchParams.set('session_id', sessionId);
  url.searchParams.set('status', status);
  return url.toString();
}

function describe(error: unknown): string {
  return isLockerError(error) ? `${error.failure} (${error.message})` : error instanceof Error ? error.name : 'unknown';
}

/**
 * `consent_expiry` as Unix ms. The vendor documents milliseconds, but its Postman collection's comment says
 * "epoch (10 digit)" and clients send seconds; both are accepted: a value below 10^12 is seconds.
 */
export function consentExpiryMs(value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw serviceError('INVALID_FIELD', 'consent_expiry', 'must be a Unix time in seconds or milliseconds');
  }
  return value < SECONDS_BELOW ? value * 1000 : value;
}
