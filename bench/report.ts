// npm run bench -- report [router bank kyc engine queue capacity bulk form16] [--seconds N] [--rounds N]
// Runs the named benchmarks (all by default), each in a child process exactly as `npm run bench -- <name>`
// would, and writes their output into BENCHMARKS.md at the repository root: the figures in the docs are
// always the output of a run, never typed by hand. The capacity bench's model also goes into docs/OPERATIONS.md,
// between its `<!-- capacity model ... -->` markers.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ALL = ['router', 'bank', 'kyc', 'engine', 'queue', 'capacity', 'bulk', 'form16'];

interface Section {
  name: string;
  args: string[];
  output: string;
  status: number | null;
  seconds: number;
}

function run(name: string, args: string[]): Section {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', join(here, 'run.ts'), name, ...args], {
    cwd: join(here, '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20,
  });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  return { name, args, output: (r.stdout + (r.status === 0 ? '' : r.stderr)).trimEnd(), status: r.status, seconds: (performance.now() - started) / 1000 };
}

/** A bench's part of an earlier BENCHMARKS.md: its summary rows and its section, kept when a report runs others. */
interface KeptSection {
  name: string;
  rows: string[];
  block: string;
}

/**
 * The sections of the benches this run does not run, from the file as it is, so that a report of some benches
 * leaves the others' last figures in place; each says the date of the report it came from.
 */
function keptSections(previous: string, ran: readonly string[]): KeptSection[] {
  const date = /^- date: (\S+)$/m.exec(previous)?.[1] ?? 'an earlier report';
  return ALL.filter((name) => !ran.includes(name)).flatMap((name) => {
    const at = previous.indexOf(`\n## ${name}\n`);
    if (at < 0) return [];
    const next = previous.indexOf('\n## ', at + 1);
    const body = previous.slice(at + 1, next < 0 ? undefined : next).trimEnd();
    const rows = previous.split('\n').filter((line) => line.startsWith(`| ${name} | `)).map((line) => line.replace(/ \|$/, ` (report of ${date}) |`).replace(/ \(report of [^)]*\) \(report of/, ' (report of'));
    const block = body.includes('(kept from the report of') ? body : body.replace(`## ${name}\n`, `## ${name}\n\n(kept from the report of ${date}; not run in this one)\n`);
    return [{ name, rows, block }];
  });
}

function markdown(sections: Section[], startLoad: number[], kept: KeptSection[] = []): string {
  const ran = sections.flatMap((s) => s.output.split('\n').filter((l) => /^(ratio|peak RSS|capacity )/.test(l)).map((l) => `| ${s.name} | ${l.trim().replace(/\|/g, '\\|')} |`));
  const order = (name: string) => ALL.indexOf(name);
  const ratios = [...ran.map((row) => ({ row, name: row.split(' | ')[0]!.slice(2) })), ...kept.flatMap((k) => k.rows.map((row) => ({ row, name: k.name })))]
    .sort((a, b) => order(a.name) - order(b.name)).map(({ row }) => row);
  const blocks = [
    ...sections.map((s) => ({
      name: s.name,
      text: [`## ${s.name}`, '', `\`npm run bench -- ${[s.name, ...s.args].join(' ')}\` (${s.seconds.toFixed(0)} s${s.status === 0 ? '' : `, FAILED with status ${s.status}`})`, '', '```', s.output, '```', ''].join('\n'),
    })),
    ...kept.map((k) => ({ name: k.name, text: `${k.block}\n` })),
  ].sort((a, b) => order(a.name) - order(b.name));
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench -- report` (bench/report.ts) from the output of the run below; do not edit by hand.',
    'Each figure is a ratio to a baseline measured in the same run on the same machine; absolute figures depend',
    'on the machine and its load and are only meaningful next to their baseline. How each bench works: the',
    'comment at the top of `bench/<name>.ts`.',
    '',
    `- date: ${new Date().toISOString()}`,
    `- node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- load average at the start: ${startLoad.map((n) => n.toFixed(2)).join(' ')}, at the end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`
      + (startLoad[0]! > cpus().length / 2 ? ' — the machine was shared and loaded during this run: ratios are more trustworthy than absolute figures, and both are pessimistic' : ''),
    '',
    '## Summary',
    '',
    '| bench | result |',
    '|---|---|',
    ...ratios,
    '',
    ...blocks.map((b) => b.text),
  ].join('\n');
}

export async function main(args: string[]): Promise<void> {
  const names = args.filter((a) => ALL.includes(a));
  const passed = (flag: string) => (args.indexOf(flag) >= 0 ? [flag, args[args.indexOf(flag) + 1] ?? ''] : []);
  const httpArgs = [...passed('--seconds'), ...passed('--rounds')];
  const startLoad = loadavg();
  const sections: Section[] = [];
  for (const name of names.length ? names : ALL) {
    const timed = ['router', 'bank', 'kyc'].includes(name) ? httpArgs : [];
    sections.push(run(name, timed));
  }
  const path = join(here, '..', 'BENCHMARKS.md');
  const kept = names.length && existsSync(path) ? keptSections(readFileSync(path, 'utf8'), names) : [];
  writeFileSync(path, `${markdown(sections, startLoad, kept)}\n`);
  console.log(`wrote ${path}`);
  const capacity = sections.find((s) => s.name === 'capacity' && s.status === 0);
  if (capacity) console.log(`wrote ${writeCapacityModel(capacity)}`);
}

/** Replaces the capacity model in docs/OPERATIONS.md with the one this run's capacity bench printed. */
function writeCapacityModel(section: Section): string {
  const begin = '<!-- capacity model';
  const end = '<!-- /capacity model -->';
  const printed = section.output.slice(section.output.indexOf(begin), section.output.indexOf(end) + end.length);
  if (!printed.startsWith(begin)) throw new Error('the capacity bench printed no model');
  const measuredOn = section.output.split('\n').find((line) => /^node v/.test(line)) ?? '';
  const block = printed.replace(/-->\n/, `-->\nMeasured by \`npm run bench -- capacity\` on ${new Date().toISOString().slice(0, 10)} (${measuredOn}).\n`);
  const path = join(here, '..', 'docs', 'OPERATIONS.md');
  const doc = readFileSync(path, 'utf8');
  const at = doc.indexOf(begin);
  const until = doc.indexOf(end);
  if (at < 0 || until < at) throw new Error(`${path} has no capacity model markers`);
  writeFileSync(path, doc.slice(0, at) + block + doc.slice(until + end.length));
  return path;
}
