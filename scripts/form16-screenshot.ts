// node --conditions=satyapan-source --import tsx scripts/form16-screenshot.ts [out.png]
//
// Makes a signed Form 16 (Part B) from the test workbook with a throwaway certificate, opens it in Debian's
// Chromium through PDF.js (a page served on 127.0.0.1 that draws the PDF's first page on a canvas), and takes
// the screenshot the package README shows (docs/images/form16-part-b.png). Run by hand when the layout changes.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { makeForm16s } from '../packages/form16/src/index.js';
import { FINANCIAL_YEAR, form16Workbook, TAN } from '../packages/form16/test/support/workbook.js';

const out = process.argv[2] ?? 'docs/images/form16-part-b.png';
const dir = mkdtempSync(join(tmpdir(), 'form16-shot-'));
const pdfjs = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'legacy', 'build');

const PAGE = `<!doctype html><html><body style="margin:0;background:#fff"><canvas id="c"></canvas><script type="module">
import * as pdfjs from '/pdfjs/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/pdf.worker.mjs';
const doc = await pdfjs.getDocument('/form16.pdf').promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale: 1.5 });
const canvas = document.getElementById('c');
canvas.width = viewport.width; canvas.height = viewport.height;
await page.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
document.title = 'rendered';
</script></body></html>`;

try {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=Asha Rao/C=IN'], { cwd: dir, stdio: 'ignore' });
  execFileSync('openssl', ['pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'cert.p12', '-passout', 'pass:shot'], { cwd: dir, stdio: 'ignore' });
  await makeForm16s({ workbook: form16Workbook(), financialYear: FINANCIAL_YEAR, tan: TAN, outDir: join(dir, 'out'), now: new Date(), certificate: { path: join(dir, 'cert.p12'), password: 'shot' } });
  const pdf = readFileSync(join(dir, 'out', 'DEFPK4567C_Form16_AY2026-27.pdf'));
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (url === '/form16.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    if (url.startsWith('/pdfjs/') && /^[a-z.]+$/.test(url.slice(7))) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(pdfjs, url.slice(7))));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const page = await browser.newPage({ viewport: { width: 893, height: 1263 } });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction("document.title === 'rendered'", undefined, { timeout: 30000 });
    await page.locator('#c').screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
    server.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
