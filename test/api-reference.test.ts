// The demo's API reference page (Swagger UI over the router's /openapi.json), opened in headless Chromium as a
// person would: it lists the operations of every area, and a screenshot of it is taken.
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromiumOrSkip } from './support/browser.js';
import { spawnDemo } from './support/spawn-program.js';

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
  });
});
