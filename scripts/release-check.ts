// `npm run release:check`: the release workflow's gate (README.md, "Releasing"): every published package at
// lerna.json's version, every dependency between ours exactly that version, and the pushed tag (GITHUB_REF_NAME,
// when the workflow runs on a tag) `v<version>`. Prints each problem and exits 1, or says the set agrees.
import { releaseProblems } from './packages.js';

const tag = process.env['GITHUB_REF_TYPE'] === 'tag' ? process.env['GITHUB_REF_NAME'] : undefined;
const problems = releaseProblems(undefined, tag);
for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length > 0) process.exit(1);
process.stdout.write('release:check: every package and every range between them agree with lerna.json\n');
