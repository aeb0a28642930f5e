import { AMOUNT_CEILING_PAISE, PAYMENT_DATE_IN_QUARTER } from '../codes/fvu-choices.js';
import { fromDate, formatForPeople, type CivilDate } from '../dates.js';
import type { FormKind, FormSpec } from '../forms.js';
import type { ResolvedOptions } from '../options.js';
import type { Family, Period } from '../period.js';
import type { Place, ProblemCollector } from '../problems.js';
import type { RuleCode } from '../rules.js';

/** Everything a builder needs to know about the statement being written. */
export class BuildContext {
  readonly form: FormSpec;
  readonly kind: FormKind;
  readonly family: Family;
  readonly period: Period;
  /** File creation date (IST); dates after it are "in the future". */
  readonly today: CivilDate;
  /** Largest amount paid / taxable income the FVU accepts for this form, in paise (Infinity: none). */
  readonly amountCeiling: number;
  /** Whether the date of payment must fall in the quarter (new forms) or not (legacy: late deductions). */
  readonly paymentDateInQuarter: boolean;

  constructor(
    readonly options: ResolvedOptions,
    readonly problems: ProblemCollector,
  ) {
    this.form = options.form;
    this.kind = options.form.kind;
    this.family = options.form.family;
    this.period = options.period;
    this.today = fromDate(options.now());
    this.amountCeiling = AMOUNT_CEILING_PAISE[this.form.formNumber] ?? Number.POSITIVE_INFINITY;
    this.paymentDateInQuarter = PAYMENT_DATE_IN_QUARTER[this.family];
  }

  report(code: RuleCode, place: Place | (() => Place), message: string): void {
    this.problems.add(code, typeof place === 'function' ? place() : place, message);
  }

  get isLegacy(): boolean {
    return this.family === 'legacy';
  }

  /** "Q3 of FY 2025-26 (01/10/2025 - 31/12/2025)" */
  describeQuarter(): string {
    const p = this.period;
    return `${p.quarter} of ${p.label} (${formatForPeople(p.quarterStart)} - ${formatForPeople(p.quarterEnd)})`;
  }
}
