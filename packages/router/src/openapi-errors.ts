// The errors one operation can answer, for its OpenAPI error responses: what the router answers for an operation
// of its kind (front, authentication, body parsing, validation of its own schemas) plus what its route lists for
// its handler. Each is a registry code with its message, so the document cannot promise a message the code
// does not have, and one operation's list never carries another's messages.
import { describeError, documentedError, type DocumentedError } from '@satyapan/core';
import type { JsonSchema, RouteDefinition } from './route-types.js';

/** Keywords whose failure is a 422 (a rule), as RequestValidator sorts them; the rest are structural (400). */
const RULE_KEYWORDS = [
  'pattern', 'format', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'oneOf', 'not',
];

/** Every operation: the `x-api-version` check runs first, and a failure of ours or of Redis can end any call. */
const ALWAYS: readonly DocumentedError[] = [
  documentedError('UNSUPPORTED_API_VERSION', '{version}'), describeError('INTERNAL'), describeError('SERVICE_UNAVAILABLE'),
];

/** An authenticated operation: who is calling (401/403), then its rate limit. */
const AUTHENTICATED: readonly DocumentedError[] = [
  'UNAUTHORIZED', 'INVALID_ACCESS_TOKEN', 'TOKEN_EXPIRED', 'ACCESS_REVOKED', 'TOO_MANY_REQUESTS',
].map((code) => describeError(code as 'UNAUTHORIZED'));

/** What express.json answers for a request body it cannot read. */
const BODY_PARSING: readonly DocumentedError[] = [
  describeError('MALFORMED_JSON'), documentedError('PAYLOAD_TOO_LARGE', '{limit}'),
  documentedError('UNSUPPORTED_MEDIA_TYPE', 'application/json; charset=utf-8'), documentedError('INVALID_REQUEST_BODY', 'body', 'was incomplete'),
];

/** The errors `route` can answer, without duplicates, in the order: router, validation, handler. */
export function operationErrors(route: RouteDefinition): DocumentedError[] {
  const all = [...routerErrors(route), ...validationErrors(route), ...(route.errors ?? []).map(describeError)];
  const seen = new Set<string>();
  return all.filter((error) => {
    const key = `${error.status} ${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function routerErrors(route: RouteDefinition): DocumentedError[] {
  const out = [...ALWAYS];
  if (route.auth === 'jwt') {
    out.push(...AUTHENTICATED);
    if (route.product) out.push(describeError('INSUFFICIENT_PRIVILEGE'));
  }
  if (route.guard === 'credentials') {
    // The call rate limit, and the credential lockouts (per address, per API key) of failed attempts.
    out.push(describeError('TOO_MANY_REQUESTS'), documentedError('CREDENTIAL_LOCKOUT', '{seconds}'), documentedError('API_KEY_LOCKOUT', '{seconds}'));
  }
  if (route.method === 'post' || route.method === 'put') out.push(...BODY_PARSING);
  if (route.path.includes(':')) out.push(documentedError('INVALID_PARAMETER', 'path', 'is not valid percent-encoding'));
  return out;
}

/** What RequestValidator answers for each schema of the route (validation.ts). */
function validationErrors(route: RouteDefinition): DocumentedError[] {
  const out: DocumentedError[] = [];
  const { body, params, query, headers } = route.schemas;
  if (body) out.push(documentedError('INVALID_REQUEST_BODY', '{field}', '{reason}'), ...ruleErrors(body));
  for (const schema of [params, query, headers]) {
    if (schema) out.push(documentedError('INVALID_PARAMETER', '{name}', '{reason}'), ...ruleErrors(schema));
  }
  return out;
}

/**
 * A rule broken in a schema that carries `x-message` answers that message (`{value}` is the value given); in
 * one without, the generic `Invalid <field>: <reason>`.
 */
function ruleErrors(schema: JsonSchema): DocumentedError[] {
  const out: DocumentedError[] = [];
  walk(schema, (node) => {
    const custom = node['x-message'];
    if (typeof custom === 'string') out.push(documentedError('UNPROCESSABLE', custom));
    else if (RULE_KEYWORDS.some((keyword) => keyword in node)) out.push(documentedError('INVALID_FIELD', '{field}', '{reason}'));
  });
  return out;
}

/** Visits `node` and its subschemas (properties, items, combinators); never a `properties` map as a schema. */
function walk(node: unknown, visit: (schema: JsonSchema) => void): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const schema = node as JsonSchema;
  visit(schema);
  for (const map of ['properties', 'patternProperties', '$defs']) {
    for (const child of Object.values((schema[map] ?? {}) as Record<string, unknown>)) walk(child, visit);
  }
  for (const list of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    for (const child of (schema[list] ?? []) as unknown[]) walk(child, visit);
  }
  for (const single of ['items', 'not', 'additionalProperties', 'contains']) walk(schema[single], visit);
}
