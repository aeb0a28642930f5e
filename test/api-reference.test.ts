// The demo's API reference page (Swagger UI over the router's /openapi.json), opened in headless Chromium as a
// person would: it lists the operations of every area, and a screenshot of it is taken.
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Browser } from 'playwright-core';
import { mountApiReference } from '../examples/host-app/src/api-reference.js';
import { launchChromiumOrSkip } from './support/browser.js';
import { spawnDemo } from './support/spawn-program.js';

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** GET with the path sent exactly as given (`..` and `%2e%2e` included): fetch and supertest would tidy it. */
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

describe('API reference page: only our files, behind the API\'s headers and error envelope (in process)', () => {
  let server: Server;
  let base: string;
  before(async () => {
    const app = express();
    mountApiReference(app, '/docs', 'http://127.0.0.1:3000/api/openapi.json');
    server = await new Promise<Server>((resolve) => { const listening = app.listen(0, '127.0.0.1', () => resolve(listening)); });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function expectSecurityHeaders(answer: RawAnswer, path: string): void {
    expect(answer.headers['x-content-type-options'], path).to.equal('nosniff');
    expect(answer.headers['x-frame-options'], path).to.equal('SAMEORIGIN');
    expect(answer.headers['x-request-id'], path).to.be.a('string');
    const csp = String(answer.headers['content-security-policy']);
    for (const directive of ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "connect-src 'self' http://127.0.0.1:3000"]) expect(csp, path).to.include(directive);
  }

  it('serves our page, its initializer and the two Swagger UI files it loads, with the security headers', async () => {
    for (const [path, type] of [['/docs', 'text/html'], ['/docs/init.js', 'application/javascript'], ['/docs/assets/swagger-ui-bundle.js', 'application/javascript'], ['/docs/assets/swagger-ui.css', 'text/css']] as const) {
      const answer = await rawGet(base, path);
      expect(answer.status, path).to.equal(200);
      expect(answer.headers['content-type'], path).to.match(new RegExp(`^${type}`));
      expectSecurityHeaders(answer, path);
    }
    const page = (await rawGet(base, '/docs')).body;
    expect(page).to.include('<title>Satyapan API reference</title>').and.not.include('<script>');
    expect((await rawGet(base, '/docs/init.js')).body).to.include('"validatorUrl":null');
  });

  it('answers 404 in the envelope to traversal, Swagger\'s stock pages and every other file of the package, with no stack or install path', async () => {
    const refused = [
      '/docs/assets/../package.json', '/docs/assets/%2e%2e/package.json', '/docs/assets/%2e%2e%2fpackage.json', '/docs/assets/..%2f..%2fpackage.json',
      '/docs/assets/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd', '/docs/assets/package.json', '/docs/assets/index.html', '/docs/assets/oauth2-redirect.html',
      '/docs/assets/swagger-initializer.js', '/docs/assets/swagger-ui-bundle.js.map', '/docs/assets/', '/docs/index.html', '/docs/oauth2-redirect.html',
      '/docs/assets/constructor', '/docs/assets/__proto__', '/docs/../package.json',
    ];
    for (const path of refused) {
      const answer = await rawGet(base, path);
      expect(answer.status, path).to.equal(404);
      expect(answer.headers['content-type'], path).to.match(/^application\/json/);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body, path).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
      expect(answer.body, path).not.to.match(/node_modules|\/work\/|\bat \w+ \(|Petstore|"version"/);
      expectSecurityHeaders(answer, path);
    }
  });

  it('answers 400 in the envelope, not a stack, to a path that does not percent-decode', async () => {
    const answer = await rawGet(base, '/docs/assets/%E0%A4%A');
    expect(answer.status).to.equal(400);
    expect(JSON.parse(answer.body)).to.include({ message: 'Invalid parameter: path is not valid percent-encoding' });
    expect(answer.body).not.to.match(/URIError|node_modules/);
  });
});

describe('demo: the API reference page in headless Chromium', function () {
  this.timeout(90_000);
  let browser: Browser;
  let demo: ReturnType<typeof spawnDemo>;
  let dataDir: string;

  before(async function () {
    browser = await launchChromiumOrSkip(this, 'the API reference page test');
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-docs-'));
    demo = spawnDemo({ SATYAPAN_DATA_DIR: dataDir });
    await demo.waitFor(/Stop with Ctrl\+C/);
  });
  after(async () => {
    await browser?.close();
    if (demo) expect(await demo.stop()).to.equal(0);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the operations of every area from /openapi.json, and renders for a screenshot', async () => {
    const docs = demo.output().match(/API reference\s+(\S+)/)?.[1];
    expect(docs, demo.output()).to.match(/\/docs$/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    const refusedByPolicy: string[] = [];
    page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text()); });
    await page.goto(docs!);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const paths = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((node) => node.getAttribute('data-path')));
    for (const path of ['/authenticate', '/bank/{ifsc}', '/kyc/docvault/sessions/init', '/tds/reports/txt']) expect(paths).to.include(path);
    expect(await page.title()).to.equal('Satyapan API reference');
    const screenshot = join(dataDir, 'api-reference.png');
    await page.screenshot({ path: screenshot, fullPage: false });
    const png = await readFile(screenshot);
    expect(png.subarray(1, 4).toString()).to.equal('PNG');
    expect(png.length).to.be.greaterThan(20_000); // a rendered page, not a blank one
    expect(failed, 'requests that failed').to.deep.equal([]);
    expect(refusedByPolicy, 'what the page\'s Content-Security-Policy refused').to.deep.equal([]);
  });
});
