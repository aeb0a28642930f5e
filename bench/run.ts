// Benchmark dispatcher: `npm run bench -- <name> [args...]` runs bench/<name>.ts.
// Each benchmark measures its own baseline in the same run and prints ratios against it; `npm run bench -- report`
// runs them all and writes BENCHMARKS.md (bench/report.ts).
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));

const [name, ...args] = process.argv.slice(2);
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${available.join('|')}> [args]\n`);
  process.exit(2);
}
// Every result is printed under how it was obtained: the command, Node version, cores and load at the start.
const { machine } = await import('./_http.js');
console.log(`$ npm run bench -- ${[name, ...args].join(' ')}`);
console.log(machine());
const mod = (await import(pathToFileURL(join(here, `${name}.ts`)).href)) as { main(args: string[]): Promise<void> };
await mod.main(args);
