// `npm run pack:all [-- <folder>]`: builds once, then packs every published package into one folder (`packed/` by
// default) as `satyapan-<name>.tgz`: the files a host installs while the packages are not on a registry
// (README.md, "Installing"), and exactly what a release publishes (.github/workflows/release.yml). The names
// carry no version, so that the documented install lines stay the same from release to release; each tarball's
// package.json has it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, publishedWorkspaces, tarballName } from './packages.js';

function packAll(destination: string): string[] {
  // One build for all: each package's prepack (tsc -b) would check the whole graph again.
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b'], { cwd: ROOT, stdio: 'inherit' });
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  const workspaces = publishedWorkspaces();
  const args = ['pack', '--ignore-scripts', '--loglevel=warn', '--pack-destination', destination, ...workspaces.flatMap(({ dir }) => ['-w', dir])];
  execFileSync('npm', args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return workspaces.map(({ manifest }) => {
    const packed = `${tarballName(manifest.name).replace(/\.tgz$/, '')}-${manifest.version}.tgz`;
    renameSync(join(destination, packed), join(destination, tarballName(manifest.name)));
    return tarballName(manifest.name);
  });
}

const destination = resolve(process.argv[2] ?? join(ROOT, 'packed'));
const files = packAll(destination);
const unexpected = readdirSync(destination).filter((file) => !files.includes(file));
if (unexpected.length > 0) throw new Error(`unexpected files in ${destination}: ${unexpected.join(', ')}`);
process.stdout.write(`packed ${files.length} packages into ${destination}:\n${files.map((file) => `  ${file}`).join('\n')}\n`);
