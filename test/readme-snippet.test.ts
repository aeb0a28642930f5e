// The README's "Mounting the router" snippet is what a new user copies: it must type-check against the packages
// as they are, so the README cannot drift from the API. (Running it against a registry install is the job of
// the publish test.)
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT as ROOT, readmeBlocks } from './support/readme.js';

describe('README: the mounting snippet', function () {
  this.timeout(60_000);

  it('mounts every area and type-checks against the packages', async () => {
    const [snippet] = await readmeBlocks('Mounting the router in an existing app', 'ts');
    if (!snippet) throw new Error('README.md has no mounting snippet');
    for (const area of ['bankArea(', 'kycArea(', 'statementsArea(', 'apiReference(']) expect(snippet).to.include(area);
    // Inside the repository, so that the workspace packages resolve as an installed app would see them.
    const dir = await mkdtemp(join(ROOT, '.readme-snippet-'));
    try {
      await writeFile(join(dir, 'app.ts'), snippet);
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
        extends: '../tsconfig.base.json',
        compilerOptions: { noEmit: true, composite: false, declaration: false, declarationMap: false, sourceMap: false, lib: ['ES2023'] },
        files: ['app.ts'],
      }));
      const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
      const result = await promisify(execFile)(tsc, ['-p', dir]).then(() => '', (error: { stdout?: string }) => error.stdout ?? String(error));
      expect(result).to.equal('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
