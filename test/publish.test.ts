// A real publish, tested as a new user meets it: every package is published to a real npm registry on loopback
// (Verdaccio), then fresh apps outside the repository install exactly what README.md says, run the README's
// mounting snippet on Express 4 and on Express 5, and call authenticate, an IFSC lookup, a penny drop and a
// statement job submit. A bank-only app must not have BullMQ (nor the AWS SDK, exceljs, openid-client).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC, startPennyDropSimulator, type PennyDropSimulator,
} from '@satyapan/sandbox';
import { REPO_ROOT, readmeBlocks, readmeInstalls } from './support/readme.js';
import { spawnProgram, type ProgramProcess } from './support/spawn-program.js';

const run = promisify(execFile);
const NPM = 'npm';
const MOUNTING = 'Mounting the router in an existing app';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Verdaccio as its own process, storing under `dir`, serving only what we publish (no uplink). */
async function startRegistry(dir: string): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const port = await freePort();
  const config = join(dir, 'config.yaml');
  await writeFile(config, [
    `storage: ${join(dir, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${join(dir, 'htpasswd')}`,
    'packages:',
    "  '@satyapan/*':",
    '    access: $all',
    '    publish: $authenticated',
    'log: { type: stdout, format: json, level: error }',
    '',
  ].join('\n'));
  const verdaccio = spawnVerdaccio(config, port);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/-/ping`, verdaccio);
  const user = await fetch(`${url}/-/user/org.couchdb.user:ci`, {
    method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ci', password: randomBytes(12).toString('hex') }),
  });
  const { token } = (await user.json()) as { token: string };
  return { url, token, close: async () => void (await verdaccio.stop()) };
}

function spawnVerdaccio(config: string, port: number): ProgramProcess {
  return spawnProgram(join(REPO_ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), {}, {
    nodeArgs: [], args: ['--config', config, '--listen', `127.0.0.1:${port}`],
  });
}

async function waitForHttp(url: string, process: ProgramProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await fetch(url).then((res) => res.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer; output:\n${process.output()}`);
}

async function publishAll(registry: { url: string; token: string }, dir: string): Promise<string[]> {
  const userconfig = join(dir, 'publish.npmrc');
  await writeFile(userconfig, `//127.0.0.1:${new URL(registry.url).port}/:_authToken=${registry.token}\n`);
  const names = (await readdir(join(REPO_ROOT, 'packages'))).sort();
  for (const name of names) {
    await run(NPM, ['publish', '--registry', registry.url, '--userconfig', userconfig, '--no-git-checks'], {
      cwd: join(REPO_ROOT, 'packages', name), env: { ...process.env, npm_config_provenance: 'false' },
    });
  }
  return names;
}

/** A brand-new app outside the repository, with our scope resolved from the loopback registry. */
async function freshApp(registryUrl: string, packages: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-fresh-app-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
  await writeFile(join(dir, '.npmrc'), `@satyapan:registry=${registryUrl}/\n`);
  await run(NPM, ['install', '--no-audit', '--no-fund', ...packages], { cwd: dir, maxBuffer: 10 * 1024 * 1024 });
  return dir;
}

describe('publish and install: a fresh app from a registry mounts the README snippet', function () {
  this.timeout(600_000);
  let work: string;
  let registry: Awaited<ReturnType<typeof startRegistry>>;
  let pennyDrop: PennyDropSimulator;
  const apps: string[] = [];

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'satyapan-registry-'));
    await mkdir(join(work, 'storage'));
    registry = await startRegistry(work);
    await publishAll(registry, work);
    pennyDrop = await startPennyDropSimulator();
  });
  after(async () => {
    await pennyDrop?.close();
    await registry?.close();
    for (const dir of [work, ...apps]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const express of ['express@4', 'express@5']) {
    it(`${express}: the README's install and snippet serve authenticate, an IFSC lookup, a penny drop and a statement job`, async () => {
      const installs = await readmeInstalls(MOUNTING);
      const everything = installs.find((packages) => packages.includes('@satyapan/statement-queue'));
      expect(everything, 'README has an install line with every area').to.not.equal(undefined);
      const dir = await freshApp(registry.url, [...everything!.map((name) => (name === 'express' ? express : name)), 'tsx']);
      apps.push(dir);
      const [snippet] = await readmeBlocks(MOUNTING, 'ts');
      await writeFile(join(dir, 'app.ts'), snippet!);
      const port = await freePort();
      const secrets = { CLIENT_SECRET: randomBytes(16).toString('hex'), TOKEN_SECRET: randomBytes(32).toString('hex') };
      const app = spawnProgram(join(dir, 'app.ts'), {
        ...secrets, PORT: String(port), DATA_DIR: join(dir, 'data'),
        SEALING_KEY: randomBytes(32).toString('base64'), STORAGE_SECRET: randomBytes(32).toString('hex'),
        STATE_SECRET: randomBytes(32).toString('hex'),
        PENNY_DROP_URL: `${pennyDrop.url}/verification`, PENNY_DROP_ID: pennyDrop.clientId, PENNY_DROP_SECRET: pennyDrop.clientSecret,
        DOCVAULT_URL: 'http://127.0.0.1:9/public', ENTITYVAULT_URL: 'http://127.0.0.1:9/public', LOCKER_ID: 'id', LOCKER_SECRET: 'secret',
      }, { cwd: dir, nodeArgs: ['--import', 'tsx'] });
      try {
        const base = `http://127.0.0.1:${port}/kyc-api`;
        await waitForHttp(`${base}/openapi.json`, app);
        const auth = await fetch(`${base}/authenticate`, { method: 'POST', headers: { 'x-api-key': 'key_live_1', 'x-api-secret': secrets.CLIENT_SECRET } });
        expect(auth.status).to.equal(200);
        const token = ((await auth.json()) as { data: { access_token: string } }).data.access_token;
        const headers = { authorization: token, 'x-api-key': 'key_live_1', 'content-type': 'application/json' };

        const branch = await fetch(`${base}/bank/ABNA0100310`, { headers });
        expect(branch.status).to.equal(200);
        expect(((await branch.json()) as { IFSC: string }).IFSC).to.equal('ABNA0100310');

        const penny = await fetch(`${base}/bank/${PENNY_DROP_TEST_IFSC}/accounts/${PENNY_DROP_TEST_ACCOUNTS.valid}/verify`, { headers });
        expect(penny.status).to.equal(200);
        expect(((await penny.json()) as { data: { account_exists: boolean } }).data.account_exists).to.equal(true);

        const job = await fetch(`${base}/tds/reports/txt`, {
          method: 'POST', headers,
          body: JSON.stringify({ '@entity': 'in.co.service.tds.reports.request', tan: 'AHMA09719D', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' }),
        });
        expect(job.status).to.equal(200);
        const data = ((await job.json()) as { data: { status: string; json_url: string } }).data;
        expect(data.status).to.equal('created');
        expect(data.json_url).to.match(/^https:\/\/api\.example\.com\/kyc-api\/storage\//);

        // The snippet's API reference, on this Express: our page, its initializer and Swagger UI's bundle.
        for (const path of ['/docs', '/docs/init.js', '/docs/assets/swagger-ui-bundle.js']) {
          const page = await fetch(`http://127.0.0.1:${port}${path}`);
          expect(page.status, path).to.equal(200);
          expect(page.headers.get('content-security-policy'), path).to.include("frame-ancestors 'none'");
        }
      } finally {
        await app.stop();
      }
    });
  }

  it('a bank-only app (the README\'s second install line) has no queue, S3, Excel or OpenID code', async () => {
    const installs = await readmeInstalls(MOUNTING);
    const bankOnly = installs.find((packages) => packages.includes('@satyapan/bank') && !packages.includes('@satyapan/kyc'));
    expect(bankOnly, 'README has a bank-only install line').to.not.equal(undefined);
    const dir = await freshApp(registry.url, bankOnly!);
    apps.push(dir);
    for (const absent of ['bullmq', '@aws-sdk/client-s3', 'exceljs', 'openid-client', '@satyapan/statement-queue']) {
      expect(existsSync(join(dir, 'node_modules', absent)), absent).to.equal(false);
    }
    expect(existsSync(join(dir, 'node_modules', '@satyapan', 'bank', 'dist', 'index.js'))).to.equal(true);
    const packed = await readdir(join(dir, 'node_modules', '@satyapan', 'bank'));
    expect(packed).to.include.members(['LICENSE', 'README.md', 'dist', 'package.json']);
    expect(await readdir(join(dir, 'node_modules', '@satyapan', 'bank', 'dist'))).to.not.include('.tsbuildinfo');
  });
});
