// docs/EMBEDDING.md as a new team reads it, checked inside the repository (fast; running the snippets in apps
// outside it, from the packed tarballs, is test/publish.test.ts): the TypeScript snippets type-check, each
// variable the snippets read stops them with one error naming it when it is missing, and the variables table
// lists exactly what the snippets and the worker read. README.md's install lines name every package they need.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withOurDependencies } from '../scripts/packages.js';
import { REPO_ROOT, fileSnippet, packageOfArgument, readmeInstalls } from './support/readme.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

const run = promisify(execFile);
const DOC = 'docs/EMBEDDING.md';

/** What a snippet reads: the names given to requiredEnv and optionalEnv, in order. */
function variablesOf(snippet: string): { required: string[]; optional: string[] } {
  const names = (fn: string) => [...snippet.matchAll(new RegExp(`${fn}\\('([A-Z_0-9]+)'`, 'g'))].map((match) => match[1]!);
  return { required: [...new Set(names('requiredEnv'))], optional: [...new Set(names('optionalEnv'))] };
}

/** A value for every variable a snippet needs, each well-formed (the point is which one is missing). */
function completeEnvironment(names: readonly string[]): Record<string, string> {
  const special: Record<string, string> = {
    SATYAPAN_PUBLIC_URL: 'http://127.0.0.1:9',
    SATYAPAN_SEALING_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    SATYAPAN_PENNY_DROP_URL: 'http://127.0.0.1:9/verification',
    SATYAPAN_DOCVAULT_URL: 'http://127.0.0.1:9/public',
    SATYAPAN_ENTITYVAULT_URL: 'http://127.0.0.1:9/public',
  };
  return Object.fromEntries(names.map((name) => [name, special[name] ?? randomBytes(24).toString('hex')]));
}

/** Runs `file` in `dir` with `env` (nothing of this process's SATYAPAN_* leaks in); its exit code and stderr. */
async function runSnippet(dir: string, file: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SATYAPAN_') && name !== 'PORT'));
  return run(process.execPath, [file], { cwd: dir, env: { ...clean, PORT: '0', ...env }, timeout: loadScaled(20_000) })
    .then(() => ({ code: 0, stderr: '' }), (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? '' }));
}

/** Runs `task` over `items`, `width` at a time (each is a Node process: the machine has few cores). */
async function inBatches<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += width) await Promise.all(items.slice(start, start + width).map(task));
}

describe('docs/EMBEDDING.md, inside the repository', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    // Inside the repository, so that the workspace packages (their built dist/) and express resolve as in an app.
    dir = await mkdtemp(join(REPO_ROOT, '.embedding-'));
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'embedding-check', private: true, type: 'module' }));
    for (const name of ['app.mjs', 'app.cjs', 'app.cts', 'tsconfig.json']) await writeFile(join(dir, name), await fileSnippet(DOC, name));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('the ES module type-checks as TypeScript (app.ts) and so does the CommonJS one (app.cts), with the documented tsconfig.json', async () => {
    await writeFile(join(dir, 'app.ts'), await fileSnippet(DOC, 'app.mjs'));
    const tsc = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
    const output = await run(tsc, ['-p', dir, '--noEmit']).then(() => '', (error: { stdout?: string }) => error.stdout ?? String(error));
    expect(output).to.equal('');
  });

  for (const file of ['app.mjs', 'app.cjs']) {
    it(`${file}: each variable it needs, missing, stops it with one error naming the variable (never a TypeError)`, async () => {
      const { required } = variablesOf(await fileSnippet(DOC, file));
      expect(required.length, 'variables read with requiredEnv').to.be.greaterThan(5);
      const env = completeEnvironment(required);
      await inBatches(required, 4, async (name) => {
        const { [name]: _left, ...rest } = env;
        const { code, stderr } = await runSnippet(dir, file, rest);
        expect(code, `${name} missing: ${stderr}`).to.equal(1);
        expect(stderr, name).to.include(`${name} is not set`);
        expect(stderr, name).not.to.include('TypeError');
      });
    });
  }

  it('a malformed value is named too: sealing keys, a short token secret, a placeholder public URL', async () => {
    const { required } = variablesOf(await fileSnippet(DOC, 'app.cjs'));
    const env = completeEnvironment(required);
    const cases: Array<[Record<string, string>, string]> = [
      [{ SATYAPAN_SEALING_KEYS: randomBytes(32).toString('base64') }, 'SATYAPAN_SEALING_KEYS entry 1 is not id:base64key'],
      [{ SATYAPAN_SEALING_KEYS: 'k1:c2hvcnQ=' }, 'Sealing key k1 must be 32 bytes, got 5'],
      [{ SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET: 'short' }, 'createBankService: verification.keySecret must be at least 16 bytes'],
      [{ SATYAPAN_PUBLIC_URL: 'https://api.example.com' }, 'FsStorage: publicBaseUrl is https://api.example.com, a documentation placeholder'],
      [{ SATYAPAN_PENNY_DROP_URL: 'api.cashfree.com' }, 'CashfreePennyDropProvider: baseUrl must be an absolute http(s) URL'],
    ];
    await inBatches(cases, 4, async ([change, message]) => {
      const { code, stderr } = await runSnippet(dir, 'app.cjs', { ...env, ...change });
      expect(code, stderr).to.equal(1);
      expect(stderr.trim()).to.equal(stderr.trim().split('\n')[0]).and.to.include(message);
    });
  });

  it('the variables table lists exactly what the snippets and the worker\'s extra variable read', async () => {
    const text = await readFile(join(REPO_ROOT, DOC), 'utf8');
    const table = text.slice(text.indexOf('## Environment variables'), text.indexOf('## Options the libraries check'));
    const listed = new Set([...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([A-Z_0-9]+)`/g)].map((match) => match[1]!)));
    const read = new Set<string>(['REDIS_URL', 'REDIS_CLUSTER_NODES', 'LOG_LEVEL', 'SATYAPAN_STORAGE_URL']);
    for (const file of ['app.mjs', 'app.cjs', 'app.cts']) {
      const { required, optional } = variablesOf(await fileSnippet(DOC, file));
      for (const name of [...required, ...optional]) read.add(name);
    }
    expect([...listed].sort()).to.deep.equal([...read].sort());
  });

  it('README.md: each install line names every package of ours its packages need', async () => {
    const installs = await readmeInstalls('Installing');
    const fromTarballs = installs.filter(({ args }) => args.some((arg) => arg.includes('$SATYAPAN_PACKED')));
    expect(fromTarballs.length, 'tarball install lines').to.be.greaterThanOrEqual(3);
    for (const { command, args } of fromTarballs) {
      const ours = args.map(packageOfArgument).filter((name) => name.startsWith('@satyapan/'));
      expect([...withOurDependencies(ours)].sort(), command).to.deep.equal([...ours].sort());
    }
  });
});
