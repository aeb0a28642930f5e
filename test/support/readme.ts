// What README.md and docs/EMBEDDING.md tell a new user to type and paste, read from the documents themselves so
// that the tests that run it (the snippet type-check, the install-from-tarballs test) fail when the docs drift.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

async function section(heading: string, document = 'README.md'): Promise<string> {
  const text = await readFile(join(REPO_ROOT, document), 'utf8');
  const start = text.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`${document} has no "## ${heading}" section`);
  const next = text.indexOf('\n## ', start + 3);
  return text.slice(start, next < 0 ? undefined : next);
}

/** Every fenced block of `language` under the heading, in order. */
export async function readmeBlocks(heading: string, language: 'ts' | 'sh' | 'js', document = 'README.md'): Promise<string[]> {
  const text = await section(heading, document);
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/**
 * The `npm install` commands of the section's shell blocks, each as written (continuation lines joined) and as
 * its arguments: the package names, or the tarball paths (`"$SATYAPAN_PACKED"/satyapan-core.tgz`).
 */
export async function readmeInstalls(heading: string, document = 'README.md'): Promise<Array<{ command: string; args: string[] }>> {
  const blocks = await readmeBlocks(heading, 'sh', document);
  return blocks.flatMap((block) => block.replace(/\\\n/g, ' ').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('npm install '))
    .map((command) => ({ command, args: command.slice('npm install '.length).split(/\s+/).filter(Boolean) }));
}

/** The package a tarball argument installs: `"$SATYAPAN_PACKED"/satyapan-core.tgz` -> `@satyapan/core`. */
export function packageOfArgument(argument: string): string {
  const tarball = /satyapan-([a-z0-9-]+)\.tgz$/.exec(argument);
  return tarball ? `@satyapan/${tarball[1]}` : argument;
}

/**
 * The document's file snippets: fenced blocks whose first line is a comment naming the file (`// app.mjs`),
 * by that name, without the naming line.
 */
export async function fileSnippets(document: string): Promise<Map<string, string>> {
  const text = await readFile(join(REPO_ROOT, document), 'utf8');
  const snippets = new Map<string, string>();
  for (const match of text.matchAll(/```[a-z]*\n\/\/ ([\w.-]+)\n([\s\S]*?)```/g)) {
    if (snippets.has(match[1]!)) throw new Error(`${document} names ${match[1]} twice`);
    snippets.set(match[1]!, match[2]!);
  }
  return snippets;
}

/** A file snippet that must be there. */
export async function fileSnippet(document: string, name: string): Promise<string> {
  const snippet = (await fileSnippets(document)).get(name);
  if (snippet === undefined) throw new Error(`${document} has no snippet of ${name} (a fenced block starting with "// ${name}")`);
  return snippet;
}
