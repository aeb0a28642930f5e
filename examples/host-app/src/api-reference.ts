// The demo's API reference page: Swagger UI (swagger-ui-dist, served from its own package) reading the router's
// /openapi.json, so the page can never describe another API than the one mounted.
import express, { type Express } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export function mountApiReference(app: Express, path: string, openapiUrl: string): void {
  app.use(`${path}/assets`, express.static(SWAGGER_UI, { index: false, fallthrough: false }));
  // The initializer is a file rather than an inline script, so the page works under a strict CSP.
  app.get(`${path}/init.js`, (_req, res) => {
    res.type('application/javascript').send(
      `window.ui = SwaggerUIBundle(${JSON.stringify({ url: openapiUrl, dom_id: '#api-reference', deepLinking: true })});\n`,
    );
  });
  app.get(path, (_req, res) => {
    res.type('html').send(`<!doctype html>
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
`);
  });
}
