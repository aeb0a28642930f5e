// The release workflow's gate (npm run release:check, README.md "Releasing"): every published package at lerna.json's
// version and every range between our packages exactly that version, so that a release is one set of tarballs.
import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishedWorkspaces, releaseProblems, withOurDependencies } from '../scripts/packages.js';

describe('release: versions in step', () => {
  it('this repository agrees with lerna.json, and publishes the worker and the dashboard', () => {
    expect(releaseProblems()).to.deep.equal([]);
    const names = publishedWorkspaces().map(({ manifest }) => manifest.name);
    expect(names).to.include.members(['@satyapan/worker', '@satyapan/queue-dashboard', '@satyapan/router']);
    expect(names).not.to.include('@satyapan/example-host-app');
    expect([...withOurDependencies(['@satyapan/bulk'])].sort()).to.deep.equal(['@satyapan/bank', '@satyapan/bulk', '@satyapan/core', '@satyapan/jobs', '@satyapan/kyc', '@satyapan/name-match']);
  });

  it('names a package behind, a range not in step (in a private example too) and a tag that is not v<version>', async () => {
    const root = await mkdtemp(join(tmpdir(), 'satyapan-release-'));
    try {
      const write = async (dir: string, manifest: object): Promise<void> => {
        await mkdir(join(root, dir), { recursive: true });
        await writeFile(join(root, dir, 'package.json'), JSON.stringify(manifest));
      };
      await writeFile(join(root, 'lerna.json'), JSON.stringify({ version: '0.2.0' }));
      await write('.', { name: 'root', private: true, workspaces: ['packages/core', 'packages/bank', 'examples/app'] });
      await write('packages/core', { name: '@satyapan/core', version: '0.2.0' });
      await write('packages/bank', { name: '@satyapan/bank', version: '0.1.0', dependencies: { '@satyapan/core': '^0.2.0', axios: '^1' } });
      await write('examples/app', { name: '@satyapan/example-app', version: '0.1.0', private: true, dependencies: { '@satyapan/core': '0.1.0' } });
      expect(releaseProblems(root, 'v0.1.9')).to.deep.equal([
        'the tag v0.1.9 is not v0.2.0 (lerna.json)',
        'packages/bank: version 0.1.0, lerna.json 0.2.0',
        'packages/bank: @satyapan/core ^0.2.0, not 0.2.0',
        'examples/app: @satyapan/core 0.1.0, not 0.2.0',
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
