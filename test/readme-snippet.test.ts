// The README's "Mounting the router" snippet is what a new user copies: it must type-check against the packages
// as they are, so the README cannot drift from the API. (Running it against a registry install is the job of
// the publish test.)
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');

/** The first TypeScript block under the given heading of README.md. */
export async function readmeSnippet(heading: string): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}`));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`README.md has no ts block under "## ${heading}"`);
  return match[1]!;
}

describe('README: the mounting snippet', function () {
  this.timeout(60_000);

  it('mounts every area and type-checks against the packages', async () => {
    const snippet = await readmeSnippet('Mounting the router in an existing app');
    for (const area of ['bankArea(', 'kycArea(', 'statementsArea(']) expect(snippet).to.include(area);
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
