import { RULES, type RuleCode } from './rules.js';
import type { Problem, ValidationReport } from './types.js';

/** Where a problem sits in the workbook. */
export interface Place {
  sheet: string | null;
  row: number | null;
  column: string | null;
  /** The Excel cell (`payment_sheet!E3`), when the place is known as one (the .xlsx reader's own problems). */
  cell?: string;
  /** The block a problem about a whole block is about: the .xlsx reader names the cell of its title row. */
  block?: string;
}

/** The block of each problem about a whole block (kept off the Problem, whose JSON form stays as it was). */
const blocks = new WeakMap<Problem, string>();

/** The block a problem is about, when it is about a whole block (BLOCK_UNKNOWN). */
export const blockOf = (problem: Problem): string | undefined => blocks.get(problem);

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
    const problem: Problem = { sheet: place.sheet, row: place.row, column: place.column, code, message, severity };
    if (place.cell !== undefined) problem.cell = place.cell;
    if (place.block !== undefined) blocks.set(problem, place.block);
    this.problems.push(problem);
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
