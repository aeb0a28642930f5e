import { civilDate, monthOf, yearOf, type CivilDate } from './dates.js';
import type { Quarter } from './types.js';

export type Family = 'legacy' | 'new';

/** The statement period: a quarter of a financial year (legacy) or of a tax year (new forms). */
export interface Period {
  family: Family;
  quarter: Quarter;
  /** Calendar year in which the financial/tax year starts (2025 for FY 2025-26). */
  startYear: number;
  /** 'FY 2025-26' or 'TY 2026-27', as it should read in messages. */
  label: string;
  /** BH financial/tax year, e.g. '202526'. */
  yearCode: string;
  /** BH assessment year, e.g. '202627'. */
  assessmentYearCode: string;
  quarterStart: CivilDate;
  quarterEnd: CivilDate;
  yearStart: CivilDate;
  yearEnd: CivilDate;
}

/** First year of the new forms (Income-tax Act 2025): tax year 2026-27. */
export const FIRST_TAX_YEAR = 2026;
/** Oldest financial year the current legacy formats (FVU 9.x) accept statements for. */
export const FIRST_LEGACY_YEAR = 2010;

/**
 * The latest year a statement can be for on `today`: the financial/tax year `today` falls in. A later year has
 * not begun, so no deduction in it can be dated yet (dates may not be in the future) and nothing can be filed.
 */
export function latestStartYear(today: CivilDate): number {
  return monthOf(today) >= 4 ? yearOf(today) : yearOf(today) - 1;
}

const QUARTER_MONTHS: Record<Quarter, { startMonth: number; endMonth: number; endDay: number; nextYear: boolean }> = {
  Q1: { startMonth: 4, endMonth: 6, endDay: 30, nextYear: false },
  Q2: { startMonth: 7, endMonth: 9, endDay: 30, nextYear: false },
  Q3: { startMonth: 10, endMonth: 12, endDay: 31, nextYear: false },
  Q4: { startMonth: 1, endMonth: 3, endDay: 31, nextYear: true },
};

function yearCode(startYear: number): string {
  return `${startYear}${String((startYear + 1) % 100).padStart(2, '0')}`;
}

export function makePeriod(startYear: number, quarter: Quarter): Period {
  const family: Family = startYear >= FIRST_TAX_YEAR ? 'new' : 'legacy';
  const q = QUARTER_MONTHS[quarter];
  const y = q.nextYear ? startYear + 1 : startYear;
  const short = String((startYear + 1) % 100).padStart(2, '0');
  return {
    family,
    quarter,
    startYear,
    label: `${family === 'new' ? 'TY' : 'FY'} ${startYear}-${short}`,
    yearCode: yearCode(startYear),
    assessmentYearCode: yearCode(startYear + 1),
    quarterStart: civilDate(y, q.startMonth, 1),
    quarterEnd: civilDate(y, q.endMonth, q.endDay),
    yearStart: civilDate(startYear, 4, 1),
    yearEnd: civilDate(startYear + 1, 3, 31),
  };
}
