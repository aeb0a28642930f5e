import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { LOCKER_INDIVIDUALS, PENNY_DROP_TEST_ACCOUNTS } from '@satyapan/sandbox';
import { createSatyapanClient, type SatyapanClient } from '@satyapan/client';
import { spawnDemo } from './support/spawn-program.js';
import { workbook26Q } from './statements-support/workbooks.js';
import { consentAtLocker } from '../packages/kyc/test/support/stack.js';

const CLIENT_OPENAPI = fileURLToPath(new URL('../packages/client/openapi.json', import.meta.url));
const CLIENT_SCHEMA = fileURLToPath(new URL('../packages/client/src/schema.ts', import.meta.url));

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

describe('demo host app: a walk through every area on embedded defaults, with the typed client', function () {
  this.timeout(60_000);
  let dataDir: string;
  let demo: ReturnType<typeof spawnDemo>;
  let api: string;
  let client: SatyapanClient;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-walk-'));
    demo = spawnDemo({ SATYAPAN_DEMO_KEY: 'key_walk', SATYAPAN_DEMO_SECRET: 'secret_walk', SATYAPAN_DATA_DIR: dataDir });
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
    const branch = await client.GET('/bank/{ifsc}', { params: { path: { ifsc: 'kkbk0000131' } } });
    expect(branch.data).to.include({ IFSC: 'KKBK0000131', BANKCODE: 'KKBK', CITY: 'KANPUR' });
    const verified = await client.GET('/bank/{ifsc}/accounts/{account_number}/verify', {
      params: { path: { ifsc: 'KKBK0000131', account_number: PENNY_DROP_TEST_ACCOUNTS.valid } },
    });
    expect(verified.response.status).to.equal(200);
    expect(verified.data?.data).to.include({ account_exists: true, amount_deposited: '1' });
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
    // Polled gently: the demo client's rate limit (100 a minute) is shared with every demo on this Redis.
    for (let i = 0; i < 120 && !['succeeded', 'failed'].includes(polled.status); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      polled = (await client.GET('/tds/reports/txt', { params: { query: { job_id: created.job_id } } })).data!.data;
    }
    expect(polled.status, JSON.stringify(polled)).to.equal('succeeded');
    const txt = await (await fetch(polled.txt_url!)).text();
    expect(txt.split('\r\n')[0]).to.match(/^1\^FH\^/);
  });
});
