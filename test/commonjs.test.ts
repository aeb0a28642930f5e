// CommonJS hosts: the packages are ESM, and Node 20.19+ and 22 load them with require(); TypeScript projects
// that compile to CommonJS resolve their types with `module`/`moduleResolution` `nodenext` (and, through the
// top-level `types` field, the legacy `node10` of TypeScript 5). README.md "CommonJS hosts" says so.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const PACKAGES = ['core', 'name-match', 'router', 'bank', 'kyc', 'statement-queue', 'statement-engine', 'storage-s3', 'sandbox'];

describe('CommonJS hosts', function () {
  this.timeout(60_000);

  it('require() loads every package from its built dist/', async () => {
    const script = PACKAGES.map((name) => `require('@satyapan/${name}');`).join('')
      + "const { createRouter } = require('@satyapan/router'); const { bankArea } = require('@satyapan/bank');"
      + 'process.stdout.write(typeof createRouter + " " + typeof bankArea);';
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: ROOT });
    expect(stdout).to.equal('function function');
  });

  it('a CommonJS TypeScript project with moduleResolution nodenext type-checks its imports', async () => {
    const dir = await mkdtemp(join(ROOT, '.commonjs-host-'));
    try {
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'cjs-host', private: true, type: 'commonjs' }));
      await writeFile(join(dir, 'index.ts'), [
        "import { createRouter } from '@satyapan/router';",
        "import { bankArea, createBankService } from '@satyapan/bank';",
        'export async function mount(): Promise<unknown> {',
        '  return bankArea(await createBankService({})).name + typeof createRouter;',
        '}',
      ].join('\n'));
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ['index.ts'],
      }));
      const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
      const output = await run(tsc, ['-p', dir]).then(() => '', (error: { stdout?: string }) => error.stdout ?? String(error));
      expect(output).to.equal('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
