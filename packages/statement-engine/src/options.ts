import { StatementEngineError } from './errors.js';
import { FORM_KIND, formSpec, isFormName, type FormSpec } from './forms.js';
import { fromDate } from './dates.js';
import { FIRST_LEGACY_YEAR, FIRST_TAX_YEAR, latestStartYear, makePeriod, type Period } from './period.js';
import type { ConvertOptions, Quarter } from './types.js';
import { parseCsi, type CsiFile } from './csi/parse.js';
import { resolveLimits, type InputLimits } from './limits.js';
import { isValidTan } from './codes/identifiers.js';

const DEFAULT_MAX_PROBLEMS = 10000;

/** Options after checking: what to write and for which period. */
export interface ResolvedOptions {
  form: FormSpec;
  period: Period;
  tan: string;
  /** Token number of the previous regular statement (BH 9, with BH 52 = Y), as given; checked by statementChecks. */
  previousReceiptNumber: string | null;
  now: () => Date;
  maxProblems: number;
  /** The Challan Status Inquiry file the challans are checked against, when one is given. */
  csi: CsiFile | null;
  limits: InputLimits;
}

function resolveQuarter(value: unknown): Quarter {
  const q = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (q === 'Q1' || q === 'Q2' || q === 'Q3' || q === 'Q4') return q;
  throw new StatementEngineError('INVALID_QUARTER', `Invalid quarter: expected Q1, Q2, Q3 or Q4`);
}

/**
 * 'FY 2025-26' / 'TY 2026-27' (also 'FY 2026-27' for the tax year) -> the starting calendar year, for the years
 * this engine writes: from FY 2010-11 to the year `now` falls in. Throws INVALID_FINANCIAL_YEAR otherwise.
 */
export function resolveStartYear(value: unknown, now: () => Date = () => new Date()): number {
  const text = typeof value === 'string' ? value.trim().toUpperCase() : '';
  const m = /^(FY|TY)\s*(\d{4})\s*-\s*(\d{2}|\d{4})$/.exec(text);
  const invalid = (why: string): never => {
    throw new StatementEngineError('INVALID_FINANCIAL_YEAR', `Invalid financial year: ${why}`);
  };
  if (!m) return invalid(`expected the form 'FY 2025-26' or 'TY 2026-27'`);
  const start = Number(m[2]);
  const end = Number(m[3]);
  if (end !== (m[3]!.length === 2 ? (start + 1) % 100 : start + 1)) return invalid('the second year must follow the first');
  if (m[1] === 'TY' && start < FIRST_TAX_YEAR) return invalid('tax years start with TY 2026-27; earlier periods are financial years (FY)');
  if (start < FIRST_LEGACY_YEAR) return invalid('statements before FY 2010-11 use formats this engine does not write');
  if (start > latestStartYear(fromDate(now()))) return invalid(`${m[1]} ${m[2]}-${m[3]} has not begun yet`);
  return start;
}

function resolveTan(value: unknown): string {
  const tan = typeof value === 'string' ? value.trim().toUpperCase() : '';
  // The TAN named (a TAN identifies a business, not a person): a CLI user whose TAN came from the payer list sees which.
  if (!isValidTan(tan)) throw new StatementEngineError('INVALID_TAN', `Invalid TAN${tan ? ` ${tan.slice(0, 12)}` : ''}: expected a city code the FVU knows, a letter, 5 digits and their check letter (FVU T-FV-1010)`);
  return tan;
}

/** Absent or blank: no earlier regular statement. Anything else is kept as text for the format check (a number
 *  would have lost the token's leading zeros, which that check then reports). */
function previousReceiptNumber(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

export function resolveOptions(options: ConvertOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') throw new StatementEngineError('INVALID_OPTIONS', 'Options must be an object');
  const formText = typeof options.form === 'string' ? options.form.trim().toUpperCase() : String(options.form);
  if (!isFormName(formText)) {
    throw new StatementEngineError('INVALID_FORM', `Invalid form type: ${formText.slice(0, 20)} (expected 24Q/138, 26Q/140, 27Q/144 or 27EQ/143)`);
  }
  const quarter = resolveQuarter(options.quarter);
  const now = typeof options.now === 'function' ? options.now : () => new Date();
  const period = makePeriod(resolveStartYear(options.financialYear, now), quarter);
  const maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const limits = resolveLimits(options.limits);
  return {
    form: formSpec(FORM_KIND[formText], period.family),
    period,
    tan: resolveTan(options.tan),
    previousReceiptNumber: previousReceiptNumber(options.previousReceiptNumber),
    now,
    maxProblems: Number.isInteger(maxProblems) && maxProblems > 0 ? maxProblems : DEFAULT_MAX_PROBLEMS,
    csi: resolveCsi(options.csi, limits),
    limits,
  };
}

function resolveCsi(value: unknown, limits: InputLimits): CsiFile | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) throw new StatementEngineError('INVALID_CSI', 'The csi option must be the CSI file content (a string or bytes)');
  return parseCsi(value, limits);
}
