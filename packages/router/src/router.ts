import express, { Router } from 'express';
import {
  FsStorage, KeySpace, requirePresent, requirePublicUrl, silentLogger, systemClock, watchRedisConnection,
  type Clock, type Logger, type ObjectStorage, type RedisConnection, type SatyapanMetrics,
} from '@satyapan/core';
import { Authenticator } from './authenticator.js';
import { StaticClientStore, type ClientConfig, type ClientStore } from './clients.js';
import { TokenService, type TokenOptions } from './tokens.js';
import { RequestValidator } from './validation.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { CallAdmission, credentialLimit, type CredentialLimitOptions, type RateLimitOptions } from './middleware/rate-limit.js';
import { requestFront } from './middleware/front.js';
import { mountRoute } from './mount.js';
import { buildOpenApi, openApiHandler, type OpenApiInfo } from './openapi.js';
import { authRoutes } from './routes/auth.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.js';
import { storageHandler } from './routes/storage.js';
import type { Area, RouteContext, RouteDefinition } from './route-types.js';

export interface RouterOptions {
  /** A producer-flavour connection (`createRedisConnection({ flavour: 'producer' })`). */
  redis: RedisConnection;
  storage: ObjectStorage;
  /** Clients from configuration, or a store (e.g. `RedisClientStore`). */
  clients: ClientStore | ReadonlyArray<ClientConfig>;
  tokens: TokenOptions;
  /** Prefix of every Redis key the router writes; default `satyapan`. */
  keyPrefix?: string;
  logger?: Logger;
  clock?: Clock;
  rateLimit?: RateLimitOptions;
  /** Lockout of failed attempts on `/authenticate` and `/authorize` (README "Credential guessing"). */
  credentialLimit?: CredentialLimitOptions;
  /**
   * Absolute URL of this router's mount point as callers reach it, e.g. `https://api.example.com/kyc-api`.
   * Absolute URLs the router hands out (the `Link` of deprecated operations, the lockers' callback URL when
   * none is configured) are built from it, never from the request's Host header. Without it, links are
   * relative and a locker callback URL must be configured.
   */
  publicBaseUrl?: string;
  /** Largest JSON body accepted (workbooks go through storage, not here); default 1 MB. */
  bodyLimit?: string | number;
  /**
   * The parts of the API to serve, each built by its package from its service: `bankArea(bank)` from
   * @satyapan/bank, `kycArea({ kyc, aadhaarOtp })` from @satyapan/kyc, `statementsArea(statements)` from
   * @satyapan/statement-queue. Without any, only authentication, health and the OpenAPI document are served
   * (and the router logs a warning saying so).
   */
  areas?: readonly Area[];
  /** Extra routes of the host, mounted with the same auth, validation and envelopes. */
  routes?: readonly RouteDefinition[];
  openapi?: OpenApiInfo;
  /**
   * Where request counts and durations go (`createMetrics()` from @satyapan/core, served by the host with
   * `metricsHandler`); without it the router records none.
   */
  metrics?: SatyapanMetrics;
  /**
   * Checks of the host's own that `GET /health/ready` runs besides Redis, by name, e.g.
   * `{ worker: async () => worker.isRunning() }` for an in-process statement worker.
   */
  readiness?: Readonly<Record<string, ReadinessCheck>>;
  /**
   * How long `GET /health` reuses the answer of its storage probe (a write and a delete); default 30 000 ms.
   * The route is unauthenticated: without this, every call would cost a storage write.
   */
  storageProbeIntervalMs?: number;
}

export interface SatyapanRouter extends Router {
  /**
   * The OpenAPI 3.1 document served at `GET /openapi.json`. Its `servers` is `openapi.serverUrl` or
   * `publicBaseUrl`; with neither, the served copy names the path the router is mounted at.
   */
  readonly openapi: Record<string, unknown>;
  readonly tokens: TokenService;
}

/** The Satyapan API as an Express router: `app.use('/api', createRouter(options))`. Works on Express 4.21+ and 5. */
export function createRouter(options: RouterOptions): SatyapanRouter {
  checkRequired(options);
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger();
  watchRedisConnection(options.redis, logger);
  const keys = new KeySpace(options.keyPrefix ?? 'satyapan');
  const clients = 'findByApiKey' in options.clients ? options.clients : new StaticClientStore(options.clients);
  const tokens = new TokenService(options.tokens, options.redis, keys, clock);
  const authenticator = new Authenticator(clients, tokens);
  const publicBaseUrl = checkedBaseUrl(options.publicBaseUrl);
  const ctx: RouteContext = {
    redis: options.redis, keys, storage: options.storage, clock, logger,
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
  };

  const routes = [
    ...authRoutes(authenticator),
    ...healthRoutes(ctx, {
      ...(options.readiness ? { readiness: options.readiness } : {}),
      ...(options.storageProbeIntervalMs !== undefined ? { storageProbeIntervalMs: options.storageProbeIntervalMs } : {}),
    }),
    ...areaRoutes(options.areas ?? [], ctx, options.routes ?? []),
    ...(options.routes ?? []),
  ];
  // The document names where the API is: the configured server, else the public base URL; without either, the
  // mount path of each request (openApiHandler), so that a reference's Try-it-out calls this API, not the host's root.
  const serverUrl = options.openapi?.serverUrl ?? publicBaseUrl;
  const openapi = buildOpenApi(routes, { ...options.openapi, ...(serverUrl ? { serverUrl } : {}) });

  const router = Router() as SatyapanRouter;
  router.use(requestFront(logger, options.metrics));
  if (options.storage instanceof FsStorage) router.use('/storage', storageHandler(options.storage));
  router.use(express.json({ limit: options.bodyLimit ?? '1mb', type: ['application/json', 'application/*+json'] }));
  router.get('/openapi.json', openApiHandler(openapi));
  const deps = {
    authenticator, validator: new RequestValidator(), clock, publicBaseUrl,
    admission: new CallAdmission(options.redis, keys, tokens, options.rateLimit),
    credentialLimit: credentialLimit(options.redis, keys, options.credentialLimit),
  };
  for (const route of routes) mountRoute(router, route, deps);
  router.use(notFound(), errorHandler(clock));
  Object.defineProperties(router, { openapi: { value: openapi }, tokens: { value: tokens } });
  return router;
}

/**
 * Routes of the areas the host chose. A router with neither an area nor routes of the host's own serves only
 * auth and health, which is almost always a forgotten `areas` option: worth a warning.
 */
function areaRoutes(areas: readonly Area[], ctx: RouteContext, hostRoutes: readonly RouteDefinition[]): RouteDefinition[] {
  if (areas.length === 0 && hostRoutes.length === 0) {
    ctx.logger.warn('router started with no area: only /authenticate, /authorize, /health and /openapi.json are served; '
      + 'pass areas, e.g. createRouter({ areas: [bankArea(bank)] })');
  }
  const names = new Set<string>();
  for (const area of areas) {
    if (names.has(area.name)) throw new Error(`createRouter: area "${area.name}" is given twice`);
    names.add(area.name);
  }
  return areas.flatMap((area) => area.routes(ctx));
}

/** The options without which nothing works, each named when missing (rather than a TypeError on first use). */
function checkRequired(options: RouterOptions): void {
  requirePresent('createRouter', options, {
    redis: 'a producer connection, createRedisConnection({ url, flavour: \'producer\' })',
    storage: 'the object storage the areas use (FsStorage, or S3Storage from @satyapan/storage-s3)',
    clients: 'the API clients, [{ apiKey, apiSecret, products }] or a client store',
    tokens: 'the access tokens\' settings, { secret } (32 bytes or more)',
  });
}

/** An absolute http(s) URL without a trailing slash, not a documentation placeholder; a clear error at start otherwise. */
function checkedBaseUrl(value: string | undefined): string | undefined {
  return value === undefined ? undefined : requirePublicUrl('createRouter', 'publicBaseUrl', value);
}
