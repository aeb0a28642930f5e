// The validation report as a plain-text table for a terminal.

import type { Problem, ValidationReport } from '../types.js';

const LIMIT = 50;

function cell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}~` : text.padEnd(width);
}

export function reportTable(report: ValidationReport, limit = LIMIT): string {
  const lines: string[] = [];
  const summary = `${report.errorCount} error(s), ${report.warningCount} warning(s)`;
  if (report.problems.length === 0) return `${summary}\n`;
  const shown = report.problems.slice(0, limit);
  // An .xlsx workbook's problem names its Excel cell (`payment_sheet!E3`) and the column key.
  const where = (p: Problem) =>
    (p.cell === undefined ? [p.sheet ?? '-', p.row === null ? '' : `row ${p.row}`, p.column ?? ''] : [p.cell, p.column ?? '']).filter((x) => x !== '').join(' / ');
  const widths = {
    severity: 7,
    code: Math.min(32, Math.max(4, ...shown.map((p) => p.code.length))),
    where: Math.min(48, Math.max(5, ...shown.map((p) => where(p).length))),
  };
  lines.push(`${cell('LEVEL', widths.severity)}  ${cell('CODE', widths.code)}  ${cell('WHERE', widths.where)}  MESSAGE`);
  for (const p of shown) lines.push(`${cell(p.severity, widths.severity)}  ${cell(p.code, widths.code)}  ${cell(where(p), widths.where)}  ${p.message}`);
  if (report.problems.length > shown.length) lines.push(`... and ${report.problems.length - shown.length} more (write them all with --report)`);
  lines.push(summary);
  return `${lines.join('\n')}\n`;
}
