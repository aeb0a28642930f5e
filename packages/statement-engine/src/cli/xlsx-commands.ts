// The command line's Excel side: `to-xlsx`, `template --xlsx`, and the payer TAN of an .xlsx workbook.

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { StatementEngineError } from '../errors.js';
import { isFormName } from '../forms.js';
import type { FormName } from '../types.js';
import { xlsxListItem } from '../xlsx/read.js';
import { writeTemplateXlsx } from '../xlsx/template.js';
import { writeSheetJsonXlsx } from '../xlsx/write.js';

export const isXlsxPath = (path: string) => extname(path).toLowerCase() === '.xlsx';

type Fail = (message: string) => Error;

/** The payer_list TAN of an .xlsx workbook, or null: read until found, never the whole workbook held. */
export async function xlsxTan(path: string): Promise<string | null> {
  const tan = await xlsxListItem(path, 'payer_list', 'tan');
  return typeof tan === 'string' ? tan : null;
}

function needsXlsxOut(out: string | undefined, fail: Fail): string {
  if (!out) throw fail('--out <file.xlsx> is required: an .xlsx is not written to the terminal');
  if (!isXlsxPath(out)) throw fail(`--out must name an .xlsx file, not ${out}`);
  return out;
}

async function writing(out: string, fail: Fail, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (error instanceof StatementEngineError) throw error;
    throw fail(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** `to-xlsx <workbook.json> --out <file.xlsx>`. */
export async function runToXlsx(path: string | undefined, out: string | undefined, fail: Fail): Promise<string> {
  if (!path) throw fail('to-xlsx needs a workbook file (see --help)');
  const target = needsXlsxOut(out, fail);
  let workbook: unknown;
  try {
    workbook = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw fail(error instanceof SyntaxError ? `${path} is not valid JSON: ${error.message.split('\n')[0]}` : `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  await writing(target, fail, () => writeSheetJsonXlsx(workbook, target));
  return `wrote ${target}\n`;
}

/** `template --form <form> --xlsx --out <file.xlsx>`. */
export async function runTemplateXlsx(form: string, out: string | undefined, fail: Fail): Promise<string> {
  const name = form.trim().toUpperCase();
  if (!isFormName(name)) throw fail(`unknown form ${form.slice(0, 20)} (24Q/138, 26Q/140, 27Q/144 or 27EQ/143)`);
  const target = needsXlsxOut(out, fail);
  await writing(target, fail, () => writeTemplateXlsx(name as FormName, target));
  return `wrote ${target}\n`;
}
