import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '@satyapan/core';
import type { LockerDocType } from './fixtures.js';

/**
 * What the simulated authorization server remembers: registered clients, pending consent requests,
 * authorization codes, grants and the tokens issued for them. In memory: the simulator is one process.
 */

export type LockerKind = 'docvault' | 'entityvault';

export interface SimulatorClient {
  clientId: string;
  clientSecret: string;
  /** Shown on the consent page as the party asking for access. */
  name: string;
  /** Exact redirect URIs this client may use. */
  redirectUris: string[];
}

export interface PendingConsent {
  id: string;
  kind: LockerKind;
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** Requested document types; null means "let the user pick from everything in the locker". */
  requested: LockerDocType[] | null;
  /** Unix seconds, or null for no limit beyond the default. */
  consentValidTill: number | null;
  signup: boolean;
  verifiedMobile: string | null;
  /** Token of the consent form, also set as a cookie: a decision must come from the page we served. */
  csrfToken: string;
  expiresAt: number;
}

export interface Grant {
  id: string;
  kind: LockerKind;
  clientId: string;
  userId: string;
  documents: LockerDocType[];
  /** Unix ms after which every token of the grant stops working. */
  consentValidTill: number;
  revoked: boolean;
}

interface CodeRecord {
  grant: Grant;
  redirectUri: string;
  codeChallenge: string;
  expiresAt: number;
  used: boolean;
}

interface TokenRecord {
  grant: Grant;
  expiresAt: number | null;
  revoked: boolean;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  grant: Grant;
}

export type TokenFailure = 'invalid_grant' | 'invalid_token';

const PENDING_TTL_MS = 15 * 60_000;
const CODE_TTL_MS = 10 * 60_000;
/** When the client sends no consent_valid_till, consent lasts a year, like a long-lived locker consent. */
const DEFAULT_CONSENT_MS = 365 * 24 * 3600_000;

export class AuthorizationState {
  private readonly clients = new Map<string, SimulatorClient>();
  private readonly pending = new Map<string, PendingConsent>();
  private readonly codes = new Map<string, CodeRecord>();
  private readonly accessTokens = new Map<string, TokenRecord>();
  private readonly refreshTokens = new Map<string, TokenRecord>();
  private readonly grants: Grant[] = [];

  constructor(private readonly clock: Clock, private readonly accessTokenTtlSeconds: number) {}

  now(): number {
    return this.clock.now();
  }

  registerClient(client: SimulatorClient): void {
    const existing = this.clients.get(client.clientId);
    if (existing && existing.clientSecret !== client.clientSecret) {
      throw new Error(`Client ${client.clientId} is already registered with another secret`);
    }
    const redirectUris = [...new Set([...(existing?.redirectUris ?? []), ...client.redirectUris])];
    this.clients.set(client.clientId, { ...client, redirectUris });
  }

  client(clientId: string): SimulatorClient | undefined {
    return this.clients.get(clientId);
  }

  authenticateClient(clientId: string | undefined, secret: string | undefined): SimulatorClient | null {
    if (!clientId || secret === undefined) return null;
    const client = this.clients.get(clientId);
    return client && client.clientSecret === secret ? client : null;
  }

  addPending(request: Omit<PendingConsent, 'id' | 'expiresAt' | 'csrfToken'>): PendingConsent {
    const pending: PendingConsent = {
      ...request, id: randomToken('req'), csrfToken: randomToken('csrf'), expiresAt: this.clock.now() + PENDING_TTL_MS,
    };
    this.pending.set(pending.id, pending);
    return pending;
  }

  /**
   * A consent request is answered once; an unknown or stale id gives null. `accept` decides whether this
   * answer counts (the CSRF check): a refused one leaves the request pending for the real page.
   */
  takePending(id: string, accept: (pending: PendingConsent) => boolean): PendingConsent | null | 'refused' {
    const pending = this.pending.get(id);
    if (!pending || pending.expiresAt <= this.clock.now()) {
      this.pending.delete(id);
      return null;
    }
    if (!accept(pending)) return 'refused';
    this.pending.delete(id);
    return pending;
  }

  issueCode(pending: PendingConsent, userId: string, documents: LockerDocType[]): string {
    const consentValidTill = pending.consentValidTill === null
      ? this.clock.now() + DEFAULT_CONSENT_MS
      : pending.consentValidTill * 1000;
    const grant: Grant = {
      id: randomToken('grant'), kind: pending.kind, clientId: pending.clientId, userId, documents, consentValidTill,
      revoked: false,
    };
    this.grants.push(grant);
    const code = randomToken('code');
    this.codes.set(code, {
      grant, redirectUri: pending.redirectUri, codeChallenge: pending.codeChallenge,
      expiresAt: this.clock.now() + CODE_TTL_MS, used: false,
    });
    return code;
  }

  /** Authorization code grant with the PKCE (S256) and redirect_uri checks. */
  redeemCode(kind: LockerKind, clientId: string, code: string, redirectUri: string, verifier: string): IssuedTokens | TokenFailure {
    const record = this.codes.get(code);
    if (!record || record.used || record.expiresAt <= this.clock.now()) return 'invalid_grant';
    record.used = true; // a code is burnt even by a failed attempt, as RFC 6749 section 4.1.2 recommends
    const { grant } = record;
    if (grant.kind !== kind || grant.clientId !== clientId || record.redirectUri !== redirectUri) return 'invalid_grant';
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || s256(verifier) !== record.codeChallenge) return 'invalid_grant';
    return this.issueTokens(grant);
  }

  refresh(kind: LockerKind, clientId: string, refreshToken: string): IssuedTokens | TokenFailure {
    const record = this.refreshTokens.get(refreshToken);
    if (!record || !this.usable(record) || record.grant.kind !== kind || record.grant.clientId !== clientId) return 'invalid_grant';
    const accessToken = randomToken('at');
    this.accessTokens.set(accessToken, { grant: record.grant, expiresAt: this.accessExpiry(), revoked: false });
    return { accessToken, refreshToken, expiresIn: this.accessTokenTtlSeconds, grant: record.grant };
  }

  /** The grant behind a bearer token, or null when the token is unknown, expired or revoked. */
  grantOf(kind: LockerKind, accessToken: string): Grant | null {
    const record = this.accessTokens.get(accessToken);
    if (!record || !this.usable(record) || record.grant.kind !== kind) return null;
    return record.grant;
  }

  /** RFC 7009: revoking an unknown token is not an error. Revoking a refresh token ends its whole grant. */
  revokeToken(clientId: string, token: string): void {
    const access = this.accessTokens.get(token);
    if (access && access.grant.clientId === clientId) access.revoked = true;
    const refresh = this.refreshTokens.get(token);
    if (refresh && refresh.grant.clientId === clientId) refresh.grant.revoked = true;
  }

  /** The user withdraws every consent they gave (the "revoke a user's token" switch). */
  revokeUser(userId: string): number {
    let count = 0;
    for (const grant of this.grants) {
      if (grant.userId === userId && !grant.revoked) {
        grant.revoked = true;
        count += 1;
      }
    }
    return count;
  }

  /** Makes every access token issued so far expire now; refresh tokens keep working. */
  expireAccessTokens(): void {
    const now = this.clock.now();
    for (const record of this.accessTokens.values()) record.expiresAt = now;
  }

  private issueTokens(grant: Grant): IssuedTokens {
    const accessToken = randomToken('at');
    const refreshToken = randomToken('rt');
    this.accessTokens.set(accessToken, { grant, expiresAt: this.accessExpiry(), revoked: false });
    this.refreshTokens.set(refreshToken, { grant, expiresAt: null, revoked: false });
    return { accessToken, refreshToken, expiresIn: this.accessTokenTtlSeconds, grant };
  }

  private accessExpiry(): number {
    return this.clock.now() + this.accessTokenTtlSeconds * 1000;
  }

  private usable(record: TokenRecord): boolean {
    const now = this.clock.now();
    return !record.revoked && !record.grant.revoked && record.grant.consentValidTill > now
      && (record.expiresAt === null || record.expiresAt > now);
  }
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function randomToken(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}
