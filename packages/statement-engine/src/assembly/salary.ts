// salary_detail_table rows (24Q Q4) -> SD records with S16 / C6A children, and the BH salary totals.

import { PAN_PATTERN } from '../codes/identifiers.js';
import { FIRST_194P_YEAR, SENIOR_CATEGORIES } from '../codes/sections.js';
import { formatForPeople } from '../dates.js';
import { formatPaise, parseRate } from '../money.js';
import {
  salaryFigures,
  salaryGroup,
  seniorCitizenFigures,
  seniorCitizenGroup,
  type Chapter6AEntry,
  type SalaryDetail,
  type SalaryParty,
  type SeniorCitizenDetail,
} from '../records/salary.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import { cell, col } from './columns.js';
import type { BuildContext } from './context.js';
import type { Payee } from './models.js';
import type { SalaryStore } from './stores.js';
import { fieldWidth } from '../layouts/compile.js';

import { readAmount, readDate, readIdentifier, readText, type PlaceFn } from './values.js';

export interface SalaryTotals {
  records: number;
  /** Sum of the SD records' gross total income (field 19), in paise. */
  grossTotal: number;
  /** 94P (s.194P) records and the sum of their gross total income (94P field 15): BH 70 / 71. */
  seniorRecords: number;
  seniorGrossTotal: number;
}

/** Workbook column stem -> C6A section id. Columns marked "for 194P records" are folded into OTHERS. */
const CHAPTER_6A: ReadonlyArray<readonly [string, string, boolean]> = [
  ['80_c', '80C', false],
  ['80_ccc', '80CCC', false],
  ['80_ccd_1', '80CCD(1)', false],
  ['80_ccd_1_b', '80CCD(1B)', false],
  ['80_ccd_2', '80CCD(2)', false],
  ['80_cch', '80CCH', false],
  ['80_d', '80D', false],
  ['80_e', '80E', false],
  ['80_g', '80G', true],
  ['80_tta', '80TTA', true],
];
const TTB_OWN_ID = ['80_ttb', '80TTB', true] as const;
const FOLDED_INTO_OTHERS = ['80_ccg', '80_dd', '80_ee', '80_eea', '80_gg', '80_ggc', '80_ttb', '80_u'];
/** Deductions the new regime (115BAC) still allows. */
const NEW_REGIME_6A = new Set(['80CCD(2)', '80CCH']);
const LIMIT_80C = 15000000; // Rs 1,50,000 in paise
const S194P_COLUMNS = ['gross_pension_under_194p', 'interest_income_by_bank_under_194p', 'net_tax_payable_under_194p'];
/** Salary-sheet amounts the 94P record has no field for (tds-txt-format §4.5): refused on a 194P row. */
const NOT_IN_94P = [
  'salary_as_per_provisions_contained_in_section_17_1',
  'value_of_perquisites_us_17_2',
  'profits_in_lieu_of_salary_us_17_3',
  'gross_salary_from_previous_employers',
  'tds_by_previous_employers',
  'tds_on_salary',
  'other_tds_or_tcs_amount_as_per_section_192_2b',
  'travel_concession_or_assistance_us_10_5',
  'death_cum_retirement_gratuity_us_10_10',
  'commuted_value_of_pension_us_10_10_a',
  'cash_equivalent_of_leave_salary_encashment_us_10_10_aa',
  'house_rent_allowance_us_10_13_a',
  'other_special_allowances_under_section_10_14',
  'total_amount_of_any_other_exemption_us_10',
  'income_from_house_property_reported_by_employee_offered_for_tds',
  'income_under_the_head_other_sources_offered_for_tds',
  'payments_from_super_annuation_fund',
];

export class SalaryBuilder {
  private records = 0;
  private grossTotal = 0;
  /** 94P groups wait here: they follow all SD records in the file (the C# writer's order, addendum §3). */
  private readonly seniors: Array<{ group: string[]; detail: SeniorCitizenDetail }> = [];
  private seniorCount = 0;
  private seniorGrossTotal = 0;
  private readonly pans = new Map<string, number>();

  constructor(
    private readonly ctx: BuildContext,
    private readonly store: SalaryStore,
  ) {}

  /** Stores the 94P groups after the SD groups; returns the BH salary totals (legacy 24Q Q4 only). */
  finish(): SalaryTotals | null {
    for (const { group, detail } of this.seniors) this.store.append(group, { kind: '94P', detail });
    this.seniors.length = 0;
    const q4Salary = this.ctx.kind === 'salary' && this.ctx.isLegacy && this.ctx.period.quarter === 'Q4';
    if (!q4Salary) return null;
    return { records: this.records, grossTotal: this.grossTotal, seniorRecords: this.seniorCount, seniorGrossTotal: this.seniorGrossTotal };
  }

  row(layout: TableLayout, row: TableRow, payeeOf: (srNo: number) => Payee | undefined): void {
    const at = (k: string): PlaceFn => () => layout.place(row.number, col(layout.spec, k));
    const srNo = cell(row.cells, layout.spec, 'payee_sr_no');
    const payee = typeof srNo === 'number' ? payeeOf(srNo) : undefined;
    if (typeof srNo === 'number' && !payee) this.ctx.report('UNKNOWN_PAYEE', at('payee_sr_no'), `Payee ${srNo} is not in the payee sheet`);
    if (!payee || payee.damaged || row.damaged) return;
    if (this.is194PRow(layout, row)) {
      const senior = this.seniorDetail(layout, row, payee, at);
      if (!senior) return;
      senior.record = ++this.seniorCount;
      this.seniorGrossTotal += seniorCitizenFigures(senior).grossTotalIncome;
      this.seniors.push({ group: seniorCitizenGroup(senior), detail: senior });
      return;
    }
    const detail = this.detail(layout, row, payee, at);
    if (!detail) return;
    this.records++;
    detail.record = this.records;
    this.grossTotal += salaryFigures(detail).grossTotalIncome;
    this.store.append(salaryGroup(detail), { kind: 'SD', detail });
  }

  private detail(layout: TableLayout, row: TableRow, payee: Payee, at: (k: string) => PlaceFn): SalaryDetail | null {
    const ctx = this.ctx;
    const spec = layout.spec;
    const amount = (k: string, signed = false): number => {
      const v = readAmount(ctx, cell(row.cells, spec, k), at(k), k.replace(/_/g, ' '), { signed });
      return Number.isNaN(v) ? 0 : v;
    };
    if (payee.employeeCategory === '') ctx.report('VALUE_REQUIRED', at('payee_sr_no'), `Payee ${payee.srNo} needs employee_category for the salary details`);
    if (payee.newRegime === null) ctx.report('VALUE_REQUIRED', at('payee_sr_no'), `Payee ${payee.srNo} needs opting_new_regime for the salary details`);
    this.checkDuplicatePan(payee, row.number, at('payee_sr_no'));
    const period = this.employmentPeriod(layout, row, at);
    const newRegime = payee.newRegime ?? true;
    const detail: SalaryDetail = {
      record: 0,
      pan: payee.pan,
      referenceNumber: payee.panKind === 'valid' ? '' : String(payee.srNo),
      name: payee.name,
      category: payee.employeeCategory,
      from: period.from,
      to: period.to,
      newRegime,
      placeholderPan: payee.panKind !== 'valid',
      s17_1: amount('salary_as_per_provisions_contained_in_section_17_1'),
      s17_2: amount('value_of_perquisites_us_17_2'),
      s17_3: amount('profits_in_lieu_of_salary_us_17_3'),
      previousSalary: amount('gross_salary_from_previous_employers'),
      travel: amount('travel_concession_or_assistance_us_10_5'),
      gratuity: amount('death_cum_retirement_gratuity_us_10_10'),
      pension: amount('commuted_value_of_pension_us_10_10_a'),
      leave: amount('cash_equivalent_of_leave_salary_encashment_us_10_10_aa'),
      hra: amount('house_rent_allowance_us_10_13_a'),
      otherExemption: amount('total_amount_of_any_other_exemption_us_10'),
      specialAllowances: amount('other_special_allowances_under_section_10_14'),
      section16: this.section16(amount),
      houseProperty: amount('income_from_house_property_reported_by_employee_offered_for_tds', true),
      otherSources: amount('income_under_the_head_other_sources_offered_for_tds'),
      chapter6A: this.chapter6A(amount, at),
      incomeTax: amount('income_tax_payable'),
      rebate87A: amount('relief_us_87_a'),
      surcharge: amount('surcharge'),
      cess: amount('health_and_education_cess'),
      relief89: amount('relief_us_89'),
      tdsCurrent: amount('tds_on_salary'),
      tdsPrevious: amount('tds_by_previous_employers'),
      otherTds192_2B: amount('other_tds_or_tcs_amount_as_per_section_192_2b'),
      landlords: this.parties(layout, row, 'landlord', at),
      lenders: this.parties(layout, row, 'lender', at),
      superannuation: this.superannuation(layout, row, amount, at),
    };
    this.checkArithmetic(detail, at);
    return detail;
  }

  /** A row with any s.194P amount is a specified senior citizen's: a 94P record instead of an SD. */
  private is194PRow(layout: TableLayout, row: TableRow): boolean {
    return S194P_COLUMNS.some((k) => {
      const v = cell(row.cells, layout.spec, k);
      return v !== null && v !== 0 && v !== '0';
    });
  }

  private seniorDetail(layout: TableLayout, row: TableRow, payee: Payee, at: (k: string) => PlaceFn): SeniorCitizenDetail | null {
    const ctx = this.ctx;
    const amount = (k: string): number => {
      const v = readAmount(ctx, cell(row.cells, layout.spec, k), at(k), k.replace(/_/g, ' '));
      return Number.isNaN(v) ? 0 : v;
    };
    if (ctx.period.startYear < FIRST_194P_YEAR) ctx.report('SECTION_194P_NOT_IN_FORCE', at('gross_pension_under_194p'), `Section 194P applies from FY 2021-22, not ${ctx.period.label}`);
    if (!SENIOR_CATEGORIES.has(payee.employeeCategory)) {
      ctx.report('SECTION_194P_NOT_SENIOR', at('payee_sr_no'), `Payee ${payee.srNo} has 194P amounts but is not in the senior_citizen or super_senior_citizen category`);
    }
    if (payee.newRegime === null) ctx.report('VALUE_REQUIRED', at('payee_sr_no'), `Payee ${payee.srNo} needs opting_new_regime for the 194P details`);
    for (const k of NOT_IN_94P) {
      if (amount(k) !== 0) ctx.report('SALARY_194P_COLUMN_NOT_APPLICABLE', at(k), `The 94P record of a specified senior citizen has no field for '${k}'`);
    }
    this.checkDuplicatePan(payee, row.number, at('payee_sr_no'));
    const senior: SeniorCitizenDetail = {
      record: 0,
      pan: payee.pan,
      name: payee.name,
      category: payee.employeeCategory,
      newRegime: payee.newRegime ?? true,
      pension: amount('gross_pension_under_194p'),
      bankInterest: amount('interest_income_by_bank_under_194p'),
      section16: this.section16(amount),
      chapter6A: this.chapter6A(amount, at, true),
      incomeTax: amount('income_tax_payable'),
      rebate87A: amount('relief_us_87_a'),
      surcharge: amount('surcharge'),
      cess: amount('health_and_education_cess'),
      relief89: amount('relief_us_89'),
    };
    const x = seniorCitizenFigures(senior);
    if (x.netTax < 0) ctx.report('SALARY_NET_TAX_NEGATIVE', at('relief_us_89'), `Tax ${formatPaise(senior.incomeTax)} less rebate and relief comes to ${formatPaise(x.netTax)}`);
    if (x.chargeable < 0 || x.taxableIncome < 0) ctx.report('SALARY_NEGATIVE_INCOME', at('gross_pension_under_194p'), `Taxable income comes out at ${formatPaise(x.taxableIncome)}`);
    const given = cell(row.cells, layout.spec, 'net_tax_payable_under_194p');
    if (given !== null && x.netTax >= 0 && amount('net_tax_payable_under_194p') !== x.netTax) {
      ctx.report('SALARY_194P_NET_TAX_MISMATCH', at('net_tax_payable_under_194p'), `Net tax payable ${formatPaise(amount('net_tax_payable_under_194p'))} is not ${formatPaise(x.netTax)} (tax - rebate 87A + surcharge + cess - relief 89)`);
    }
    return senior;
  }

  private section16(amount: (k: string) => number): SalaryDetail['section16'] {
    return (
      [
        ['16(ia)', amount('standard_deduction_us_16_ia')],
        ['16(ii)', amount('entertainment_allowance_us_16_ii')],
        ['16(iii)', amount('tax_on_employment_us_16_iii')],
      ] as const
    )
      .filter(([, v]) => v !== 0)
      .map(([section, v]) => ({ section, amount: v }));
  }

  private checkDuplicatePan(payee: Payee, rowNumber: number, place: PlaceFn): void {
    if (payee.panKind !== 'valid') return;
    const earlier = this.pans.get(payee.pan);
    if (earlier !== undefined) this.ctx.report('DUPLICATE_SALARY_PAN', place, `The same PAN already has salary details in row ${earlier}`);
    else this.pans.set(payee.pan, rowNumber);
  }

  private employmentPeriod(layout: TableLayout, row: TableRow, at: (k: string) => PlaceFn): { from: number; to: number } {
    const p = this.ctx.period;
    const from = readDate(this.ctx, cell(row.cells, layout.spec, 'employment_from_date_epoch'), at('employment_from_date_epoch'), 'Employment from');
    const to = readDate(this.ctx, cell(row.cells, layout.spec, 'employment_to_date_epoch'), at('employment_to_date_epoch'), 'Employment to');
    if (from === null || to === null) {
      this.ctx.report('SALARY_PERIOD_INVALID', at('employment_from_date_epoch'), 'The employment period (from and to) is required');
    } else if (from > to || from < p.yearStart || to > p.yearEnd) {
      this.ctx.report('SALARY_PERIOD_INVALID', at('employment_from_date_epoch'), `The employment period ${formatForPeople(from)} - ${formatForPeople(to)} must run forward within ${p.label}`);
    }
    return { from: from ?? p.yearStart, to: to ?? p.yearEnd };
  }

  /** C6A entries; for a P6A (194P) 80TTB has its own id, as the one public 94P writer has it (addendum §3). */
  private chapter6A(amount: (k: string) => number, at: (k: string) => PlaceFn, senior = false): Chapter6AEntry[] {
    const entries: Chapter6AEntry[] = [];
    const check = (stem: string, section: string, gross: number, deductible: number) => {
      if (deductible > gross) this.ctx.report('SALARY_DEDUCTIBLE_EXCEEDS_GROSS', at(`deductible_amount_${stem}`), `${section}: deductible ${formatPaise(deductible)} exceeds gross ${formatPaise(gross)}`);
    };
    for (const [stem, section, qualifying] of senior ? [...CHAPTER_6A, TTB_OWN_ID] : CHAPTER_6A) {
      const gross = amount(`gross_amount_us_${stem}`);
      const deductible = amount(`deductible_amount_us_${stem}`);
      check(`us_${stem}`, section, gross, deductible);
      if (gross !== 0 || deductible !== 0) entries.push({ section, deductible, gross, qualifying: qualifying ? amount(`qualifying_amount_us_${stem}`) : null });
    }
    let gross = amount('gross_amount_for_other_deductions');
    let deductible = amount('deductible_amount_for_other_deductions');
    let qualifying = amount('qualifying_amount_for_other_deductions');
    for (const stem of senior ? FOLDED_INTO_OTHERS.filter((s) => s !== '80_ttb') : FOLDED_INTO_OTHERS) {
      gross += amount(`gross_amount_us_${stem}`);
      deductible += amount(`deductible_amount_us_${stem}`);
      qualifying += amount(`qualifying_amount_us_${stem}`);
    }
    check('for_other_deductions', 'Other deductions', gross, deductible);
    if (gross !== 0 || deductible !== 0) entries.push({ section: 'OTHERS', deductible, gross, qualifying });
    return entries;
  }

  private parties(layout: TableLayout, row: TableRow, kind: 'landlord' | 'lender', at: (k: string) => PlaceFn): SalaryParty[] {
    const parties: SalaryParty[] = [];
    for (let k = 1; k <= 4; k++) {
      const nameKey = `${kind}_${k}_name`;
      const panKey = `${kind}_${k}_pan`;
      const name = readText(this.ctx, cell(row.cells, layout.spec, nameKey), at(nameKey), `${kind} ${k} name`, { max: fieldWidth('legacy', '24Q', 'SD', 42), name: true });
      const pan = readIdentifier(this.ctx, cell(row.cells, layout.spec, panKey), at(panKey), `${kind} ${k} PAN`);
      if (name === '' && pan === '') continue;
      if (name === '' || !PAN_PATTERN.test(pan)) {
        this.ctx.report('SALARY_PARTY_INCOMPLETE', at(name === '' ? nameKey : panKey), `${kind} ${k} needs both a name and a valid PAN`);
      }
      parties.push({ pan, name });
    }
    return parties;
  }

  private superannuation(layout: TableLayout, row: TableRow, amount: (k: string) => number, at: (k: string) => PlaceFn): SalaryDetail['superannuation'] {
    const paid = amount('payments_from_super_annuation_fund');
    if (paid === 0) return null;
    const spec = layout.spec;
    const fund = readText(this.ctx, cell(row.cells, spec, 'name_of_fund'), at('name_of_fund'), 'Name of fund', { max: fieldWidth('legacy', '24Q', 'SD', 60) });
    const from = readDate(this.ctx, cell(row.cells, spec, 'fund_contribution_from'), at('fund_contribution_from'), 'Fund contribution from');
    const to = readDate(this.ctx, cell(row.cells, spec, 'fund_contribution_to'), at('fund_contribution_to'), 'Fund contribution to');
    const rawRate = cell(row.cells, spec, 'average_rate_of_deduction_of_tax');
    const rate = rawRate === null ? Number.NaN : parseRate(rawRate);
    if (fund === '' || from === null || to === null || Number.isNaN(rate)) {
      this.ctx.report('SALARY_SUPERANNUATION_INCOMPLETE', at('payments_from_super_annuation_fund'), 'A superannuation repayment needs the fund name, contribution period and average rate');
    }
    return { fund, from: from ?? 0, to: to ?? 0, amount: paid, averageRate: Number.isNaN(rate) ? 0 : rate, tax: amount('tds_on_repayment_from_super_annuation_fund') };
  }

  private checkArithmetic(s: SalaryDetail, at: (k: string) => PlaceFn): void {
    const x = salaryFigures(s);
    if (x.chargeable < 0) this.ctx.report('SALARY_NEGATIVE_INCOME', at('salary_as_per_provisions_contained_in_section_17_1'), `Income chargeable under Salaries is ${formatPaise(x.chargeable)}`);
    if (x.taxableIncome < 0) this.ctx.report('SALARY_NEGATIVE_INCOME', at('deductible_amount_for_other_deductions'), `Total taxable income is ${formatPaise(x.taxableIncome)}`);
    if (x.taxableIncome > this.ctx.amountCeiling) {
      this.ctx.report('SALARY_INCOME_TOO_LARGE', at('salary_as_per_provisions_contained_in_section_17_1'), `Total taxable income (SD 23) ${formatPaise(x.taxableIncome)} is above ${formatPaise(this.ctx.amountCeiling)}, the most the FVU accepts`);
    }
    if (x.netTax < 0) this.ctx.report('SALARY_NET_TAX_NEGATIVE', at('relief_us_87_a'), `Tax ${formatPaise(s.incomeTax)} less rebate and relief comes to ${formatPaise(x.netTax)}`);
    if (x.aggregate80C > LIMIT_80C) this.ctx.report('SALARY_80C_LIMIT', at('deductible_amount_us_80_c'), `80C + 80CCC + 80CCD(1) deductible is ${formatPaise(x.aggregate80C)}`);
    if (!s.newRegime) return;
    const claims: Array<[string, number]> = [
      ['travel_concession_or_assistance_us_10_5', s.travel],
      ['house_rent_allowance_us_10_13_a', s.hra],
      ...s.section16.filter((e) => e.section !== '16(ia)').map((e): [string, number] => [e.section === '16(ii)' ? 'entertainment_allowance_us_16_ii' : 'tax_on_employment_us_16_iii', e.amount]),
    ];
    for (const [key, value] of claims) {
      if (value !== 0) this.ctx.report('SALARY_NEW_REGIME_CLAIM', at(key), `The new tax regime does not allow '${key}'`);
    }
    for (const e of s.chapter6A) {
      if (!NEW_REGIME_6A.has(e.section) && e.deductible !== 0) this.ctx.report('SALARY_NEW_REGIME_CLAIM', at('payee_sr_no'), `The new tax regime does not allow a ${e.section} deduction`);
    }
  }
}
