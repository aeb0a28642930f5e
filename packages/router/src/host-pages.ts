import { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import { silentLogger, systemClock, type Clock, type Logger } from '@satyapan/core';
import { errorHandler, notFound } from './middleware/errors.js';
import { requestContext } from './middleware/request-context.js';

export interface HostPagesOptions {
  logger?: Logger;
  clock?: Clock;
  /** Headers set over the API's, e.g. the pages' own `Content-Security-Policy`. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * A host's own pages beside the API (the demo's API reference and queue dashboard) answered as the API is: a
 * request id and helmet's security headers first, the error envelope last. What `mount` does not serve is a 404
 * in the envelope, and an error is never an HTML page with a stack or an install path.
 * `app.use('/docs', hostPages({ headers: { 'Content-Security-Policy': ... } }, (pages) => pages.get('/', ...)))`.
 */
export function hostPages(options: HostPagesOptions, mount: (pages: Router) => void): Router {
  const pages = Router();
  pages.use(pageFront(options.logger ?? silentLogger(), options.headers ?? {}));
  mount(pages);
  pages.use(notFound(), errorHandler(options.clock ?? systemClock));
  return pages;
}

/**
 * The router's front without its API concerns (metrics, `x-api-version`): the request context, helmet's headers
 * (per request: pages are no hot path, so the router's recorded copy is not needed), then the pages' own headers.
 */
function pageFront(logger: Logger, overrides: Readonly<Record<string, string>>): RequestHandler[] {
  const context = requestContext(logger);
  return [
    (req, res, next) => { context(req, res); next(); },
    helmet(),
    (_req, res, next) => {
      for (const [name, value] of Object.entries(overrides)) res.setHeader(name, value);
      next();
    },
  ];
}
