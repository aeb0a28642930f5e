// The engine's 24Q Q4 baseline workbook (two employees: new regime, and old regime with HRA, 16(iii), 80C, 80D),
// with a third, old-regime employee whose row fills most of the annexure's other lines, so every Part B line
// carries a non-zero amount in at least one PDF.

import { buildWorkbook, ist, type Row } from '../../../statement-engine/test/support/sheet-json.js';
import { form24qQ4Parts, OPTIONS_24Q_Q4 } from '../../../statement-engine/test/support/more-fixtures.js';
import { SALARY_HEADER } from '../../../statement-engine/test/support/salary-header.js';

export const FINANCIAL_YEAR = OPTIONS_24Q_Q4.financialYear;
export const TAN = OPTIONS_24Q_Q4.tan;
export const NOW = new Date('2026-05-20T10:00:00Z');

const RICH_ROW: Row = {
  payee_sr_no: 3,
  employment_from_date_epoch: ist('2025-04-01'),
  employment_to_date_epoch: ist('2026-03-31'),
  salary_as_per_provisions_contained_in_section_17_1: 2400000,
  value_of_perquisites_us_17_2: 60000,
  profits_in_lieu_of_salary_us_17_3: 25000,
  travel_concession_or_assistance_us_10_5: 30000,
  death_cum_retirement_gratuity_us_10_10: 15000,
  cash_equivalent_of_leave_salary_encashment_us_10_10_aa: 12000,
  house_rent_allowance_us_10_13_a: 90000,
  other_special_allowances_under_section_10_14: 8000,
  total_amount_of_any_other_exemption_us_10: 5000,
  standard_deduction_us_16_ia: 50000,
  tax_on_employment_us_16_iii: 2500,
  income_from_house_property_reported_by_employee_offered_for_tds: -150000,
  income_under_the_head_other_sources_offered_for_tds: 40000,
  gross_amount_us_80_c: 150000,
  deductible_amount_us_80_c: 100000,
  gross_amount_us_80_ccc: 20000,
  deductible_amount_us_80_ccc: 20000,
  gross_amount_us_80_ccd_1: 30000,
  deductible_amount_us_80_ccd_1: 30000,
  gross_amount_us_80_ccd_1_b: 50000,
  deductible_amount_us_80_ccd_1_b: 50000,
  gross_amount_us_80_ccd_2: 70000,
  deductible_amount_us_80_ccd_2: 70000,
  gross_amount_us_80_d: 25000,
  deductible_amount_us_80_d: 25000,
  gross_amount_us_80_e: 18000,
  deductible_amount_us_80_e: 18000,
  gross_amount_us_80_cch: 24000,
  deductible_amount_us_80_cch: 24000,
  gross_amount_us_80_g: 20000,
  qualifying_amount_us_80_g: 20000,
  deductible_amount_us_80_g: 10000,
  gross_amount_us_80_tta: 12000,
  qualifying_amount_us_80_tta: 10000,
  deductible_amount_us_80_tta: 10000,
  gross_amount_us_80_dd: 75000,
  qualifying_amount_us_80_dd: 75000,
  deductible_amount_us_80_dd: 75000,
  income_tax_payable: 410000,
  relief_us_87_a: 0,
  surcharge: 41000,
  health_and_education_cess: 18040,
  relief_us_89: 12000,
  tds_on_salary: 457040,
};

/** The workbook: Sheet JSON, as a 24Q Q4 statement's workbook is uploaded. */
export function form16Workbook(): unknown {
  const parts = form24qQ4Parts();
  parts.payees.push({ sr_no: 3, pan: 'DEFPK4567C', name: 'Kavita Kulkarni', opting_new_regime: false, employee_category: 'women' });
  const row: Row = {};
  // Amount columns 0, the rest (landlords, lenders, fund) empty, as the engine's own baseline rows.
  for (const key of SALARY_HEADER) row[key] = key in RICH_ROW ? RICH_ROW[key] : /^(gross|deductible|qualifying)_amount_|^(income_tax_payable|surcharge|health_and_education_cess|relief_us_89)$/.test(key) ? 0 : null;
  parts.salaries!.push(row);
  // The new-regime employee's Agnipath amount: the one Chapter VI-A claim besides 80CCD(2) the new regime allows.
  Object.assign(parts.salaries![0]!, { gross_amount_us_80_cch: 18000, deductible_amount_us_80_cch: 18000 });
  return buildWorkbook(parts);
}

/** A valid individual PAN for employee i (4th letter P), distinct for i < 26^3 * 10^4. */
function pan(i: number): string {
  const letter = (n: number) => String.fromCharCode(65 + (n % 26));
  return `${letter(i / 10000)}${letter(i / 260000)}${letter(i / 6760000)}P${letter(i)}${String(i % 10000).padStart(4, '0')}${letter(i >> 3)}`;
}

/** The engine's 24Q Q4 baseline with `employees` salary rows: old-regime rows with HRA, 80C and 80D. */
export function manyEmployeesWorkbook(employees: number): unknown {
  const parts = form24qQ4Parts();
  const template = parts.salaries![1]!;
  for (let i = parts.salaries!.length + 1; i <= employees; i++) {
    parts.payees.push({ sr_no: i, pan: pan(i), name: `Employee Number ${i}`, opting_new_regime: false, employee_category: 'general' });
    const row: Row = { ...template, payee_sr_no: i, employment_from_date_epoch: ist('2025-04-01'), landlord_1_name: null, landlord_1_pan: null, house_rent_allowance_us_10_13_a: 60000 + (i % 50) * 100 };
    parts.salaries!.push(row);
  }
  for (const row of parts.salaries!) for (const key of SALARY_HEADER) if (!(key in row)) row[key] = null;
  return buildWorkbook(parts);
}
