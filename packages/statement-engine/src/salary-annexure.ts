// salaryAnnexure(): a 24Q Q4 workbook's salary annexure as the parsed records its TXT is written from, for
// documents that must say what the statement says (Form 16 Part B, @satyapan/form16). One conversion makes
// both the TXT and the records, so a certificate made from them cannot disagree with the statement filed.

import type { Deductor, ResponsiblePerson } from './assembly/models.js';
import type { SalarySource, SalaryStore } from './assembly/stores.js';
import { run } from './convert.js';
import { formatDdMmYyyy } from './dates.js';
import { StatementEngineError } from './errors.js';
import { resolveOptions } from './options.js';
import { salaryFigures, seniorCitizenFigures, type SalaryDetail, type SeniorCitizenDetail } from './records/salary.js';
import type { ConvertOptions, ValidationReport } from './types.js';

/** The derived amounts of an SD record (SD field numbers in salaryFigures()). */
export type SalaryFigures = ReturnType<typeof salaryFigures>;
export type SeniorCitizenFigures = ReturnType<typeof seniorCitizenFigures>;

export interface AnnexureEmployee {
  detail: SalaryDetail;
  figures: SalaryFigures;
}

export interface AnnexureSeniorCitizen {
  detail: SeniorCitizenDetail;
  figures: SeniorCitizenFigures;
}

export interface SalaryAnnexure {
  report: ValidationReport;
  /** The FVU TXT written from the same records; null when the report has an error (and then no records). */
  txt: string | null;
  deductor: Deductor;
  responsible: ResponsiblePerson;
  period: {
    /** 'FY 2025-26'. */
    label: string;
    /** '2026-27'. */
    assessmentYear: string;
    /** DD/MM/YYYY. */
    yearStart: string;
    yearEnd: string;
  };
  /** SD records in file order (record numbers 1..n). */
  employees: AnnexureEmployee[];
  /** 94P records (s.194P specified senior citizens) in file order. */
  seniorCitizens: AnnexureSeniorCitizen[];
}

/** Keeps each salary group's parsed record beside its lines. */
class AnnexureStore implements SalaryStore {
  readonly groups: Array<readonly string[]> = [];
  readonly sources: SalarySource[] = [];

  append(group: readonly string[], source: SalarySource): void {
    this.groups.push(group);
    this.sources.push(source);
  }
}

/**
 * Converts a legacy 24Q Q4 workbook and returns its salary records with the TXT. Other forms or quarters throw
 * StatementEngineError NO_SALARY_ANNEXURE (they have no salary annexure); workbook problems are in the report, and
 * an invalid workbook gives no records: a certificate is only made from a statement that can be filed.
 */
export function salaryAnnexure(workbook: unknown, options: ConvertOptions): SalaryAnnexure {
  const resolved = resolveOptions(options);
  if (resolved.form.kind !== 'salary' || resolved.period.quarter !== 'Q4' || resolved.form.family !== 'legacy') {
    throw new StatementEngineError('NO_SALARY_ANNEXURE', `The salary annexure is in the legacy 24Q Q4 statement only, not ${resolved.form.formNumber} ${resolved.period.quarter} of ${resolved.period.label}`);
  }
  const store = new AnnexureStore();
  const r = run(workbook, options, null, store);
  const valid = r.report.valid && r.statement !== null;
  const p = resolved.period;
  const next = String((p.startYear + 2) % 100).padStart(2, '0');
  return {
    report: r.report,
    txt: valid ? r.render() : null,
    deductor: r.statement?.deductor ?? emptyParty({ tan: '', branch: '', category: '', governmentState: '', ministry: '', ministryOther: '', ain: '', gstin: '' }),
    responsible: r.statement?.responsible ?? emptyParty({ designation: '' }),
    period: { label: p.label, assessmentYear: `${p.startYear + 1}-${next}`, yearStart: formatDdMmYyyy(p.yearStart), yearEnd: formatDdMmYyyy(p.yearEnd) },
    employees: valid ? store.sources.flatMap((s) => (s.kind === 'SD' ? [{ detail: s.detail, figures: salaryFigures(s.detail) }] : [])) : [],
    seniorCitizens: valid ? store.sources.flatMap((s) => (s.kind === '94P' ? [{ detail: s.detail, figures: seniorCitizenFigures(s.detail) }] : [])) : [],
  };
}

function emptyParty<T extends object>(extra: T) {
  return { name: '', pan: '', address: ['', '', '', '', ''] as [string, string, string, string, string], state: '', pin: '', email: '', country: '', callingCode: '', contactNumber: '', ...extra };
}
