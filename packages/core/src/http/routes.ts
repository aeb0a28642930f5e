// The contract between the HTTP shell (@satyapan/router) and the areas (bank, kyc, statement jobs): an area
// describes its operations as route definitions, the router mounts them. Both depend on this module, neither on
// the other, so a host installs only the areas it mounts.
import type { Clock } from '../clock.js';
import type { OperationError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { KeySpace, RedisConnection } from '../redis.js';
import type { ObjectStorage } from '../storage/index.js';

/** What a client can be enabled for; every authenticated route needs exactly one. */
export const PRODUCTS = ['kyc', 'bank', 'tds', 'tcs'] as const;
export type Product = (typeof PRODUCTS)[number];

/** An API client as the router resolves it from its key: what route handlers see of the caller. */
export interface ClientRecord {
  /** Stable, non-secret id used in tokens, Redis keys and logs. */
  id: string;
  apiKey: string;
  secretSha256: string;
  products: readonly Product[];
  /** Requests per minute; the router default applies when absent. */
  rateLimitPerMinute?: number;
  webhookUrl?: string;
  webhookSecret?: string;
}

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** What a handler sees: validated input and who is calling. No Express objects. */
export interface RouteRequest<Body = unknown, Query = Record<string, unknown>, Params = Record<string, string>> {
  body: Body;
  query: Query;
  params: Params;
  /** Lower-cased request headers. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The authenticated client; absent only on routes with `auth: 'none'`. */
  client: ClientRecord;
  transactionId: string;
  logger: Logger;
  /**
   * The router's mount point: `publicBaseUrl` when configured (absolute), else the mount path alone (a relative
   * reference). Never taken from the request's Host header.
   */
  baseUrl: string;
}

/**
 * A JSON body serialized once and sent many times (e.g. an IFSC's branch answer): return it as the `body` of a
 * `raw` result and the router writes `json` as is, with the same headers and bytes as for the value it encodes.
 * The router remembers the body's entity tag in `entityTag` (its own cache; handlers leave it alone).
 */
export class PreparedJson {
  /** UTF-8 length of `json`. */
  readonly byteLength: number;
  /** The ETag's quoted part (`"<length>-<hash>"`), filled by the router the first time it sends this body. */
  entityTag: string | undefined;

  constructor(readonly json: string) {
    this.byteLength = Buffer.byteLength(json);
  }
}

/** What a handler returns. The router turns it into the HTTP response. */
export type RouteResult =
  | { kind?: 'envelope'; data: unknown; status?: number; headers?: Record<string, string> }
  | { kind: 'raw'; body: unknown; status?: number; headers?: Record<string, string> }
  | { kind: 'redirect'; location: string; status?: 302 | 303 }
  /** A page for a person's browser (e.g. the end of a consent flow); the handler escapes what it embeds. */
  | { kind: 'html'; html: string; status?: number };

export interface RouteSchemas {
  params?: JsonSchema;
  query?: JsonSchema;
  /** Request headers the operation reads (lower-case names); validated like query values and documented. */
  headers?: JsonSchema;
  body?: JsonSchema;
  /** Schema of `data` (enveloped) or of the raw body (kind raw); used for the OpenAPI document and tests. */
  response?: JsonSchema;
}

export interface RouteDefinition {
  method: HttpMethod;
  /** Express path, e.g. `/bank/:ifsc`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** Product the client must be enabled for; `null` with `auth: 'none'`. */
  product: Product | null;
  auth: 'jwt' | 'none';
  schemas: RouteSchemas;
  /**
   * The errors this operation's handler (its service) can answer: fixed-message codes (`'SOURCE_UNAVAILABLE'`)
   * and `documentedError(code, ...)` for messages that vary. The router adds what it answers itself for an
   * operation of this kind (authentication, rate limit, validation of the schemas, `x-messages` included), and the
   * OpenAPI document lists exactly these per operation and status.
   */
  errors?: readonly OperationError[];
  /**
   * Requests the operation accepts, shown in the OpenAPI document (and so in an API reference's Try-it-out); a
   * test sends every one to a running router. The vendor's own examples where it has them, each naming its source.
   */
  examples?: readonly RouteExample[];
  /**
   * With `auth: 'none'`: the credentials the handler reads itself (`POST /authenticate`: key and secret), so that
   * the document's security requirement lets a reference's Try-it-out send them. `auth: 'jwt'` implies
   * `accessToken` and `apiKey`.
   */
  security?: readonly SecurityScheme[];
  deprecated?: boolean;
  /**
   * With `deprecated`: the path (below the mount point) of the operation that replaces this one. Every answer,
   * errors included, then carries `Deprecation: true` and `Link: <successor>; rel="successor-version"`.
   */
  successor?: string;
  /** Response is not enveloped (documented as such in OpenAPI). */
  raw?: boolean;
  /** `credentials`: the operation checks an API secret or token; failed attempts are limited (router README). */
  guard?: 'credentials';
  handler(request: RouteRequest<any, any, any>): Promise<RouteResult>;
}

/** The OpenAPI security schemes of the API: the access token, the API key, and the API secret of `/authenticate`. */
export type SecurityScheme = 'accessToken' | 'apiKey' | 'apiSecret';

/** A request an operation accepts, as the OpenAPI document shows it (an Example Object per part). */
export interface RouteExample {
  /** Key of the example in the document, unique within the operation, e.g. `vendor`. */
  name: string;
  summary: string;
  /** Where the values come from, e.g. `the vendor's OpenAPI document (kyc.openapi.json), example "Verify PAN"`. */
  source: string;
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number | boolean>>;
  headers?: Readonly<Record<string, string>>;
  body?: unknown;
  /** The status the example answers when it is not a success (e.g. the vendor's example of a 422). */
  status?: number;
}

/** What the router hands an area when it mounts it: shared infrastructure, never another area. */
export interface RouteContext {
  redis: RedisConnection;
  keys: KeySpace;
  storage: ObjectStorage;
  clock: Clock;
  logger: Logger;
  /** The router's `publicBaseUrl`, when configured: build absolute URLs from it, never from the request. */
  publicBaseUrl?: string;
}

/**
 * A part of the API a host chooses to mount (`createRouter({ areas: [bankArea(bank)] })`). Each area package
 * exports a function that builds its area from its service, so the area closes over what it needs.
 */
export interface Area {
  /** Short name for logs and errors, e.g. `bank`. */
  readonly name: string;
  routes(ctx: RouteContext): RouteDefinition[];
}
