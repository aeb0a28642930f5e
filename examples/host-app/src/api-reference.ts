// The demo's API reference page: Swagger UI (swagger-ui-dist, served from its own package) reading the router's
// /openapi.json, so the page can never describe another API than the one mounted.
import type { Express } from 'express';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Logger } from '@satyapan/core';
import { hostPages } from '@satyapan/router';

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The only files of swagger-ui-dist served, by exact name: the package also holds Swagger's petstore
 * `index.html`, its `oauth2-redirect.html` (a page that posts tokens to its opener) and its `package.json`.
 */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
};

/**
 * The page loads only its own scripts and styles (Swagger UI sets inline styles), reads the OpenAPI document
 * (and tries operations) at the API's origin, and is never framed.
 */
function contentSecurityPolicy(openapiUrl: string): string {
  const api = new URL(openapiUrl).origin;
  return [
    "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self' data:",
    `connect-src 'self' ${api}`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Swagger UI at `path`: our page, its initializer and the allow-listed assets, with the API's security headers
 * and its error envelope (anything else, `../package.json` included, is a 404 in the envelope).
 */
export function mountApiReference(app: Express, path: string, openapiUrl: string, logger?: Logger): void {
  const headers = { 'Content-Security-Policy': contentSecurityPolicy(openapiUrl) };
  app.use(path, hostPages({ headers, ...(logger ? { logger } : {}) }, (pages) => {
    pages.get('/assets/:file', (req, res, next) => {
      const type = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
      if (type === undefined) return next();
      res.type(type).sendFile(join(SWAGGER_UI, req.params.file), { dotfiles: 'deny' }, (error) => { if (error) next(error); });
    });
    // The initializer is a file rather than an inline script, so the page works under the strict CSP; no
    // validator badge, which would load an image from swagger.io.
    pages.get('/init.js', (_req, res) => {
      res.type('application/javascript').send(
        `window.ui = SwaggerUIBundle(${JSON.stringify({ url: openapiUrl, dom_id: '#api-reference', deepLinking: true, validatorUrl: null })});\n`,
      );
    });
    pages.get('/', (_req, res) => void res.type('html').send(page(path)));
  }));
}

function page(path: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Satyapan API reference</title>
  <link rel="stylesheet" href="${path}/assets/swagger-ui.css">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${path}/assets/swagger-ui-bundle.js"></script>
  <script src="${path}/init.js"></script>
</body>
</html>
`;
}
