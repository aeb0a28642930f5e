import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { successEnvelope, type Clock } from '@satyapan/core';
import { Authenticator } from './authenticator.js';
import { stateOf, type RequestState } from './middleware/request-context.js';
import type { CallAdmission } from './middleware/rate-limit.js';
import { sendJson } from './send-json.js';
import type { RequestValidator } from './validation.js';
import type { RouteDefinition, RouteRequest, RouteResult } from './route-types.js';

export interface MountDependencies {
  authenticator: Authenticator;
  /** Revocation check and rate limit of an authenticated call, in one Redis round trip. */
  admission: CallAdmission;
  /** Limits failed attempts on routes that check credentials (`guard: 'credentials'`). */
  credentialLimit: RequestHandler[];
  /** Absolute URL of the router's mount point from configuration; without it, URLs are relative to the request. */
  publicBaseUrl: string | undefined;
  validator: RequestValidator;
  clock: Clock;
}

/** Adds one route to the Express router: authentication, rate limit, validation, handler, response. */
export function mountRoute(router: Router, route: RouteDefinition, deps: MountDependencies): void {
  compileSchemas(route, deps.validator);
  const chain: RequestHandler[] = [];
  if (route.deprecated && route.successor) chain.push(announceSuccessor(route.successor, deps.publicBaseUrl));
  if (route.guard === 'credentials') chain.push(...deps.credentialLimit);
  chain.push(handle(route, deps, declaredHeaderNames(route)));
  router[route.method](route.path, ...chain);
}

/** Compiling at mount time makes a broken schema fail when the router is created, not on a request. */
function compileSchemas(route: RouteDefinition, validator: RequestValidator): void {
  const { body, query, params, headers } = route.schemas;
  if (body) validator.compile(body);
  if (query) validator.compileCoercing(query);
  if (params) validator.compileCoercing(params);
  if (headers) validator.compileCoercing(headers);
}

/** Deprecation headers first, so that error answers (auth, validation) carry them too. */
function announceSuccessor(successor: string, publicBaseUrl: string | undefined): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Deprecation', 'true');
    res.setHeader('Link', `<${mountUrl(req, publicBaseUrl)}${successor}>; rel="successor-version"`);
    next();
  };
}

/**
 * The router's mount point as configured, else as a path (a relative reference resolves against the URL the
 * caller used). Never from the Host header: it is the caller's to choose, so it would let anyone plant their
 * own host in our links and callback URLs.
 */
function mountUrl(req: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? req.baseUrl;
}

/**
 * Authentication (for `auth: 'jwt'`), validation, the handler and the response, in one Express handler (each
 * handler of a route is a trip through Express's dispatch). Authentication identifies the caller (no Redis),
 * checks the product, then admits the call: revocation and rate limit in one round trip.
 */
function handle(route: RouteDefinition, deps: MountDependencies, headerNames: readonly string[]): RequestHandler {
  const { authenticator, admission } = deps;
  const product = route.auth === 'jwt' ? route.product : undefined;
  const authenticated = route.auth === 'jwt';
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (authenticated) {
        const caller = await authenticator.identify(req.headers.authorization, req.headers['x-api-key']);
        stateOf(res).client = caller.client;
        if (product) Authenticator.requireProduct(caller.client, product);
        await admission.admit(caller, res);
      }
      const request = buildRequest(req, res, route, deps, headerNames);
      const result = await route.handler(request);
      send(req, res, result, deps.clock);
    } catch (error) {
      next(error);
    }
  };
}

function buildRequest(req: Request, res: Response, route: RouteDefinition, deps: MountDependencies, headerNames: readonly string[]): RouteRequest {
  const { validator } = deps;
  const state = stateOf(res);
  // Copies: Express 5's req.query is a getter, and validation fills defaults in place.
  const params: Record<string, unknown> = { ...req.params };
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  const body: unknown = req.body === undefined && route.schemas.body ? {} : req.body;
  if (route.schemas.params) validator.check('params', route.schemas.params, params);
  if (route.schemas.query) validator.check('query', route.schemas.query, query);
  if (route.schemas.headers) validator.check('headers', route.schemas.headers, declaredHeaders(req, headerNames));
  if (route.schemas.body) validator.check('body', route.schemas.body, body);
  return new HandlerRequest(body, query, params as Record<string, string>, req.headers, state, mountUrl(req, deps.publicBaseUrl));
}

/** What a handler sees; the request's logger is made when the handler first asks for it (RequestState). */
class HandlerRequest implements RouteRequest {
  readonly client: RouteRequest['client'];
  readonly transactionId: string;

  constructor(
    readonly body: unknown,
    readonly query: Record<string, unknown>,
    readonly params: Record<string, string>,
    readonly headers: RouteRequest['headers'],
    private readonly state: RequestState,
    readonly baseUrl: string,
  ) {
    this.client = state.client as RouteRequest['client'];
    this.transactionId = state.transactionId;
  }

  get logger(): RouteRequest['logger'] {
    return this.state.logger;
  }
}

/** The header names a route's schema declares, listed once at mount time. */
function declaredHeaderNames(route: RouteDefinition): string[] {
  return Object.keys((route.schemas.headers?.['properties'] ?? {}) as Record<string, unknown>);
}

/** Only the headers the schema names: the rest of the request's headers are not the schema's business. */
function declaredHeaders(req: Request, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (req.headers[name] !== undefined) out[name] = req.headers[name];
  return out;
}

function send(req: Request, res: Response, result: RouteResult, clock: Clock): void {
  if (result.kind === 'redirect') {
    res.redirect(result.status ?? 302, result.location);
    return;
  }
  if (result.kind === 'html') {
    res.status(result.status ?? 200).type('html').send(result.html);
    return;
  }
  if (result.headers) for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  const status = result.status ?? 200;
  res.status(status);
  if (result.kind === 'raw') {
    sendJson(req, res, result.body);
    return;
  }
  sendJson(req, res, successEnvelope(result.data, stateOf(res).transactionId, { status, clock }));
}
