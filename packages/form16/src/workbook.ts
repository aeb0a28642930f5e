// A 24Q Q4 workbook file (Sheet JSON or .xlsx) read whole, with its payer TAN: Form 16 needs every employee's
// records at once, and a Q4 workbook of 10,000 employees is tens of megabytes, well within memory.

import { readFileSync } from 'node:fs';
import { peekWorkbook, peekXlsxTan, readXlsxWorkbook } from '@satyapan/statement-engine';
import { Form16Error } from './errors.js';

export interface LoadedWorkbook {
  workbook: unknown;
  /** The payer list's TAN, or null when the workbook has none. */
  tan: string | null;
}

export async function loadWorkbook(path: string): Promise<LoadedWorkbook> {
  try {
    if (/\.xlsx$/i.test(path)) {
      const [{ workbook }, tan] = await Promise.all([readXlsxWorkbook(path), peekXlsxTan(path)]);
      return { workbook, tan };
    }
    const workbook = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return { workbook, tan: (await peekWorkbook(path)).tan };
  } catch (error) {
    const why = error instanceof SyntaxError ? `not JSON (${error.message.split('\n')[0]})` : ((error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0]);
    throw new Form16Error('WORKBOOK_UNREADABLE', `cannot read the workbook ${path}: ${why}`);
  }
}
