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
