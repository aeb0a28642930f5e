// The demo's queue dashboard (bull-board at /admin/queues): behind basic auth with the password the banner
// prints, opened in headless Chromium as an operator would, showing the statement and webhook queues.
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchChromiumOrSkip } from './support/browser.js';
import { spawnDemo } from './support/spawn-program.js';

describe('demo: the queue dashboard in headless Chromium', function () {
  this.timeout(90_000);
  let browser: Browser;
  let demo: ReturnType<typeof spawnDemo>;
  let dataDir: string;
  let dashboard: string;
  let password: string;

  before(async function () {
    browser = await launchChromiumOrSkip(this, 'the queue dashboard test');
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-queues-'));
    demo = spawnDemo({ SATYAPAN_DATA_DIR: dataDir, SATYAPAN_ADMIN_USER: 'ops', SATYAPAN_KEY_PREFIX: `test-queues-${randomUUID()}` });
    const banner = await demo.waitFor(/Queue dashboard\s+(\S+)\s+\(user ops, password (\S+)\)/);
    [, dashboard, password] = banner as unknown as [string, string, string];
    await demo.waitFor(/Stop with Ctrl\+C/);
  });
  after(async () => {
    await browser?.close();
    if (demo) expect(await demo.stop()).to.equal(0);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('asks for credentials and refuses wrong ones, on the page and on its API', async () => {
    const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
    for (const path of ['', '/api/queues']) {
      const none = await fetch(`${dashboard}${path}`);
      expect(none.status, path).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.match(/^Basic realm="Satyapan queues"/);
      expect((await fetch(`${dashboard}${path}`, { headers: { authorization: basic('ops', `${password}x`) } })).status, path).to.equal(401);
      expect((await fetch(`${dashboard}${path}`, { headers: { authorization: basic('admin', password) } })).status, path).to.equal(401);
    }
    const api = await fetch(`${dashboard}/api/queues`, { headers: { authorization: basic('ops', password) } });
    expect(api.status).to.equal(200);
    const names = ((await api.json()) as { queues: Array<{ name: string }> }).queues.map((queue) => queue.name);
    expect(names).to.have.members(['{statements}', '{statement-webhooks}', '{bulk}']);
  });

  it('shows the statement, webhook and bulk queues from its own assets, and renders for a screenshot', async () => {
    const origin = new URL(dashboard).origin;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, httpCredentials: { username: 'ops', password } });
    const page = await context.newPage();
    const offOrigin: string[] = [];
    const failedHere: string[] = [];
    page.on('response', (response) => { if (!response.url().startsWith(origin)) offOrigin.push(response.url()); });
    page.on('requestfailed', (failed) => { if (failed.url().startsWith(origin)) failedHere.push(failed.url()); });
    const answer = await page.goto(dashboard);
    expect(answer?.status()).to.equal(200);
    await page.getByText('{statements}').first().waitFor({ timeout: 30_000 });
    await page.getByText('{statement-webhooks}').first().waitFor({ timeout: 30_000 });
    await page.getByText('{bulk}').first().waitFor({ timeout: 30_000 });
    const screenshot = join(dataDir, 'queue-dashboard.png');
    await page.screenshot({ path: screenshot });
    const png = await readFile(screenshot);
    expect(png.subarray(1, 4).toString()).to.equal('PNG');
    expect(png.length).to.be.greaterThan(15_000); // a rendered page, not a blank one
    expect(offOrigin, 'answers from outside the demo (a CDN)').to.deep.equal([]);
    expect(failedHere, 'requests to the demo that failed').to.deep.equal([]);
    await context.close();
  });
});
