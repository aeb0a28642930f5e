// `satyapan-statement form16`: the statement engine's command line hands the command to this package (so the
// engine installs no PDF library). Exit codes as the engine's: 0 made, 1 the workbook is refused (its problems
// printed), 2 usage, I/O or certificate errors (one line).

import { parseArgs } from 'node:util';
import { StatementEngineError } from '@satyapan/statement-engine';
import { Form16Error } from './errors.js';
import { makeForm16s } from './make.js';
import { loadWorkbook } from './workbook.js';

export const FORM16_USAGE = `usage:
  satyapan-statement form16 --workbook <24Q Q4 workbook.json|.xlsx> --year "<FY 2025-26>" --out <folder>
                     [--tan <TAN>] [--part-a <folder or .zip of TRACES Part A PDFs>] [--sign <certificate.p12>]
                     [--sign-password-env <variable>] [--place <place of verification>]
  The certificate's password is read from the environment variable SATYAPAN_FORM16_P12_PASSWORD (or the one
  --sign-password-env names), never from the command line. Without --sign the PDFs are unsigned and say so.`;

export interface CommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

class UsageError extends Error {}

const OPTIONS = {
  workbook: { type: 'string' },
  year: { type: 'string' },
  tan: { type: 'string' },
  out: { type: 'string' },
  'part-a': { type: 'string' },
  sign: { type: 'string' },
  'sign-password-env': { type: 'string' },
  place: { type: 'string' },
  now: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function needed(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`form16 needs --${flag} (see --help)`);
  return value;
}

/** Runs `form16 <argv>` (argv without the command word); returns the exit code. */
export async function runForm16Command(argv: readonly string[], io: CommandIo): Promise<number> {
  const env = io.env ?? process.env;
  try {
    let values;
    try {
      values = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
    } catch (error) {
      throw new UsageError((error as Error).message.split('\n')[0]!);
    }
    if (values.help) {
      io.stdout.write(`${FORM16_USAGE}\n`);
      return 0;
    }
    const path = needed(values.workbook, 'workbook');
    const year = needed(values.year, 'year');
    const out = needed(values.out, 'out');
    const now = values.now ? new Date(values.now) : undefined;
    if (now && Number.isNaN(now.getTime())) throw new UsageError(`--now is not a date: ${values.now}`);
    const passwordVariable = values['sign-password-env'] ?? 'SATYAPAN_FORM16_P12_PASSWORD';
    const loaded = await loadWorkbook(path);
    const tan = values.tan ?? loaded.tan;
    if (!tan) throw new UsageError('no --tan given and the workbook has no payer_list tan');
    const result = await makeForm16s({
      workbook: loaded.workbook,
      financialYear: year,
      tan,
      outDir: out,
      ...(values['part-a'] ? { partA: values['part-a'] } : {}),
      ...(values.sign ? { certificate: { path: values.sign, password: env[passwordVariable] ?? '' } } : {}),
      ...(values.place ? { place: values.place } : {}),
      ...(now ? { now } : {}),
    });
    if (!result.report.valid) {
      io.stderr.write(`satyapan-statement form16: the workbook has ${result.report.errorCount} error(s); no Form 16 is made from a statement that cannot be filed:\n`);
      for (const p of result.report.problems.filter((q) => q.severity === 'error').slice(0, 50)) {
        io.stderr.write(`  ${p.code} ${p.sheet ?? ''}${p.row !== null ? ` row ${p.row}` : ''}${p.column ? ` ${p.column}` : ''}: ${p.message}\n`);
      }
      return 1;
    }
    const signed = values.sign ? 'signed' : 'unsigned';
    io.stderr.write(`wrote ${result.lines.length} Form 16 PDF(s), ${signed}, and index.csv to ${out}\n`);
    if (values['part-a']) io.stderr.write(`Part A merged for ${result.lines.length - result.withoutPartA.length}; ${result.withoutPartA.length} employee(s) without a Part A; ${result.partAMismatches.length} Part A file(s) not used (part-a-mismatches.csv)\n`);
    for (const m of result.partAMismatches) io.stderr.write(`  Part A not used: ${m.file}: ${m.reason}\n`);
    for (const w of result.withoutPartA) io.stderr.write(`  no Part A for ${w.pan} (${w.name})\n`);
    for (const n of result.notMade) io.stderr.write(`  not made: ${n.pan} (${n.name}): ${n.reason}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof UsageError || error instanceof Form16Error || error instanceof StatementEngineError;
    const message = known ? `${error instanceof UsageError ? '' : `${(error as Form16Error).code}: `}${(error as Error).message}` : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    io.stderr.write(`satyapan-statement form16: ${message.split('\n')[0]}\n`);
    return 2;
  }
}
