import { serviceError } from '@satyapan/core';
import type { ClientRecord, ClientStore } from './clients.js';
import { secretMatches } from './clients.js';
import type { AccessClaims, TokenService } from './tokens.js';
import type { Product } from './products.js';

export interface Caller {
  client: ClientRecord;
  claims: AccessClaims;
}

type HeaderValue = string | string[] | undefined;

function single(value: HeaderValue): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The bare token docs/API.md asks for; a `Bearer ` prefix is tolerated because many HTTP clients add it. */
export function tokenFrom(authorization: HeaderValue): string | undefined {
  const value = single(authorization)?.trim();
  if (!value) return undefined;
  return value.replace(/^bearer\s+/i, '') || undefined;
}

/**
 * Who is calling, decided as the vendor's errors page sorts it (docs/API.md): the API key first (missing or unknown:
 * 401), then the access token (missing, invalid, expired, of another key, revoked: 403), then the product (403).
 */
export class Authenticator {
  constructor(private readonly clients: ClientStore, private readonly tokens: TokenService) {}

  /** `POST /authenticate`: key and secret for a token. */
  async exchangeCredentials(apiKey: HeaderValue, apiSecret: HeaderValue): Promise<string> {
    const key = single(apiKey);
    const secret = single(apiSecret);
    if (!key || !secret) throw serviceError('UNAUTHORIZED');
    const client = await this.clients.findByApiKey(key);
    if (!client || !secretMatches(client, secret)) throw serviceError('UNAUTHORIZED');
    return this.tokens.issue(client);
  }

  /** Checks token and key of an ordinary call, revocation included. */
  async authenticate(authorization: HeaderValue, apiKey: HeaderValue): Promise<Caller> {
    const caller = await this.identify(authorization, apiKey);
    await this.assertNotRevoked(caller);
    return caller;
  }

  /** Token and key only: the part that needs no Redis round trip (for static client stores). */
  async identify(authorization: HeaderValue, apiKey: HeaderValue): Promise<Caller> {
    const key = single(apiKey);
    const client = key ? await this.clients.findByApiKey(key) : null;
    if (!client) throw serviceError('UNAUTHORIZED');
    const token = tokenFrom(authorization);
    if (!token) throw serviceError('INVALID_ACCESS_TOKEN');
    const claims = await this.tokens.verify(token);
    if (client.id !== claims.sub) throw serviceError('INVALID_ACCESS_TOKEN');
    return { client, claims };
  }

  /** 403 Access revoked for a token that was exchanged by a refresh. */
  async assertNotRevoked(caller: Caller): Promise<void> {
    if (await this.tokens.isRevoked(caller.claims)) throw serviceError('ACCESS_REVOKED');
  }

  /** `POST /authorize?request_token=`: the token in the query must be the one in the header. */
  async refresh(authorization: HeaderValue, apiKey: HeaderValue, requestToken: unknown): Promise<string> {
    const caller = await this.authenticate(authorization, apiKey);
    if (typeof requestToken !== 'string' || requestToken !== tokenFrom(authorization)) throw serviceError('INVALID_ACCESS_TOKEN');
    return this.tokens.refresh(caller.client, caller.claims);
  }

  static requireProduct(client: ClientRecord, product: Product): void {
    if (!client.products.includes(product)) throw serviceError('INSUFFICIENT_PRIVILEGE');
  }
}
