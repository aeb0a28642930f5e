// The pieces convert() and the streaming path share: the checks that concern the statement as a whole and
// the reader/assembler wiring.

import { StatementAssembler } from './assembly/assembler.js';
import { BuildContext } from './assembly/context.js';
import type { DeducteeStore, LateRows, RowTrail, SalaryStore } from './assembly/stores.js';
import { hasTokenCheckDigit, RECEIPT_NUMBER_PATTERN } from './codes/identifiers.js';
import { formatForPeople } from './dates.js';
import type { ResolvedOptions } from './options.js';
import { NOWHERE, ProblemCollector } from './problems.js';
import { WORKBOOKS } from './workbook/dialects.js';
import { WorkbookReader } from './workbook/reader.js';
import type { SheetSpec } from './workbook/spec.js';

function describeDigits(text: string): string {
  return /^[0-9]+$/.test(text) ? `${text.length} digits` : 'characters other than digits';
}

/** Problems that follow from the options alone. */
export function statementChecks(ctx: BuildContext): void {
  const { options, period, form } = ctx;
  const previous = options.previousReceiptNumber;
  if (previous !== null && !RECEIPT_NUMBER_PATTERN.test(previous)) {
    ctx.report('INVALID_RECEIPT_NUMBER', NOWHERE, `The previous receipt number must be the 15-digit token number of the previous regular statement; the one given has ${describeDigits(previous)}`);
  } else if (previous !== null && !hasTokenCheckDigit(previous)) {
    ctx.report('INVALID_RECEIPT_NUMBER', NOWHERE, 'The previous receipt number fails its check digit: the last digit must be the first 14 digits mod 7 (FVU T-FV-2232)');
  }
  if (form.kind === 'salary' && form.family === 'new' && period.quarter === 'Q4') {
    ctx.report('FORM_138_Q4_NOT_PUBLISHED', NOWHERE, 'Protean has not published the Form 138 Q4 format (salary and senior-citizen annexures); it cannot be written yet');
  }
  if (period.quarterEnd >= ctx.today) {
    ctx.report('PERIOD_NOT_ENDED', NOWHERE, `${period.quarter} of ${period.label} ends on ${formatForPeople(period.quarterEnd)}; a statement cannot be filed before the quarter ends`);
  }
}

export interface Pipeline {
  ctx: BuildContext;
  problems: ProblemCollector;
  reader: WorkbookReader;
  assembler: StatementAssembler;
  /** 'Form 26Q for Q3 of FY 2025-26', for messages. */
  description: string;
}

export function createPipeline(options: ResolvedOptions, deductees: DeducteeStore, salary: SalaryStore, late: LateRows, trail: RowTrail | null = null): Pipeline {
  const problems = new ProblemCollector(options.maxProblems);
  const ctx = new BuildContext(options, problems);
  statementChecks(ctx);
  const assembler = new StatementAssembler(ctx, deductees, salary, late, trail);
  const readsSheet = (sheet: SheetSpec) => !sheet.optional || (ctx.kind === 'salary' && ctx.isLegacy && ctx.period.quarter === 'Q4');
  const reader = new WorkbookReader(WORKBOOKS[options.form.workbook], assembler, problems, { readsSheet });
  const description = `Form ${options.form.formNumber} for ${options.period.quarter} of ${options.period.label}`;
  return { ctx, problems, reader, assembler, description };
}
