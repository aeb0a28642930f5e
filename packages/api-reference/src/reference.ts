// apiReference(): Swagger UI (from swagger-ui-dist, served from this package's own dependency) over the
// router's /openapi.json, so the page can never describe another API than the one mounted. A package of its
// own: swagger-ui-dist is 12 MB that a host without a reference page must not install.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Router } from 'express';
import type { Clock, Logger } from '@satyapan/core';
import { hostPages } from '@satyapan/router';
import { initializer, referencePage } from './page.js';

export interface ApiReferenceOptions {
  /**
   * Where the browser reads the router's OpenAPI document: a path on this host (`/api/openapi.json`, for a router
   * mounted at `/api`) or an absolute http(s) URL. Try-it-out calls the API at the document's `servers` URL,
   * which the router fills from its `publicBaseUrl` or its mount path.
   */
  openapiUrl: string;
  /** The page's title; default `Satyapan API reference`. */
  title?: string;
  /** Where the pages' request lines go (as the router's); default none. */
  logger?: Logger;
  clock?: Clock;
}

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The only files of swagger-ui-dist served, by exact name: the package also holds Swagger's petstore
 * `index.html`, its `oauth2-redirect.html` (a page that posts tokens to its opener) and its `package.json`.
 */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
};

/** The document's URL as given, checked: a path from the root, or an absolute http(s) URL. */
function checkedOpenapiUrl(value: unknown): { url: string; origin: string | undefined } {
  if (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//')) return { url: value, origin: undefined };
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch { /* reported below */ }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`apiReference: openapiUrl must be a path such as /api/openapi.json or an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  return { url: url.href, origin: url.origin };
}

/**
 * The page loads only its own scripts and styles (Swagger UI sets inline styles), reads the OpenAPI document
 * and tries operations at this origin (and the document's, when that is another), and is never framed.
 */
function contentSecurityPolicy(apiOrigin: string | undefined): string {
  return [
    "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self' data:",
    `connect-src 'self'${apiOrigin ? ` ${apiOrigin}` : ''}`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The interactive reference of a mounted router, for `app.use('/docs', apiReference({ openapiUrl: '/api/openapi.json' }))`
 * (Express 4.21+ or 5): our page, its initializer and two allow-listed Swagger UI files, with the API's security
 * headers (helmet's, a request id) and a strict Content-Security-Policy; anything else, `../package.json`
 * included, is a 404 in the API's error envelope.
 */
export function apiReference(options: ApiReferenceOptions): Router {
  const { url, origin } = checkedOpenapiUrl(options?.openapiUrl);
  const title = options.title ?? 'Satyapan API reference';
  const init = initializer(url);
  const headers = { 'Content-Security-Policy': contentSecurityPolicy(origin) };
  return hostPages({ headers, ...(options.logger ? { logger: options.logger } : {}), ...(options.clock ? { clock: options.clock } : {}) }, (pages) => {
    pages.get('/assets/:file', (req, res, next) => {
      const file = req.params['file'] ?? '';
      const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (type === undefined) return next();
      res.type(type).sendFile(join(SWAGGER_UI, file), { dotfiles: 'deny' }, (error) => { if (error) next(error); });
    });
    pages.get('/init.js', (_req, res) => void res.type('application/javascript').send(init));
    pages.get('/', (req, res) => void res.type('html').send(referencePage(req.baseUrl, title)));
  });
}
