// Every problem the engine reports has a stable code listed here with its severity and a one-line summary.
// The README's rule table is generated from this list, and the tests check each code fires and stays quiet.

import type { Severity } from './types.js';

export interface RuleInfo {
  severity: Severity;
  summary: string;
}

const e = (summary: string): RuleInfo => ({ severity: 'error', summary });
const w = (summary: string): RuleInfo => ({ severity: 'warning', summary });

export const RULES = {
  // The workbook as a document
  INVALID_JSON: e('The input is not valid JSON.'),
  WORKBOOK_NOT_OBJECT: e('The workbook must be a JSON object.'),
  WORKBOOK_WRONG_FORM: e('The workbook name does not match the form and period asked for.'),
  WORKBOOK_SHAPE: e('The workbook, a sheet or a block does not have the Sheet JSON shape (name, @entity, sheets, blocks).'),
  SHEET_MISSING: e('A sheet the form needs is missing.'),
  SHEET_DUPLICATE: e('A sheet appears twice.'),
  SHEET_UNKNOWN: w('A sheet this form does not use; it is ignored.'),
  SHEET_NOT_EXPECTED: w('The salary detail sheet is only read for Q4 of 24Q; it is ignored.'),
  BLOCK_MISSING: e('A block (list or table) the sheet needs is missing.'),
  BLOCK_UNKNOWN: w('A block this sheet does not use; it is ignored.'),
  XLSX_BLANK_ROW: w('An .xlsx table or list has blank rows between its rows; they are skipped and the block goes on.'),
  XLSX_FORMULA_NOT_CALCULATED: e('An .xlsx formula has no calculated value (its writer does not calculate); open and save the file in Excel or LibreOffice.'),
  HEADER_MISMATCH: e('A table header lacks a column the form needs or names a column twice.'),
  HEADER_COLUMN_UNKNOWN: w('A table header names a column this form does not use; its values are ignored.'),
  ROW_SHAPE: e('A table row is not an array or has more cells than the header.'),
  CELL_TYPE: e('A cell holds a value of the wrong type (for example text where a number belongs).'),
  LIST_ITEM_INVALID: e('A list item is neither a {key: value} object nor a [key, value] pair.'),
  LIST_KEY_DUPLICATE: e('A list gives the same key twice.'),
  LIST_KEY_UNKNOWN: w('A list key this form does not use; it is ignored.'),
  VALUE_REQUIRED: e('A mandatory value is empty.'),
  NUMBER_FROM_TEXT: w('A number column holds the number as text ("377"); it is read as the number.'),
  NUMBER_GROUPED: e('A number is written with digit-group commas ("1,00,000"); the grouping is not guessed.'),
  TEXT_FROM_NUMBER: w('A text column (BSR code, challan serial, PIN, phone) holds a number; it is read as text, with its leading zeros back where the width is fixed.'),
  BOOLEAN_FROM_TEXT: w('A true/false column holds Y/N, yes/no or true/false as text (any case); it is read as true or false.'),
  SPACES_TRIMMED: w('A text has spaces (or tabs, line breaks) before or after it; they are removed.'),
  CODE_UPPERCASED: w('A code written in capitals (mode of payment, Y/N flag, state, country) is in lower case; it is upper-cased.'),
  PROBLEM_LIST_TRUNCATED: w('Too many problems; the list stops here (the counts stay exact).'),

  // Options and period
  INVALID_RECEIPT_NUMBER: e('The previous receipt number (token of the previous regular statement, BH 9) is not 15 digits, or its last digit is not the first 14 digits mod 7 (FVU T-FV-2232).'),
  FORM_138_Q4_NOT_PUBLISHED: e('Protean has not published the Form 138 Q4 (salary annexure) format yet.'),
  PERIOD_NOT_ENDED: w('The quarter has not ended yet; TIN refuses statements filed before the quarter ends.'),
  LAYOUT_UNVERIFIED: w('The record layout for this form is our own design (Protean has not published it); check with the FVU.'),
  TAN_MISMATCH: e('The TAN in the workbook differs from the TAN the statement is for.'),

  // Correction statements (correct(): the corrected workbook against the TRACES conso file)
  CORRECTION_FORMAT_NOT_PUBLISHED: e('No public field text of the correction format of Forms 138/140/143/144 (Protean, 04-Aug-2026); no correction is written.'),
  CORRECTION_CANCEL_DISCONTINUED: e('Y (cancellation) corrections are no longer accepted at the TIN central system (TIN-FC code 3).'),
  CORRECTION_TYPE_NOT_REQUESTED: e('The changes need a correction type that the request does not allow.'),
  CORRECTION_SALARY_NOT_SOURCED: e('A salary detail (24Q Q4 Annexure II) change needs a C4 batch (or a C5 of a salary row), whose field rules are not sourced well enough to write.'),
  CORRECTION_NOTHING_TO_CORRECT: e('The corrected workbook has no change against the conso file.'),
  CORRECTION_CHALLAN_MISSING: e('A challan of the conso file has no counterpart in the corrected workbook; challans cannot be deleted by a correction.'),
  CORRECTION_CHALLAN_BOOKED: e('The challan is matched (M) or provisionally booked (P) at TRACES; only unmatched (U) challans may be updated.'),
  CORRECTION_ROW_LOCKED: e('The row is locked by Form 26A/27BA (mode F in the conso file): it cannot be deleted, nor its PAN, amount paid, tax deducted or section changed.'),
  CORRECTION_REMARK_C_ROW: e('A row with remark C (higher rate, no PAN) can only have its PAN, amount paid and date of payment updated, and cannot be deleted.'),
  CORRECTION_PAN_TO_INVALID: e('A valid PAN cannot be corrected to a PAN placeholder.'),
  CORRECTION_PAN_CHANGE_ONCE: w('A valid PAN is corrected to another valid PAN: TRACES allows this only once per row.'),
  CORRECTION_CONSO_TEXT_NOT_ASCII: e('A deleted row repeats the conso file\'s values, and one of them has characters outside ASCII that the TXT cannot carry.'),
  CORRECTION_INVALID_TOKEN: e('The original or previous token (RRR) is not 15 digits, or the conso file carries no original token and none is given.'),

  // Text
  TEXT_SANITISED: w('Carets, tabs or line breaks in a text were replaced by spaces.'),
  IDENTIFIER_UPPERCASED: w('A PAN, TAN, GSTIN or certificate number written in lower case was upper-cased.'),
  NON_ASCII_TEXT: e('A text has characters outside ASCII that cannot be written.'),
  NAME_INVALID: e('A name is blank, only dots or only special characters.'),
  FIELD_TOO_LONG: e('A text is longer than its field allows.'),

  // Identifiers and codes of the deductor and responsible person
  INVALID_TAN: e('The TAN is not a city code the FVU knows, a letter, 5 digits and their check letter (FVU T-FV-1010).'),
  INVALID_PAN: e('The PAN is not a valid PAN (or an allowed placeholder).'),
  PAN_NOT_ALLOWED: e('A placeholder PAN is not allowed here.'),
  INVALID_STATE: e('Unknown state.'),
  INVALID_PINCODE: e('The PIN code is not 6 digits.'),
  INVALID_EMAIL: e('The email address is not valid.'),
  EMAIL_REQUIRED: e('The deductor or the responsible person must have an email address.'),
  INVALID_CONTACT_NUMBER: e('The phone or mobile number is not valid.'),
  INVALID_COUNTRY_CODE: e('The calling code is not 1-5 digits.'),
  INVALID_GSTIN: e('The GSTIN is not 15 characters in the GSTIN pattern.'),
  INVALID_AIN: e('The AIN of the PAO/TO/CDDO is not 7 characters.'),
  INVALID_DEDUCTOR_TYPE: e('Unknown deductor category (Annexure 4).'),
  DEDUCTOR_TYPE_REQUIRED: e('The deductor category cannot be derived from the PAN and is not given.'),
  GOVERNMENT_DETAILS_REQUIRED: e('A government deductor needs its state (S/E/H/N) or ministry (A/D/G).'),
  INVALID_MINISTRY_CODE: e('The ministry code is not a 2-digit Annexure 3 code.'),

  // Challans
  INVALID_BSR_CODE: e('The BSR code / Form 24G receipt number is not 7 digits.'),
  INVALID_CHALLAN_SERIAL: e('The challan serial / DDO serial number is not 5 digits.'),
  DUPLICATE_CHALLAN: e('Two challans have the same serial number, BSR code and date (the CIN).'),
  INVALID_DATE: e('A date is not an epoch-milliseconds integer.'),
  FUTURE_DATE: e('A date lies after the file creation date.'),
  CHALLAN_DATE_OUT_OF_RANGE: e('The challan date is before 1 April of the previous year.'),
  INVALID_MINOR_HEAD: e('Unknown minor head, or one this form does not accept.'),
  INVALID_MODE_OF_PAYMENT: e('The mode of payment is not C (challan) or B (book adjustment).'),
  BOOK_ENTRY_NOT_ALLOWED: e('Book adjustment (mode B) is only for government deductors.'),
  INVALID_NIL_INDICATOR: e('The nil challan indicator is not Y or N.'),
  NIL_CHALLAN_INCONSISTENT: e('A nil challan carries amounts, a BSR code, a serial, a mode or a minor head.'),
  NIL_CHALLAN_DATE: e('A nil challan must be dated the last day of the quarter.'),
  NIL_CHALLAN_ASSUMED: w('A challan with no amounts at all is written as a nil challan (no serial, BSR or minor head; dated the quarter end).'),
  NIL_CHALLAN_WITHOUT_DEDUCTEES: e('A nil challan must carry deductee rows (FVU 4.0).'),
  NIL_CHALLAN_ROW: e('A row under a nil challan must carry no tax and a remark for no deduction that the form allows there (FVU 4.0).'),
  INVALID_AMOUNT: e('An amount is not a number with at most two decimals, or is too large.'),
  NEGATIVE_AMOUNT: e('An amount is negative.'),
  AMOUNT_NOT_WHOLE_RUPEES: e('Challan amounts must be whole rupees.'),
  CHALLAN_TOTAL_MISMATCH: e('The challan total deposited is not tax + interest + fee + penalty.'),
  CHALLAN_SHORT: e("The challan's tax is less than the tax its deductee rows say was deposited."),
  CHALLAN_EXCESS: w("The challan's tax exceeds the tax its deductee rows deposit by a rupee or more."),
  // The CSI (Challan Status Inquiry) file, when one is given
  CSI_TAN_MISMATCH: e('The TAN of the CSI file differs from the TAN the statement is for (the FVU refuses it: T_FV_6069).'),
  CSI_NAME_MISMATCH: e("The deductor's name differs from the TAN name in the CSI file, ignoring case (the FVU refuses it: T-FV-3173)."),
  CSI_FEWER_CHALLANS: w('The CSI file lists fewer challans than the statement pays through a bank: some cannot match.'),
  CSI_CHALLANS_LEFT_TO_FVU: w("The CSI file's challan lines are hashes whose scheme is not published: the FVU matches the challans, not the engine."),
  CHALLAN_WITHOUT_DEDUCTEES: w('A challan has no deductee rows.'),
  MINOR_HEAD_100_EMPTY: e('A minor head 100 challan needs at least one deductee row.'),
  MINOR_HEAD_100_DATE: e('A minor head 100 challan must be dated within the quarter and not after its deductee rows.'),
  IN_KIND_REQUIRES_CHALLAN_MODE: e('A challan with in-kind sections (1034/1038/1059/1061) must be paid by challan (mode C).'),
  TOTAL_TOO_LARGE: e('A total exceeds what the file can carry.'),

  // Deductee / collectee rows
  DUPLICATE_PAYEE: e('Two payees have the same serial number.'),
  UNKNOWN_PAYEE: e('The payment names a payee serial number that the payee sheet does not have.'),
  UNKNOWN_CHALLAN: e('The payment names a challan that the challan sheet does not have.'),
  CHALLAN_AMBIGUOUS: e('The serial and BSR code of the payment name more than one challan (different dates); its challan date must say which.'),
  INVALID_NATURE_OF_PAYMENT: e('Unknown nature of payment for this form.'),
  SECTION_CODE_UNKNOWN: e('The FVU section code for this nature of payment is not confirmed; refusing to guess.'),
  SECTION_PAYEE_TYPE_ASSUMED: w('Contractor section 1023/1024 chosen from the PAN; give deductee_type to be explicit.'),
  INVALID_REASON: e('Unknown reason for lower/higher/no deduction or collection.'),
  REASON_CODE_UNKNOWN: e('The FVU remark code for this reason is not confirmed; refusing to guess.'),
  REMARK_NOT_ALLOWED_FOR_SECTION: e('This remark is not allowed with this section.'),
  REMARK_REQUIRES_PAN: e('This remark needs a valid PAN (not a placeholder).'),
  REMARK_C_REQUIRES_NO_PAN: e('Remark C (higher rate, no PAN) is only for PANAPPLIED, PANINVALID or PANNOTAVBL.'),
  PLACEHOLDER_PAN_WITHOUT_REMARK: w('Tax was deducted for a payee without PAN but the remark is not C (higher rate).'),
  REMARK_REQUIRES_ZERO_TAX: e('This remark means no deduction, but tax is given.'),
  CERTIFICATE_REQUIRED: e('Remark A (lower/no deduction certificate) needs the certificate number.'),
  INVALID_CERTIFICATE: e('The certificate number does not have the length and characters the format wants.'),
  CERTIFICATE_WITHOUT_REMARK: w('A certificate number without remark A is not written.'),
  PAN_REQUIRED_FOR_SECTION: e('Sections 1033/1037/1038/1059/1061 need a valid PAN.'),
  IN_KIND_TAX_NOT_ZERO: e('For in-kind sections the tax deducted, the tax deposited and the rate are 0 (the tax is paid by challan under minor head 100).'),
  AMOUNT_PAID_NOT_POSITIVE: e('The amount paid/credited must be more than zero.'),
  AMOUNT_PAID_TOO_LARGE: e('The amount paid is above the most the FVU accepts for the form (24Q: 999999999.00).'),
  TAX_EXCEEDS_AMOUNT: e('The tax deducted is more than the amount paid.'),
  DEDUCTED_DEPOSITED_MISMATCH: w('The tax deposited differs from the tax deducted.'),
  PAYMENT_DATE_OUTSIDE_QUARTER: e('The date of payment/credit is outside the quarter (new forms only: in legacy forms an earlier date reports a late deduction).'),
  DEDUCTION_DATE_REQUIRED: e('Tax was deducted but the date of deduction is missing.'),
  DEDUCTION_DATE_BEFORE_QUARTER: e('The date of deduction is before the quarter starts.'),
  DEDUCTION_DATE_AFTER_QUARTER: e('The date of deduction is after the quarter ends.'),
  DEPOSIT_DATE_MISMATCH: e('The date of deposit must be the date of its challan.'),
  DEPOSIT_BEFORE_DEDUCTION: w('The challan is dated before the tax was deducted.'),
  INVALID_RATE: e('The rate is not a percentage with at most four decimals.'),
  RATE_INCONSISTENT: w('Tax differs from amount x rate by more than one rupee.'),
  HIGHER_RATE_BELOW_20: w('Remark C (higher rate without PAN) with a rate below 20%.'),
  CASH_WITHDRAWAL_NOT_APPLICABLE: e('Cash-withdrawal amounts are only for the cash-withdrawal sections.'),
  INVALID_FORM121_UIN: e('The Form 121 unique identification number is longer than 26 characters.'),
  FORM121_UIN_MISSING: w('No deduction on a Form 121 declaration, but its unique identification number is missing.'),
  INVALID_NATURE_OF_REMITTANCE: e('Unknown nature of remittance.'),
  INVALID_COUNTRY: e('Unknown country.'),
  INVALID_FLAG: e('A Y/N flag holds something else.'),
  INVALID_DEDUCTEE_TYPE: e('Unknown deductee type.'),
  DEDUCTEE_TYPE_PAN_MISMATCH: e("27Q/27EQ from FY 2023-24: the deductee type's code does not fit the PAN's 4th letter (the FVU refuses it: T-FV-4056)."),
  INVALID_EMPLOYEE_CATEGORY: e('Unknown employee category.'),

  // Salary details (24Q Q4)
  DUPLICATE_SALARY_PAN: w('The same PAN has more than one salary detail row.'),
  SALARY_PERIOD_INVALID: e('The employment period is missing, reversed or outside the year.'),
  SALARY_DEDUCTIBLE_EXCEEDS_GROSS: e('A Chapter VI-A deductible amount exceeds its gross amount.'),
  SALARY_80C_LIMIT: e('80C + 80CCC + 80CCD(1) deductible exceeds Rs 1,50,000.'),
  SALARY_NEW_REGIME_CLAIM: e('An exemption or deduction the new tax regime (115BAC) does not allow.'),
  SALARY_NEGATIVE_INCOME: e('Income chargeable under Salaries comes out negative.'),
  SALARY_INCOME_TOO_LARGE: e('Total taxable income is above 999999999.00, the most the FVU accepts in 24Q.'),
  SALARY_NET_TAX_NEGATIVE: e('Rebate and relief exceed the tax; net tax payable would be negative.'),
  SALARY_PARTY_INCOMPLETE: e('A landlord or lender needs both a name and a valid PAN.'),
  SALARY_SUPERANNUATION_INCOMPLETE: e('Superannuation repayment details are incomplete.'),

  // Section 194P (specified senior citizens, 24Q) and the remark letters of each FVU release
  SECTION_194P_NOT_IN_FORCE: e('Section 194P (specified senior citizens) applies from FY 2021-22 (FVU 7.2).'),
  SECTION_194P_NOT_SENIOR: e('Section 194P is only for specified senior citizens; the employee category is not senior_citizen or super_senior_citizen.'),
  SALARY_194P_COLUMN_NOT_APPLICABLE: e('A 194P (specified senior citizen) salary row gives an amount the 94P record has no field for.'),
  SALARY_194P_NET_TAX_MISMATCH: e('The net tax payable under 194P differs from tax - rebate 87A + surcharge + cess - relief 89.'),
  COLLECTION_CODE_NOT_IN_FORCE: e('27EQ collection codes D (forest produce) and R (sale of goods) apply before FY 2025-26 only (FVU T_FV_6380).'),
  REMARK_NOT_IN_FORCE: e('This remark letter is not in the FVU release in force for the statement period, or its section did not apply on the payment date.'),
  IN_KIND_LIST_UNSETTLED: w('Sections 1033/1034/1037: the Form 140 v1.0 workbook and its Annexure 2 disagree on which is the in-kind code; check with FVU 1.2.'),
} as const satisfies Record<string, RuleInfo>;

export type RuleCode = keyof typeof RULES;

/** Problems that mean "this is not the workbook we can read at all" (the CLI reports the first in one line, exit 1). */
export const STRUCTURAL_CODES: ReadonlySet<string> = new Set<RuleCode>([
  'INVALID_JSON',
  'WORKBOOK_NOT_OBJECT',
  'WORKBOOK_WRONG_FORM',
  'WORKBOOK_SHAPE',
  'SHEET_MISSING',
  'BLOCK_MISSING',
  'HEADER_MISMATCH',
]);
