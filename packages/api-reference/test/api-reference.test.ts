// apiReference() mounted beside a router in a host app (the router tests' harness: real Redis, a real port): only
// our files, behind the API's security headers and error envelope, reading the document of the router it sits
// next to. The demo's page in a browser is test/api-reference.test.ts.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { apiReference } from '@satyapan/api-reference';
import type { Browser } from 'playwright-core';
import { CLIENTS, startHarness, type Harness } from '../../router/test/support/harness.js';
import { launchChromiumOrSkip } from '../../../test/support/browser.js';
import { authorizeWithKeyAndSecret, tryItOut } from '../../../test/support/swagger-ui.js';

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** GET with the path sent exactly as given (`..` and `%2e%2e` included): fetch would tidy it. */
function rawGet(base: string, path: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

function expectSecurityHeaders(answer: RawAnswer, path: string, connectSrc = "connect-src 'self'"): void {
  expect(answer.headers['x-content-type-options'], path).to.equal('nosniff');
  expect(answer.headers['x-frame-options'], path).to.equal('SAMEORIGIN');
  expect(answer.headers['x-request-id'], path).to.be.a('string');
  const csp = String(answer.headers['content-security-policy']).split('; ');
  for (const directive of ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", connectSrc]) expect(csp, path).to.include(directive);
}

describe('apiReference(): the reference of the router a host mounts', () => {
  let h: Harness;
  let origin: string;
  before(async () => {
    // No publicBaseUrl: the document names the router's mount path, as for most hosts.
    h = await startHarness({ publicBaseUrl: null });
    h.app.use('/docs', apiReference({ openapiUrl: '/api/openapi.json' }));
    h.app.use('/reference', apiReference({ openapiUrl: 'https://api.example.org/kyc-api/openapi.json', title: 'Our <API>' }));
    origin = new URL(h.baseUrl).origin;
  });
  after(() => h.close());

  it('serves our page, its initializer and the two Swagger UI files it loads, with the security headers', async () => {
    for (const [path, type] of [['/docs', 'text/html'], ['/docs/init.js', 'application/javascript'], ['/docs/assets/swagger-ui-bundle.js', 'application/javascript'], ['/docs/assets/swagger-ui.css', 'text/css']] as const) {
      const answer = await rawGet(origin, path);
      expect(answer.status, path).to.equal(200);
      expect(answer.headers['content-type'], path).to.match(new RegExp(`^${type}`));
      expectSecurityHeaders(answer, path);
    }
    const page = (await rawGet(origin, '/docs')).body;
    expect(page).to.include('<title>Satyapan API reference</title>').and.not.include('<script>');
    expect(page).to.include('href="/docs/assets/swagger-ui.css"').and.include('src="/docs/init.js"');
    const init = (await rawGet(origin, '/docs/init.js')).body;
    expect(init).to.include('"url":"/api/openapi.json"').and.include('"validatorUrl":null').and.include("preauthorizeApiKey('accessToken'");
    expect(init).not.to.include('persistAuthorization');
  });

  it('reads the document of the router beside it, which names the router\'s mount path as its server', async () => {
    const document = (await (await fetch(`${origin}/api/openapi.json`)).json()) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(document.servers).to.deep.equal([{ url: '/api' }]);
    expect(document.paths).to.include.keys('/authenticate', '/health');
  });

  it('takes its assets from the path it is mounted at, and lets a page at another origin call that origin only', async () => {
    const answer = await rawGet(origin, '/reference');
    expect(answer.body).to.include('href="/reference/assets/swagger-ui.css"').and.include('<title>Our &#60;API&#62;</title>');
    expectSecurityHeaders(answer, '/reference', "connect-src 'self' https://api.example.org");
  });

  it('answers 404 in the envelope to traversal, Swagger\'s stock pages and every other file of the package, with no stack or install path', async () => {
    const refused = [
      '/docs/assets/../package.json', '/docs/assets/%2e%2e/package.json', '/docs/assets/%2e%2e%2fpackage.json', '/docs/assets/..%2f..%2fpackage.json',
      '/docs/assets/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', '/docs/assets/package.json', '/docs/assets/index.html', '/docs/assets/oauth2-redirect.html',
      '/docs/assets/swagger-initializer.js', '/docs/assets/swagger-ui-bundle.js.map', '/docs/assets/', '/docs/index.html', '/docs/oauth2-redirect.html',
      '/docs/assets/constructor', '/docs/assets/__proto__', '/docs/../package.json',
    ];
    for (const path of refused) {
      const answer = await rawGet(origin, path);
      expect(answer.status, path).to.equal(404);
      expect(answer.headers['content-type'], path).to.match(/^application\/json/);
      expect(JSON.parse(answer.body), path).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
      expect(answer.body, path).not.to.match(/node_modules|\/work\/|\bat \w+ \(|Petstore|"version"/);
      expectSecurityHeaders(answer, path);
    }
  });

  it('answers 400 in the envelope, not a stack, to a path that does not percent-decode', async () => {
    const answer = await rawGet(origin, '/docs/assets/%E0%A4%A');
    expect(answer.status).to.equal(400);
    expect(JSON.parse(answer.body)).to.include({ message: 'Invalid parameter: path is not valid percent-encoding' });
    expect(answer.body).not.to.match(/URIError|node_modules/);
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    before(async function () {
      browser = await launchChromiumOrSkip(this, 'the API reference of a router host');
    });
    after(async () => {
      await browser?.close();
    });

    it('Try-it-out gets a token and calls the router where it is mounted (the document\'s relative server)', async () => {
      const page = await browser.newPage();
      await page.goto(`${origin}/docs`);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      await authorizeWithKeyAndSecret(page, CLIENTS.all.apiKey, CLIENTS.all.apiSecret);
      expect(await tryItOut(page, 'auth', 'authenticate')).to.deep.equal({ status: '200', url: `${origin}/api/authenticate` });
      expect((await tryItOut(page, 'operations', 'healthLive')).status).to.equal('200');
    });
  });

  it('refuses a document URL it cannot place, naming the option', () => {
    for (const openapiUrl of ['api/openapi.json', '//evil.example/openapi.json', 'javascript:alert(1)', '']) {
      expect(() => apiReference({ openapiUrl }), openapiUrl).to.throw(/apiReference: openapiUrl must be a path such as \/api\/openapi\.json/);
    }
  });
});
