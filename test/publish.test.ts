// A new team's first hour, as the docs lay it out, outside the repository and from the packed tarballs only:
// `npm run pack:all`, then README.md's install line of each host set in a brand-new app (npm finds our packages
// nowhere else: a line that forgot one fails), then docs/EMBEDDING.md's snippets in those apps: the ES module on
// Express 5 and 4 (and compiled from TypeScript), the CommonJS one in JavaScript and compiled from TypeScript, a
// statement job converted by `satyapan-worker` of its own install, and the queue dashboard.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import {
  PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC, startPennyDropSimulator, type PennyDropSimulator,
} from '@satyapan/sandbox';
import { REPO_ROOT, fileSnippet, packageOfArgument, readmeInstalls } from './support/readme.js';
import { deleteKeysMatching } from './support/redis-cluster.js';
import { spawnProgram, type ProgramProcess } from './support/spawn-program.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';
import { accessTokenOf } from './support/tokens.js';
import { workbook26Q } from './statements-support/workbooks.js';

const run = promisify(execFile);
const DOC = 'docs/EMBEDDING.md';
const BIG_OUTPUT = { maxBuffer: 10 * 1024 * 1024 };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, program: ProgramProcess): Promise<void> {
  for (const deadline = Date.now() + loadScaled(15_000); Date.now() < deadline;) {
    if (program.child.exitCode !== null) break;
    if (await fetch(url).then((res) => res.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer; output:\n${program.output()}`);
}

/** The README's install line that installs `marker` (and not `unless`), as written there. */
async function installLine(marker: string, unless?: string): Promise<string> {
  const lines = (await readmeInstalls('Installing')).filter(({ args }) => args.some((arg) => arg.includes('$SATYAPAN_PACKED')));
  const found = lines.find(({ args }) => {
    const names = args.map(packageOfArgument);
    return names.includes(marker) && (unless === undefined || !names.includes(unless));
  });
  if (!found) throw new Error(`README.md "Installing" has no tarball install line with ${marker}${unless ? ` and without ${unless}` : ''}`);
  return found.command;
}

/**
 * A brand-new app outside the repository that ran `command` (the README's line, through a shell, with
 * SATYAPAN_PACKED set as the README says) and then `extra` packages from the registry (Express's version, types).
 */
async function freshApp(packed: string, command: string, type: 'module' | 'commonjs', extra: readonly string[] = []): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-fresh-app-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type }));
  const quiet = { ...process.env, SATYAPAN_PACKED: packed, npm_config_audit: 'false', npm_config_fund: 'false' };
  await run('bash', ['-c', command], { cwd: dir, env: quiet, ...BIG_OUTPUT });
  if (extra.length > 0) await run('npm', ['install', ...extra], { cwd: dir, env: quiet, ...BIG_OUTPUT });
  return dir;
}

/** The environment docs/EMBEDDING.md's table describes, for an app at `publicUrl` on `port`. */
function hostEnvironment(publicUrl: string, port: number, dataDir: string, keyPrefix: string, shared: Record<string, string>): Record<string, string> {
  return {
    ...shared, PORT: String(port), SATYAPAN_PUBLIC_URL: publicUrl, SATYAPAN_DATA_DIR: dataDir, SATYAPAN_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'warn',
  };
}

describe('install from the packed tarballs: each documented host, outside the repository', function () {
  this.timeout(600_000);
  const keyPrefix = `test-publish-${randomUUID()}`;
  const dirs: string[] = [];
  let work: string;
  let pennyDrop: PennyDropSimulator;
  let redis: RedisConnection;
  let shared: Record<string, string>;
  const apps: { everything5: string; everything4: string; bankOnly: string; worker: string } = { everything5: '', everything4: '', bankOnly: '', worker: '' };

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'satyapan-packed-'));
    dirs.push(work);
    const packed = join(work, 'packed');
    await run('npm', ['run', '--silent', 'pack:all', '--', packed], { cwd: REPO_ROOT, ...BIG_OUTPUT });
    const [everything, bankOnly, worker] = await Promise.all([
      installLine('@satyapan/queue-dashboard'), installLine('@satyapan/bank', '@satyapan/kyc'), installLine('@satyapan/worker'),
    ]);
    // Two lanes: npm installs wait on the network and the disk more than on the two cores.
    const express = (version: number) => everything.replace(/^npm install express /, `npm install express@${version} `);
    await Promise.all([
      (async () => {
        apps.everything5 = await freshApp(packed, express(5), 'module', ['--save-dev', '@types/express@5', '@types/node@20']);
        apps.worker = await freshApp(packed, worker, 'commonjs');
      })(),
      (async () => {
        apps.everything4 = await freshApp(packed, express(4), 'module');
        apps.bankOnly = await freshApp(packed, bankOnly.replace(/^npm install express /, 'npm install express@4 '), 'commonjs', ['--save-dev', '@types/express@4', '@types/node@20']);
      })(),
    ]);
    dirs.push(...Object.values(apps));
    pennyDrop = await startPennyDropSimulator();
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'publish-test' });
    await waitForRedis(redis);
    shared = {
      SATYAPAN_SEALING_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      SATYAPAN_STORAGE_SECRET: randomBytes(32).toString('hex'), SATYAPAN_TOKEN_SECRET: randomBytes(32).toString('hex'),
      SATYAPAN_CLIENT_KEY: 'key_live_1', SATYAPAN_CLIENT_SECRET: randomBytes(16).toString('hex'),
      SATYAPAN_PENNY_DROP_URL: `${pennyDrop.url}/verification`, SATYAPAN_PENNY_DROP_CLIENT_ID: pennyDrop.clientId,
      SATYAPAN_PENNY_DROP_CLIENT_SECRET: pennyDrop.clientSecret, SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET: randomBytes(32).toString('hex'),
      SATYAPAN_DOCVAULT_URL: 'http://127.0.0.1:9/public', SATYAPAN_ENTITYVAULT_URL: 'http://127.0.0.1:9/public',
      SATYAPAN_LOCKER_CLIENT_ID: 'locker-id', SATYAPAN_LOCKER_CLIENT_SECRET: 'locker-secret', SATYAPAN_STATE_SECRET: randomBytes(32).toString('hex'),
      SATYAPAN_ADMIN_PASSWORD: randomBytes(12).toString('hex'),
    };
  });
  after(async () => {
    await pennyDrop?.close();
    if (redis) {
      await deleteKeysMatching(redis, `${keyPrefix}*`);
      redis.disconnect();
    }
    for (const dir of dirs) if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Starts `main` of `dir` as the docs say to run it, with the documented environment; its API URL. */
  async function startHost(dir: string, main: string): Promise<{ app: ProgramProcess; publicUrl: string; api: string; env: Record<string, string> }> {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const dataDir = join(dir, `data-${port}`);
    await mkdir(dataDir);
    const env = hostEnvironment(publicUrl, port, dataDir, keyPrefix, shared);
    const app = spawnProgram(join(dir, main), env, { cwd: dir, nodeArgs: [] });
    await waitForHttp(`${publicUrl}/api/openapi.json`, app).catch(async (error: unknown) => { await app.stop(); throw error; });
    return { app, publicUrl, api: `${publicUrl}/api`, env };
  }

  async function signIn(api: string): Promise<Record<string, string>> {
    const auth = await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': 'key_live_1', 'x-api-secret': shared['SATYAPAN_CLIENT_SECRET']! } });
    return { authorization: await accessTokenOf(auth), 'x-api-key': 'key_live_1', 'content-type': 'application/json' };
  }

  async function expectBank(api: string, headers: Record<string, string>): Promise<void> {
    const branch = await fetch(`${api}/bank/ABNA0100310`, { headers });
    expect(branch.status).to.equal(200);
    expect(((await branch.json()) as { IFSC: string }).IFSC).to.equal('ABNA0100310');
    const penny = await fetch(`${api}/bank/${PENNY_DROP_TEST_IFSC}/accounts/${PENNY_DROP_TEST_ACCOUNTS.valid}/verify`, { headers });
    expect(penny.status).to.equal(200);
    expect(((await penny.json()) as { data: { account_exists: boolean } }).data.account_exists).to.equal(true);
  }

  async function submitStatement(api: string, publicUrl: string, headers: Record<string, string>): Promise<{ job_id: string; json_url: string }> {
    const job = await fetch(`${api}/tds/reports/txt`, {
      method: 'POST', headers,
      body: JSON.stringify({ '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' }),
    });
    expect(job.status).to.equal(200);
    const data = ((await job.json()) as { data: { status: string; job_id: string; json_url: string } }).data;
    expect(data.status).to.equal('created');
    expect(data.json_url.startsWith(`${publicUrl}/api/storage/`), data.json_url).to.equal(true);
    return data;
  }

  it('Express 5, ES module (app.mjs): every area and the dashboard; satyapan-worker of its own install converts a statement job', async () => {
    await writeFile(join(apps.everything5, 'app.mjs'), await fileSnippet(DOC, 'app.mjs'));
    const { app, publicUrl, api, env } = await startHost(apps.everything5, 'app.mjs');
    let worker: ProgramProcess | undefined;
    try {
      const headers = await signIn(api);
      await expectBank(api, headers);
      const job = await submitStatement(api, publicUrl, headers);
      expect((await fetch(job.json_url, { method: 'PUT', body: JSON.stringify(workbook26Q()) })).status).to.equal(200);

      // The worker as docs/EMBEDDING.md runs it: the app's variables, and the router's storage URL.
      const bin = join(apps.worker, 'node_modules', '.bin', 'satyapan-worker');
      worker = spawnProgram(bin, { ...env, SATYAPAN_STORAGE_URL: `${api}/storage` }, { cwd: apps.worker, nodeArgs: [] });
      await worker.waitFor(/statement worker ready/, 30_000);
      let polled = { status: '', txt_url: '' };
      for (let attempt = 0; attempt < 120 && polled.status !== 'succeeded' && polled.status !== 'failed'; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, loadScaled(500)));
        polled = ((await (await fetch(`${api}/tds/reports/txt?job_id=${job.job_id}`, { headers })).json()) as { data: typeof polled }).data;
      }
      expect(polled.status, `${JSON.stringify(polled)}\n${worker.output()}`).to.equal('succeeded');
      expect((await (await fetch(polled.txt_url)).text()).split('\r\n')[0]).to.match(/^1\^FH\^/);

      const dashboard = `${publicUrl}/admin/queues/api/queues`;
      expect((await fetch(dashboard)).status).to.equal(401);
      const basic = `Basic ${Buffer.from(`admin:${shared['SATYAPAN_ADMIN_PASSWORD']}`).toString('base64')}`;
      const queues = await fetch(dashboard, { headers: { authorization: basic } });
      expect(queues.status).to.equal(200);
      expect(((await queues.json()) as { queues: unknown[] }).queues).to.have.length(3);
    } finally {
      if (worker) expect(await worker.stop(), worker.output()).to.equal(0);
      await app.stop();
    }
  });

  it('Express 5, TypeScript (the same module as app.ts, compiled with the documented tsconfig.json): serves the bank area', async () => {
    await writeFile(join(apps.everything5, 'app.ts'), await fileSnippet(DOC, 'app.mjs'));
    await writeFile(join(apps.everything5, 'tsconfig.json'), await fileSnippet(DOC, 'tsconfig.json'));
    // The repository's compiler (the README's `npm install --save-dev typescript` gives the app its own).
    await run(join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', apps.everything5], BIG_OUTPUT);
    const { app, api } = await startHost(apps.everything5, join('dist', 'app.js'));
    try {
      await expectBank(api, await signIn(api));
    } finally {
      await app.stop();
    }
  });

  it('Express 4, ES module (app.mjs): authenticate, the bank area and a statement job', async () => {
    await writeFile(join(apps.everything4, 'app.mjs'), await fileSnippet(DOC, 'app.mjs'));
    const { app, publicUrl, api } = await startHost(apps.everything4, 'app.mjs');
    try {
      const headers = await signIn(api);
      await expectBank(api, headers);
      await submitStatement(api, publicUrl, headers);
    } finally {
      await app.stop();
    }
  });

  it('Express 4, CommonJS, the bank-only install: app.cjs, and app.cts compiled; no queue, S3, Excel or OpenID code installed', async () => {
    for (const absent of ['bullmq', '@aws-sdk/client-s3', 'exceljs', 'openid-client', '@satyapan/statement-queue']) {
      expect(existsSync(join(apps.bankOnly, 'node_modules', absent)), absent).to.equal(false);
    }
    const packedBank = await readdir(join(apps.bankOnly, 'node_modules', '@satyapan', 'bank'));
    expect(packedBank).to.include.members(['LICENSE', 'README.md', 'dist', 'package.json']);
    expect(await readdir(join(apps.bankOnly, 'node_modules', '@satyapan', 'bank', 'dist'))).to.not.include('.tsbuildinfo');

    await writeFile(join(apps.bankOnly, 'app.cjs'), await fileSnippet(DOC, 'app.cjs'));
    await writeFile(join(apps.bankOnly, 'app.cts'), await fileSnippet(DOC, 'app.cts'));
    await writeFile(join(apps.bankOnly, 'tsconfig.json'), await fileSnippet(DOC, 'tsconfig.json'));
    await run(join(REPO_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', apps.bankOnly], BIG_OUTPUT);
    for (const main of ['app.cjs', join('dist', 'app.cjs')]) {
      const { app, api } = await startHost(apps.bankOnly, main);
      try {
        await expectBank(api, await signIn(api));
      } finally {
        await app.stop();
      }
    }
  });
});
