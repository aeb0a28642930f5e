// What the browser gets: our page (no inline script, so the strict CSP holds) and the Swagger UI initializer.

/** Escapes text for an HTML attribute or element. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page at `base` (the path the reference is mounted at, as the request reached it). */
export function referencePage(base: string, title: string): string {
  const at = escapeHtml(base.replace(/\/+$/, ''));
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="${at}/assets/swagger-ui.css">
</head>
<body>
  <div id="api-reference"></div>
  <script src="${at}/assets/swagger-ui-bundle.js"></script>
  <script src="${at}/init.js"></script>
</body>
</html>
`;
}

/**
 * Swagger UI over `openapiUrl`, with no validator badge (it would load an image from swagger.io) and nothing
 * kept in the browser's storage (no `persistAuthorization`: the API secret must not outlive the tab). A
 * successful `/authenticate` or `/authorize` answer fills in the `accessToken` scheme, so that after
 * "Authorize" with the key and the secret and one Try-it-out of `/authenticate`, every operation can be tried.
 */
export function initializer(openapiUrl: string): string {
  const config = { url: openapiUrl, dom_id: '#api-reference', deepLinking: true, validatorUrl: null, tryItOutEnabled: true };
  return `(function () {
  'use strict';
  var config = ${JSON.stringify(config)};
  config.responseInterceptor = function (response) {
    try {
      var path = new URL(response.url, window.location.href).pathname;
      var token = response.ok && response.body && response.body.data && response.body.data.access_token;
      if (typeof token === 'string' && /\\/(authenticate|authorize)$/.test(path)) window.ui.preauthorizeApiKey('accessToken', token);
    } catch (ignored) { /* an answer that is not a token answer */ }
    return response;
  };
  window.ui = SwaggerUIBundle(config);
})();
`;
}
