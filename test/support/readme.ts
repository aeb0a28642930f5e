// What README.md tells a new user to type and paste, read from the README itself so that the tests that run it
// (the snippet type-check, the publish-and-install test) fail when the README drifts.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

async function section(heading: string): Promise<string> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const next = readme.indexOf('\n## ', start + 3);
  return readme.slice(start, next < 0 ? undefined : next);
}

/** Every fenced block of `language` under the heading, in order. */
export async function readmeBlocks(heading: string, language: 'ts' | 'sh'): Promise<string[]> {
  const text = await section(heading);
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/** The package names of the `npm install` commands in the section's shell blocks, one list per command. */
export async function readmeInstalls(heading: string): Promise<string[][]> {
  const blocks = await readmeBlocks(heading, 'sh');
  return blocks.flatMap((block) => block.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npm install '))
    .map((line) => line.slice('npm install '.length).split(/\s+/).filter(Boolean));
}
