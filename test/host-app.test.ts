import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { LOCKER_INDIVIDUALS, PENNY_DROP_TEST_ACCOUNTS } from '@satyapan/sandbox';
import { spawnDemo } from './support/spawn-program.js';
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

describe('demo host app: a walk through every area on embedded defaults', function () {
  this.timeout(60_000);
  let dataDir: string;
  let demo: ReturnType<typeof spawnDemo>;
  let api: string;
  let headers: Record<string, string>;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-walk-'));
    demo = spawnDemo({ SATYAPAN_DEMO_KEY: 'key_walk', SATYAPAN_DEMO_SECRET: 'secret_walk', SATYAPAN_DATA_DIR: dataDir });
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
    const branch = await call('GET', '/bank/kkbk0000131');
    expect(branch.body).to.include({ IFSC: 'KKBK0000131', BANKCODE: 'KKBK', CITY: 'KANPUR' });
    const verified = await call('GET', `/bank/KKBK0000131/accounts/${PENNY_DROP_TEST_ACCOUNTS.valid}/verify`);
    expect(verified.status).to.equal(200);
    expect(verified.body.data).to.include({ account_exists: true, amount_deposited: '1' });
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
