import { RULES, type RuleCode } from './rules.js';
import type { Problem, ValidationReport } from './types.js';

/** Where a problem sits in the workbook. */
export interface Place {
  sheet: string | null;
  row: number | null;
  column: string | null;
}

export const NOWHERE: Place = { sheet: null, row: null, column: null };

/** Collects problems; keeps at most `limit` of them but counts all. */
export class ProblemCollector {
  private readonly problems: Problem[] = [];
  private errors = 0;
  private warnings = 0;
  private dropped = 0;

  constructor(private readonly limit: number) {}

  add(code: RuleCode, place: Place, message: string): void {
    const severity = RULES[code].severity;
    if (severity === 'error') this.errors++;
    else this.warnings++;
    if (this.problems.length >= this.limit) {
      this.dropped++;
      return;
    }
    this.problems.push({ sheet: place.sheet, row: place.row, column: place.column, code, message, severity });
  }

  get errorCount(): number {
    return this.errors;
  }

  hasErrors(): boolean {
    return this.errors > 0;
  }

  report(): ValidationReport {
    const problems = this.problems.slice();
    let warnings = this.warnings;
    if (this.dropped > 0) {
      warnings++;
      problems.push({
        sheet: null,
        row: null,
        column: null,
        code: 'PROBLEM_LIST_TRUNCATED',
        message: `${this.dropped} more problem(s) not listed`,
        severity: 'warning',
      });
    }
    return { valid: this.errors === 0, errorCount: this.errors, warningCount: warnings, problems };
  }
}
