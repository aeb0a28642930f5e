import type { Authenticator } from '../authenticator.js';
import type { RouteDefinition } from '../route-types.js';

const tokenData = {
  type: 'object',
  required: ['access_token'],
  properties: { access_token: { type: 'string', description: 'JWT, valid 24 h; send it bare in Authorization' } },
};

/** A token must not be kept by a browser or a shared cache on the way. */
const NO_STORE = { 'cache-control': 'no-store' };

const authHeadersNote = 'Headers: x-api-key and x-api-secret (in a reference: Authorize with both first). No body (an empty JSON object is accepted).';

/** `POST /authenticate` and `POST /authorize` (docs/API.md "Authentication and clients"). */
export function authRoutes(authenticator: Authenticator): RouteDefinition[] {
  return [
    {
      method: 'post',
      path: '/authenticate',
      operationId: 'authenticate',
      summary: `Exchange an API key and secret for an access token. ${authHeadersNote}`,
      tag: 'auth',
      product: null,
      auth: 'none',
      guard: 'credentials',
      security: ['apiKey', 'apiSecret'],
      schemas: { response: tokenData },
      errors: ['UNAUTHORIZED'],
      handler: async ({ headers }) => ({
        data: { access_token: await authenticator.exchangeCredentials(headers['x-api-key'], headers['x-api-secret']) },
        headers: NO_STORE,
      }),
    },
    {
      method: 'post',
      path: '/authorize',
      operationId: 'authorize',
      summary: 'Refresh an access token (up to 365 days after the first authenticate); the old token is revoked.',
      tag: 'auth',
      product: null,
      auth: 'none',
      schemas: {
        query: {
          type: 'object',
          required: ['request_token'],
          properties: { request_token: { type: 'string', minLength: 1, description: 'the current access token' } },
        },
        response: tokenData,
      },
      guard: 'credentials',
      security: ['accessToken', 'apiKey'],
      errors: ['UNAUTHORIZED', 'INVALID_ACCESS_TOKEN', 'TOKEN_EXPIRED', 'ACCESS_REVOKED'],
      handler: async ({ headers, query }) => ({
        data: { access_token: await authenticator.refresh(headers.authorization, headers['x-api-key'], query['request_token']) },
        headers: NO_STORE,
      }),
    },
  ];
}
