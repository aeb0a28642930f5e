// The contract between the HTTP shell (@satyapan/router) and the areas (bank, kyc, statement jobs): an area
// describes its operations as route definitions, the router mounts them. Both depend on this module, neither on
// the other, so a host installs only the areas it mounts.
import type { Clock } from '../clock.js';
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
  /** HTTP statuses of errors this operation can answer, for the OpenAPI document. */
  errors?: readonly number[];
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
