// The eight workbooks. Seven follow the vendor's published schemas (form24q/26q/27q/27eq/138/140/144);
// form143_workbook is our own design in the style of form138/144 (the vendor has none; see FORMAT_NOTES.md).

import type { WorkbookName } from '../forms.js';
import { field, type FieldSpec, type ListSpec, type SheetSpec, type TableSpec, type WorkbookSpec } from './spec.js';

const s = (key: string, nullable = false, extra: Partial<FieldSpec> = {}) => field(key, 'string', nullable, extra);
const n = (key: string, nullable = false, extra: Partial<FieldSpec> = {}) => field(key, 'number', nullable, extra);
const i = (key: string, nullable = false, extra: Partial<FieldSpec> = {}) => field(key, 'integer', nullable, extra);
const d = (key: string, nullable = false, extra: Partial<FieldSpec> = {}) => field(key, 'epoch', nullable, extra);
const b = (key: string, nullable = false, extra: Partial<FieldSpec> = {}) => field(key, 'boolean', nullable, extra);
const ext = { extension: true } as const;
const upper = { upper: true } as const;

/**
 * Health and education cess. The vendor's own templates and samples also spell it `heath_and_education_cess`
 * (24Q payment table, 26Q and 27Q challan tables), so every table that has the column accepts both.
 */
const cess = (...moreAliases: string[]) => n('health_and_education_cess', false, { aliases: ['heath_and_education_cess', ...moreAliases] });

/** Fixed-width digit codes: a number given for them gets its leading zeros back. */
const challanSerial = (key: string, nullable = false) => s(key, nullable, { digits: 5 });
const bsrCode = (key: string, nullable = false) => s(key, nullable, { digits: 7 });
const postalCode = () => s('postal_code', false, { digits: 6 });

const list = (sheet: string, block: string, fields: FieldSpec[]): ListSpec => ({ kind: 'list', sheet, block, fields });
const table = (sheet: string, block: string, columns: FieldSpec[]): TableSpec => ({ kind: 'table', sheet, block, columns });

// ---- payer sheet ---------------------------------------------------------------------------------------

/** Legacy-style address keys (legacy lists and Form 140): street, then area and city (BH address lines 1-3, 4, 5). */
const STREET_ADDRESS = [s('street'), s('area', true), s('city', true), s('state', false, upper), postalCode()];

/** New-style address keys (Forms 138/144/143), one per BH address line, then state and PIN. */
const STRUCTURED_ADDRESS = [
  s('flat_door_block_number'),
  s('post_office', true),
  s('road_street_block_sector', true),
  s('area_locality', true),
  s('district', true),
  s('state', false, upper),
  postalCode(),
];

/** Government deductors (BH 54/57/58/68): our additions in the legacy and Form 140 lists, the vendor's in the new ones. */
const governmentDetails = (extra: Partial<FieldSpec> = {}) => [
  s('government_state_code', true, { ...extra, upper: true }),
  s('ministry_code', true, { ...extra, digits: 2 }),
  s('ministry_name_other', true, extra),
  s('account_office_identification_number', true, extra),
];

/** 24Q/26Q/27Q/27EQ payer list; deductor_type is our optional addition (the legacy lists have no category). */
const LEGACY_PAYER = list('payer_sheet', 'payer_list', [
  s('tan'),
  s('pan'),
  s('name'),
  s('branch', true),
  ...STREET_ADDRESS,
  s('email', true),
  s('mobile', true),
  s('gstin', true),
  s('deductor_type', true, ext),
  ...governmentDetails(ext),
]);

const LEGACY_RESPONSIBLE = list('payer_sheet', 'responsible_person_list', [
  s('designation'),
  s('name'),
  s('pan'),
  ...STREET_ADDRESS,
  s('email', true),
  s('mobile'),
]);

/** Form 140 keeps the legacy key style and adds country, calling code and category. */
const FORM140_PAYER = list('payer_sheet', 'payer_list', [
  s('tan'),
  s('pan'),
  s('name'),
  ...STREET_ADDRESS,
  s('email', true),
  s('mobile'),
  s('gstin', true),
  s('country', true, upper),
  s('country_code', true),
  s('deductor_type', true),
  ...governmentDetails(ext),
]);

const FORM140_RESPONSIBLE = list('payer_sheet', 'responsible_person_list', [
  ...LEGACY_RESPONSIBLE.fields,
  s('country', true, upper),
  s('country_code', true),
]);

/** Forms 138/144 (and our 143): structured address mirroring the new BH fields. */
const NEW_PAYER = list('payer_sheet', 'payer_list', [
  s('name'),
  s('tan'),
  s('pan'),
  s('country', true, upper),
  ...STRUCTURED_ADDRESS,
  s('email', true),
  s('contact_country_code', true),
  s('contact_number'),
  s('deductor_type', true),
  ...governmentDetails(),
  s('gstin', true),
]);

const NEW_RESPONSIBLE = list('payer_sheet', 'responsible_person_list', [
  s('name'),
  s('designation'),
  s('pan'),
  ...STRUCTURED_ADDRESS,
  s('email', true),
  s('country', true, upper),
  s('contact_country_code', true),
  s('contact_number'),
]);

// ---- payee sheet ---------------------------------------------------------------------------------------

const deducteeTypeColumn = s('deductee_type', true, ext);

/** Every payee table starts with the serial number payments refer to, the PAN and the name. */
const payeeTable = (...more: FieldSpec[]) => table('payee_sheet', 'payee_table', [i('sr_no'), s('pan'), s('name'), ...more]);

const PAYEE_BASIC = payeeTable(deducteeTypeColumn);

const PAYEE_24Q = payeeTable(b('opting_new_regime', true), s('employee_category', true));

const PAYEE_27Q = payeeTable(
  b('opting_new_regime', true),
  s('tax_identification_number', true),
  s('street', true),
  s('area', true),
  s('city', true),
  s('state', true),
  s('postal_code', true),
  s('country', false, upper),
  s('email', true),
  n('isd_code', true),
  n('mobile', true),
  deducteeTypeColumn,
);

const PAYEE_27EQ = payeeTable(
  b('nri', true),
  b('permanent_establishment_in_india', true),
  b('opting_new_regime', true),
  deducteeTypeColumn,
);

const PAYEE_144 = payeeTable(
  b('opting_out_of_taxation_regime_under_section_202_1', true),
  s('country', false, upper),
  s('address_in_country_of_residence', true),
  s('email', true),
  n('isd_code', true),
  n('mobile', true),
  s('tax_identification_number', true),
  deducteeTypeColumn,
);

/** Form 143 (our design): FVU 1.2 wants the non-resident flag, the collectee code and the s.202(1) opt-out on every row. */
const PAYEE_143 = payeeTable(
  b('nri', true),
  b('permanent_establishment_in_india', true),
  b('opting_out_of_taxation_regime_under_section_202_1', true),
  deducteeTypeColumn,
);

// ---- challan sheet -------------------------------------------------------------------------------------
// Challan amounts are integers in the vendor's schemas; we read them as numbers so that paise get the
// specific AMOUNT_NOT_WHOLE_RUPEES problem rather than a type error.

/** Legacy-style challan table (also Form 140's): only the tax columns differ between the forms. The nil challan
 *  indicator is our extension (the vendor has it in 138/144 only): `Y` states a nil challan (FORMAT_NOTES §3). */
const serialChallan = (...taxColumns: FieldSpec[]) =>
  table('challan_sheet', 'challan_table', [
    challanSerial('challan_serial'),
    bsrCode('bsr_code'),
    d('paid_date_epoch', false, { aliases: ['paid_date'] }),
    s('minor_head'),
    ...taxColumns,
    n('interest'),
    n('late_filing_fees'),
    n('other_penalty'),
    s('nil_challan_indicator', true, ext),
  ]);

/** Legacy challans split the tax into income tax, surcharge and cess. */
const legacyChallan = (taxKey: 'tds_amount' | 'tcs_amount') =>
  serialChallan(n(taxKey), n('surcharge'), cess());

const FORM140_CHALLAN = serialChallan(n('total_tax_deducted'));

const newChallan = (taxKey: 'total_tax_deducted' | 'total_tax_collected') =>
  table('challan_sheet', 'challan_table', [
    challanSerial('bank_challan_number_or_ddo_serial_number', true),
    bsrCode('bsr_code_or_form_24g_receipt_number', true),
    d('bank_challan_or_transfer_voucher_date_epoch'),
    s('minor_head', true),
    s('mode_of_payment', true, upper),
    s('nil_challan_indicator', false, upper),
    n(taxKey),
    n('total_interest'),
    n('total_fee'),
    n('total_penalty'),
    n('total_tax_deposited'),
  ]);

// ---- payment sheet -------------------------------------------------------------------------------------

/** Our extension: the date of the payment's challan, needed only when two challans share serial and BSR code.
 *  It comes after the vendor's columns, so a vendor header stays in the spec's order (rows are then not copied). */
const challanDateColumn = d('challan_date_epoch', true, ext);

const rateColumn = n('rate_of_deduction', true, ext);

const LEGACY_CASH = [
  n('amount_of_cash_withdrawal_more_than_1_crore_us_194N', true),
  n('amount_of_cash_withdrawal_between_20_lakhs_and_1_crore_us_194N_for_non_filers', true),
  n('amount_of_cash_withdrawal_more_than_1_crore_us_194N_for_non_filers', true),
  n('amount_of_cash_withdrawal_more_than_3_crore_us_194N_for_co-operative_societies', true),
  n('amount_of_cash_withdrawal_between_20_lakhs_and_3_crore_us_194N_for_non_filers', true),
  n('amount_of_cash_withdrawal_more_than_3_crore_us_194N_for_non_filers', true),
];

const NEW_CASH = [
  n('amount_of_cash_withdrawal_more_than_1_crore_under_section_393_3', true),
  n('amount_of_cash_withdrawal_more_than_3_crore_for_cooperative_societies_under_section_393_3', true),
];

/** Who was paid, under which challan (legacy-style serial + BSR), for what, how much and when (24Q/26Q/27Q/140). */
const SERIAL_PAYMENT = [
  i('payee_sr_no'),
  challanSerial('challan_serial'),
  bsrCode('bsr_code'),
  s('nature_of_payment'),
  n('payment_amount'),
  d('payment_date_epoch'),
];

/** The same link in the new style (138/144/143); the amount and date columns follow in each form's own order. */
const VOUCHER_PAYMENT = [
  i('payee_sr_no'),
  challanSerial('bank_challan_number_or_ddo_serial_number', true),
  bsrCode('bsr_code_or_form_24g_receipt_number', true),
  s('nature_of_payment'),
];

/** Legacy TDS rows: income tax, surcharge and cess, then the date of deduction. */
const LEGACY_TAX = [n('tds_amount'), n('surcharge'), cess(), d('deduction_date_epoch', true)];

const LOWER_DEDUCTION = [
  s('reason_for_lower_deduction', true, { aliases: ['reason_for_lower_or_higher_deduction'] }),
  s('certificate_number', true),
];

const payments = (columns: FieldSpec[]) => table('payment_sheet', 'payment_table', [...columns, challanDateColumn]);

const PAYMENT_24Q = payments([...SERIAL_PAYMENT, ...LEGACY_TAX, ...LOWER_DEDUCTION]);

const PAYMENT_26Q = payments([...SERIAL_PAYMENT, ...LEGACY_TAX, ...LOWER_DEDUCTION, ...LEGACY_CASH, rateColumn]);

const PAYMENT_27Q = payments([
  ...SERIAL_PAYMENT,
  ...LEGACY_TAX,
  b('applicability_of_tds_rate_under_dtaa'),
  s('nature_of_remittance'),
  s('form_15ca_acknowledgement_number', true),
  s('grossing_up_indicator', true, upper),
  ...LOWER_DEDUCTION,
  ...LEGACY_CASH,
  rateColumn,
]);

// 27EQ spells most columns its own way (collection, amount received) and accepts the vendor's variants.
const PAYMENT_27EQ = payments([
  i('payee_sr_no'),
  challanSerial('challan_serial'),
  bsrCode('bsr_code'),
  s('nature_of_payment'),
  n('total_value_of_purchase'),
  n('payment_amount', false, { aliases: ['amount_received'] }),
  d('payment_date_epoch', false, { aliases: ['payment_date'] }),
  n('tcs_amount'),
  n('surcharge'),
  cess(),
  d('collection_date_epoch', true, { aliases: ['collection_date'] }),
  s('reason_for_lower_collection', true, { aliases: ['reason_for_lower_or_higher_collection'] }),
  s('certificate_number', true),
  rateColumn,
]);

const PAYMENT_140 = payments([
  ...SERIAL_PAYMENT,
  n('total_tax_deducted'),
  n('total_tax_deposited'),
  d('deduction_date_epoch', true),
  ...LOWER_DEDUCTION,
  s('unique_identification_number_form_121', true),
  ...NEW_CASH,
  rateColumn,
]);

const PAYMENT_138 = payments([
  ...VOUCHER_PAYMENT,
  n('payment_amount'),
  d('payment_date_epoch'),
  n('total_tax_deducted'),
  d('deduction_date_epoch', true),
  n('total_tax_deposited'),
  d('deposit_date_epoch', true),
  ...LOWER_DEDUCTION,
]);

const PAYMENT_144 = payments([
  ...VOUCHER_PAYMENT,
  // Optional here, unlike the vendor's schema: FVU 1.2 wants it for sections 1040-1046 and 1048-1057 only and
  // refuses it for the others (NATURE_OF_REMITTANCE_REQUIRED / _NOT_FOR_SECTION, FORMAT_NOTES §7).
  s('nature_of_remittance', true),
  n('payment_amount'),
  d('payment_date_epoch'),
  n('total_tax_deducted'),
  d('deduction_date_epoch', true),
  n('total_tax_deposited'),
  b('grossed_up_under_section_393_10', true),
  b('applicability_of_tds_rate_under_dtaa', true),
  s('unique_identification_number_form_121', true),
  ...LOWER_DEDUCTION,
  ...NEW_CASH,
  rateColumn,
]);

/** Form 143 has no field for the total value of the purchase (FVU 1.2: DD 21 is empty, T_FV_6430): no such column. */
const PAYMENT_143 = payments([
  ...VOUCHER_PAYMENT,
  n('payment_amount'),
  d('payment_date_epoch'),
  n('total_tax_collected'),
  d('collection_date_epoch', true),
  n('total_tax_deposited'),
  s('reason_for_lower_collection', true),
  s('certificate_number', true),
  rateColumn,
]);

// ---- salary detail sheet (24Q Q4) ---------------------------------------------------------------------

const party = (kind: 'landlord' | 'lender'): FieldSpec[] =>
  [1, 2, 3, 4].flatMap((k) => [s(`${kind}_${k}_name`, true), s(`${kind}_${k}_pan`, true)]);

const SALARY_DETAIL = table('salary_detail_sheet', 'salary_detail_table', [
  i('payee_sr_no'),
  d('employment_from_date_epoch', true),
  d('employment_to_date_epoch', true),
  n('gross_salary_from_previous_employers', true),
  n('tds_by_previous_employers', true),
  n('income_tax_payable'),
  n('surcharge'),
  cess('cess'),
  n('tds_on_salary', true),
  n('other_tds_or_tcs_amount_as_per_section_192_2b', true),
  n('salary_as_per_provisions_contained_in_section_17_1', true),
  n('value_of_perquisites_us_17_2', true),
  n('profits_in_lieu_of_salary_us_17_3', true),
  n('travel_concession_or_assistance_us_10_5', true),
  n('death_cum_retirement_gratuity_us_10_10', true),
  n('commuted_value_of_pension_us_10_10_a', true),
  n('cash_equivalent_of_leave_salary_encashment_us_10_10_aa', true),
  n('house_rent_allowance_us_10_13_a', true),
  n('other_special_allowances_under_section_10_14', true),
  ...party('landlord'),
  n('total_amount_of_any_other_exemption_us_10', true),
  n('standard_deduction_us_16_ia'),
  n('entertainment_allowance_us_16_ii', true),
  n('tax_on_employment_us_16_iii'),
  n('income_from_house_property_reported_by_employee_offered_for_tds', true),
  ...party('lender'),
  n('income_under_the_head_other_sources_offered_for_tds', true),
  n('gross_amount_us_80_c'),
  n('deductible_amount_us_80_c'),
  n('gross_amount_us_80_ccc'),
  n('deductible_amount_us_80_ccc'),
  n('gross_amount_us_80_ccd_1'),
  n('deductible_amount_us_80_ccd_1'),
  n('gross_amount_us_80_ccd_1_b'),
  n('deductible_amount_us_80_ccd_1_b'),
  n('gross_amount_us_80_ccd_2', true),
  n('deductible_amount_us_80_ccd_2', true),
  n('gross_amount_us_80_ccg', true),
  n('deductible_amount_us_80_ccg', true),
  n('gross_amount_us_80_cch', true),
  n('deductible_amount_us_80_cch', true),
  n('gross_amount_us_80_d'),
  n('deductible_amount_us_80_d'),
  n('gross_amount_us_80_dd', true),
  n('deductible_amount_us_80_dd', true),
  n('qualifying_amount_us_80_dd', true),
  n('gross_amount_us_80_e'),
  n('deductible_amount_us_80_e'),
  n('gross_amount_us_80_ee', true),
  n('deductible_amount_us_80_ee', true),
  n('qualifying_amount_us_80_ee', true),
  n('gross_amount_us_80_eea', true),
  n('deductible_amount_us_80_eea', true),
  n('qualifying_amount_us_80_eea', true),
  n('gross_amount_us_80_g'),
  n('deductible_amount_us_80_g'),
  n('qualifying_amount_us_80_g'),
  n('gross_amount_us_80_gg', true),
  n('deductible_amount_us_80_gg', true),
  n('qualifying_amount_us_80_gg', true),
  n('gross_amount_us_80_ggc', true),
  n('deductible_amount_us_80_ggc', true),
  n('qualifying_amount_us_80_ggc', true),
  n('gross_amount_us_80_tta', true),
  n('deductible_amount_us_80_tta', true),
  n('qualifying_amount_us_80_tta', true),
  n('gross_amount_us_80_ttb', true),
  n('deductible_amount_us_80_ttb', true),
  n('qualifying_amount_us_80_ttb', true),
  n('gross_amount_us_80_u', true),
  n('deductible_amount_us_80_u', true),
  n('qualifying_amount_us_80_u', true),
  n('gross_amount_for_other_deductions'),
  n('deductible_amount_for_other_deductions'),
  n('qualifying_amount_for_other_deductions'),
  n('relief_us_87_a', true, { aliases: ['rebate_us_87_a'] }),
  n('relief_us_89'),
  n('payments_from_super_annuation_fund', true),
  s('name_of_fund', true),
  d('fund_contribution_from', true),
  d('fund_contribution_to', true),
  n('average_rate_of_deduction_of_tax', true),
  n('tds_on_repayment_from_super_annuation_fund', true),
  n('gross_pension_under_194p', true),
  n('interest_income_by_bank_under_194p', true),
  n('net_tax_payable_under_194p', true),
]);

// ---- workbooks -----------------------------------------------------------------------------------------

const sheet = (name: string, blocks: (ListSpec | TableSpec)[], optional = false): SheetSpec => ({ name, blocks, optional });

function workbook(name: WorkbookName, payer: [ListSpec, ListSpec], payee: TableSpec, challan: TableSpec, payment: TableSpec, extra: SheetSpec[] = []): WorkbookSpec {
  return {
    name,
    sheets: [
      sheet('payer_sheet', payer),
      sheet('payee_sheet', [payee]),
      sheet('challan_sheet', [challan]),
      sheet('payment_sheet', [payment]),
      ...extra,
    ],
  };
}

const LEGACY_PARTIES: [ListSpec, ListSpec] = [LEGACY_PAYER, LEGACY_RESPONSIBLE];
const NEW_PARTIES: [ListSpec, ListSpec] = [NEW_PAYER, NEW_RESPONSIBLE];

export const WORKBOOKS: Readonly<Record<WorkbookName, WorkbookSpec>> = {
  form24q_workbook: workbook('form24q_workbook', LEGACY_PARTIES, PAYEE_24Q, legacyChallan('tds_amount'), PAYMENT_24Q, [
    sheet('salary_detail_sheet', [SALARY_DETAIL], true),
  ]),
  form26q_workbook: workbook('form26q_workbook', LEGACY_PARTIES, PAYEE_BASIC, legacyChallan('tds_amount'), PAYMENT_26Q),
  form27q_workbook: workbook('form27q_workbook', LEGACY_PARTIES, PAYEE_27Q, legacyChallan('tds_amount'), PAYMENT_27Q),
  form27eq_workbook: workbook('form27eq_workbook', LEGACY_PARTIES, PAYEE_27EQ, legacyChallan('tcs_amount'), PAYMENT_27EQ),
  form140_workbook: workbook('form140_workbook', [FORM140_PAYER, FORM140_RESPONSIBLE], PAYEE_BASIC, FORM140_CHALLAN, PAYMENT_140),
  form138_workbook: workbook('form138_workbook', NEW_PARTIES, PAYEE_BASIC, newChallan('total_tax_deducted'), PAYMENT_138),
  form144_workbook: workbook('form144_workbook', NEW_PARTIES, PAYEE_144, newChallan('total_tax_deducted'), PAYMENT_144),
  form143_workbook: workbook('form143_workbook', NEW_PARTIES, PAYEE_143, newChallan('total_tax_collected'), PAYMENT_143),
};
