// Baseline workbooks for 24Q (Q3 and Q4), 27Q, 27EQ, 138, 144 and 143.

import type { ConvertOptions } from '../../src/index.js';
import { LEGACY_PAYER, LEGACY_RESPONSIBLE, NOW_AFTER_FY2025, NOW_AFTER_TY2026_Q1 } from './fixtures.js';
import {
  LEGACY_CHALLAN_HEADER,
  NEW_CHALLAN_HEADER,
  PAYMENT_138_HEADER,
  PAYMENT_143_HEADER,
  PAYMENT_144_HEADER,
  PAYMENT_24Q_HEADER,
  PAYMENT_27Q_HEADER,
} from './headers.js';
import { SALARY_HEADER } from './salary-header.js';
import { ist, type Row, type WorkbookParts } from './sheet-json.js';

// ---- 24Q ------------------------------------------------------------------------------------------------

function salaryPayment(sr: number, serial: string, date: string, amount: number, tax: number, cess: number): Row {
  return {
    payee_sr_no: sr,
    challan_serial: serial,
    bsr_code: '6360218',
    nature_of_payment: 'payout_to_employees',
    payment_amount: amount,
    payment_date_epoch: ist(date),
    tds_amount: tax,
    surcharge: 0,
    health_and_education_cess: cess,
    deduction_date_epoch: ist(date),
  };
}

/** 24Q, Q3 of FY 2025-26: two employees paid monthly, two challans. */
export function form24qParts(quarter: 'Q3' | 'Q4' = 'Q3'): WorkbookParts {
  const months = quarter === 'Q3' ? ['2025-10-31', '2025-11-30'] : ['2026-01-31', '2026-02-28'];
  const challanDates = quarter === 'Q3' ? ['2025-11-07', '2025-12-05'] : ['2026-02-07', '2026-03-06'];
  return {
    name: 'form24q_workbook',
    payer: { ...LEGACY_PAYER, mobile: null },
    responsible: { ...LEGACY_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name', 'opting_new_regime', 'employee_category'],
    payees: [
      { sr_no: 1, pan: 'ABCPM1234A', name: 'Meera Menon', opting_new_regime: true, employee_category: 'women' },
      { sr_no: 2, pan: 'BCDPS2345B', name: 'Suresh Shah', opting_new_regime: false, employee_category: 'general' },
    ],
    challanHeader: [...LEGACY_CHALLAN_HEADER],
    challans: [
      { challan_serial: '11111', bsr_code: '6360218', paid_date_epoch: ist(challanDates[0]!), minor_head: 'tds_payable', tds_amount: 12000, surcharge: 0, health_and_education_cess: 480, interest: 0, late_filing_fees: 0, other_penalty: 0 },
      { challan_serial: '22222', bsr_code: '6360218', paid_date_epoch: ist(challanDates[1]!), minor_head: 'tds_payable', tds_amount: 12000, surcharge: 0, health_and_education_cess: 480, interest: 0, late_filing_fees: 0, other_penalty: 0 },
    ],
    paymentHeader: [...PAYMENT_24Q_HEADER],
    payments: [
      salaryPayment(1, '11111', months[0]!, 150000, 7000, 280),
      salaryPayment(2, '11111', months[0]!, 120000, 5000, 200),
      salaryPayment(1, '22222', months[1]!, 150000, 7000, 280),
      salaryPayment(2, '22222', months[1]!, 120000, 5000, 200),
    ],
  };
}

export const OPTIONS_24Q_Q3: ConvertOptions = { form: '24Q', quarter: 'Q3', financialYear: 'FY 2025-26', tan: 'MUMA12345E', now: NOW_AFTER_FY2025 };
export const OPTIONS_24Q_Q4: ConvertOptions = { ...OPTIONS_24Q_Q3, quarter: 'Q4' };

function salaryRow(values: Row): Row {
  const row: Row = {};
  for (const h of SALARY_HEADER) row[h] = null;
  const zeroes = [
    'income_tax_payable',
    'surcharge',
    'health_and_education_cess',
    'standard_deduction_us_16_ia',
    'tax_on_employment_us_16_iii',
    'relief_us_89',
  ];
  for (const k of SALARY_HEADER) if (k.startsWith('gross_amount_') || k.startsWith('deductible_amount_') || k.startsWith('qualifying_amount_')) row[k] = 0;
  for (const k of zeroes) row[k] = 0;
  return { ...row, ...values };
}

/** 24Q Q4 FY 2025-26 with salary details: one new-regime employee, one old-regime employee with HRA and 80C. */
export function form24qQ4Parts(): WorkbookParts {
  const parts = form24qParts('Q4');
  parts.salaryHeader = [...SALARY_HEADER];
  parts.salaries = [
    salaryRow({
      payee_sr_no: 1,
      employment_from_date_epoch: ist('2025-04-01'),
      employment_to_date_epoch: ist('2026-03-31'),
      income_tax_payable: 80000,
      health_and_education_cess: 3200,
      tds_on_salary: 83200,
      salary_as_per_provisions_contained_in_section_17_1: 1800000,
      standard_deduction_us_16_ia: 75000,
    }),
    salaryRow({
      payee_sr_no: 2,
      employment_from_date_epoch: ist('2025-06-01'),
      employment_to_date_epoch: ist('2026-03-31'),
      gross_salary_from_previous_employers: 200000,
      tds_by_previous_employers: 10000,
      income_tax_payable: 60000,
      health_and_education_cess: 2400,
      tds_on_salary: 50000,
      salary_as_per_provisions_contained_in_section_17_1: 1200000,
      value_of_perquisites_us_17_2: 40000,
      house_rent_allowance_us_10_13_a: 120000,
      landlord_1_name: 'Lata Iyer',
      landlord_1_pan: 'CDEPI3456C',
      standard_deduction_us_16_ia: 50000,
      tax_on_employment_us_16_iii: 2500,
      gross_amount_us_80_c: 180000,
      deductible_amount_us_80_c: 150000,
      gross_amount_us_80_d: 30000,
      deductible_amount_us_80_d: 25000,
    }),
  ];
  return parts;
}

// ---- 27Q ------------------------------------------------------------------------------------------------

export function form27qParts(): WorkbookParts {
  return {
    name: 'form27q_workbook',
    payer: { ...LEGACY_PAYER },
    responsible: { ...LEGACY_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name', 'opting_new_regime', 'tax_identification_number', 'street', 'area', 'city', 'state', 'postal_code', 'country', 'email', 'isd_code', 'mobile'],
    payees: [
      { sr_no: 1, pan: 'AAFCG1234K', name: 'Globex Inc', opting_new_regime: true, tax_identification_number: '98-7654321', street: '1 Main St', area: 'Downtown', city: 'Austin', state: 'TX', postal_code: '78701', country: 'UNITED STATES OF AMERICA', email: 'ap@globex.example', isd_code: 1, mobile: 5125550100 },
      { sr_no: 2, pan: 'PANNOTAVBL', name: 'Nordic Design AB', opting_new_regime: true, tax_identification_number: 'SE5566778899', street: 'Storgatan 1', area: 'Norrmalm', city: 'Stockholm', state: 'Stockholm', postal_code: '11122', country: 'SWEDEN', email: 'info@nordic.example', isd_code: 46, mobile: 812345678 },
    ],
    challanHeader: [...LEGACY_CHALLAN_HEADER],
    challans: [
      { challan_serial: '33333', bsr_code: '0004329', paid_date_epoch: ist('2025-05-07'), minor_head: 'tds_payable', tds_amount: 15000, surcharge: 0, health_and_education_cess: 600, interest: 0, late_filing_fees: 0, other_penalty: 0 },
      { challan_serial: '44444', bsr_code: '0004329', paid_date_epoch: ist('2025-07-07'), minor_head: 'tds_payable', tds_amount: 20000, surcharge: 0, health_and_education_cess: 800, interest: 0, late_filing_fees: 0, other_penalty: 0 },
    ],
    paymentHeader: [...PAYMENT_27Q_HEADER],
    payments: [
      { payee_sr_no: 1, challan_serial: '33333', bsr_code: '0004329', nature_of_payment: 'fees_for_technical_service', payment_amount: 150000, payment_date_epoch: ist('2025-04-20'), tds_amount: 15000, surcharge: 0, health_and_education_cess: 600, deduction_date_epoch: ist('2025-04-20'), applicability_of_tds_rate_under_dtaa: true, nature_of_remittance: 'fees_for_technical_services_or_included_services', form_15ca_acknowledgement_number: '123456789012345', grossing_up_indicator: 'N' },
      { payee_sr_no: 2, challan_serial: '44444', bsr_code: '0004329', nature_of_payment: 'income_by_way_of_royalty', payment_amount: 100000, payment_date_epoch: ist('2025-06-10'), tds_amount: 20000, surcharge: 0, health_and_education_cess: 800, deduction_date_epoch: ist('2025-06-10'), applicability_of_tds_rate_under_dtaa: false, nature_of_remittance: 'royalty', grossing_up_indicator: 'N', reason_for_lower_deduction: 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan' },
    ],
  };
}

export const OPTIONS_27Q: ConvertOptions = { form: '27Q', quarter: 'Q1', financialYear: 'FY 2025-26', tan: 'MUMA12345E', now: NOW_AFTER_FY2025 };

// ---- 27EQ -----------------------------------------------------------------------------------------------

export function form27eqParts(): WorkbookParts {
  return {
    name: 'form27eq_workbook',
    payer: { ...LEGACY_PAYER },
    responsible: { ...LEGACY_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name', 'nri', 'permanent_establishment_in_india', 'opting_new_regime'],
    payees: [
      { sr_no: 1, pan: 'AAACM1234P', name: 'Metal Scrap Co Ltd', nri: false, permanent_establishment_in_india: false, opting_new_regime: false },
      { sr_no: 2, pan: 'PANNOTAVBL', name: 'Vijay Motors', nri: true, permanent_establishment_in_india: true, opting_new_regime: true },
    ],
    challanHeader: ['challan_serial', 'bsr_code', 'paid_date_epoch', 'minor_head', 'tcs_amount', 'surcharge', 'health_and_education_cess', 'interest', 'late_filing_fees', 'other_penalty'],
    challans: [{ challan_serial: '55555', bsr_code: '0510001', paid_date_epoch: ist('2026-01-07'), minor_head: 'tcs_payable', tcs_amount: 27000, surcharge: 0, health_and_education_cess: 0, interest: 0, late_filing_fees: 0, other_penalty: 0 }],
    paymentHeader: ['payee_sr_no', 'challan_serial', 'bsr_code', 'nature_of_payment', 'total_value_of_purchase', 'amount_received', 'payment_date_epoch', 'tcs_amount', 'surcharge', 'health_and_education_cess', 'collection_date_epoch', 'reason_for_lower_or_higher_collection', 'certificate_number'],
    payments: [
      { payee_sr_no: 1, challan_serial: '55555', bsr_code: '0510001', nature_of_payment: 'scrap', total_value_of_purchase: 700000, amount_received: 700000, payment_date_epoch: ist('2025-11-12'), tcs_amount: 7000, surcharge: 0, health_and_education_cess: 0, collection_date_epoch: ist('2025-11-12') },
      { payee_sr_no: 2, challan_serial: '55555', bsr_code: '0510001', nature_of_payment: 'sale_of_motor_vehicle', total_value_of_purchase: 1000000, amount_received: 1000000, payment_date_epoch: ist('2025-12-12'), tcs_amount: 20000, surcharge: 0, health_and_education_cess: 0, collection_date_epoch: ist('2025-12-12'), reason_for_lower_or_higher_collection: 'collection_of_tax_at_a_higher_rate_due_to_non-availability_of_pan' },
    ],
  };
}

export const OPTIONS_27EQ: ConvertOptions = { form: '27EQ', quarter: 'Q3', financialYear: 'FY 2025-26', tan: 'MUMA12345E', now: NOW_AFTER_FY2025 };

// ---- new forms: 138 / 144 / 143 -------------------------------------------------------------------------

/** Acme's office in the new lists' structured address keys. */
const ACME_OFFICE_STRUCTURED: Row = {
  flat_door_block_number: '12 Marine Drive',
  post_office: 'Churchgate',
  road_street_block_sector: 'Veer Nariman Road',
  area_locality: 'Fort',
  district: 'Mumbai',
  state: 'MAHARASHTRA',
  postal_code: '400020',
};

const NEW_PAYER: Row = {
  name: 'Acme Traders Pvt Ltd',
  tan: 'MUMA12345E',
  pan: 'AAACA1234F',
  country: 'INDIA',
  ...ACME_OFFICE_STRUCTURED,
  email: 'tds@acme.example',
  contact_country_code: '91',
  contact_number: '9820012345',
  deductor_type: 'company',
  gstin: '27AAACA1234F1Z5',
};

const NEW_RESPONSIBLE: Row = {
  name: 'Asha Rao',
  designation: 'Finance Head',
  pan: 'ABCPR1234K',
  ...ACME_OFFICE_STRUCTURED,
  email: 'asha@acme.example',
  country: 'INDIA',
  contact_country_code: '91',
  contact_number: '9820012346',
};

function newChallan(serial: string, date: string, tax: number, interest = 0, extra: Row = {}): Row {
  return {
    bank_challan_number_or_ddo_serial_number: serial,
    bsr_code_or_form_24g_receipt_number: '0510308',
    bank_challan_or_transfer_voucher_date_epoch: ist(date),
    minor_head: 'tds_payable_by_taxpayer',
    mode_of_payment: 'C',
    nil_challan_indicator: 'N',
    total_tax_deducted: tax,
    total_interest: interest,
    total_fee: 0,
    total_penalty: 0,
    total_tax_deposited: tax + interest,
    ...extra,
  };
}

export function form138Parts(): WorkbookParts {
  const pay = (sr: number, serial: string, date: string, amount: number, tax: number, deposit: string): Row => ({
    payee_sr_no: sr,
    bank_challan_number_or_ddo_serial_number: serial,
    bsr_code_or_form_24g_receipt_number: '0510308',
    nature_of_payment: 'payments_made_to_employees_other_than_government_employees',
    payment_amount: amount,
    payment_date_epoch: ist(date),
    total_tax_deducted: tax,
    deduction_date_epoch: ist(date),
    total_tax_deposited: tax,
    deposit_date_epoch: ist(deposit),
  });
  return {
    name: 'form138_workbook',
    payer: { ...NEW_PAYER },
    responsible: { ...NEW_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name'],
    payees: [
      { sr_no: 1, pan: 'ABCPM1234A', name: 'Meera Menon' },
      { sr_no: 2, pan: 'BCDPS2345B', name: 'Suresh Shah' },
    ],
    challanHeader: [...NEW_CHALLAN_HEADER],
    challans: [newChallan('11111', '2026-05-07', 13000), newChallan('22222', '2026-06-05', 13000)],
    paymentHeader: [...PAYMENT_138_HEADER],
    payments: [
      pay(1, '11111', '2026-04-30', 150000, 7500, '2026-05-07'),
      pay(2, '11111', '2026-04-30', 120000, 5500, '2026-05-07'),
      pay(1, '22222', '2026-05-31', 150000, 7500, '2026-06-05'),
      pay(2, '22222', '2026-05-31', 120000, 5500, '2026-06-05'),
    ],
  };
}

export const OPTIONS_138: ConvertOptions = { form: '138', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'MUMA12345E', now: NOW_AFTER_TY2026_Q1 };

export function form144Parts(): WorkbookParts {
  const pay = (sr: number, serial: string, date: string, amount: number, tax: number, extra: Row = {}): Row => ({
    payee_sr_no: sr,
    bank_challan_number_or_ddo_serial_number: serial,
    bsr_code_or_form_24g_receipt_number: '0510308',
    nature_of_payment: 'any_other_interest_or_sum_chargeable_not_being_salaries',
    nature_of_remittance: 'fee_for_technical_services_or_included_services',
    payment_amount: amount,
    payment_date_epoch: ist(date),
    total_tax_deducted: tax,
    deduction_date_epoch: ist(date),
    total_tax_deposited: tax,
    grossed_up_under_section_393_10: false,
    applicability_of_tds_rate_under_dtaa: true,
    ...extra,
  });
  return {
    name: 'form144_workbook',
    payer: { ...NEW_PAYER },
    responsible: { ...NEW_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name', 'opting_out_of_taxation_regime_under_section_202_1', 'country', 'address_in_country_of_residence', 'email', 'isd_code', 'mobile', 'tax_identification_number', 'deductee_type'],
    payees: [
      { sr_no: 1, pan: 'AAFCG1234K', name: 'Globex Inc', opting_out_of_taxation_regime_under_section_202_1: false, country: 'UNITED STATES OF AMERICA', address_in_country_of_residence: '1 Main St, Austin TX 78701', email: 'ap@globex.example', isd_code: 1, mobile: 5125550100, tax_identification_number: '98-7654321' },
      { sr_no: 2, pan: 'PANNOTAVBL', name: 'Nordic Design AB', opting_out_of_taxation_regime_under_section_202_1: false, country: 'SWEDEN', address_in_country_of_residence: 'Storgatan 1, Stockholm', email: 'info@nordic.example', isd_code: 46, mobile: 812345678, tax_identification_number: 'SE5566778899', deductee_type: 'company' },
    ],
    challanHeader: [...NEW_CHALLAN_HEADER],
    challans: [newChallan('33333', '2026-05-07', 10000), newChallan('44444', '2026-06-05', 20000)],
    paymentHeader: [...PAYMENT_144_HEADER],
    payments: [
      pay(1, '33333', '2026-04-20', 100000, 10000),
      // Without PAN at the higher rate, nature 16 (dividend): Form 144 then carries the payee's contact details (FVU 1.2).
      pay(2, '44444', '2026-05-20', 100000, 20000, {
        applicability_of_tds_rate_under_dtaa: false,
        nature_of_remittance: 'dividend_income_referred_to_in_section_207_1_table_sl_no_1',
        reason_for_lower_deduction: 'deduction_at_higher_rate_under_section_397_2_due_to_non_furnishing_of_pan',
      }),
    ],
  };
}

export const OPTIONS_144: ConvertOptions = { form: '144', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'MUMA12345E', now: NOW_AFTER_TY2026_Q1 };

export function form143Parts(): WorkbookParts {
  const header = NEW_CHALLAN_HEADER.map((h) => (h === 'total_tax_deducted' ? 'total_tax_collected' : h));
  const challan = (serial: string, date: string, tax: number): Row => {
    const c = newChallan(serial, date, tax, 0, { minor_head: 'tcs_payable' });
    c.total_tax_collected = c.total_tax_deducted;
    delete c.total_tax_deducted;
    return c;
  };
  return {
    name: 'form143_workbook',
    payer: { ...NEW_PAYER },
    responsible: { ...NEW_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name', 'nri', 'permanent_establishment_in_india', 'deductee_type'],
    payees: [
      { sr_no: 1, pan: 'AAACM1234P', name: 'Metal Scrap Co Ltd', nri: false, permanent_establishment_in_india: false },
      // Without PAN, Form 143 takes the collectee code from deductee_type (FVU 1.2 DD 12).
      { sr_no: 2, pan: 'PANNOTAVBL', name: 'Vijay Motors', nri: true, permanent_establishment_in_india: false, deductee_type: 'firm' },
    ],
    challanHeader: [...header],
    challans: [challan('55555', '2026-05-07', 7000), challan('66666', '2026-06-05', 20000)],
    paymentHeader: [...PAYMENT_143_HEADER],
    payments: [
      { payee_sr_no: 1, bank_challan_number_or_ddo_serial_number: '55555', bsr_code_or_form_24g_receipt_number: '0510308', nature_of_payment: 'scrap', payment_amount: 700000, payment_date_epoch: ist('2026-04-12'), total_tax_collected: 7000, collection_date_epoch: ist('2026-04-12'), total_tax_deposited: 7000 },
      { payee_sr_no: 2, bank_challan_number_or_ddo_serial_number: '66666', bsr_code_or_form_24g_receipt_number: '0510308', nature_of_payment: 'sale_of_motor_vehicle', payment_amount: 1000000, payment_date_epoch: ist('2026-05-12'), total_tax_collected: 20000, collection_date_epoch: ist('2026-05-12'), total_tax_deposited: 20000, reason_for_lower_collection: 'collection_of_tax_at_higher_rate_due_to_non_availability_of_pan' },
    ],
  };
}

export const OPTIONS_143: ConvertOptions = { form: '143', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'MUMA12345E', now: NOW_AFTER_TY2026_Q1 };
