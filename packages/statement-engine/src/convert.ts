// convert() and validate(): a parsed workbook in memory -> TXT + report.

import type { Statement } from './assembly/assembler.js';
import { MemoryDeducteeStore, MemoryLateRows, MemorySalaryStore, type RowTrail, type SalaryStore } from './assembly/stores.js';
import { deducteeCheckFor } from './layouts/field-check.js';
import { resolveOptions } from './options.js';
import { statementLines } from './output.js';
import { deducteeFieldCount } from './records/deductee.js';
import { createPipeline } from './statement.js';
import type { ConversionResult, ConvertOptions, ValidationReport } from './types.js';
import { walkWorkbook } from './workbook/walk.js';

export interface Run {
  statement: Statement | null;
  report: ValidationReport;
  render(): string;
}

/** One conversion in memory; `salary` keeps the salary groups (salaryAnnexure() passes one that also keeps their records). */
export function run(workbook: unknown, options: ConvertOptions, trail: RowTrail | null = null, salary: SalaryStore & { readonly groups: ReadonlyArray<readonly string[]> } = new MemorySalaryStore()): Run {
  const resolved = resolveOptions(options);
  const checked = deducteeCheckFor(resolved);
  const deductees = new MemoryDeducteeStore(deducteeFieldCount(resolved.form.family), checked);
  const pipeline = createPipeline(resolved, deductees, salary, new MemoryLateRows(), trail);
  const read = walkWorkbook(workbook, pipeline.reader, pipeline.problems, pipeline.description);
  const statement = read ? pipeline.assembler.finish() : null;
  const report = pipeline.problems.report();
  return {
    statement,
    report,
    render: () => {
      const lines = statementLines(statement!, resolved, pipeline.ctx.today, {
        deductees: (record) => deductees.bodies(record),
        salaryGroups: () => salary.groups,
        checked,
      });
      let txt = '';
      for (const l of lines) txt += l;
      return txt;
    },
  };
}

/**
 * Converts a Sheet JSON workbook (already parsed) into the FVU input TXT. Option errors throw
 * StatementEngineError; every workbook problem goes into the report, and any error leaves `txt` null.
 */
export function convert(workbook: unknown, options: ConvertOptions): ConversionResult {
  const r = run(workbook, options);
  return { txt: r.report.valid && r.statement ? r.render() : null, report: r.report };
}

/** convert(), noting in `trail` the workbook row of every challan and deductee record (correct()). */
export function convertTraced(workbook: unknown, options: ConvertOptions, trail: RowTrail): ConversionResult {
  const r = run(workbook, options, trail);
  return { txt: r.report.valid && r.statement ? r.render() : null, report: r.report };
}

/** The validation report convert() would give, without writing the TXT. */
export function validate(workbook: unknown, options: ConvertOptions): ValidationReport {
  return run(workbook, options).report;
}
