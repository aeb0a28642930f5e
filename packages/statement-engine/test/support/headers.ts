// Table headers of the baseline workbooks, spelled as in the vendor's schemas. Forms that share a run of
// columns share the constant that names it, so a column the vendor renames is changed in one place.

/** Who was paid, under which challan (serial + BSR), for what, how much and when: 24Q, 26Q, 27Q and 140. */
const SERIAL_PAYMENT = ['payee_sr_no', 'challan_serial', 'bsr_code', 'nature_of_payment', 'payment_amount', 'payment_date_epoch'];

/** The same link in the new style (138, 144, 143); each form puts its amount and date columns its own way. */
const VOUCHER_PAYMENT = ['payee_sr_no', 'bank_challan_number_or_ddo_serial_number', 'bsr_code_or_form_24g_receipt_number', 'nature_of_payment'];

/** Legacy TDS rows: income tax, surcharge and cess, then the date of deduction. */
const LEGACY_TAX = ['tds_amount', 'surcharge', 'health_and_education_cess', 'deduction_date_epoch'];

const LOWER_DEDUCTION = ['reason_for_lower_deduction', 'certificate_number'];

export const CASH_194N = [
  'amount_of_cash_withdrawal_more_than_1_crore_us_194N',
  'amount_of_cash_withdrawal_between_20_lakhs_and_1_crore_us_194N_for_non_filers',
  'amount_of_cash_withdrawal_more_than_1_crore_us_194N_for_non_filers',
  'amount_of_cash_withdrawal_more_than_3_crore_us_194N_for_co-operative_societies',
  'amount_of_cash_withdrawal_between_20_lakhs_and_3_crore_us_194N_for_non_filers',
  'amount_of_cash_withdrawal_more_than_3_crore_us_194N_for_non_filers',
];

const CASH_393_3 = [
  'amount_of_cash_withdrawal_more_than_1_crore_under_section_393_3',
  'amount_of_cash_withdrawal_more_than_3_crore_for_cooperative_societies_under_section_393_3',
];

// ---- challan tables

export const LEGACY_CHALLAN_HEADER = [
  'challan_serial',
  'bsr_code',
  'paid_date_epoch',
  'minor_head',
  'tds_amount',
  'surcharge',
  'health_and_education_cess',
  'interest',
  'late_filing_fees',
  'other_penalty',
];

export const NEW_CHALLAN_HEADER = [
  'bank_challan_number_or_ddo_serial_number',
  'bsr_code_or_form_24g_receipt_number',
  'bank_challan_or_transfer_voucher_date_epoch',
  'minor_head',
  'mode_of_payment',
  'nil_challan_indicator',
  'total_tax_deducted',
  'total_interest',
  'total_fee',
  'total_penalty',
  'total_tax_deposited',
];

// ---- payment tables

export const PAYMENT_24Q_HEADER = [...SERIAL_PAYMENT, ...LEGACY_TAX, ...LOWER_DEDUCTION];

export const PAYMENT_26Q_HEADER = [...SERIAL_PAYMENT, ...LEGACY_TAX, ...LOWER_DEDUCTION, ...CASH_194N];

export const PAYMENT_27Q_HEADER = [
  ...SERIAL_PAYMENT,
  ...LEGACY_TAX,
  'applicability_of_tds_rate_under_dtaa',
  'nature_of_remittance',
  'form_15ca_acknowledgement_number',
  'grossing_up_indicator',
  ...LOWER_DEDUCTION,
  ...CASH_194N,
];

export const PAYMENT_140_HEADER = [
  ...SERIAL_PAYMENT,
  'total_tax_deducted',
  'total_tax_deposited',
  'deduction_date_epoch',
  ...LOWER_DEDUCTION,
  'unique_identification_number_form_121',
  ...CASH_393_3,
];

export const PAYMENT_138_HEADER = [
  ...VOUCHER_PAYMENT,
  'payment_amount',
  'payment_date_epoch',
  'total_tax_deducted',
  'deduction_date_epoch',
  'total_tax_deposited',
  'deposit_date_epoch',
  ...LOWER_DEDUCTION,
];

export const PAYMENT_144_HEADER = [
  ...VOUCHER_PAYMENT,
  'nature_of_remittance',
  'payment_amount',
  'payment_date_epoch',
  'total_tax_deducted',
  'deduction_date_epoch',
  'total_tax_deposited',
  'grossed_up_under_section_393_10',
  'applicability_of_tds_rate_under_dtaa',
  'unique_identification_number_form_121',
  ...LOWER_DEDUCTION,
  ...CASH_393_3,
];

export const PAYMENT_143_HEADER = [
  ...VOUCHER_PAYMENT,
  'payment_amount',
  'payment_date_epoch',
  'total_tax_collected',
  'collection_date_epoch',
  'total_tax_deposited',
  'reason_for_lower_collection',
  'certificate_number',
];
