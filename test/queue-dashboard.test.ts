// The demo's queue dashboard (bull-board at /admin/queues): behind basic auth with the password the banner
// prints, opened in headless Chromium as an operator would, showing the statement and webhook queues.
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { Queue } from 'bullmq';
import type { Browser } from 'playwright-core';
import { createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { clearCredentialLockout } from '@satyapan/router';
import { mountQueueDashboard } from '@satyapan/queue-dashboard';
import { launchChromiumOrSkip } from './support/browser.js';
import { deleteKeysMatching, keysMatching } from './support/redis-cluster.js';
import { spawnDemo } from './support/spawn-program.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

const ACCOUNT = { user: 'ops', password: 'the-right-password' };
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** The dashboard in this process, over one real BullMQ queue on Redis, on a port of its own. */
async function startDashboard(redis: RedisConnection, perAddress: number) {
  const keyPrefix = `test-dashboard-${randomUUID()}`;
  const queue = new Queue('{dashboard}', { connection: redis, prefix: keyPrefix });
  const app = express();
  const server = await new Promise<Server>((resolve) => { const listening = app.listen(0, '127.0.0.1', () => resolve(listening)); });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mountQueueDashboard(app, '/admin/queues', { queues: [queue], account: ACCOUNT, origin, redis, keyPrefix, lockout: { perAddress } });
  return {
    app, origin, queue, keyPrefix,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await queue.close();
      await deleteKeysMatching(redis, `${keyPrefix}*`);
    },
  };
}

describe('queue dashboard: login lockout and same-origin writes (in process)', () => {
  let redis: RedisConnection;
  let dashboard: Awaited<ReturnType<typeof startDashboard>>;
  before(async () => {
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'dashboard-test' });
    await waitForRedis(redis);
  });
  beforeEach(async () => { dashboard = await startDashboard(redis, 5); });
  afterEach(() => dashboard.close());
  after(() => redis.disconnect());

  const queues = (secret: string) => request(dashboard.app).get('/admin/queues/api/queues').set('authorization', basic('ops', secret));

  it('locks an address out after 5 wrong passwords: 429 with Retry-After in the envelope, the right password included', async () => {
    // Right logins do not count: many of them, then the wrong ones still get their 5.
    for (let call = 0; call < 8; call++) expect((await queues(ACCOUNT.password)).status).to.equal(200);
    for (let guess = 0; guess < 5; guess++) expect((await queues(`guess-${guess}`)).status).to.equal(401);
    for (const secret of ['guess-5', ACCOUNT.password]) {
      const refused = await queues(secret);
      expect(refused.status, secret).to.equal(429);
      const seconds = Number(refused.headers['retry-after']);
      expect(seconds).to.be.within(1, 15 * 60);
      expect(refused.body).to.include({ message: `Too many failed credential attempts from this address; retry after ${seconds} s` });
      expect(refused.headers['x-content-type-options']).to.equal('nosniff');
    }
    // Counted in Redis (every process of the host shares the count), under the host's key prefix.
    expect(await keysMatching(redis, `${dashboard.keyPrefix}:ratelimit:{login:queue-dashboard:address:*`)).to.have.length(1);
    // The operator clears it (README "Credential lockout"); the right password works again at once.
    const cleared = await clearCredentialLockout({ connection: redis, keyPrefix: dashboard.keyPrefix, address: '127.0.0.1', loginScopes: ['queue-dashboard'] });
    expect(cleared).to.deep.equal({ cleared: 1 });
    expect((await queues(ACCOUNT.password)).status).to.equal(200);
  });

  it('shows queue names without their Redis Cluster hash-tag braces; its API keeps the real name, which the queue URLs use', async () => {
    const listed = await queues(ACCOUNT.password);
    expect(listed.status).to.equal(200);
    const shown = (listed.body.queues as Array<{ name: string; displayName: string }>).map(({ name, displayName }) => ({ name, displayName }));
    expect(shown).to.deep.equal([{ name: '{dashboard}', displayName: 'dashboard' }]);
  });

  it('refuses a state-changing request from another site (Origin, Sec-Fetch-Site) with 403, and takes one from its own origin', async () => {
    const pause = () => request(dashboard.app).put('/admin/queues/api/queues/%7Bdashboard%7D/pause').set('authorization', basic('ops', ACCOUNT.password));
    for (const [header, value] of [['origin', 'https://attacker.example'], ['origin', 'null'], ['origin', `${dashboard.origin}.attacker.example`], ['sec-fetch-site', 'cross-site'], ['sec-fetch-site', 'same-site']] as const) {
      const refused = await pause().set(header, value);
      expect(refused.status, `${header}: ${value}`).to.equal(403);
      expect(refused.body).to.include({ message: 'Cross-site request refused' });
      expect(refused.text).not.to.match(/\bat \w|node_modules/);
    }
    expect(await dashboard.queue.isPaused()).to.equal(false);
    // A cross-site page cannot even try without the password: basic auth answers first.
    expect((await request(dashboard.app).put('/admin/queues/api/queues/%7Bdashboard%7D/pause').set('origin', 'https://attacker.example')).status).to.equal(401);
    expect((await pause().set('origin', dashboard.origin).set('sec-fetch-site', 'same-origin')).status).to.equal(200);
    expect(await dashboard.queue.isPaused()).to.equal(true);
    // Reads are not writes: another site's GET (a link) is answered, and curl without Origin may write.
    expect((await queues(ACCOUNT.password).set('origin', 'https://attacker.example')).status).to.equal(200);
    expect((await request(dashboard.app).put('/admin/queues/api/queues/%7Bdashboard%7D/resume').set('authorization', basic('ops', ACCOUNT.password))).status).to.equal(200);
    expect(await dashboard.queue.isPaused()).to.equal(false);
  });
});

describe('demo: the queue dashboard in headless Chromium', function () {
  this.timeout(90_000);
  let browser: Browser;
  let demo: ReturnType<typeof spawnDemo>;
  let dataDir: string;
  let dashboard: string;
  let password: string;

  before(async function () {
    this.timeout(loadScaled(90_000));
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
    const listed = ((await api.json()) as { queues: Array<{ name: string; displayName: string }> }).queues;
    expect(listed.map((queue) => queue.name)).to.have.members(['{statements}', '{statement-webhooks}', '{bulk}', '{form16}']);
    expect(listed.map((queue) => queue.displayName)).to.have.members(['statements', 'statement-webhooks', 'bulk', 'form16']);
  });

  it('shows the statement, webhook, bulk and Form 16 queues from its own assets, and renders for a screenshot', async () => {
    const origin = new URL(dashboard).origin;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, httpCredentials: { username: 'ops', password } });
    const page = await context.newPage();
    const offOrigin: string[] = [];
    const failedHere: string[] = [];
    page.on('response', (response) => { if (!response.url().startsWith(origin)) offOrigin.push(response.url()); });
    page.on('requestfailed', (failed) => { if (failed.url().startsWith(origin)) failedHere.push(failed.url()); });
    const refusedByPolicy: string[] = [];
    page.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text()); });
    const answer = await page.goto(dashboard);
    expect(answer?.status()).to.equal(200);
    // Shown without the hash-tag braces of their Redis names.
    for (const name of ['statements', 'statement-webhooks', 'bulk', 'form16']) await page.getByText(name, { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await page.getByText(/\{(statements|statement-webhooks|bulk|form16)\}/).count(), 'names with braces').to.equal(0);
    // The dashboard's own page may change state: the browser's Origin is the demo's origin.
    const statuses = await page.evaluate(async (base) => {
      const answers: number[] = [];
      for (const action of ['pause', 'resume']) answers.push((await fetch(`${base}/api/queues/%7Bbulk%7D/${action}`, { method: 'PUT' })).status);
      return answers;
    }, new URL(dashboard).pathname);
    expect(statuses).to.deep.equal([200, 200]);
    const screenshot = join(dataDir, 'queue-dashboard.png');
    await page.screenshot({ path: screenshot });
    const png = await readFile(screenshot);
    expect(png.subarray(1, 4).toString()).to.equal('PNG');
    expect(png.length).to.be.greaterThan(15_000); // a rendered page, not a blank one
    expect(offOrigin, 'answers from outside the demo (a CDN)').to.deep.equal([]);
    expect(failedHere, 'requests to the demo that failed').to.deep.equal([]);
    // bull-board's CDN font is refused by design; nothing of the dashboard's own may be.
    expect(refusedByPolicy.filter((text) => !/fonts\.googleapis|font-src|style-src-elem.*https:/i.test(text)), 'what the policy refused').to.deep.equal([]);
    await context.close();
  });
});
