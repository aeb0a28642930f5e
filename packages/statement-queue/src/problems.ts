// What a failed job keeps of its report so that its poll can say why it failed without the report being fetched.
import type { ConversionReport } from './conversion/types.js';
import { SHOWN_PROBLEMS, type JobProblem } from './model.js';

export interface FailureSummary {
  problems: JobProblem[];
  errorCount: number;
}

/** The report's first SHOWN_PROBLEMS errors (warnings never fail a job, so none are shown) and its error count. */
export function failureSummary(report: ConversionReport): FailureSummary {
  const problems = report.problems
    .filter((problem) => problem.severity === 'error')
    .slice(0, SHOWN_PROBLEMS)
    .map(({ code, message, sheet, row, column, cell }) => ({ code, message, sheet, row, column, ...(cell !== undefined ? { cell } : {}) }));
  return { problems, errorCount: Math.max(report.errorCount, problems.length) };
}
