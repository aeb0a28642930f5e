// A typed client for the Satyapan API: openapi-fetch over the types that openapi-typescript generates from the
// API's OpenAPI document (`openapi.json` beside this package's README, `npm run generate` to refresh), plus what
// every caller would otherwise write: authenticate, attach the two headers, refresh tokens before they expire.
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { SatyapanApiError, TokenKeeper } from './tokens.js';

export type { paths, components, operations } from './schema.js';
export { SatyapanApiError };

export interface SatyapanClientOptions {
  /** Where the router is mounted, e.g. `https://api.example.com/kyc-api`. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** Defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Refresh a token this long before it expires; default 5 minutes. */
  refreshBeforeMs?: number;
  /** Clock for token expiry, in Unix ms; default `Date.now`. */
  now?: () => number;
}

export type SatyapanClient = Client<paths> & {
  /** The access token the next call will send (authenticating or refreshing first if needed). */
  accessToken(): Promise<string>;
};

/** Operations that take credentials of their own rather than the access token. */
const SELF_AUTHENTICATED = new Set(['/authenticate', '/authorize']);

export function createSatyapanClient(options: SatyapanClientOptions): SatyapanClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetch = options.fetch ?? globalThis.fetch;
  const tokens = new TokenKeeper({
    baseUrl, apiKey: options.apiKey, apiSecret: options.apiSecret, fetch,
    refreshBeforeMs: options.refreshBeforeMs ?? 5 * 60_000, now: options.now ?? Date.now,
  });
  const client = createFetchClient<paths>({ baseUrl, fetch });
  client.use(authentication(tokens, options.apiKey, fetch));
  return Object.assign(client, { accessToken: () => tokens.current() });
}

/**
 * Sends the token and key with every call. A call refused with 401/403 for its token (not for a missing
 * product) is sent once more with a fresh token: the token may have been revoked by a refresh elsewhere.
 */
function authentication(tokens: TokenKeeper, apiKey: string, fetch: typeof globalThis.fetch): Middleware {
  const retries = new Map<string, Request>();
  return {
    async onRequest({ request, schemaPath, id }) {
      if (SELF_AUTHENTICATED.has(schemaPath)) return undefined;
      request.headers.set('authorization', await tokens.current());
      request.headers.set('x-api-key', apiKey);
      retries.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id }) {
      const retry = retries.get(id);
      retries.delete(id);
      if (!retry || (response.status !== 401 && response.status !== 403)) return undefined;
      const message = ((await response.clone().json().catch(() => ({}))) as { message?: string }).message;
      if (message === 'Insufficient privilege') return undefined;
      tokens.forget(retry.headers.get('authorization') ?? '');
      retry.headers.set('authorization', await tokens.current());
      return fetch(retry);
    },
    onError({ id }) {
      retries.delete(id);
    },
  };
}
