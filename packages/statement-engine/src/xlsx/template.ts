// `template --xlsx`: the empty workbook of a form in the .xlsx layout, with drop-down lists (Excel data
// validation) on the table columns whose values come from a fixed list. The lists live on a hidden worksheet
// `lists`, which the reader skips.

import type ExcelJS from 'exceljs';
import { minorHeadTokens } from '../codes/misc.js';
import { reasonTable } from '../codes/reasons.js';
import { sectionTable } from '../codes/sections.js';
import { FORM_KIND } from '../forms.js';
import type { Family } from '../period.js';
import { workbookTemplate } from '../template.js';
import type { FormName } from '../types.js';
import { columnLetters, LISTS_WORKSHEET } from './layout.js';
import { sheetJsonToXlsx } from './write.js';

/** Rows of each table given a drop-down (header in row 2, data from row 3). */
const VALIDATED_ROWS = 5000;

/** Column key -> its allowed workbook values, for one form. */
export function enumColumns(form: FormName): Map<string, string[]> {
  const kind = FORM_KIND[form];
  const family: Family = /^\d+$/.test(form) ? 'new' : 'legacy';
  const reasons = [...reasonTable(kind, family).keys()];
  return new Map([
    ['nature_of_payment', [...sectionTable(kind, family).keys()]],
    ['minor_head', minorHeadTokens(kind, family)],
    ['reason_for_lower_deduction', reasons],
    ['reason_for_lower_or_higher_collection', reasons],
    ['mode_of_payment', ['C', 'B']],
    ['nil_challan_indicator', ['Y', 'N']],
  ]);
}

function addLists(book: ExcelJS.Workbook, form: FormName): void {
  const enums = enumColumns(form);
  const lists = book.addWorksheet(LISTS_WORKSHEET, { state: 'hidden' });
  const ranges = new Map<string, string>();
  [...enums.entries()].forEach(([key, values], i) => {
    const column = columnLetters(i + 1);
    lists.getCell(`${column}1`).value = key;
    values.forEach((v, j) => (lists.getCell(`${column}${j + 2}`).value = v));
    ranges.set(key, `${LISTS_WORKSHEET}!$${column}$2:$${column}$${values.length + 1}`);
  });
  for (const worksheet of book.worksheets) {
    const header = worksheet.getRow(2).values as unknown[];
    header.forEach((key, position) => {
      const range = typeof key === 'string' ? ranges.get(key) : undefined;
      if (!range) return;
      const column = columnLetters(position);
      // (exceljs has worksheet.dataValidations at run time; its typings lack it.)
      (worksheet as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }).dataValidations.add(`${column}3:${column}${VALIDATED_ROWS + 2}`, {
        type: 'list',
        allowBlank: true,
        formulae: [range],
        showErrorMessage: true,
        errorTitle: key as string,
        error: `Pick a value from the list (sheet ${LISTS_WORKSHEET})`,
      });
    });
  }
}

/** Writes the empty .xlsx workbook of a form, with its drop-down lists. */
export async function writeTemplateXlsx(form: FormName, path: string): Promise<void> {
  const book = sheetJsonToXlsx(workbookTemplate(form));
  addLists(book, form);
  await book.xlsx.writeFile(path);
}
