// satyapan-statement: convert | validate | template. Exit codes: 0 converted (or valid), 1 the workbook is
// refused (a file that is no workbook, one line; or validation errors, printed as a table), 2 usage or I/O
// errors (one line on stderr, never a stack trace), 3 the TXT failed the layout self-check (a bug in the
// engine; the message names the line and field). A problem of the file itself is reported first.

import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { ConsoFileError, StatementEngineError, TxtLayoutError } from '../errors.js';
import { correctFile, type CorrectOptions } from '../correction/correct.js';
import { resolveOptions } from '../options.js';
import { writeReportXlsx } from '../report-xlsx.js';
import { STRUCTURAL_CODES } from '../rules.js';
import { convertFile } from '../stream/convert-stream.js';
import { peekWorkbook } from '../stream/peek.js';
import { workbookTemplate } from '../template.js';
import { parseLimitPair, type InputLimits } from '../limits.js';
import type { ConvertOptions, FormName, Quarter, ValidationReport } from '../types.js';
import { progressBar } from './progress.js';
import { reportTable } from './table.js';
import { isXlsxPath, runTemplateXlsx, runToXlsx, xlsxTan } from './xlsx-commands.js';
import { checkFileKind, describeSyntax, syntaxProblem, WorkbookFileError } from './workbook-file.js';

export const USAGE = `usage:
  satyapan-statement convert <workbook.json> --form <24Q|26Q|27Q|27EQ|138|140|143|144> --quarter <Q1..Q4>
                     --year "<FY 2025-26|TY 2026-27>" [--tan <TAN>] [--csi <file.csi>] [--out <file.txt>] [--report <file.json|file.xlsx>]
                     [--previous-receipt-number <15-digit token of the previous regular statement>]
  satyapan-statement validate <workbook.json> --form ... --quarter ... --year ... [--tan <TAN>] [--csi <file.csi>] [--report <file>]
                     [--previous-receipt-number <token>]
  satyapan-statement correct --conso <file.tds> --workbook <corrected workbook.json|.xlsx> --form <24Q|26Q|27Q|27EQ> --quarter <Q1..Q4>
                     --year "<FY 2025-26>" [--tan <TAN>] [--out <file.txt>] [--report <file>] [--csi <file.csi>]
                     [--original-receipt-number <token of the regular statement>] [--last-correction-receipt-number <token>]
                     [--types C1,C2,C3,C5,C9]
  satyapan-statement template --form <form> [--out <file.json>] | --xlsx --out <file.xlsx>
  satyapan-statement to-xlsx <workbook.json> --out <file.xlsx>
  satyapan-statement form16 --workbook <24Q Q4 workbook> --year "<FY 2025-26>" [--part-a <dir|zip>] [--sign <cert.p12>] --out <dir>
                     (Form 16 PDFs; needs the @satyapan/form16 package: satyapan-statement form16 --help)
  (a workbook named *.xlsx is read as the Excel form of the workbook; see the README)
  convert, validate and correct take --limit <name>=<number> (repeatable) to change an input limit (README "Limits")
exit codes: 0 converted / valid, 1 the workbook (or conso file) is refused (not a workbook, validation errors, a conso file
malformed, truncated or of another TAN or period, an input past a limit), 2 usage or I/O error,
3 the TXT failed the layout self-check (a bug)`;

/** A usage or I/O error: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** A workbook the engine cannot read at all (wrong form, missing sheet...): printed as one line, exit code 1. */
class WorkbookRefused extends Error {}

export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const OPTIONS = {
  form: { type: 'string' },
  quarter: { type: 'string' },
  year: { type: 'string' },
  tan: { type: 'string' },
  out: { type: 'string' },
  report: { type: 'string' },
  csi: { type: 'string' },
  now: { type: 'string' },
  'previous-receipt-number': { type: 'string' },
  conso: { type: 'string' },
  workbook: { type: 'string' },
  'original-receipt-number': { type: 'string' },
  'last-correction-receipt-number': { type: 'string' },
  types: { type: 'string' },
  xlsx: { type: 'boolean' },
  limit: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = { [K in Exclude<keyof typeof OPTIONS, 'limit'>]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string } & { limit?: string[] };

/** `--limit sheetRows=1000`: the limits to change (their names and values are checked by the engine). */
function limitOptions(values: Values): Partial<InputLimits> | null {
  if (!values.limit) return null;
  const limits: Record<string, number> = {};
  for (const given of values.limit) {
    const pair = parseLimitPair(given);
    if (!pair) throw new UsageError(`--limit takes <name>=<whole number>, not ${given.slice(0, 40)}`);
    limits[pair[0]] = pair[1];
  }
  return limits;
}

function required(values: Values, name: 'form' | 'quarter' | 'year'): string {
  const v = values[name];
  if (!v) throw new UsageError(`--${name} is required (see --help)`);
  return v;
}

async function statementOptions(path: string, values: Values): Promise<ConvertOptions> {
  let tan = values.tan;
  if (!tan) {
    tan = (isXlsxPath(path) ? await xlsxTan(path) : (await peekWorkbook(path)).tan) ?? undefined;
    if (!tan) throw new UsageError('no --tan given and the workbook has no payer_list tan');
  }
  const now = values.now ? new Date(values.now) : null;
  if (now && Number.isNaN(now.getTime())) throw new UsageError(`--now is not a date: ${values.now}`);
  const previous = values['previous-receipt-number'];
  const options: ConvertOptions = {
    form: required(values, 'form') as FormName,
    quarter: required(values, 'quarter') as Quarter,
    financialYear: required(values, 'year'),
    tan,
    ...(previous !== undefined ? { previousReceiptNumber: previous } : {}),
    ...(now ? { now: () => now } : {}),
    ...(values.csi ? { csi: readCsiFile(values.csi) } : {}),
  };
  const limits = limitOptions(values);
  if (limits) options.limits = limits;
  try {
    resolveOptions(options);
  } catch (error) {
    // A TAN read from the workbook is the workbook's to fix: refused (exit 1), not a usage error (exit 2).
    if (!values.tan && error instanceof StatementEngineError && error.code === 'INVALID_TAN') throw new WorkbookRefused(`the workbook's payer_list tan: ${error.message}`);
    throw error;
  }
  return options;
}

/** The CSI file's bytes; the engine parses them (a malformed line is refused there, naming the line). */
function readCsiFile(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read the CSI file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/**
 * The options, checked. An option error is reported only once the file is known to be JSON: a file that is
 * empty, cut short or not JSON is the first thing to fix (the full read happens on this error path only).
 */
async function checkedOptions(path: string, values: Values): Promise<ConvertOptions> {
  try {
    return await statementOptions(path, values);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof StatementEngineError)) throw error;
    const broken = isXlsxPath(path) ? null : await syntaxProblem(path);
    throw broken ? new WorkbookFileError(broken) : error;
  }
}

async function writeReport(report: ValidationReport, target: string | undefined): Promise<void> {
  if (!target) return;
  try {
    if (extname(target).toLowerCase() === '.xlsx') await writeReportXlsx(report, target);
    else writeFileSync(target, `${JSON.stringify(report, null, 2)}\n`);
  } catch (error) {
    throw new UsageError(`cannot write the report to ${target}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Problems that mean the input is not a workbook we can read: one line (the file's own problem, in its words). */
function structuralFailure(path: string, report: ValidationReport): string | null {
  const structural = report.problems.filter((p) => p.severity === 'error' && STRUCTURAL_CODES.has(p.code));
  if (structural.length === 0) return null;
  const first = structural[0]!;
  if (first.code === 'INVALID_JSON') return describeSyntax(path, first.message.replace(/^The workbook is not valid JSON: /, ''));
  const more = structural.length > 1 ? ` (and ${structural.length - 1} more)` : '';
  return `${first.code}: ${first.message}${more}`;
}

async function runConversion(command: 'convert' | 'validate', path: string | undefined, values: Values, io: Io): Promise<number> {
  if (!path) throw new UsageError(`${command} needs a workbook file (see --help)`);
  const file = checkFileKind(path);
  if ('ioError' in file) throw new UsageError(file.ioError);
  const options = await checkedOptions(path, values);
  const bar = progressBar(io.stderr, file.size);
  const conversion = await convertFile(path, options, { onProgress: (p) => bar.update(p) });
  bar.done();
  const { report } = conversion;
  const structural = structuralFailure(path, report);
  if (structural) {
    await conversion.dispose();
    await writeReport(report, values.report);
    throw new WorkbookRefused(structural);
  }
  await writeReport(report, values.report);
  const table = reportTable(report);
  if (command === 'validate') {
    await conversion.dispose();
    io.stdout.write(table);
    return report.valid ? 0 : 1;
  }
  if (!report.valid) {
    await conversion.dispose();
    io.stderr.write(table);
    return 1;
  }
  if (values.out) {
    const summary = await conversion.writeTo(values.out).catch((error: NodeJS.ErrnoException) => {
      if (error instanceof StatementEngineError) throw error;
      throw new UsageError(`cannot write ${values.out}: ${error.code ?? error.message}`);
    });
    if (report.problems.length > 0) io.stderr.write(table);
    io.stderr.write(`wrote ${summary.lines} lines (${summary.bytes} bytes) to ${values.out}\n`);
  } else {
    await conversion.writeTo(io.stdout);
    if (report.problems.length > 0) io.stderr.write(table);
  }
  return 0;
}

/**
 * correct: the corrected workbook against the conso file. The same exit codes as convert; a conso file that is
 * malformed, cut short or of another TAN or period is refused (1) with its line.
 */
async function runCorrection(positional: string | undefined, values: Values, io: Io): Promise<number> {
  if (positional !== undefined && values.workbook !== undefined) throw new UsageError(`unexpected argument: ${positional} (the workbook is given by --workbook)`);
  const path = values.workbook ?? positional;
  if (!path) throw new UsageError('correct needs --workbook <corrected workbook> (see --help)');
  if (!values.conso) throw new UsageError('correct needs --conso <conso file .tds> (see --help)');
  try {
    if (!statSync(values.conso).isFile()) throw new UsageError(`the conso file ${values.conso} is not a file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the conso file ${values.conso}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const file = checkFileKind(path);
  if ('ioError' in file) throw new UsageError(file.ioError);
  if (values['previous-receipt-number'] !== undefined) throw new UsageError('correct takes --original-receipt-number and --last-correction-receipt-number, not --previous-receipt-number');
  const { previousReceiptNumber: _p, ...base } = await checkedOptions(path, values);
  const options: CorrectOptions = {
    ...base,
    ...(values['original-receipt-number'] !== undefined ? { originalReceiptNumber: values['original-receipt-number'] } : {}),
    ...(values['last-correction-receipt-number'] !== undefined ? { lastCorrectionReceiptNumber: values['last-correction-receipt-number'] } : {}),
    ...(values.types !== undefined ? { types: values.types.split(',').map((t) => t.trim()).filter((t) => t !== '') } : {}),
  };
  const result = await correctFile(path, values.conso, options);
  const { report } = result;
  const structural = structuralFailure(path, report);
  await writeReport(report, values.report);
  if (structural) throw new WorkbookRefused(structural);
  const table = reportTable(report);
  if (!result.txt) {
    io.stderr.write(table);
    return 1;
  }
  const described = result.batches.map((b) => `${b.type} (${b.challans} challan(s))`).join(', ');
  if (values.out) {
    try {
      writeFileSync(values.out, result.txt);
    } catch (error) {
      throw new UsageError(`cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    if (report.problems.length > 0) io.stderr.write(table);
    io.stderr.write(`wrote a correction of ${result.batches.length} batch(es): ${described}, to ${values.out}\n`);
  } else {
    io.stdout.write(result.txt);
    if (report.problems.length > 0) io.stderr.write(table);
  }
  return 0;
}

function runTemplate(values: Values, io: Io): number {
  const text = `${JSON.stringify(workbookTemplate(required(values, 'form') as FormName), null, 2)}\n`;
  if (values.out) {
    try {
      writeFileSync(values.out, text);
    } catch (error) {
      throw new UsageError(`cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    io.stderr.write(`wrote ${values.out}\n`);
  } else {
    io.stdout.write(text);
  }
  return 0;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

type Form16Command = (argv: readonly string[], io: Io) => Promise<number>;

/**
 * `form16` is @satyapan/form16's (it brings PDF and signing libraries the engine's users need not install):
 * loaded only when asked for, by a name in a variable so the engine neither depends on it nor builds against it.
 */
async function runForm16(argv: readonly string[], io: Io): Promise<number> {
  const name = '@satyapan/form16';
  let command: Form16Command | undefined;
  try {
    command = ((await import(name)) as { runForm16Command?: Form16Command }).runForm16Command;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !String((error as Error).message).includes(name)) throw error;
  }
  if (!command) {
    io.stderr.write(`satyapan-statement: form16 needs the ${name} package next to this one (npm install ${name})\n`);
    return 2;
  }
  return command(argv, io);
}

/** Runs the command line; returns the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === 'form16') return runForm16(argv.slice(1), io);
  try {
    if (argv[0] === '--version') {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    if (argv.length === 0) {
      io.stderr.write(`${USAGE}\n`);
      return 2;
    }
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError(argumentError(error as Error & { code?: string }));
    }
    const values = parsed.values as Values;
    const [command, path, extra] = parsed.positionals;
    if (values.help || command === 'help') {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (extra !== undefined) throw new UsageError(`unexpected argument: ${extra}`);
    if (command === 'convert' || command === 'validate') return await runConversion(command, path, values, io);
    if (command === 'correct') return await runCorrection(path, values, io);
    if (command === 'template' && values.xlsx) {
      io.stderr.write(await runTemplateXlsx(required(values, 'form'), values.out, (m) => new UsageError(m)));
      return 0;
    }
    if (command === 'template') return runTemplate(values, io);
    if (command === 'to-xlsx') {
      io.stderr.write(await runToXlsx(path, values.out, (m) => new UsageError(m)));
      return 0;
    }
    throw new UsageError(command ? `unknown command: ${command} (convert, validate, correct, template, to-xlsx or form16)` : `no command given (convert, validate, correct, template, to-xlsx or form16; see --help)`);
  } catch (error) {
    if (error instanceof TxtLayoutError) {
      io.stderr.write(`satyapan-statement: ${error.message}\n`);
      return 3;
    }
    // An .xlsx that is no Excel file, or an input past a limit, is a refused workbook, like a JSON file that is not JSON.
    const unreadableXlsx = error instanceof StatementEngineError && (error.code === 'INVALID_XLSX' || error.code === 'CONVERSION_LIMIT');
    const refused = error instanceof WorkbookFileError || error instanceof WorkbookRefused || unreadableXlsx || error instanceof ConsoFileError;
    const known = refused || error instanceof UsageError || error instanceof StatementEngineError;
    const message = known ? (error as Error).message : `unexpected error: ${(error as Error)?.message ?? String(error)}`;
    io.stderr.write(`satyapan-statement: ${message.split('\n')[0]}\n`);
    return refused ? 1 : 2;
  }
}

/** parseArgs' first line, or for an unknown flag one line naming the closest flag there is. */
function argumentError(error: Error & { code?: string }): string {
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '([^']+)'/.exec(error.message)?.[1] : undefined;
  if (!unknown) return error.message.split('\n')[0]!;
  const flags = [...Object.keys(OPTIONS), 'version'].map((f) => `--${f}`);
  const closest = flags.map((f) => ({ f, d: editDistance(unknown, f) })).sort((a, b) => a.d - b.d)[0]!;
  return closest.d <= 3 ? `unknown flag ${unknown}; did you mean ${closest.f}?` : `unknown flag ${unknown}; the flags are ${flags.join(', ')}`;
}

/** Levenshtein distance (insertions, deletions and substitutions each count one). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
