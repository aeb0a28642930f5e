// The demo's API reference (@satyapan/api-reference over the router's /openapi.json) as a new user meets it:
// every request example the document carries is sent to the running demo (sandbox upstreams on loopback) and
// answered as documented; the vendor's own examples are among them; and in headless Chromium, "Authorize" with
// the key and the secret, Try-it-out of /authenticate, then of an operation, gets a 200.
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromiumOrSkip } from './support/browser.js';
import { exampleRequests, operationsOf, sendExample, type OpenApiDocument } from './support/openapi-examples.js';
import { spawnDemo } from './support/spawn-program.js';
import { authorizeWithKeyAndSecret, tryItOut } from './support/swagger-ui.js';
import { accessTokenOf } from './support/tokens.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

interface VendorCase {
  operation: string;
  source: string;
  request: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  status: number;
}

// The vendor's request examples (copied from shared/reference, its OpenAPI documents and Postman collection).
const VENDOR = new URL('./fixtures/vendor-request-examples.json', import.meta.url);

/** Parameters that name something another operation made (a session, a job, a token): no example can know one. */
const CREATED_IDS = new Set(['session_id', 'job_id', 'request_token']);

describe('demo: the API reference', function () {
  this.timeout(120_000);
  let demo: ReturnType<typeof spawnDemo>;
  let dataDir: string;
  let api: string;
  let docs: string;
  let document: OpenApiDocument;
  let credentials: { key: string; secret: string };

  before(async function () {
    this.timeout(loadScaled(120_000));
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-docs-'));
    demo = spawnDemo({ SATYAPAN_DATA_DIR: dataDir });
    await demo.waitFor(/Stop with Ctrl\+C/, 60_000);
    api = demo.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '';
    docs = demo.output().match(/API reference\s+(\S+)/)?.[1] ?? '';
    credentials = {
      key: demo.output().match(/x-api-key:\s+(\S+)/)?.[1] ?? '',
      secret: demo.output().match(/x-api-secret:\s+(\S+)/)?.[1] ?? '',
    };
    const answer = await fetch(`${api}/openapi.json`);
    expect(answer.status).to.equal(200);
    document = (await answer.json()) as OpenApiDocument;
  });
  after(async () => {
    if (demo) expect(await demo.stop()).to.equal(0);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function callerHeaders(): Promise<Record<string, string>> {
    const token = await accessTokenOf(await fetch(`${api}/authenticate`, {
      method: 'POST', headers: { 'x-api-key': credentials.key, 'x-api-secret': credentials.secret },
    }));
    return { authorization: token, 'x-api-key': credentials.key };
  }

  it('names the key and secret for /authenticate and the token and key for every other authenticated operation', () => {
    expect(document.components.securitySchemes).to.have.all.keys('accessToken', 'apiKey', 'apiSecret');
    expect(document.paths['/authenticate']!['post']!.security).to.deep.equal([{ apiKey: [], apiSecret: [] }]);
    expect(document.paths['/bank/{ifsc}']!['get']!.security).to.deep.equal([{ accessToken: [], apiKey: [] }]);
    expect(document.paths['/health']!['get']!.security).to.deep.equal([]);
  });

  it('has an example for every operation with a body or a required parameter, except those that need an id another operation made', () => {
    const examples = exampleRequests(document);
    const without = operationsOf(document).filter(({ operation, op }) => {
      const required = op.parameters.filter((p) => p.required).map((p) => p.name);
      if (required.some((name) => CREATED_IDS.has(name))) return false;
      if (!op.requestBody && required.length === 0) return false;
      return !examples.some((example) => example.operation === operation);
    }).map(({ operation }) => operation);
    expect(without).to.deep.equal([]);
    for (const example of examples) expect(example.missing, `${example.operation} example ${example.name}`).to.deep.equal([]);
  });

  it('answers every request example of the document: a success, or exactly the status the example documents', async () => {
    const headers = await callerHeaders();
    const examples = exampleRequests(document);
    expect(examples.length).to.be.greaterThan(20);
    const wrong: string[] = [];
    for (const example of examples) {
      const answer = await sendExample(api, example, headers);
      const ok = example.status === undefined ? answer.status < 400 : answer.status === example.status;
      if (!ok) wrong.push(`${example.operation} example ${example.name}: ${answer.status} (expected ${example.status ?? '< 400'}) ${answer.text.slice(0, 200)}`);
    }
    expect(wrong).to.deep.equal([]);
  });

  it('carries the vendor\'s own request examples, unchanged', async () => {
    const vendor = JSON.parse(await readFile(VENDOR, 'utf8')) as { cases: VendorCase[] };
    const examples = exampleRequests(document);
    for (const c of vendor.cases) {
      const ours = examples.filter((example) => example.operation === c.operation).map((example) => ({
        ...(Object.keys(example.params).length > 0 ? { params: example.params } : {}),
        ...(Object.keys(example.query).length > 0 ? { query: example.query } : {}),
        ...(example.body !== undefined ? { body: example.body } : {}),
        status: example.status ?? 200,
      }));
      expect(ours, `${c.operation}: ${c.source}`).to.deep.include({ ...c.request, status: c.status });
    }
  });

  it('lists, per operation, only that operation\'s error messages', () => {
    const pennyDrop = document.paths['/bank/{ifsc}/accounts/{account_number}/verify']!['get']!.responses;
    expect(pennyDrop['422']!.description).to.include('Invalid IFSC pattern').and.not.include('OTP missing in request');
    expect(pennyDrop['422']!.description).not.to.include('Invalid Aadhaar number pattern');
    const otp = document.paths['/kyc/aadhaar/okyc/otp/verify']!['post']!.responses;
    expect(otp['422']!.description).to.include('OTP missing in request').and.not.include('Invalid IFSC pattern');
    expect(document.paths['/health']!['get']!.responses).not.to.have.any.keys('401', '403', '422');
    expect(document.paths['/authenticate']!['post']!.responses['401']!.description).to.equal('- Unauthorized');
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    before(async function () {
      browser = await launchChromiumOrSkip(this, 'the API reference page test');
    });
    after(async () => {
      await browser?.close();
    });

    it('authorizes with the key and secret, gets a token from /authenticate, then calls an operation with it', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
      const refusedByPolicy: string[] = [];
      page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text()); });
      await page.goto(docs);
      await page.waitForSelector('.opblock', { timeout: 30_000 });
      expect(await page.title()).to.equal('Satyapan API reference');
      const paths = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((node) => node.getAttribute('data-path')));
      for (const path of ['/authenticate', '/bank/{ifsc}', '/kyc/docvault/sessions/init', '/tds/reports/txt']) expect(paths).to.include(path);

      await authorizeWithKeyAndSecret(page, credentials.key, credentials.secret);
      expect((await tryItOut(page, 'auth', 'authenticate')).status).to.equal('200');
      expect((await tryItOut(page, 'bank', 'lookupIfsc')).status).to.equal('200');
      // The token /authenticate answered, filled in by the page, not typed by anyone.
      const curl = await page.locator('#operations-bank-lookupIfsc .curl-command').innerText();
      expect(curl).to.match(/Authorization: eyJ/).and.include(`x-api-key: ${credentials.key}`).and.not.include('x-api-secret');
      expect(refusedByPolicy, 'what the page\'s Content-Security-Policy refused').to.deep.equal([]);
      const screenshot = join(dataDir, 'api-reference.png');
      await page.screenshot({ path: screenshot });
      expect((await readFile(screenshot)).subarray(1, 4).toString()).to.equal('PNG');
    });
  });
});
