// Converts every Sheet JSON workbook in a folder with the statement engine alone: no HTTP, no Redis, no
// network. Beside each <name>.json it writes <name>.txt (when the workbook is valid), <name>.report.json and
// <name>.report.xlsx.
//
//   node examples/batch/dist/main.js <folder> [--form 26Q] [--quarter Q3] [--year "FY 2025-26"]
//
// Per workbook, <name>.options.json ({"form", "quarter", "financialYear", "tan"}) overrides the command line;
// the form defaults to the workbook's own (form26q_workbook -> 26Q) and the TAN to its payer list's.
// Exit code: 0 all converted, 1 some workbooks have validation errors, 2 usage or I/O errors.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { convertFile, peekWorkbook, StatementEngineError, writeReportXlsx, type ConvertOptions, type FormName, type Quarter } from '@satyapan/statement-engine';

const FORM_OF_WORKBOOK: Record<string, FormName> = {
  form24q_workbook: '24Q',
  form26q_workbook: '26Q',
  form27q_workbook: '27Q',
  form27eq_workbook: '27EQ',
  form138_workbook: '138',
  form140_workbook: '140',
  form143_workbook: '143',
  form144_workbook: '144',
};

interface Defaults {
  form?: string;
  quarter?: string;
  year?: string;
}

type Outcome = 'converted' | 'invalid' | 'failed';

/** Options for one workbook: its sidecar file, then the command line, then what the workbook says. */
async function optionsFor(path: string, defaults: Defaults): Promise<ConvertOptions> {
  const sidecar = path.replace(/\.json$/, '.options.json');
  const given = existsSync(sidecar) ? (JSON.parse(readFileSync(sidecar, 'utf8')) as Partial<ConvertOptions>) : {};
  const peek = await peekWorkbook(path);
  const form = given.form ?? defaults.form ?? (peek.name ? FORM_OF_WORKBOOK[peek.name] : undefined);
  const quarter = given.quarter ?? defaults.quarter;
  const financialYear = given.financialYear ?? defaults.year;
  const tan = given.tan ?? peek.tan;
  const missing = [!form && 'form', !quarter && 'quarter', !financialYear && 'year', !tan && 'tan'].filter(Boolean);
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}`);
  return { form: form as FormName, quarter: quarter as Quarter, financialYear: financialYear!, tan: tan! };
}

async function convertOne(path: string, defaults: Defaults): Promise<Outcome> {
  const stem = path.replace(/\.json$/, '');
  const name = basename(path);
  try {
    const conversion = await convertFile(path, await optionsFor(path, defaults));
    const { report } = conversion;
    writeFileSync(`${stem}.report.json`, `${JSON.stringify(report, null, 2)}\n`);
    await writeReportXlsx(report, `${stem}.report.xlsx`);
    if (!report.valid) {
      await conversion.dispose();
      console.log(`${name}: ${report.errorCount} error(s), ${report.warningCount} warning(s); see ${basename(stem)}.report.xlsx`);
      return 'invalid';
    }
    const written = await conversion.writeTo(`${stem}.txt`);
    console.log(`${name}: ${written.lines} lines -> ${basename(stem)}.txt (${report.warningCount} warning(s))`);
    return 'converted';
  } catch (error) {
    const message = error instanceof StatementEngineError ? `${error.code}: ${error.message}` : (error as Error).message;
    console.log(`${name}: not converted (${message})`);
    return 'failed';
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { form: { type: 'string' }, quarter: { type: 'string' }, year: { type: 'string' } },
  });
  const folder = positionals[0];
  if (!folder || !existsSync(folder)) {
    console.error('usage: main.js <folder> [--form 26Q] [--quarter Q3] [--year "FY 2025-26"]');
    return 2;
  }
  const workbooks = readdirSync(folder)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.report.json') && !f.endsWith('.options.json'))
    .sort()
    .map((f) => join(folder, f));
  const outcomes: Outcome[] = [];
  for (const path of workbooks) outcomes.push(await convertOne(path, values));
  const count = (o: Outcome) => outcomes.filter((x) => x === o).length;
  console.log(`${workbooks.length} workbook(s): ${count('converted')} converted, ${count('invalid')} with errors, ${count('failed')} not read`);
  if (count('failed') > 0) return 2;
  return count('invalid') > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
