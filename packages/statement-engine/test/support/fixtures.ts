// Valid baseline workbooks per form, small enough to read in a test, with the options to convert them.
// Every "rule fires" test starts from one of these and breaks exactly one thing.

import type { ConvertOptions } from '../../src/index.js';
import { LEGACY_CHALLAN_HEADER, PAYMENT_140_HEADER, PAYMENT_26Q_HEADER } from './headers.js';
import { buildWorkbook, ist, type Encoding, type Row, type WorkbookParts } from './sheet-json.js';

/** Acme's office, where its deductor and its responsible person are both reached (legacy-style address keys). */
const ACME_OFFICE: Row = { street: '12 Marine Drive', area: 'Churchgate', city: 'Mumbai', state: 'MAHARASHTRA', postal_code: '400020' };

export const LEGACY_PAYER: Row = {
  name: 'Acme Traders Pvt Ltd',
  tan: 'MUMA12345E',
  pan: 'AAACA1234F',
  branch: 'Head Office',
  gstin: '27AAACA1234F1Z5',
  ...ACME_OFFICE,
  email: 'tds@acme.example',
  mobile: '9820012345',
};

export const LEGACY_RESPONSIBLE: Row = {
  designation: 'Finance Head',
  name: 'Asha Rao',
  pan: 'ABCPR1234K',
  ...ACME_OFFICE,
  email: 'asha@acme.example',
  mobile: '9820012346',
};

export const NOW_AFTER_FY2025 = () => new Date('2026-05-10T11:00:00+05:30');
export const NOW_AFTER_TY2026_Q1 = () => new Date('2026-07-20T11:00:00+05:30');

/** 26Q, Q3 of FY 2025-26: 2 challans, 4 payees (company, individual, HUF, no PAN), 5 payments. */
export function form26qParts(): WorkbookParts {
  return {
    name: 'form26q_workbook',
    payer: { ...LEGACY_PAYER },
    responsible: { ...LEGACY_RESPONSIBLE },
    payeeHeader: ['sr_no', 'pan', 'name'],
    payees: [
      { sr_no: 1, pan: 'AAACB2345G', name: 'Blue Logistics Ltd' },
      { sr_no: 2, pan: 'BCDPK3456H', name: 'Kiran Kumar' },
      { sr_no: 3, pan: 'PANNOTAVBL', name: 'Ravi Das' },
      { sr_no: 4, pan: 'CDEHS4567J', name: 'Sharma HUF' },
    ],
    challanHeader: [...LEGACY_CHALLAN_HEADER],
    challans: [
      { challan_serial: '00101', bsr_code: '0510308', paid_date_epoch: ist('2025-11-07'), minor_head: 'tds_payable', tds_amount: 12000, surcharge: 0, health_and_education_cess: 0, interest: 150, late_filing_fees: 0, other_penalty: 0 },
      { challan_serial: '00202', bsr_code: '0510308', paid_date_epoch: ist('2026-01-07'), minor_head: 'tds_payable', tds_amount: 21000, surcharge: 0, health_and_education_cess: 0, interest: 0, late_filing_fees: 200, other_penalty: 50 },
    ],
    paymentHeader: [...PAYMENT_26Q_HEADER],
    payments: [
      { payee_sr_no: 1, challan_serial: '00101', bsr_code: '0510308', nature_of_payment: 'freight_charges', payment_amount: 400000, payment_date_epoch: ist('2025-10-15'), tds_amount: 8000, surcharge: 0, health_and_education_cess: 0, deduction_date_epoch: ist('2025-10-15') },
      { payee_sr_no: 2, challan_serial: '00101', bsr_code: '0510308', nature_of_payment: 'professional_services', payment_amount: 40000, payment_date_epoch: ist('2025-10-20'), tds_amount: 4000, surcharge: 0, health_and_education_cess: 0, deduction_date_epoch: ist('2025-10-20') },
      { payee_sr_no: 3, challan_serial: '00202', bsr_code: '0510308', nature_of_payment: 'professional_services', payment_amount: 50000, payment_date_epoch: ist('2025-12-02'), tds_amount: 10000, surcharge: 0, health_and_education_cess: 0, deduction_date_epoch: ist('2025-12-02'), reason_for_lower_deduction: 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan' },
      { payee_sr_no: 4, challan_serial: '00202', bsr_code: '0510308', nature_of_payment: 'lease_and_rental_payment', payment_amount: 110000, payment_date_epoch: ist('2025-12-05'), tds_amount: 11000, surcharge: 0, health_and_education_cess: 0, deduction_date_epoch: ist('2025-12-05') },
      { payee_sr_no: 2, challan_serial: '00202', bsr_code: '0510308', nature_of_payment: 'other_interest', payment_amount: 30000, payment_date_epoch: ist('2025-12-31'), tds_amount: 0, surcharge: 0, health_and_education_cess: 0, deduction_date_epoch: null, reason_for_lower_deduction: 'transaction_where_tax_not_been_deducted_as_amount_paid_to_vendor_party_has_not_exceeded_the_threshold_limit' },
    ],
  };
}

export const OPTIONS_26Q: ConvertOptions = { form: '26Q', quarter: 'Q3', financialYear: 'FY 2025-26', tan: 'MUMA12345E', now: NOW_AFTER_FY2025 };

export function form26q(encoding: Encoding = 'object') {
  return buildWorkbook(form26qParts(), encoding);
}

/**
 * Form 140, Q1 of TY 2026-27: the worked example in the reference (§9 d): five professional-fee payments
 * under one challan, one payee without PAN at 20% with remark C. The sample's PANs ABCDE1234F and BCDEF2345G
 * have 'D' and 'E' as 4th (holder status) character, which no PAN has; they are ABCPE1234F and BCDFF2345G here.
 */
export function form140Parts(): WorkbookParts {
  const pay = (sr: number, date: string, amount: number, tax: number, reason: string | null = null): Row => ({
    payee_sr_no: sr,
    challan_serial: '02345',
    bsr_code: '0510308',
    nature_of_payment: 'professional_services',
    payment_amount: amount,
    payment_date_epoch: ist(date),
    total_tax_deducted: tax,
    total_tax_deposited: tax,
    deduction_date_epoch: ist(date),
    reason_for_lower_deduction: reason,
  });
  return {
    name: 'form140_workbook',
    payer: {
      tan: 'MUMZ12345E',
      pan: 'AAACZ1234F',
      name: 'ZeroBook Test Deductor Pvt Ltd',
      street: '1 Evergreen Road',
      state: 'MAHARASHTRA',
      postal_code: '400001',
      email: 'tds@zerobook.test',
      mobile: '2266778899',
      country: 'INDIA',
      country_code: '91',
      deductor_type: 'K',
    },
    responsible: {
      designation: 'Director',
      name: 'Alex Manager',
      pan: 'AAAPA1234Q',
      street: '1 Evergreen Road',
      state: 'MAHARASHTRA',
      postal_code: '400001',
      email: 'alex@zerobook.test',
      mobile: '2266778899',
      country: 'INDIA',
      country_code: '91',
    },
    payeeHeader: ['sr_no', 'pan', 'name'],
    payees: [
      { sr_no: 1, pan: 'ABCPE1234F', name: 'M/s Legal Advisors' },
      { sr_no: 2, pan: 'BCDFF2345G', name: 'M/s Audit Partners LLP' },
      { sr_no: 3, pan: 'PANNOTAVBL', name: 'M/s Counsel (no PAN)' },
    ],
    challanHeader: ['challan_serial', 'bsr_code', 'paid_date_epoch', 'minor_head', 'total_tax_deducted', 'interest', 'late_filing_fees', 'other_penalty'],
    challans: [{ challan_serial: '02345', bsr_code: '0510308', paid_date_epoch: ist('2026-06-28'), minor_head: 'tds_payable', total_tax_deducted: 65000, interest: 0, late_filing_fees: 0, other_penalty: 0 }],
    paymentHeader: [...PAYMENT_140_HEADER],
    payments: [
      pay(1, '2026-04-10', 120000, 12000),
      pay(2, '2026-04-15', 100000, 10000),
      pay(1, '2026-05-10', 80000, 8000),
      pay(2, '2026-05-20', 150000, 15000),
      pay(3, '2026-06-01', 100000, 20000, 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan_u_s_397_2'),
    ],
  };
}

export const OPTIONS_140: ConvertOptions = { form: '140', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'MUMZ12345E', now: () => new Date('2026-07-11T10:00:00+05:30') };

export function form140(encoding: Encoding = 'object') {
  return buildWorkbook(form140Parts(), encoding);
}
