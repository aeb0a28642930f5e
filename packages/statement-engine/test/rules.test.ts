// Every rule code: one workbook that makes it fire (at the expected place) and its clean baseline, where it
// stays quiet. A final test checks that no code in RULES is left without a case.

import { expect } from 'chai';
import { convert, RULES, type ConvertOptions, type Problem, type RuleCode } from '../src/index.js';
import { baseline, BASELINE_NAMES, type BaselineName as Base } from './support/baselines.js';
import { csiFor } from './support/csi.js';
import { buildWorkbook, ist, type Row, type WorkbookParts } from './support/sheet-json.js';

type Workbook = ReturnType<typeof buildWorkbook>;

interface Case {
  code: RuleCode;
  base: Base;
  /** Break the parts and/or options. */
  change?: (p: WorkbookParts, o: ConvertOptions) => void;
  /** Or break the built workbook itself (structure problems). */
  raw?: (wb: Workbook) => unknown;
  /** Where the problem must be reported (only the given keys are compared). */
  at?: Partial<Pick<Problem, 'sheet' | 'row' | 'column'>>;
  /** The baseline where the code must stay quiet, when not the same base. */
  quiet?: Base;
}

const pay = (p: WorkbookParts, i: number): Row => p.payments[i]!;
/** Adds the optional rate_of_deduction column (our extension) and states a rate on the first payment row. */
const statedRate = (rate: number) => (p: WorkbookParts) => {
  p.paymentHeader.push('rate_of_deduction');
  pay(p, 0).rate_of_deduction = rate;
};
const setAll = (rows: Row[], key: string, from: unknown, to: unknown) => rows.forEach((r) => r[key] === from && (r[key] = to));
/** A legacy challan row with no amounts at all (the vendor's 27EQ sample has such rows). */
const zeroChallan = (p: WorkbookParts, serial: string): Row => ({
  ...p.challans[0]!,
  challan_serial: serial,
  tds_amount: 0,
  interest: 0,
  late_filing_fees: 0,
  other_penalty: 0,
});
const sheetOf = (wb: Workbook, name: string) => wb.sheets.find((s) => s.name === name)! as { blocks: Array<Record<string, unknown>> };

const CASES: Case[] = [
  // ---- the workbook as a document
  { code: 'WORKBOOK_NOT_OBJECT', base: '26Q', raw: () => [] },
  { code: 'WORKBOOK_WRONG_FORM', base: '26Q', change: (p) => (p.name = 'form140_workbook'), at: { sheet: null } },
  { code: 'WORKBOOK_SHAPE', base: '26Q', raw: (wb) => ({ ...wb, sheets: [{ name: 'payer_sheet' }] }) },
  { code: 'SHEET_MISSING', base: '26Q', raw: (wb) => ({ ...wb, sheets: wb.sheets.filter((s) => s.name !== 'challan_sheet') }), at: { sheet: 'challan_sheet' } },
  { code: 'SHEET_DUPLICATE', base: '26Q', raw: (wb) => ({ ...wb, sheets: [...wb.sheets, wb.sheets[1]] }), at: { sheet: 'payee_sheet' } },
  { code: 'SHEET_UNKNOWN', base: '26Q', raw: (wb) => ({ ...wb, sheets: [...wb.sheets, { name: 'notes_sheet', '@entity': 'sheet', blocks: [] }] }), at: { sheet: 'notes_sheet' } },
  { code: 'SHEET_NOT_EXPECTED', base: '24Q-Q4', change: (_p, o) => (o.quarter = 'Q3'), at: { sheet: 'salary_detail_sheet' }, quiet: '24Q' },
  { code: 'BLOCK_MISSING', base: '26Q', raw: (wb) => (sheetOf(wb, 'payer_sheet').blocks.pop(), wb), at: { sheet: 'payer_sheet' } },
  { code: 'BLOCK_UNKNOWN', base: '26Q', raw: (wb) => (sheetOf(wb, 'payer_sheet').blocks.push({ name: 'extra_list', '@entity': 'list', items: [] }), wb) },
  { code: 'HEADER_MISMATCH', base: '26Q', change: (p) => (p.paymentHeader = p.paymentHeader.filter((h) => h !== 'payment_amount')), at: { sheet: 'payment_sheet', row: 1, column: 'payment_amount' } },
  { code: 'HEADER_COLUMN_UNKNOWN', base: '26Q', change: (p) => p.payeeHeader.push('nickname'), at: { sheet: 'payee_sheet', row: 1, column: 'nickname' } },
  { code: 'ROW_SHAPE', base: '26Q', raw: (wb) => ((sheetOf(wb, 'payment_sheet').blocks[0]!.rows as unknown[])[2] = 'not a row', wb), at: { sheet: 'payment_sheet', row: 4 } },
  { code: 'CELL_TYPE', base: '26Q', change: (p) => (pay(p, 1).payment_amount = 'forty thousand'), at: { sheet: 'payment_sheet', row: 3, column: 'payment_amount' } },
  // ---- reading what deductors send: each coercion is a warning at its cell; digit grouping is not guessed
  { code: 'NUMBER_FROM_TEXT', base: '27Q', change: (p) => (p.payees[0]!.isd_code = '1'), at: { sheet: 'payee_sheet', row: 2, column: 'isd_code' } },
  { code: 'NUMBER_GROUPED', base: '26Q', change: (p) => (pay(p, 0).payment_amount = '4,00,000'), at: { sheet: 'payment_sheet', row: 2, column: 'payment_amount' } },
  { code: 'TEXT_FROM_NUMBER', base: '26Q', change: (p) => (p.challans[0]!.bsr_code = 510308), at: { sheet: 'challan_sheet', row: 2, column: 'bsr_code' } },
  { code: 'BOOLEAN_FROM_TEXT', base: '24Q', change: (p) => (p.payees[0]!.opting_new_regime = 'Y'), at: { sheet: 'payee_sheet', row: 2, column: 'opting_new_regime' } },
  { code: 'SPACES_TRIMMED', base: '26Q', change: (p) => (p.payees[1]!.name = ' Kiran Kumar '), at: { sheet: 'payee_sheet', row: 3, column: 'name' } },
  { code: 'CODE_UPPERCASED', base: '26Q', change: (p) => (p.payer.state = 'Maharashtra'), at: { sheet: 'payer_sheet', column: 'payer_list.state' } },
  { code: 'LIST_ITEM_INVALID', base: '26Q', raw: (wb) => ((sheetOf(wb, 'payer_sheet').blocks[0]!.items as unknown[]).push(42), wb), at: { sheet: 'payer_sheet', row: 13 } },
  { code: 'LIST_KEY_DUPLICATE', base: '26Q', raw: (wb) => ((sheetOf(wb, 'payer_sheet').blocks[0]!.items as unknown[]).push({ tan: 'MUMA12345E' }), wb), at: { column: 'payer_list.tan', row: 13 } },
  { code: 'LIST_KEY_UNKNOWN', base: '26Q', change: (p) => (p.payer.fax = '0221234567'), at: { sheet: 'payer_sheet', column: 'payer_list.fax' } },
  { code: 'VALUE_REQUIRED', base: '26Q', change: (p) => delete p.payer.name, at: { sheet: 'payer_sheet', column: 'payer_list.name' } },
  {
    code: 'PROBLEM_LIST_TRUNCATED',
    base: '26Q',
    change: (p, o) => {
      o.maxProblems = 1;
      p.payees[0]!.pan = 'BAD';
      p.payees[1]!.pan = 'BAD';
    },
  },
  // ---- options and period
  { code: 'INVALID_RECEIPT_NUMBER', base: '26Q', change: (_p, o) => (o.previousReceiptNumber = '12345678901234'), at: { sheet: null, row: null, column: null } },
  // The FVU's T-FV-2232: 01001020008325 mod 7 = 1, so the token ends in 1, not 5
  { code: 'INVALID_RECEIPT_NUMBER', base: '26Q', change: (_p, o) => (o.previousReceiptNumber = '010010200083255'), at: { sheet: null, row: null, column: null } },
  { code: 'FORM_138_Q4_NOT_PUBLISHED', base: '138', change: (_p, o) => (o.quarter = 'Q4') },
  { code: 'PERIOD_NOT_ENDED', base: '26Q', change: (_p, o) => (o.now = () => new Date('2025-12-20T10:00:00+05:30')) },
  { code: 'TAN_MISMATCH', base: '26Q', change: (p) => (p.payer.tan = 'MUMA99999E'), at: { sheet: 'payer_sheet', row: 2, column: 'payer_list.tan' } },
  // ---- text
  { code: 'TEXT_SANITISED', base: '26Q', change: (p) => (p.payees[1]!.name = 'Kiran^Kumar'), at: { sheet: 'payee_sheet', row: 3, column: 'name' } },
  { code: 'IDENTIFIER_UPPERCASED', base: '26Q', change: (p) => (p.payees[1]!.pan = 'bcdpk3456h'), at: { sheet: 'payee_sheet', row: 3, column: 'pan' } },
  { code: 'NON_ASCII_TEXT', base: '26Q', change: (p) => (p.payees[1]!.name = 'किरण कुमार'), at: { sheet: 'payee_sheet', row: 3, column: 'name' } },
  { code: 'NAME_INVALID', base: '26Q', change: (p) => (p.payees[1]!.name = '...'), at: { sheet: 'payee_sheet', row: 3, column: 'name' } },
  { code: 'FIELD_TOO_LONG', base: '26Q', change: (p) => (p.payees[1]!.name = 'K'.repeat(76)), at: { sheet: 'payee_sheet', row: 3, column: 'name' } },
  // ---- deductor and responsible person
  { code: 'INVALID_TAN', base: '26Q', change: (p) => (p.payer.tan = 'MUM12345B'), at: { column: 'payer_list.tan' } },
  // The FVU's T-FV-1010: 12345 mod 7 = 4, check letter E or L, not B
  { code: 'INVALID_TAN', base: '26Q', change: (p) => (p.payer.tan = 'MUMA12345B'), at: { column: 'payer_list.tan' } },
  { code: 'INVALID_PAN', base: '26Q', change: (p) => (p.payees[0]!.pan = 'AAADB2345G'), at: { sheet: 'payee_sheet', row: 2, column: 'pan' } },
  {
    code: 'PAN_NOT_ALLOWED',
    base: '26Q',
    change: (p) => {
      p.payer.pan = 'PANNOTREQD';
      p.payer.deductor_type = 'company';
    },
    at: { column: 'payer_list.pan' },
  },
  { code: 'INVALID_STATE', base: '26Q', change: (p) => (p.responsible.state = 'ATLANTIS'), at: { column: 'responsible_person_list.state' } },
  { code: 'INVALID_PINCODE', base: '26Q', change: (p) => (p.payer.postal_code = '40002'), at: { column: 'payer_list.postal_code' } },
  { code: 'INVALID_EMAIL', base: '26Q', change: (p) => (p.payer.email = 'tds-at-acme'), at: { column: 'payer_list.email' } },
  {
    code: 'EMAIL_REQUIRED',
    base: '26Q',
    change: (p) => {
      p.payer.email = null;
      p.responsible.email = null;
    },
  },
  { code: 'INVALID_CONTACT_NUMBER', base: '26Q', change: (p) => (p.responsible.mobile = '12345'), at: { column: 'responsible_person_list.mobile' } },
  { code: 'INVALID_COUNTRY_CODE', base: '140', change: (p) => (p.payer.country_code = '91-x'), at: { column: 'payer_list.country_code' } },
  { code: 'INVALID_GSTIN', base: '26Q', change: (p) => (p.payer.gstin = 'NOTAGSTIN'), at: { column: 'payer_list.gstin' } },
  { code: 'INVALID_AIN', base: '138', change: (p) => (p.payer.account_office_identification_number = '12'), at: { column: 'payer_list.account_office_identification_number' } },
  { code: 'INVALID_DEDUCTOR_TYPE', base: '140', change: (p) => (p.payer.deductor_type = 'Z'), at: { column: 'payer_list.deductor_type' } },
  { code: 'DEDUCTOR_TYPE_REQUIRED', base: '26Q', change: (p) => (p.payer.pan = 'AAAGA1234F') },
  { code: 'GOVERNMENT_DETAILS_REQUIRED', base: '138', change: (p) => (p.payer.deductor_type = 'S'), at: { column: 'payer_list.government_state_code' } },
  {
    code: 'INVALID_MINISTRY_CODE',
    base: '138',
    change: (p) => {
      p.payer.deductor_type = 'A';
      p.payer.ministry_code = 'ABC';
    },
    at: { column: 'payer_list.ministry_code' },
  },
  // ---- challans
  {
    code: 'INVALID_BSR_CODE',
    base: '26Q',
    change: (p) => {
      setAll(p.challans, 'bsr_code', '0510308', '05103');
      setAll(p.payments, 'bsr_code', '0510308', '05103');
    },
    at: { sheet: 'challan_sheet', row: 2, column: 'bsr_code' },
  },
  {
    code: 'INVALID_CHALLAN_SERIAL',
    base: '26Q',
    change: (p) => {
      setAll(p.challans, 'challan_serial', '00101', '101');
      setAll(p.payments, 'challan_serial', '00101', '101');
    },
    at: { sheet: 'challan_sheet', row: 2, column: 'challan_serial' },
  },
  { code: 'DUPLICATE_CHALLAN', base: '26Q', change: (p) => p.challans.push({ ...p.challans[0]! }), at: { sheet: 'challan_sheet', row: 4 } },
  { code: 'INVALID_DATE', base: '26Q', change: (p) => (p.challans[0]!.paid_date_epoch = 9e15), at: { sheet: 'challan_sheet', row: 2, column: 'paid_date_epoch' } },
  { code: 'FUTURE_DATE', base: '26Q', change: (p) => (p.challans[1]!.paid_date_epoch = ist('2026-06-01')), at: { sheet: 'challan_sheet', row: 3, column: 'paid_date_epoch' } },
  { code: 'CHALLAN_DATE_OUT_OF_RANGE', base: '26Q', change: (p) => (p.challans[0]!.paid_date_epoch = ist('2024-03-31')), at: { sheet: 'challan_sheet', row: 2 } },
  { code: 'INVALID_MINOR_HEAD', base: '26Q', change: (p) => (p.challans[0]!.minor_head = 'tds_whatever'), at: { sheet: 'challan_sheet', row: 2, column: 'minor_head' } },
  { code: 'INVALID_MODE_OF_PAYMENT', base: '138', change: (p) => (p.challans[0]!.mode_of_payment = 'X'), at: { sheet: 'challan_sheet', row: 2, column: 'mode_of_payment' } },
  { code: 'BOOK_ENTRY_NOT_ALLOWED', base: '138', change: (p) => (p.challans[0]!.mode_of_payment = 'B'), at: { sheet: 'challan_sheet', row: 2 } },
  { code: 'INVALID_NIL_INDICATOR', base: '138', change: (p) => (p.challans[0]!.nil_challan_indicator = 'maybe'), at: { sheet: 'challan_sheet', row: 2, column: 'nil_challan_indicator' } },
  { code: 'NIL_CHALLAN_INCONSISTENT', base: '138', change: (p) => (p.challans[0]!.nil_challan_indicator = 'Y'), at: { sheet: 'challan_sheet', row: 2 } },
  {
    code: 'NIL_CHALLAN_DATE',
    base: '138',
    change: (p) =>
      p.challans.push({
        bank_challan_number_or_ddo_serial_number: null,
        bsr_code_or_form_24g_receipt_number: null,
        bank_challan_or_transfer_voucher_date_epoch: ist('2026-06-15'),
        minor_head: null,
        mode_of_payment: null,
        nil_challan_indicator: 'Y',
        total_tax_deducted: 0,
        total_interest: 0,
        total_fee: 0,
        total_penalty: 0,
        total_tax_deposited: 0,
      }),
    at: { sheet: 'challan_sheet', row: 4 },
  },
  { code: 'INVALID_AMOUNT', base: '26Q', change: (p) => (pay(p, 0).payment_amount = 400000.125), at: { sheet: 'payment_sheet', row: 2, column: 'payment_amount' } },
  { code: 'NEGATIVE_AMOUNT', base: '26Q', change: (p) => (pay(p, 0).payment_amount = -400000), at: { sheet: 'payment_sheet', row: 2, column: 'payment_amount' } },
  { code: 'AMOUNT_NOT_WHOLE_RUPEES', base: '26Q', change: (p) => (p.challans[0]!.interest = 150.5), at: { sheet: 'challan_sheet', row: 2, column: 'interest' } },
  { code: 'CHALLAN_TOTAL_MISMATCH', base: '138', change: (p) => (p.challans[0]!.total_tax_deposited = 13001), at: { sheet: 'challan_sheet', row: 2, column: 'total_tax_deposited' } },
  { code: 'CHALLAN_SHORT', base: '26Q', change: (p) => (p.challans[0]!.tds_amount = 11999), at: { sheet: 'challan_sheet', row: 2, column: 'tds_amount' } },
  { code: 'CHALLAN_EXCESS', base: '26Q', change: (p) => (p.challans[0]!.tds_amount = 12001), at: { sheet: 'challan_sheet', row: 2, column: 'tds_amount' } },
  {
    code: 'NIL_CHALLAN_ASSUMED',
    base: '26Q',
    change: (p) => {
      p.challans.push(zeroChallan(p, '00303'));
      pay(p, 4).challan_serial = '00303';
    },
    at: { sheet: 'challan_sheet', row: 4, column: 'paid_date_epoch' },
  },
  { code: 'NIL_CHALLAN_WITHOUT_DEDUCTEES', base: '26Q', change: (p) => p.challans.push(zeroChallan(p, '00303')), at: { sheet: 'challan_sheet', row: 4 } },
  {
    code: 'NIL_CHALLAN_ROW',
    base: '26Q',
    change: (p) => {
      p.challans.push(zeroChallan(p, '00303'));
      Object.assign(pay(p, 4), { challan_serial: '00303', reason_for_lower_deduction: null });
    },
    at: { sheet: 'payment_sheet', row: 6, column: 'reason_for_lower_deduction' },
  },
  // ---- the CSI file (csi.test.ts: a matching CSI file changes no TXT; malformed files are refused)
  { code: 'CSI_TAN_MISMATCH', base: '26Q', change: (p, o) => (o.csi = csiFor(p, 'PNEA54321B')), at: { sheet: null, row: null } },
  {
    code: 'CSI_NAME_MISMATCH',
    base: '26Q',
    change: (p, o) => {
      o.csi = csiFor(p, o.tan);
      p.payer.name = 'Acme Traders Private Limited';
    },
    at: { sheet: 'payer_sheet', column: 'payer_list.name' },
  },
  { code: 'CSI_FEWER_CHALLANS', base: '26Q', change: (p, o) => (o.csi = csiFor(p, o.tan, (l) => l.pop())), at: { sheet: null, row: null } },
  { code: 'CSI_CHALLANS_LEFT_TO_FVU', base: '138', change: (p, o) => (o.csi = csiFor(p, o.tan)), at: { sheet: null, row: null } },
  { code: 'CHALLAN_WITHOUT_DEDUCTEES', base: '26Q', change: (p) => p.challans.push({ ...p.challans[0]!, challan_serial: '00303' }), at: { sheet: 'challan_sheet', row: 4 } },
  { code: 'MINOR_HEAD_100_EMPTY', base: '140', change: (p) => p.challans.push({ ...p.challans[0]!, challan_serial: '02399', minor_head: 'advance_tax' }), at: { sheet: 'challan_sheet', row: 3 } },
  { code: 'MINOR_HEAD_100_PAN', base: '26Q', change: (p) => (p.challans[0]!.minor_head = 'advance_tax'), at: { sheet: 'challan_sheet', row: 2 } },
  { code: 'MINOR_HEAD_100_DATE', base: '140', change: (p) => (p.challans[0]!.minor_head = 'advance_tax'), at: { sheet: 'challan_sheet', row: 2 } },
  // FVU T_FV_6307: the baseline's first challan carries rows of two payees
  {
    code: 'IN_KIND_REQUIRES_CHALLAN_MODE',
    base: '144',
    change: (p) => {
      p.challans[0]!.mode_of_payment = 'B';
      Object.assign(pay(p, 0), { nature_of_payment: 'winnings_from_online_games_in_kind', total_tax_deducted: 0 });
    },
    at: { sheet: 'challan_sheet', row: 2 },
  },
  {
    code: 'TOTAL_TOO_LARGE',
    base: '26Q',
    change: (p) => {
      for (let i = 0; i < 91; i++) p.challans.push({ ...p.challans[0]!, challan_serial: String(10000 + i), tds_amount: 999999999999 });
    },
  },
  // ---- deductee rows
  { code: 'DUPLICATE_PAYEE', base: '26Q', change: (p) => p.payees.push({ sr_no: 1, pan: 'AAACB2345G', name: 'Blue Logistics Ltd' }), at: { sheet: 'payee_sheet', row: 6, column: 'sr_no' } },
  { code: 'UNKNOWN_PAYEE', base: '26Q', change: (p) => (pay(p, 0).payee_sr_no = 99), at: { sheet: 'payment_sheet', row: 2, column: 'payee_sr_no' } },
  {
    code: 'CHALLAN_AMBIGUOUS',
    base: '26Q',
    change: (p) => p.challans.push({ ...p.challans[0]!, paid_date_epoch: ist('2025-11-20') }),
    at: { sheet: 'payment_sheet', row: 2, column: 'challan_serial' },
  },
  { code: 'UNKNOWN_CHALLAN', base: '26Q', change: (p) => (pay(p, 0).challan_serial = '99999'), at: { sheet: 'payment_sheet', row: 2, column: 'challan_serial' } },
  { code: 'INVALID_NATURE_OF_PAYMENT', base: '26Q', change: (p) => (pay(p, 0).nature_of_payment = 'gardening'), at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_payment' } },
  { code: 'SECTION_CODE_UNKNOWN', base: '27Q', change: (p) => (pay(p, 0).nature_of_payment = 'interest_payment_from_indian_company_or_business_trust'), at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_payment' } },
  {
    code: 'SECTION_PAYEE_TYPE_ASSUMED',
    base: '140',
    change: (p) => Object.assign(pay(p, 4), { nature_of_payment: 'freight_charges' }),
    at: { sheet: 'payment_sheet', row: 6, column: 'nature_of_payment' },
  },
  { code: 'INVALID_REASON', base: '26Q', change: (p) => (pay(p, 4).reason_for_lower_deduction = 'because'), at: { sheet: 'payment_sheet', row: 6, column: 'reason_for_lower_deduction' } },
  {
    code: 'REASON_CODE_UNKNOWN',
    base: '26Q',
    change: (p) => (pay(p, 4).reason_for_lower_deduction = 'payment_of_salary_remuneration_commission_bonus_or_interest_to_a_partner_of_the_firm'),
    at: { sheet: 'payment_sheet', row: 6 },
  },
  // FVU T_FV_6380: collection code R (sale of goods, s.206C(1H)) is refused from FY 2025-26
  { code: 'COLLECTION_CODE_NOT_IN_FORCE', base: '27EQ', change: (p) => (pay(p, 0).nature_of_payment = 'sale_of_goods'), at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_payment' } },
  {
    // FY 2025-26: s.206AB was omitted from 1-Apr-2025, so remark U is no longer written.
    code: 'REMARK_NOT_IN_FORCE',
    base: '26Q',
    change: (p) => (pay(p, 1).reason_for_lower_deduction = 'deduction_is_on_higher_rate_in_view_of_section_206_ab_for_non_filing_of_return_of_income'),
    at: { sheet: 'payment_sheet', row: 3, column: 'reason_for_lower_deduction' },
  },
  {
    code: 'SECTION_194P_NOT_SENIOR',
    base: '24Q',
    change: (p) => (pay(p, 0).nature_of_payment = 'deduction_for_specified_senior_citizens'),
    at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_payment' },
  },
  {
    code: 'SECTION_194P_NOT_IN_FORCE',
    base: '24Q',
    change: (p, o) => {
      o.financialYear = 'FY 2020-21';
      p.payees[0]!.employee_category = 'senior_citizen';
      pay(p, 0).nature_of_payment = 'deduction_for_specified_senior_citizens';
    },
    at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_payment' },
  },
  {
    code: 'IN_KIND_LIST_UNSETTLED',
    base: '140',
    change: (p) => (pay(p, 0).nature_of_payment = 'payment_for_transfer_of_virtual_digital_assets'),
    at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_payment' },
  },
  {
    code: 'REMARK_NOT_ALLOWED_FOR_SECTION',
    base: '26Q',
    change: (p) => Object.assign(pay(p, 4), { reason_for_lower_deduction: 'in_case_of_transporter_transaction_and_valid_pan_is_provided' }),
    at: { sheet: 'payment_sheet', row: 6, column: 'reason_for_lower_deduction' },
  },
  {
    code: 'REMARK_REQUIRES_PAN',
    base: '26Q',
    change: (p) => Object.assign(pay(p, 4), { payee_sr_no: 3 }),
    at: { sheet: 'payment_sheet', row: 6, column: 'reason_for_lower_deduction' },
  },
  {
    code: 'REMARK_C_REQUIRES_NO_PAN',
    base: '26Q',
    change: (p) => (pay(p, 1).reason_for_lower_deduction = 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan'),
    at: { sheet: 'payment_sheet', row: 3 },
  },
  { code: 'PLACEHOLDER_PAN_WITHOUT_REMARK', base: '26Q', change: (p) => (pay(p, 2).reason_for_lower_deduction = null), at: { sheet: 'payment_sheet', row: 4 } },
  {
    code: 'REMARK_REQUIRES_ZERO_TAX',
    base: '26Q',
    change: (p) => {
      Object.assign(pay(p, 4), { tds_amount: 100, deduction_date_epoch: ist('2025-12-31') });
      p.challans[1]!.tds_amount = 21100;
    },
    at: { sheet: 'payment_sheet', row: 6, column: 'reason_for_lower_deduction' },
  },
  {
    code: 'CERTIFICATE_REQUIRED',
    base: '26Q',
    change: (p) => (pay(p, 1).reason_for_lower_deduction = 'lower_deduction_no_deduction_on_account_of_certificate_u_s_197'),
    at: { sheet: 'payment_sheet', row: 3, column: 'certificate_number' },
  },
  {
    code: 'INVALID_CERTIFICATE',
    base: '26Q',
    change: (p) => Object.assign(pay(p, 1), { reason_for_lower_deduction: 'lower_deduction_no_deduction_on_account_of_certificate_u_s_197', certificate_number: 'ABC' }),
    at: { sheet: 'payment_sheet', row: 3, column: 'certificate_number' },
  },
  { code: 'CERTIFICATE_WITHOUT_REMARK', base: '26Q', change: (p) => (pay(p, 1).certificate_number = 'ABCDE12345'), at: { sheet: 'payment_sheet', row: 3, column: 'certificate_number' } },
  {
    code: 'PAN_REQUIRED_FOR_SECTION',
    base: '140',
    change: (p) => Object.assign(pay(p, 4), { nature_of_payment: 'payment_for_transfer_of_virtual_digital_assets', reason_for_lower_deduction: 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan_u_s_397_2' }),
    at: { sheet: 'payment_sheet', row: 6 },
  },
  {
    code: 'IN_KIND_TAX_NOT_ZERO',
    base: '140',
    change: (p) =>
      (pay(p, 0).nature_of_payment =
        'payment_for_transfer_of_virtual_digital_asset_where_payment_is_in_kind_or_in_exchange_of_another_virtual_digital_asset_and_tax_required_to_be_deducted_is_paid_before_such_payment_is_released'),
    at: { sheet: 'payment_sheet', row: 2, column: 'total_tax_deducted' },
  },
  { code: 'AMOUNT_PAID_NOT_POSITIVE', base: '26Q', change: (p) => (pay(p, 4).payment_amount = 0), at: { sheet: 'payment_sheet', row: 6, column: 'payment_amount' } },
  { code: 'AMOUNT_PAID_TOO_LARGE', base: '24Q', change: (p) => (pay(p, 0).payment_amount = 1000000000), at: { sheet: 'payment_sheet', row: 2, column: 'payment_amount' } },
  { code: 'TAX_EXCEEDS_AMOUNT', base: '26Q', change: (p) => (pay(p, 1).payment_amount = 3000), at: { sheet: 'payment_sheet', row: 3, column: 'tds_amount' } },
  { code: 'DEDUCTED_DEPOSITED_MISMATCH', base: '140', change: (p) => (pay(p, 0).total_tax_deposited = 11000), at: { sheet: 'payment_sheet', row: 2, column: 'total_tax_deposited' } },
  { code: 'PAYMENT_DATE_OUTSIDE_QUARTER', base: '140', change: (p) => (pay(p, 0).payment_date_epoch = ist('2026-03-31')), at: { sheet: 'payment_sheet', row: 2, column: 'payment_date_epoch' } },
  { code: 'DEDUCTION_DATE_REQUIRED', base: '26Q', change: (p) => (pay(p, 0).deduction_date_epoch = null), at: { sheet: 'payment_sheet', row: 2, column: 'deduction_date_epoch' } },
  { code: 'DEDUCTION_DATE_BEFORE_QUARTER', base: '26Q', change: (p) => (pay(p, 0).deduction_date_epoch = ist('2025-09-30')), at: { sheet: 'payment_sheet', row: 2, column: 'deduction_date_epoch' } },
  { code: 'DEDUCTION_DATE_AFTER_QUARTER', base: '26Q', change: (p) => (pay(p, 0).deduction_date_epoch = ist('2026-01-02')), at: { sheet: 'payment_sheet', row: 2, column: 'deduction_date_epoch' } },
  { code: 'DEPOSIT_DATE_MISMATCH', base: '138', change: (p) => (pay(p, 0).deposit_date_epoch = ist('2026-05-08')), at: { sheet: 'payment_sheet', row: 2, column: 'deposit_date_epoch' } },
  { code: 'DEPOSIT_BEFORE_DEDUCTION', base: '26Q', change: (p) => (p.challans[0]!.paid_date_epoch = ist('2025-10-16')), at: { sheet: 'payment_sheet', row: 3, column: 'deduction_date_epoch' } },
  { code: 'INVALID_RATE', base: '26Q', change: statedRate(150), at: { sheet: 'payment_sheet', row: 2, column: 'rate_of_deduction' } },
  { code: 'RATE_INCONSISTENT', base: '26Q', change: statedRate(1), at: { sheet: 'payment_sheet', row: 2, column: 'rate_of_deduction' } },
  {
    code: 'HIGHER_RATE_BELOW_20',
    base: '26Q',
    change: (p) => {
      pay(p, 2).tds_amount = 5000;
      p.challans[1]!.tds_amount = 16000;
    },
    at: { sheet: 'payment_sheet', row: 4 },
  },
  { code: 'CASH_WITHDRAWAL_NOT_APPLICABLE', base: '26Q', change: (p) => (pay(p, 0).amount_of_cash_withdrawal_more_than_1_crore_us_194N = 500), at: { sheet: 'payment_sheet', row: 2 } },
  { code: 'INVALID_FORM121_UIN', base: '140', change: (p) => (pay(p, 0).unique_identification_number_form_121 = 'U'.repeat(27)), at: { sheet: 'payment_sheet', row: 2 } },
  {
    code: 'FORM121_UIN_MISSING',
    base: '140',
    change: (p) => {
      Object.assign(pay(p, 0), { total_tax_deducted: 0, total_tax_deposited: 0, deduction_date_epoch: null, reason_for_lower_deduction: 'no_deduction_on_account_of_declaration_u_s_393_6' });
      p.challans[0]!.total_tax_deducted = 53000;
    },
    at: { sheet: 'payment_sheet', row: 2, column: 'unique_identification_number_form_121' },
  },
  { code: 'INVALID_NATURE_OF_REMITTANCE', base: '27Q', change: (p) => (pay(p, 0).nature_of_remittance = 'gift'), at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_remittance' } },
  // ---- Forms 143/144 as FVU 1.2 reads them (FORMAT_NOTES §7)
  { code: 'NATURE_OF_REMITTANCE_REQUIRED', base: '144', change: (p) => (pay(p, 0).nature_of_remittance = null), at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_remittance' } },
  { code: 'NATURE_OF_REMITTANCE_NOT_FOR_SECTION', base: '144', change: (p) => (pay(p, 0).nature_of_remittance = '71'), at: { sheet: 'payment_sheet', row: 2, column: 'nature_of_remittance' } },
  { code: 'PERMANENT_ESTABLISHMENT_REQUIRED', base: '143', change: (p) => (p.payees[1]!.permanent_establishment_in_india = null), at: { sheet: 'payee_sheet', row: 3, column: 'permanent_establishment_in_india' } },
  {
    code: 'NONRESIDENT_CONTACT_REQUIRED',
    base: '144',
    change: (p) => {
      Object.assign(pay(p, 1), { total_tax_deducted: 10000, total_tax_deposited: 10000 }); // remark C at 10%
      p.challans[1]!.total_tax_deducted = 10000;
      p.payees[1]!.email = null;
    },
    at: { sheet: 'payment_sheet', row: 3, column: 'reason_for_lower_deduction' },
  },
  { code: 'DEDUCTEE_TYPE_PAN_MISMATCH', base: '144', change: (p) => (p.payees[0]!.deductee_type = 'individual'), at: { sheet: 'payee_sheet', row: 2, column: 'deductee_type' } },
  { code: 'INVALID_COUNTRY', base: '27Q', change: (p) => (p.payees[0]!.country = 'ATLANTIS'), at: { sheet: 'payee_sheet', row: 2, column: 'country' } },
  { code: 'INVALID_FLAG', base: '27Q', change: (p) => (pay(p, 0).grossing_up_indicator = 'X'), at: { sheet: 'payment_sheet', row: 2, column: 'grossing_up_indicator' } },
  {
    code: 'INVALID_DEDUCTEE_TYPE',
    base: '26Q',
    change: (p) => {
      p.payeeHeader.push('deductee_type');
      p.payees[0]!.deductee_type = 'alien';
    },
    at: { sheet: 'payee_sheet', row: 2, column: 'deductee_type' },
  },
  {
    // 27Q from FY 2023-24: a firm's type with a company's PAN (AAFCG1234K, 4th letter C)
    code: 'DEDUCTEE_TYPE_PAN_MISMATCH',
    base: '27Q',
    change: (p) => {
      p.payeeHeader.push('deductee_type');
      p.payees[0]!.deductee_type = 'firm';
    },
    at: { sheet: 'payee_sheet', row: 2, column: 'deductee_type' },
  },
  { code: 'INVALID_EMPLOYEE_CATEGORY', base: '24Q', change: (p) => (p.payees[0]!.employee_category = 'intern'), at: { sheet: 'payee_sheet', row: 2, column: 'employee_category' } },
  // ---- salary details (24Q Q4)
  { code: 'DUPLICATE_SALARY_PAN', base: '24Q-Q4', change: (p) => p.salaries!.push({ ...p.salaries![0]! }), at: { sheet: 'salary_detail_sheet', row: 4 } },
  { code: 'SALARY_PERIOD_INVALID', base: '24Q-Q4', change: (p) => (p.salaries![0]!.employment_from_date_epoch = ist('2024-04-01')), at: { sheet: 'salary_detail_sheet', row: 2 } },
  {
    code: 'SALARY_194P_COLUMN_NOT_APPLICABLE',
    base: '24Q-Q4',
    change: (p) => (p.salaries![0]!.gross_pension_under_194p = 1000),
    at: { sheet: 'salary_detail_sheet', row: 2, column: 'salary_as_per_provisions_contained_in_section_17_1' },
  },
  {
    code: 'SALARY_194P_NET_TAX_MISMATCH',
    base: '24Q-Q4',
    change: (p) => Object.assign(p.salaries![0]!, { gross_pension_under_194p: 1000, net_tax_payable_under_194p: 1 }),
    at: { sheet: 'salary_detail_sheet', row: 2, column: 'net_tax_payable_under_194p' },
  },
  { code: 'SALARY_DEDUCTIBLE_EXCEEDS_GROSS', base: '24Q-Q4', change: (p) => (p.salaries![1]!.deductible_amount_us_80_d = 35000), at: { sheet: 'salary_detail_sheet', row: 3, column: 'deductible_amount_us_80_d' } },
  { code: 'SALARY_80C_LIMIT', base: '24Q-Q4', change: (p) => (p.salaries![1]!.deductible_amount_us_80_c = 160000), at: { sheet: 'salary_detail_sheet', row: 3 } },
  { code: 'SALARY_NEW_REGIME_CLAIM', base: '24Q-Q4', change: (p) => (p.salaries![0]!.house_rent_allowance_us_10_13_a = 1000), at: { sheet: 'salary_detail_sheet', row: 2, column: 'house_rent_allowance_us_10_13_a' } },
  { code: 'SALARY_NEGATIVE_INCOME', base: '24Q-Q4', change: (p) => (p.salaries![0]!.salary_as_per_provisions_contained_in_section_17_1 = 1000), at: { sheet: 'salary_detail_sheet', row: 2 } },
  { code: 'SALARY_INCOME_TOO_LARGE', base: '24Q-Q4', change: (p) => (p.salaries![1]!.salary_as_per_provisions_contained_in_section_17_1 = 2000000000), at: { sheet: 'salary_detail_sheet', row: 3 } },
  { code: 'SALARY_NET_TAX_NEGATIVE', base: '24Q-Q4', change: (p) => (p.salaries![0]!.relief_us_87_a = 100000), at: { sheet: 'salary_detail_sheet', row: 2 } },
  { code: 'SALARY_PARTY_INCOMPLETE', base: '24Q-Q4', change: (p) => (p.salaries![1]!.landlord_1_pan = null), at: { sheet: 'salary_detail_sheet', row: 3, column: 'landlord_1_pan' } },
  { code: 'SALARY_SUPERANNUATION_INCOMPLETE', base: '24Q-Q4', change: (p) => (p.salaries![1]!.payments_from_super_annuation_fund = 1000), at: { sheet: 'salary_detail_sheet', row: 3 } },
];

/** Codes whose cases live in other test files (they need a file or a stream). */
const ELSEWHERE: Partial<Record<RuleCode, string>> = {
  INVALID_JSON: 'stream.test.ts and cli.test.ts',
  XLSX_BLANK_ROW: 'xlsx-loss.test.ts',
  XLSX_FORMULA_NOT_CALCULATED: 'xlsx-loss.test.ts',
  CORRECTION_FORMAT_NOT_PUBLISHED: 'correct.test.ts',
  CORRECTION_CANCEL_DISCONTINUED: 'correct.test.ts',
  CORRECTION_TYPE_NOT_REQUESTED: 'correct.test.ts',
  CORRECTION_SALARY_NOT_SOURCED: 'correct.test.ts',
  CORRECTION_NOTHING_TO_CORRECT: 'correct.test.ts',
  CORRECTION_CHALLAN_MISSING: 'correct.test.ts',
  CORRECTION_CHALLAN_BOOKED: 'correct.test.ts',
  CORRECTION_ROW_LOCKED: 'correct.test.ts',
  CORRECTION_REMARK_C_ROW: 'correct.test.ts',
  CORRECTION_PAN_TO_INVALID: 'correct.test.ts',
  CORRECTION_C9_NOT_GOVERNMENT: 'correct.test.ts',
  CORRECTION_DELETE_NOT_ALLOWED: 'correct.test.ts',
  CORRECTION_NO_DEDUCTEE_RECORD: 'correct.test.ts',
  CORRECTION_PAN_CHANGE_ONCE: 'correct.test.ts',
  CORRECTION_INVALID_TOKEN: 'correct.test.ts',
};

function run(c: Case): Problem[] {
  const { parts, options } = baseline(c.base);
  c.change?.(parts, options);
  const built = buildWorkbook(parts);
  const workbook = c.raw ? c.raw(built) : built;
  return convert(workbook, options).report.problems;
}

describe('validation rules: each code fires on its case and stays quiet on the clean workbook', () => {
  const quietCache = new Map<Base, Problem[]>();
  const quiet = (b: Base) => {
    if (!quietCache.has(b)) {
      const { parts, options } = baseline(b);
      quietCache.set(b, convert(buildWorkbook(parts), options).report.problems);
    }
    return quietCache.get(b)!;
  };

  for (const c of CASES) {
    it(`${c.code} (${RULES[c.code].severity}): fires on a ${c.base} case, quiet on the clean ${c.quiet ?? c.base}`, () => {
      expect(quiet(c.quiet ?? c.base).map((p) => p.code)).not.to.include(c.code);
      const problems = run(c);
      const hits = problems.filter((p) => p.code === c.code);
      expect(hits, `no ${c.code} among ${problems.map((p) => `${p.code}@${p.sheet}/${p.row}/${p.column}`).join(', ')}`).not.to.be.empty;
      expect(hits[0]!.severity).to.equal(RULES[c.code].severity);
      if (c.at) {
        const matching = hits.filter((h) => Object.entries(c.at!).every(([k, v]) => h[k as keyof Problem] === v));
        expect(matching, `${c.code} reported at ${hits.map((h) => `${h.sheet}/${h.row}/${h.column}`).join(', ')}`).not.to.be.empty;
      }
    });
  }

  it('every code in RULES has a case here or in the test file named for it', () => {
    const covered = new Set<string>([...CASES.map((c) => c.code), ...Object.keys(ELSEWHERE)]);
    expect(Object.keys(RULES).filter((code) => !covered.has(code))).to.deep.equal([]);
  });

  it('the clean baselines of every form have no errors', () => {
    for (const b of BASELINE_NAMES) {
      expect(quiet(b).filter((p) => p.severity === 'error'), b).to.deep.equal([]);
    }
  });
});

describe('README', () => {
  it('lists every rule code', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(Object.keys(RULES).filter((code) => !readme.includes(`\`${code}\``))).to.deep.equal([]);
  });
});
