import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { hmacSign, sha256Hex } from '@satyapan/core';
import { LOCKER_INDIVIDUALS, PENNY_DROP_TEST_ACCOUNTS, PENNY_LESS_TEST_ACCOUNTS } from '@satyapan/sandbox';
import { spawnDemo } from './support/spawn-program.js';
import { eventually, freePort, redisAnswers, shutDownRedis, startRedisServer } from './support/redis-server.js';
import { workbook26Q } from './statements-support/workbooks.js';
import { consentAtLocker } from '../packages/kyc/test/support/stack.js';

/** Runs the curl line the demo printed and returns its JSON answer. */
function runPrintedCurl(output: string): { data: { access_token: string } } {
  const line = output.split('\n').find((l) => l.trim().startsWith('curl '));
  if (!line) throw new Error(`no curl line in:\n${output}`);
  return JSON.parse(execSync(line.trim(), { encoding: 'utf8' })) as { data: { access_token: string } };
}

describe('demo host app (npm start)', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-')); });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('starts a private redis-server when none answers, prints credentials, and the printed curl returns a token', async () => {
    const demo = spawnDemo({ REDIS_URL: 'redis://127.0.0.1:1', SATYAPAN_DATA_DIR: dataDir });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.match(/private redis-server started/);
      const answer = runPrintedCurl(demo.output());
      expect(answer.data.access_token).to.match(/^eyJ/);
      const health = await fetch(`${demo.output().match(/API mounted at\s+(\S+)/)?.[1]}/health`);
      expect(health.status).to.equal(200);
    } finally {
      expect(await demo.stop()).to.equal(0);
    }
  });

  it('uses the configured demo credentials and a running Redis', async () => {
    const demo = spawnDemo({ SATYAPAN_DEMO_KEY: 'key_ops', SATYAPAN_DEMO_SECRET: 'secret_ops', SATYAPAN_DATA_DIR: dataDir });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.include('x-api-key:    key_ops');
      expect(demo.output()).not.to.match(/private redis-server/);
      expect(runPrintedCurl(demo.output()).data.access_token).to.match(/^eyJ/);
    } finally {
      expect(await demo.stop()).to.equal(0);
    }
  });

  it('exits 1 with a clear message when no Redis answers and redis-server is not installed', async () => {
    // An empty PATH: the demo cannot find a redis-server binary to start.
    const demo = spawnDemo({ REDIS_URL: 'redis://127.0.0.1:1', SATYAPAN_DATA_DIR: dataDir, PATH: dataDir });
    expect(await demo.exited()).to.equal(1);
    expect(demo.output()).to.match(/No Redis answers at redis:\/\/127\.0\.0\.1:1\. Start one/);
    expect(demo.output()).not.to.match(/\n\s+at /);
  });
});

describe('demo host app: start-up checks, its private Redis, outages', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(async () => { dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-')); });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const SECRETS = {
    SATYAPAN_DEMO_KEY: 'key_persist', SATYAPAN_DEMO_SECRET: 'secret_persist',
    SATYAPAN_TOKEN_SECRET: 'persist-token-secret-of-at-least-32-bytes', REDIS_URL: 'redis://127.0.0.1:1',
  };
  const apiOf = (output: string): string => output.match(/API mounted at\s+(\S+)/)?.[1] ?? '';
  const redisOf = (output: string): string => output.match(/Redis\s+(redis:\/\/\S+)/)?.[1] ?? '';

  it('refuses a bad configuration with one line naming the variable, no stack trace', async () => {
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ REDIS_URL: '127.0.0.1:6379' }, /REDIS_URL is malformed: expected redis:\/\/host:port/],
      [{ REDIS_URL: 'redis://0.0.0.0:1' }, /^No Redis answers at redis:\/\/0\.0\.0\.0:1\. A private Redis is only started for a loopback REDIS_URL/m],
      [{ SATYAPAN_TOKEN_SECRET: 'too-short' }, /SATYAPAN_TOKEN_SECRET must be at least 32 bytes/],
      [{ SATYAPAN_DEMO_SECRET: '' }, /SATYAPAN_DEMO_SECRET is set but empty/],
      [{ SATYAPAN_STORAGE_SECRET: ' ' }, /SATYAPAN_STORAGE_SECRET is set but empty/],
    ];
    for (const [env, message] of cases) {
      const demo = spawnDemo({ SATYAPAN_DATA_DIR: dataDir, ...env });
      expect(await demo.exited(), JSON.stringify(env)).to.equal(1);
      expect(demo.output(), JSON.stringify(env)).to.match(message);
      expect(demo.output().trim().split('\n'), JSON.stringify(env)).to.have.length(1);
    }
  });

  it('keeps revocations across a restart: its private Redis writes an append-only file under the data dir', async () => {
    const first = spawnDemo({ ...SECRETS, SATYAPAN_DATA_DIR: dataDir });
    let revoked: string;
    let current: string;
    try {
      await first.waitFor(/Stop with Ctrl\+C/);
      revoked = runPrintedCurl(first.output()).data.access_token;
      const refreshed = await fetch(`${apiOf(first.output())}/authorize?request_token=${revoked}`, { method: 'POST', headers: { authorization: revoked, 'x-api-key': SECRETS.SATYAPAN_DEMO_KEY } });
      expect(refreshed.status).to.equal(200);
      current = ((await refreshed.json()) as { data: { access_token: string } }).data.access_token;
    } finally {
      expect(await first.stop()).to.equal(0);
    }
    const second = spawnDemo({ ...SECRETS, SATYAPAN_DATA_DIR: dataDir });
    try {
      await second.waitFor(/Stop with Ctrl\+C/);
      const read = (token: string) => fetch(`${apiOf(second.output())}/bank/KKBK0000131`, { headers: { authorization: token, 'x-api-key': SECRETS.SATYAPAN_DEMO_KEY } });
      const old = await read(revoked);
      expect(old.status).to.equal(403);
      expect(((await old.json()) as { message: string }).message).to.equal('Access revoked');
      expect((await read(current)).status).to.equal(200);
    } finally {
      expect(await second.stop()).to.equal(0);
    }
  });

  it('takes its private redis-server down with it, even when killed with SIGKILL', async () => {
    const demo = spawnDemo({ REDIS_URL: 'redis://127.0.0.1:1', SATYAPAN_DATA_DIR: dataDir });
    await demo.waitFor(/Stop with Ctrl\+C/);
    const redisUrl = redisOf(demo.output());
    expect(await redisAnswers(redisUrl, 300)).to.equal(true);
    await demo.stop('SIGKILL');
    const gone = await eventually(async () => !(await redisAnswers(redisUrl, 300)), 5_000);
    if (!gone) await shutDownRedis(redisUrl); // a leftover must not outlive the test either
    expect(gone, 'the private redis-server still answers after the demo was killed').to.equal(true);
  });

  it('rides out a Redis outage: one line per connection and change, no unhandled error traces, and serves again after', async function () {
    this.timeout(90_000);
    const port = await freePort();
    let redis = await startRedisServer(port);
    const demo = spawnDemo({ REDIS_URL: `redis://127.0.0.1:${port}`, SATYAPAN_DATA_DIR: dataDir, SATYAPAN_DEMO_KEY: 'key_outage', SATYAPAN_DEMO_SECRET: 'secret_outage' });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      redis.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // many reconnection attempts
      redis = await startRedisServer(port);
      const api = apiOf(demo.output());
      const back = await eventually(async () => (await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': 'key_outage', 'x-api-secret': 'secret_outage' } })).status === 200, 15_000);
      expect(back, demo.output()).to.equal(true);
      // Each of our connections says once that it is back.
      for (const name of ['satyapan-demo', 'satyapan-demo-worker', 'satyapan-statements', 'satyapan-statement-events']) {
        await demo.waitFor(new RegExp(`"connection":"${name}","level":"info","message":"redis connection restored"`), 15_000);
      }
      const output = demo.output();
      expect(output).not.to.include('Unhandled error event');
      expect(output).not.to.match(/\n\s+at /);
      const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
      const failing = lines.filter((line) => line['message'] === 'redis connection failing');
      // One line per connection and outage (BullMQ's copies of a connection keep its name, hence up to two).
      const connections = failing.map((line) => String(line['connection']));
      for (const name of new Set(connections)) expect(connections.filter((c) => c === name).length, JSON.stringify(connections)).to.be.at.most(2);
      expect(connections).to.include.members(['satyapan-demo', 'satyapan-demo-worker']);
    } finally {
      // SIGKILL: a SIGTERM while BullMQ's own connections still reconnect can take the shutdown's 10 s fallback.
      await demo.stop('SIGKILL');
      redis.kill('SIGKILL');
    }
  });
});

const WALK_TOKEN_SECRET = 'walk-token-secret-of-at-least-32-bytes!!';

describe('demo host app: a walk through every area on embedded defaults', function () {
  this.timeout(60_000);
  let dataDir: string;
  let demo: ReturnType<typeof spawnDemo>;
  let api: string;
  let headers: Record<string, string>;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-walk-'));
    demo = spawnDemo({ SATYAPAN_DEMO_KEY: 'key_walk', SATYAPAN_DEMO_SECRET: 'secret_walk', SATYAPAN_TOKEN_SECRET: WALK_TOKEN_SECRET, SATYAPAN_DATA_DIR: dataDir });
    await demo.waitFor(/Stop with Ctrl\+C/);
    api = demo.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '';
    headers = { authorization: runPrintedCurl(demo.output()).data.access_token, 'x-api-key': 'key_walk', 'content-type': 'application/json' };
  });
  after(async () => {
    expect(await demo.stop()).to.equal(0);
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${api}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}), redirect: 'manual' });
    return { status: response.status, body: await response.json().catch(() => null) };
  };

  it('looks up a branch of the bundled sample directory and verifies a penny-drop test account', async () => {
    const material = `key_walk\nKKBK0000131\n${PENNY_DROP_TEST_ACCOUNTS.valid}`;
    const cacheKey = (id: string) => `satyapan:bank:pd:{${id}}:answer`;
    const redis = new Redis('redis://127.0.0.1:6379');
    // A run of an older demo on the shared Redis may have left the plain-hash key behind.
    await redis.del(cacheKey(sha256Hex(material)));
    const branch = await call('GET', '/bank/kkbk0000131');
    expect(branch.body).to.include({ IFSC: 'KKBK0000131', BANKCODE: 'KKBK', CITY: 'KANPUR' });
    const verified = await call('GET', `/bank/KKBK0000131/accounts/${PENNY_DROP_TEST_ACCOUNTS.valid}/verify`);
    expect(verified.status).to.equal(200);
    expect(verified.body.data).to.include({ account_exists: true, amount_deposited: '1' });
    // The cached answer's key is an HMAC under a key derived from the token secret, not a plain hash.
    const hmacId = hmacSign(hmacSign(WALK_TOKEN_SECRET, 'satyapan-demo:penny-drop-cache-key'), material, 'hex');
    try {
      expect(await redis.exists(cacheKey(sha256Hex(material)))).to.equal(0);
      expect(await redis.exists(cacheKey(hmacId))).to.equal(1);
    } finally {
      redis.disconnect();
    }
  });

  it('verifies an account without a deposit (penny-less), from the cache on request, and documents the operation', async () => {
    const path = `/bank/KKBK0000131/accounts/${PENNY_LESS_TEST_ACCOUNTS.business}/penniless-verify`;
    const fresh = await call('GET', path);
    expect(fresh.status).to.equal(200);
    expect(fresh.body.data).to.deep.equal({
      '@entity': '@in.co.service.bank.account.penny_less_verification_response', account_exists: true, name_at_bank: 'SATYAPAN DEMO TECHNOLOGIES PVT LTD',
    });
    const cached = await fetch(`${api}${path}`, { headers: { ...headers, 'x-accept-cache': 'true' } });
    expect(((await cached.json()) as { data: unknown }).data).to.deep.equal(fresh.body.data);
    const blocked = await call('GET', `/bank/KKBK0000131/accounts/${PENNY_LESS_TEST_ACCOUNTS.blocked}/penniless-verify`);
    expect(blocked.body.data).to.include({ message: 'Account is blocked', account_exists: true });
    const openapi = await call('GET', '/openapi.json');
    expect(openapi.body.paths).to.include.keys('/bank/{ifsc}/accounts/{account_number}/penniless-verify', '/kyc/docvault/user/verify');
  });

  it('tells whether a docvault account exists for a mobile or Aadhaar number', async () => {
    const entity = 'in.co.service.kyc.docvault.user.verification.request';
    const known = await call('POST', '/kyc/docvault/user/verify', { '@entity': entity, aadhaar_number: LOCKER_INDIVIDUALS[0]!.aadhaarNumber });
    expect(known.status).to.equal(200);
    expect(known.body.data).to.deep.equal({ '@entity': 'in.co.service.kyc.docvault.user.verification.response', user_exists: true });
    const unknown = await call('POST', '/kyc/docvault/user/verify', { '@entity': entity, mobile: '9000000001' });
    expect(unknown.body.data.user_exists).to.equal(false);
  });

  it('walks a docvault consent through the locker simulator to the profile', async () => {
    const init = await call('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: 'https://merchant.example/back', doc_types: ['pan'],
    });
    expect(init.status).to.equal(200);
    const { response } = await consentAtLocker(init.body.data.authorization_url, { user: LOCKER_INDIVIDUALS[0]!.id, documents: ['PANCR'] });
    expect(response.status).to.equal(302);
    const profile = await call('GET', `/kyc/docvault/sessions/${init.body.data.session_id}/user/profile`);
    expect(profile.body.data).to.include({ name: LOCKER_INDIVIDUALS[0]!.name });
  });

  it('converts a statement with the in-process worker', async () => {
    const job = await call('POST', '/tds/reports/txt', {
      '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26',
    });
    expect(job.status).to.equal(200);
    const upload = await fetch(job.body.data.json_url, { method: 'PUT', body: JSON.stringify(workbook26Q()) });
    expect(upload.status).to.equal(200);
    let polled = job;
    for (let i = 0; i < 100 && !['succeeded', 'failed'].includes(polled.body.data.status); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polled = await call('GET', `/tds/reports/txt?job_id=${job.body.data.job_id}`);
    }
    expect(polled.body.data.status, JSON.stringify(polled.body.data)).to.equal('succeeded');
    const txt = await (await fetch(polled.body.data.txt_url)).text();
    expect(txt.split('\r\n')[0]).to.match(/^1\^FH\^/);
  });
});
