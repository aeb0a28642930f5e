import { FIRST_TAX_YEAR, StatementEngineError, resolveStartYear } from '@satyapan/statement-engine';
import type { StatementDomain } from './model.js';

/**
 * Financial years and form names as the API accepts them. The engine checks them again when it converts; these
 * checks exist so that a bad request is refused at submit time (422) instead of producing a job that must fail.
 */

const YEAR_PATTERN = /^(FY|TY) (\d{4})-(\d{2})$/;

/** `FY 2025-26` -> 2025; `TY 2026-27` -> 2026; null when the text is not a year in the API's spelling. */
export function periodStartYear(text: string): number | null {
  const match = YEAR_PATTERN.exec(text);
  if (!match) return null;
  const start = Number(match[2]);
  return Number(match[3]) === (start + 1) % 100 ? start : null;
}

/**
 * The start year of a year a request may name: the API's spelling, and a year the engine writes on `now` (the
 * engine's own bounds: from FY 2010-11, tax years from TY 2026-27, none that has not begun). Null otherwise.
 */
export function requestStartYear(text: string, now: number): number | null {
  const start = periodStartYear(text);
  if (start === null) return null;
  try {
    return resolveStartYear(text, () => new Date(now));
  } catch (error) {
    if (error instanceof StatementEngineError) return null;
    throw error;
  }
}

type FormKind = 'salary' | 'nonsalary' | 'nonresident' | 'tcs';

const KIND_OF_FORM: Readonly<Record<string, FormKind>> = {
  '24Q': 'salary', '138': 'salary',
  '26Q': 'nonsalary', '140': 'nonsalary',
  '27Q': 'nonresident', '144': 'nonresident',
  '27EQ': 'tcs', '143': 'tcs',
};

const FORM_BY_FAMILY: Readonly<Record<FormKind, { legacy: string; current: string }>> = {
  salary: { legacy: '24Q', current: '138' },
  nonsalary: { legacy: '26Q', current: '140' },
  nonresident: { legacy: '27Q', current: '144' },
  tcs: { legacy: '27EQ', current: '143' },
};

/** The search index of a form: both names of a form find the same jobs. */
export function formKind(form: string): FormKind | null {
  return KIND_OF_FORM[form] ?? null;
}

/** The form number the statement is written as: the period decides between the two names. */
export function writtenForm(form: string, startYear: number): string {
  const kind = formKind(form);
  if (!kind) throw new Error(`Unknown form: ${form}`);
  const names = FORM_BY_FAMILY[kind];
  return startYear >= FIRST_TAX_YEAR ? names.current : names.legacy;
}

/** The form a TCS job is converted as (TCS requests carry no form). */
export function tcsForm(startYear: number): string {
  return writtenForm('27EQ', startYear);
}

export function domainOfForm(form: string): StatementDomain | null {
  const kind = formKind(form);
  if (!kind) return null;
  return kind === 'tcs' ? 'tcs' : 'tds';
}
