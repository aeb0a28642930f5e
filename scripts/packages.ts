// The packages a release publishes (every workspace that is not private), what their tarballs are called, and
// which of ours each needs: read by `npm run pack:all` and by the tests of the documented install lines.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
}

/** The workspaces a release publishes, with their folders. */
export function publishedWorkspaces(root = ROOT): Array<{ dir: string; manifest: Manifest }> {
  const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  return workspaces
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest }))
    .filter(({ manifest }) => manifest.private !== true);
}

/** `@satyapan/core` -> `satyapan-core.tgz` (no version: the documented install lines stay the same across releases). */
export function tarballName(packageName: string): string {
  return `${packageName.replace(/^@/, '').replace('/', '-')}.tgz`;
}

/** `names` and every package of ours they depend on, directly or not (what an install from tarballs must list). */
export function withOurDependencies(names: readonly string[], root = ROOT): Set<string> {
  const manifests = new Map(publishedWorkspaces(root).map(({ manifest }) => [manifest.name, manifest]));
  const needed = new Set<string>();
  const visit = (name: string): void => {
    if (needed.has(name)) return;
    const manifest = manifests.get(name);
    if (!manifest) throw new Error(`${name} is not a published package of this repository`);
    needed.add(name);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) if (manifests.has(dependency)) visit(dependency);
  };
  names.forEach(visit);
  return needed;
}

/**
 * What keeps a release from being one set: a published package whose version is not lerna.json's, or a
 * dependency between our packages (published or not) that is not exactly that version; and, given the release
 * tag, a tag that is not `v<version>`. Empty when all agree.
 */
export function releaseProblems(root = ROOT, tag?: string): string[] {
  const version = (JSON.parse(readFileSync(join(root, 'lerna.json'), 'utf8')) as { version: string }).version;
  const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  const all = workspaces.map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest & { devDependencies?: Record<string, string> } }));
  const ours = new Set(all.map(({ manifest }) => manifest.name));
  const problems: string[] = [];
  if (tag !== undefined && tag !== `v${version}`) problems.push(`the tag ${tag} is not v${version} (lerna.json)`);
  for (const { dir, manifest } of all) {
    if (manifest.private !== true && manifest.version !== version) problems.push(`${dir}: version ${manifest.version}, lerna.json ${version}`);
    for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      if (ours.has(name) && range !== version) problems.push(`${dir}: ${name} ${range}, not ${version}`);
    }
  }
  return problems;
}
