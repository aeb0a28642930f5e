import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createHash, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { hmacSign, sha256Hex } from '@satyapan/core';
import { LOCKER_INDIVIDUALS, PAN_TEST_VALUES, PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC, PENNY_LESS_TEST_ACCOUNTS } from '@satyapan/sandbox';
import { createSatyapanClient, type SatyapanClient } from '@satyapan/client';
import { verhoeffCheckDigit } from '@satyapan/kyc';
import { PROGRAMS, spawnDemo, spawnProgram } from './support/spawn-program.js';
import { dataDirKeyPrefix } from '../examples/host-app/src/config.js';
import { accessTokenOf } from './support/tokens.js';
import { eventually, freePort, redisAnswers, shutDownRedis, startRedisServer } from './support/redis-server.js';
import { workbook26Q } from './statements-support/workbooks.js';
import { consentAtLocker } from '../packages/kyc/test/support/stack.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

const CLIENT_OPENAPI = fileURLToPath(new URL('../packages/client/openapi.json', import.meta.url));
const CLIENT_SCHEMA = fileURLToPath(new URL('../packages/client/src/schema.ts', import.meta.url));

/** Runs the curl line the demo printed and returns its JSON answer. */
function runPrintedCurl(output: string): { data: { access_token: string } } {
  const line = output.split('\n').find((l) => l.trim().startsWith('curl '));
  if (!line) throw new Error(`no curl line in:\n${output}`);
  const answer = execSync(line.trim(), { encoding: 'utf8' });
  const parsed = JSON.parse(answer) as { data?: { access_token?: unknown } };
  if (typeof parsed.data?.access_token !== 'string') throw new Error(`the printed curl got no access token: ${answer.slice(0, 300)}`);
  return parsed as { data: { access_token: string } };
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
    const demo = spawnDemo({
      SATYAPAN_DEMO_KEY: 'key_ops', SATYAPAN_DEMO_SECRET: 'secret_ops', SATYAPAN_DATA_DIR: dataDir, SATYAPAN_ADMIN_PASSWORD: 'configured-admin-password',
    });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.include('x-api-key:    key_ops');
      // A configured dashboard password is the operator's: the banner names where it comes from, never prints it.
      expect(demo.output()).to.match(/Queue dashboard\s+\S+\/admin\/queues\s+\(user admin, password from SATYAPAN_ADMIN_PASSWORD\)/);
      expect(demo.output()).not.to.include('configured-admin-password');
      expect(demo.output()).not.to.match(/private redis-server/);
      expect(runPrintedCurl(demo.output()).data.access_token).to.match(/^eyJ/);
    } finally {
      expect(await demo.stop()).to.equal(0);
    }
  });

  it('prints a complete authenticated call that works pasted into a shell, the API reference and the sandbox test values', async () => {
    const demo = spawnDemo({ SATYAPAN_DATA_DIR: dataDir });
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      const lines = demo.output().split('\n');
      const start = lines.findIndex((line) => line.startsWith('A complete authenticated call'));
      const pasted = lines.slice(start + 1, start + 3).map((line) => line.trim()).join('\n');
      const answer = JSON.parse(execSync(pasted, { encoding: 'utf8', shell: '/bin/bash' })) as { data: { account_exists: boolean } };
      expect(answer.data.account_exists).to.equal(true);
      expect(demo.output()).to.match(/API reference\s+http:\/\/127\.0\.0\.1:\d+\/docs/);
      expect(demo.output()).to.include(`${PENNY_DROP_TEST_ACCOUNTS.blocked} blocked`);
      expect(demo.output()).to.include(LOCKER_INDIVIDUALS[0]!.name);
      expect(demo.output()).to.include(`${PAN_TEST_VALUES.individual} individual`).and.include(`${PAN_TEST_VALUES.company} company`);
      expect(demo.output()).to.match(/Statement worker in this process/);
    } finally {
      expect(await demo.stop()).to.equal(0);
    }
  });

  it('SATYAPAN_WORKER=off leaves statements to examples/worker, started with the settings the banner prints', async () => {
    // A key prefix of its own: a worker of another demo on this Redis must not take the job.
    const demo = spawnDemo({
      SATYAPAN_DATA_DIR: dataDir, SATYAPAN_WORKER: 'off', SATYAPAN_DEMO_KEY: 'key_split', SATYAPAN_DEMO_SECRET: 'secret_split',
      SATYAPAN_KEY_PREFIX: `test-split-${randomUUID()}`,
    });
    let worker: ReturnType<typeof spawnProgram> | undefined;
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.match(/Statement worker off \(SATYAPAN_WORKER=off\)/);
      const settings = Object.fromEntries([...demo.output().matchAll(/^ {4}([A-Z_]+)=(\S*)$/gm)].map((match) => [match[1]!, match[2]!]));
      expect(Object.keys(settings)).to.include.members(['REDIS_URL', 'SATYAPAN_DATA_DIR', 'SATYAPAN_STORAGE_SECRET', 'SATYAPAN_SEALING_KEYS']);
      const api = demo.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '';
      const client = createSatyapanClient({ baseUrl: api, apiKey: 'key_split', apiSecret: 'secret_split' });
      const job = (await client.POST('/tds/reports/txt', {
        body: { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' },
      })).data!.data;
      expect((await fetch(job.json_url!, { method: 'PUT', body: JSON.stringify(workbook26Q()) })).status).to.equal(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const waiting = (await client.GET('/tds/reports/txt', { params: { query: { job_id: job.job_id } } })).data!.data;
      expect(waiting.status, 'no worker in the demo').to.equal('queued');
      await mkdir(join(dataDir, 'worker-tmp'));
      worker = spawnProgram(PROGRAMS.worker, { ...settings, SATYAPAN_TMP_DIR: join(dataDir, 'worker-tmp') });
      await worker.waitFor(/statement worker ready/);
      let polled = waiting;
      // Polled every half second, spaced out under load (the worker is a process): the demo client's rate limit is
      // 100 calls a minute.
      for (let i = 0; i < 60 && polled.status !== 'succeeded' && polled.status !== 'failed'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, loadScaled(500)));
        const answer = await client.GET('/tds/reports/txt', { params: { query: { job_id: job.job_id } } });
        expect(answer.response.status).to.equal(200);
        polled = answer.data!.data;
      }
      expect(polled.status, `${JSON.stringify(polled)}\n${worker.output()}`).to.equal('succeeded');
      expect((await (await fetch(polled.txt_url!)).text()).split('\r\n')[0]).to.match(/^1\^FH\^/);

      // A bulk penny-drop job runs in the same worker process, against the demo's sandbox provider.
      const bulk = (await client.POST('/bulk/verifications', { body: { '@entity': 'in.co.service.bulk.verification.request', kind: 'penny_drop' } })).data!.data;
      const csv = `ifsc,account_number,name\n${PENNY_DROP_TEST_IFSC},${PENNY_DROP_TEST_ACCOUNTS.valid},Anjali Rao\n`;
      expect((await fetch(bulk.csv_url!, { method: 'PUT', body: csv })).status).to.equal(200);
      let bulkPolled = bulk;
      for (let i = 0; i < 60 && bulkPolled.status !== 'succeeded' && bulkPolled.status !== 'failed'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, loadScaled(500)));
        bulkPolled = (await client.GET('/bulk/verifications/{job_id}', { params: { path: { job_id: bulk.job_id } } })).data!.data;
      }
      expect(bulkPolled.status, `${JSON.stringify(bulkPolled)}\n${worker.output()}`).to.equal('succeeded');
      expect(bulkPolled.summary).to.deep.equal({ ok: 1, invalid: 0, error: 0, interrupted: 0 });
      expect(await (await fetch(bulkPolled.result_url!)).text()).to.include(',ok,OK,Bank Account details verified successfully.,true,ANJALI RAO,');
    } finally {
      if (worker) await worker.stop();
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
      [{ REDIS_CLUSTER_NODES: '127.0.0.1:7000,redis-b' }, /REDIS_CLUSTER_NODES must be host:port,host:port,\.\.\.: A Redis Cluster node must be host:port, got "redis-b"$/m],
      [{ REDIS_CLUSTER_NODES: '127.0.0.1:1' }, /^No Redis Cluster answers at 127\.0\.0\.1:1 \(REDIS_CLUSTER_NODES\): /m],
      [{ SATYAPAN_TOKEN_SECRET: 'too-short' }, /SATYAPAN_TOKEN_SECRET must be at least 32 bytes/],
      [{ SATYAPAN_DEMO_SECRET: '' }, /SATYAPAN_DEMO_SECRET is set but empty/],
      [{ SATYAPAN_STORAGE_SECRET: ' ' }, /SATYAPAN_STORAGE_SECRET is set but empty/],
      [{ SATYAPAN_ADMIN_PASSWORD: '' }, /SATYAPAN_ADMIN_PASSWORD is set but empty/],
      [{ SATYAPAN_ADMIN_USER: 'ops:team' }, /SATYAPAN_ADMIN_USER must not contain a colon/],
      [{ SATYAPAN_DEMO_RATE_LIMIT: '0' }, /SATYAPAN_DEMO_RATE_LIMIT must be a positive integer, got 0/],
      [{ SATYAPAN_DEMO_WEBHOOK_URL: 'ftp://hooks.example' }, /SATYAPAN_DEMO_WEBHOOK_URL must be an http:\/\/ or https:\/\/ URL/],
      [{ SATYAPAN_S3_BUCKET: '' }, /SATYAPAN_S3_BUCKET is set but empty/],
    ];
    // Three at a time: each case is a process start, and one after the other they take a minute on a busy machine.
    let next = 0;
    await Promise.all(Array.from({ length: 3 }, async () => {
      for (let i = next++; i < cases.length; i = next++) {
        const [env, message] = cases[i]!;
        const demo = spawnDemo({ SATYAPAN_DATA_DIR: dataDir, ...env });
        expect(await demo.exited(), JSON.stringify(env)).to.equal(1);
        expect(demo.output(), JSON.stringify(env)).to.match(message);
        expect(demo.output().trim().split('\n'), JSON.stringify(env)).to.have.length(1);
      }
    }));
  });

  it('keeps revocations across a restart: its private Redis writes an append-only file under the data dir', async () => {
    const first = spawnDemo({ ...SECRETS, SATYAPAN_DATA_DIR: dataDir });
    let revoked: string;
    let current: string;
    try {
      await first.waitFor(/Stop with Ctrl\+C/);
      revoked = runPrintedCurl(first.output()).data.access_token;
      const refreshed = await fetch(`${apiOf(first.output())}/authorize?request_token=${revoked}`, { method: 'POST', headers: { authorization: revoked, 'x-api-key': SECRETS.SATYAPAN_DEMO_KEY } });
      current = await accessTokenOf(refreshed);
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
    this.timeout(loadScaled(90_000));
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

describe('demo host app: a walk through every area on embedded defaults, with the typed client', function () {
  this.timeout(60_000);
  let dataDir: string;
  let demo: ReturnType<typeof spawnDemo>;
  let api: string;
  let client: SatyapanClient;

  before(async function () {
    this.timeout(loadScaled(60_000));
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-walk-'));
    demo = spawnDemo({ SATYAPAN_DEMO_KEY: 'key_walk', SATYAPAN_DEMO_SECRET: 'secret_walk', SATYAPAN_TOKEN_SECRET: WALK_TOKEN_SECRET, SATYAPAN_DATA_DIR: dataDir });
    await demo.waitFor(/Stop with Ctrl\+C/);
    api = demo.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '';
    client = createSatyapanClient({ baseUrl: api, apiKey: 'key_walk', apiSecret: 'secret_walk' });
  });
  after(async () => {
    expect(await demo.stop()).to.equal(0);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the OpenAPI document that @satyapan/client was generated from (npm run generate -w @satyapan/client)', async () => {
    const served = (await (await fetch(`${api}/openapi.json`)).json()) as Record<string, unknown>;
    delete served['servers'];
    const committed = await readFile(CLIENT_OPENAPI, 'utf8');
    expect(served).to.deep.equal(JSON.parse(committed));
    const schema = await readFile(CLIENT_SCHEMA, 'utf8');
    expect(schema.split('\n')[0]).to.equal(`// Generated from openapi.json sha256:${createHash('sha256').update(committed).digest('hex')}`);
  });

  it('looks up a branch of the bundled sample directory and verifies a penny-drop test account', async () => {
    const material = `key_walk\nKKBK0000131\n${PENNY_DROP_TEST_ACCOUNTS.valid}`;
    const keyPrefix = demo.output().match(/Key prefix\s+(\S+)/)?.[1];
    expect(keyPrefix).to.equal(dataDirKeyPrefix(dataDir));
    const cacheKey = (id: string) => `${keyPrefix}:bank:pd:{${id}}:answer`;
    const redis = new Redis('redis://127.0.0.1:6379');
    // A run of an older demo on the shared Redis may have left the plain-hash key behind.
    await redis.del(cacheKey(sha256Hex(material)));
    const branch = await client.GET('/bank/{ifsc}', { params: { path: { ifsc: 'kkbk0000131' } } });
    expect(branch.data).to.include({ IFSC: 'KKBK0000131', BANKCODE: 'KKBK', CITY: 'KANPUR' });
    const verified = await client.GET('/bank/{ifsc}/accounts/{account_number}/verify', {
      params: { path: { ifsc: 'KKBK0000131', account_number: PENNY_DROP_TEST_ACCOUNTS.valid } },
    });
    expect(verified.response.status).to.equal(200);
    expect(verified.data?.data).to.include({ account_exists: true, amount_deposited: '1' });
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
    const operation = '/bank/{ifsc}/accounts/{account_number}/penniless-verify';
    const account = (account_number: string) => ({ params: { path: { ifsc: 'KKBK0000131', account_number } } });
    const fresh = await client.GET(operation, account(PENNY_LESS_TEST_ACCOUNTS.business));
    expect(fresh.response.status).to.equal(200);
    expect(fresh.data?.data).to.deep.equal({
      '@entity': '@in.co.service.bank.account.penny_less_verification_response', account_exists: true, name_at_bank: 'SATYAPAN DEMO TECHNOLOGIES PVT LTD',
    });
    const cached = await client.GET(operation, { ...account(PENNY_LESS_TEST_ACCOUNTS.business), headers: { 'x-accept-cache': 'true' } });
    expect(cached.data?.data).to.deep.equal(fresh.data?.data);
    const unknown = await client.GET(operation, account(PENNY_LESS_TEST_ACCOUNTS.invalidAccount));
    expect(unknown.data?.data).to.include({ message: 'Invalid account number or ifsc provided', account_exists: false });
    const openapi = (await (await fetch(`${api}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(openapi.paths).to.include.keys(operation, '/kyc/docvault/user/verify');
  });

  it('tells whether a docvault account exists for a mobile or Aadhaar number', async () => {
    const entity = 'in.co.service.kyc.docvault.user.verification.request';
    const known = await client.POST('/kyc/docvault/user/verify', { body: { '@entity': entity, aadhaar_number: LOCKER_INDIVIDUALS[0]!.aadhaarNumber } });
    expect(known.response.status).to.equal(200);
    expect(known.data?.data).to.deep.equal({ '@entity': 'in.co.service.kyc.docvault.user.verification.response', user_exists: true });
    const unknown = await client.POST('/kyc/docvault/user/verify', { body: { '@entity': entity, mobile: '9000000001' } });
    expect(unknown.data?.data.user_exists).to.equal(false);
  });

  it('walks a docvault consent through the locker simulator to the profile', async () => {
    const init = await client.POST('/kyc/docvault/sessions/init', {
      body: { '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: 'https://merchant.example/back', doc_types: ['pan'] },
    });
    expect(init.response.status).to.equal(200);
    const session = init.data!.data;
    const { response } = await consentAtLocker(session.authorization_url, { user: LOCKER_INDIVIDUALS[0]!.id, documents: ['PANCR'] });
    expect(response.status).to.equal(302);
    const profile = await client.GET('/kyc/docvault/sessions/{session_id}/user/profile', { params: { path: { session_id: session.session_id } } });
    expect(profile.data?.data).to.include({ name: LOCKER_INDIVIDUALS[0]!.name });
  });

  it('converts a statement with the in-process worker', async () => {
    const job = await client.POST('/tds/reports/txt', {
      body: { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' },
    });
    expect(job.response.status).to.equal(200);
    const created = job.data!.data;
    const upload = await fetch(created.json_url!, { method: 'PUT', body: JSON.stringify(workbook26Q()) });
    expect(upload.status).to.equal(200);
    let polled = created;
    // Polled gently, and more gently under load: the demo client's rate limit (100 a minute) is shared with every
    // demo on this Redis.
    for (let i = 0; i < 120 && !['succeeded', 'failed'].includes(polled.status); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, loadScaled(250)));
      polled = (await client.GET('/tds/reports/txt', { params: { query: { job_id: created.job_id } } })).data!.data;
    }
    expect(polled.status, JSON.stringify(polled)).to.equal('succeeded');
    const txt = await (await fetch(polled.txt_url!)).text();
    expect(txt.split('\r\n')[0]).to.match(/^1\^FH\^/);
  });

  it('runs a bulk IFSC and penny-less job with the in-process worker', async () => {
    const submit = async (kind: 'ifsc' | 'penny_less', csv: string) => {
      const created = (await client.POST('/bulk/verifications', { body: { '@entity': 'in.co.service.bulk.verification.request', kind } })).data!.data;
      expect((await fetch(created.csv_url!, { method: 'PUT', body: csv })).status).to.equal(200);
      let polled = created;
      for (let i = 0; i < 120 && !['succeeded', 'failed'].includes(polled.status); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, loadScaled(250)));
        polled = (await client.GET('/bulk/verifications/{job_id}', { params: { path: { job_id: created.job_id } } })).data!.data;
      }
      expect(polled.status, JSON.stringify(polled)).to.equal('succeeded');
      return { polled, result: await (await fetch(polled.result_url!)).text() };
    };
    const ifsc = await submit('ifsc', `ifsc\n${PENNY_DROP_TEST_IFSC}\nNOPE\n`);
    expect(ifsc.polled.summary).to.deep.equal({ ok: 1, invalid: 1, error: 0, interrupted: 0 });
    expect(ifsc.result).to.include('Kotak Mahindra Bank');
    const pennyLess = await submit('penny_less', `ifsc,account_number\n${PENNY_DROP_TEST_IFSC},${PENNY_LESS_TEST_ACCOUNTS.individual}\n`);
    expect(pennyLess.polled.summary.ok).to.equal(1);
  });

  // After the walk above: lookups, verifications, a locker consent and a statement job have happened.
  it('serves Prometheus metrics at /metrics (outside /api) with the series of every part, no identity data', async () => {
    // A number of its own each run: the same number is throttled for 45 s, and this walk's Redis keys persist.
    const aadhaar = `9${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
    const aadhaarNumber = `${aadhaar}${verhoeffCheckDigit(aadhaar)}`;
    const sent = await client.POST('/kyc/aadhaar/okyc/otp', {
      body: { '@entity': 'in.co.service.kyc.aadhaar.okyc.otp.request', aadhaar_number: aadhaarNumber, consent: 'y', reason: 'For KYC' },
    });
    expect(sent.response.status).to.equal(200);
    const metricsUrl = demo.output().match(/Metrics\s+(\S+)/)?.[1] ?? '';
    expect(metricsUrl).to.equal(`${api.replace(/\/api$/, '')}/metrics`);
    const response = await fetch(metricsUrl);
    expect(response.status).to.equal(200);
    const text = await response.text();
    const value = (series: string): number => {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
      expect(line, `${series} in\n${text}`).not.to.equal(undefined);
      return Number(line!.slice(series.length + 1));
    };
    const http = (method: string, route: string, status: number) => value(`satyapan_http_request_duration_seconds_count{method="${method}",route="${route}",status="${status}"}`);
    expect(http('get', '/bank/:ifsc', 200)).to.be.at.least(1);
    expect(http('get', '/bank/:ifsc/accounts/:account_number/verify', 200)).to.be.at.least(1);
    expect(http('post', '/tds/reports/txt', 200)).to.equal(1);
    const upstream = (name: string, operation: string) => value(`satyapan_upstream_request_duration_seconds_count{upstream="${name}",operation="${operation}",outcome="ok"}`);
    expect(upstream('penny_drop', 'verify')).to.be.at.least(1);
    expect(upstream('penny_less', 'verify')).to.be.at.least(2);
    expect(upstream('docvault', 'accountExists')).to.equal(2);
    expect(upstream('docvault', 'exchangeCode')).to.equal(1);
    expect(upstream('aadhaar_otp', 'sendOtp')).to.equal(1);
    expect(value('satyapan_cache_lookups_total{cache="penny_less",result="hit"}')).to.equal(1);
    expect(value('satyapan_statement_jobs_total{state="created"}')).to.equal(1);
    expect(value('satyapan_statement_jobs_total{state="succeeded"}')).to.equal(1);
    expect(value('satyapan_statement_conversion_duration_seconds_count{outcome="converted"}')).to.equal(1);
    expect(value('satyapan_queue_jobs{queue="{statements}",state="waiting"}')).to.equal(0);
    expect(value('satyapan_queue_jobs{queue="{statement-webhooks}",state="failed"}')).to.equal(0);
    expect(value('satyapan_webhook_deliveries_total{outcome="delivered"}')).to.equal(0); // the demo client has no webhook URL
    // The two bulk jobs of the walk (an IFSC file: one ok row, one invalid; a penny-less file: one ok row).
    const bulk: [string, number][] = [
      ['satyapan_bulk_jobs_total{state="created"}', 2], ['satyapan_bulk_jobs_total{state="succeeded"}', 2],
      ['satyapan_bulk_jobs_total{state="failed"}', 0], ['satyapan_bulk_rows_total{outcome="ok"}', 2],
      ['satyapan_bulk_rows_total{outcome="invalid"}', 1], ['satyapan_bulk_run_duration_seconds_count{outcome="succeeded"}', 2],
      ['satyapan_queue_jobs{queue="{bulk}",state="waiting"}', 0],
    ];
    for (const [series, expected] of bulk) expect(value(series), series).to.equal(expected);
    expect(text).to.include('satyapan_process_cpu_user_seconds_total');
    for (const identifying of [PENNY_DROP_TEST_ACCOUNTS.valid, PENNY_LESS_TEST_ACCOUNTS.business, 'KKBK0000131', 'key_walk', LOCKER_INDIVIDUALS[0]!.aadhaarNumber, aadhaarNumber]) {
      expect(text).not.to.include(identifying);
    }
  });

  it('answers liveness and readiness, the in-process worker included', async () => {
    expect((await fetch(`${api}/health/live`)).status).to.equal(200);
    const ready = await fetch(`${api}/health/ready`);
    expect(ready.status).to.equal(200);
    expect(((await ready.json()) as { data: unknown }).data).to.deep.equal({ status: 'ok', redis: 'up', worker: 'up' });
  });
});
