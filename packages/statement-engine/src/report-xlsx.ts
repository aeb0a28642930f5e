// The validation report as an .xlsx workbook (what the vendor returns and what accountants open).

import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';
import type { ValidationReport } from './types.js';

const COLUMNS = [
  { header: 'Severity', key: 'severity', width: 10 },
  { header: 'Code', key: 'code', width: 32 },
  { header: 'Sheet', key: 'sheet', width: 22 },
  { header: 'Row', key: 'row', width: 8 },
  { header: 'Column', key: 'column', width: 36 },
  // The Excel cell (`payment_sheet!E3`) of a problem in an .xlsx workbook; empty for JSON input.
  { header: 'Cell', key: 'cell', width: 22 },
  { header: 'Message', key: 'message', width: 100 },
];

const ERROR_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFDE2E1' } };
const WARNING_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF4CE' } };

export function reportWorkbook(report: ValidationReport): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Satyapan statement engine';
  const summary = workbook.addWorksheet('Summary');
  summary.columns = [
    { header: 'Item', key: 'item', width: 16 },
    { header: 'Value', key: 'value', width: 16 },
  ];
  summary.addRow({ item: 'Valid', value: report.valid ? 'Yes' : 'No' });
  summary.addRow({ item: 'Errors', value: report.errorCount });
  summary.addRow({ item: 'Warnings', value: report.warningCount });
  summary.getRow(1).font = { bold: true };

  const problems = workbook.addWorksheet('Problems', { views: [{ state: 'frozen', ySplit: 1 }] });
  problems.columns = COLUMNS;
  problems.getRow(1).font = { bold: true };
  for (const p of report.problems) {
    const row = problems.addRow({ severity: p.severity, code: p.code, sheet: p.sheet ?? '', row: p.row ?? '', column: p.column ?? '', cell: p.cell ?? '', message: p.message });
    row.getCell('severity').fill = p.severity === 'error' ? ERROR_FILL : WARNING_FILL;
  }
  problems.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: COLUMNS.length } };
  return workbook;
}

/** Writes the report to an .xlsx file path or a writable stream. */
export async function writeReportXlsx(report: ValidationReport, target: string | Writable): Promise<void> {
  const workbook = reportWorkbook(report);
  if (typeof target === 'string') await workbook.xlsx.writeFile(target);
  else await workbook.xlsx.write(target);
}
