import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { KeySpace, OptionError, serviceError, systemClock, type Clock, type RedisConnection } from '@satyapan/core';
import type { ClientRecord } from './clients.js';

export interface TokenOptions {
  /** HMAC secret for HS256, at least 32 bytes. */
  secret: string | Uint8Array;
  issuer?: string;
  audience?: string;
  /** Access token lifetime; docs/API.md: 24 h. */
  ttlSeconds?: number;
  /** How long a token family may be refreshed after the first authenticate; docs/API.md: 365 days. */
  refreshWindowSeconds?: number;
}

/** The claims we put in an access token. `sub` is the client id, `fat` the time of the first authenticate. */
export interface AccessClaims {
  sub: string;
  jti: string;
  fat: number;
  exp: number;
  iat: number;
}

const ALGORITHM = 'HS256';
/** Verified tokens remembered; a client reuses its token for up to 24 h, so hits are the rule. */
const VERIFIED_CACHE_SIZE = 10_000;
const DAY = 86_400;

/**
 * Issues and checks the bare JWTs of docs/API.md. A refreshed token revokes its predecessor: the old `jti` is
 * remembered in Redis until the old token would have expired anyway.
 */
export class TokenService {
  private readonly secret: Uint8Array;
  private readonly issuer: string;
  private readonly audience: string;
  private readonly ttl: number;
  private readonly refreshWindow: number;
  /**
   * Token string -> its verified claims. Verifying an HS256 JWT goes through WebCrypto on every call; a token
   * that verified once stays valid until `exp` (revocation is checked separately, in Redis, on every call).
   */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(
    options: TokenOptions,
    private readonly redis: RedisConnection,
    private readonly keys: KeySpace,
    private readonly clock: Clock = systemClock,
  ) {
    if (options.secret === undefined || options.secret === null) {
      throw new OptionError('tokens.secret', 'tokens.secret is missing: give the HMAC secret of the access tokens (at least 32 bytes)');
    }
    this.secret = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
    if (this.secret.length < 32) throw new OptionError('tokens.secret', `tokens.secret must be at least 32 bytes, got ${this.secret.length}`);
    this.issuer = options.issuer ?? 'satyapan';
    this.audience = options.audience ?? 'satyapan-api';
    this.ttl = options.ttlSeconds ?? DAY;
    this.refreshWindow = options.refreshWindowSeconds ?? 365 * DAY;
  }

  /** A token for `client`; `firstAuthAt` (seconds) carries the refresh window across refreshes. */
  async issue(client: ClientRecord, firstAuthAt?: number): Promise<string> {
    const now = this.nowSeconds();
    return new SignJWT({ fat: firstAuthAt ?? now })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(client.id)
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttl)
      .sign(this.secret);
  }

  /** Verifies signature, algorithm, issuer, audience and expiry; 403 on any failure (docs/API.md). */
  async verify(token: string): Promise<AccessClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > this.nowSeconds()) return known;
      this.verified.delete(token);
    }
    const claims = await this.verifySignature(token);
    this.remember(token, claims);
    return claims;
  }

  private remember(token: string, claims: AccessClaims): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next().value;
      if (oldest !== undefined) this.verified.delete(oldest);
    }
    this.verified.set(token, claims);
  }

  private async verifySignature(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: this.audience,
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
        currentDate: new Date(this.clock.now()),
      });
      if (typeof payload['fat'] !== 'number') throw serviceError('INVALID_ACCESS_TOKEN');
      return payload as unknown as AccessClaims;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw serviceError('TOKEN_EXPIRED');
      throw serviceError('INVALID_ACCESS_TOKEN');
    }
  }

  async isRevoked(claims: AccessClaims): Promise<boolean> {
    return (await this.redis.exists(this.revokedKey(claims))) === 1;
  }

  /**
   * Exchanges a valid token for a new one and revokes the old. Refused after the refresh window. SET NX makes
   * a token refreshable once: two concurrent refreshes of the same token cannot both succeed.
   */
  async refresh(client: ClientRecord, claims: AccessClaims): Promise<string> {
    const now = this.nowSeconds();
    if (now - claims.fat > this.refreshWindow) throw serviceError('TOKEN_EXPIRED');
    const remaining = Math.max(1, claims.exp - now);
    const first = await this.redis.set(this.revokedKey(claims), '1', 'EX', remaining, 'NX');
    if (first !== 'OK') throw serviceError('ACCESS_REVOKED');
    return this.issue(client, claims.fat);
  }

  /**
   * Where a revoked token is remembered: in its client's hash tag, the slot of the client's rate-limit counter,
   * so that one script checks both (CallAdmission).
   */
  revokedKey(claims: AccessClaims): string {
    return this.keys.tagged(`client:${claims.sub}`, 'revoked', claims.jti);
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }
}
