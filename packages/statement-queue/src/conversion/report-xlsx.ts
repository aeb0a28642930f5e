// The .xlsx form of a validation report (what `validation_report_url` serves).
//
// Transitional: the engine is to export writeReportXlsx(report, target) (exceljs); until it does, this module
// writes the same information itself with exceljs, which the engine already brings into the workspace. Switch
// to the engine's writer (and drop this direct import) as soon as it is exported.
import ExcelJS from 'exceljs';
import type { ConversionReport } from './types.js';

const COLUMNS = [
  { header: 'Sheet', key: 'sheet', width: 22 },
  { header: 'Row', key: 'row', width: 8 },
  { header: 'Column', key: 'column', width: 30 },
  { header: 'Code', key: 'code', width: 28 },
  { header: 'Message', key: 'message', width: 80 },
  { header: 'Severity', key: 'severity', width: 10 },
];

export async function reportToXlsx(report: ConversionReport): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Validation report');
  sheet.columns = COLUMNS;
  sheet.getRow(1).font = { bold: true };
  for (const problem of report.problems) sheet.addRow(problem);
  const summary = book.addWorksheet('Summary');
  summary.addRows([['Valid', report.valid ? 'yes' : 'no'], ['Errors', report.errorCount], ['Warnings', report.warningCount]]);
  return new Uint8Array(await book.xlsx.writeBuffer());
}
