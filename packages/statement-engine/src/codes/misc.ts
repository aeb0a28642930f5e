// Small code lists: minor heads (Annexure 7), nature of remittance, employee category, deductee type.

import type { FormKind } from '../forms.js';
import type { Family } from '../period.js';

const TDS_MINOR_HEADS = new Map([
  ['tds_payable', '200'],
  ['tds_payable_by_taxpayer', '200'],
  ['tds_regular_assessment_raised_by_it_dept', '400'],
  ['tds_regular_assessment_raised_by_income_tax_department', '400'],
  ['advance_tax', '100'],
]);

const TCS_MINOR_HEADS = new Map([
  ['tcs_payable', '200'],
  ['tcs_payable_by_taxpayer', '200'],
  ['tcs_regular_assessment_raised_by_it_dept', '400'],
  ['tcs_regular_assessment_raised_by_income_tax_department', '400'],
]);

/** The workbook tokens for the minor heads a form's challans take (the template's drop-down list). */
export function minorHeadTokens(kind: FormKind, family: Family): string[] {
  const table = kind === 'tcs' ? TCS_MINOR_HEADS : TDS_MINOR_HEADS;
  return [...table.keys()].filter((token) => minorHead(token, kind, family) !== null);
}

/**
 * Minor head code for a token or a bare code ('200', '(200) TDS Payable by Tax Payer'); null when unknown or not
 * allowed for the form (TCS has no 100; 100 came in with the new forms but the vendor's legacy 26Q/27Q enums
 * accept it too, so it is allowed there).
 */
export function minorHead(value: string, kind: FormKind, family: Family): string | null {
  const text = value.trim();
  const table = kind === 'tcs' ? TCS_MINOR_HEADS : TDS_MINOR_HEADS;
  const fromToken = table.get(text.toLowerCase());
  const code = fromToken ?? /^\(?(100|200|400)\)?(?:\s.*)?$/.exec(text)?.[1] ?? null;
  if (code === null) return null;
  if (code === '100' && (kind === 'tcs' || (kind === 'salary' && family === 'legacy'))) return null;
  return code;
}

/** Legacy 27Q nature-of-remittance codes (tds-gaps §2.2); the vendor's finer capital-gains tokens fold onto 31/52. */
const LEGACY_REMITTANCE = new Map([
  ['dividend', '16'],
  ['fees_for_technical_services_or_included_services', '21'],
  ['interest_payment', '27'],
  ['investment_income', '28'],
  ['other_long_term_capital_gains', '31'],
  ['long_term_capital_gain_u_s_115_e_in_case_of_nri_citizen', '31'],
  ['long_term_capital_gain_u_s_112_1_c_iii', '31'],
  ['long_term_capital_gain_u_s_112', '31'],
  ['long_term_capital_gain_u_s_112_a', '31'],
  ['long_term_capital_gains_arising_from_transfer_of_units_referred_to_in_section_115_ab', '31'],
  ['long_term_capital_gains_arising_from_transfer_of_such_bond_or_global_depository_receipts_referred_to_in_section_115_ac', '31'],
  ['royalty', '49'],
  ['short_term_capital_gains', '52'],
  ['short_term_capital_gains_u_s_111_a', '52'],
  ['other_income_not_in_the_nature_of_income', '99'],
]);

/**
 * Form 144 nature of remittance: the vendor's tokens (master data, tds-gaps §3.2, which numbers them 01-19) onto
 * the codes FVU 1.2 accepts (T_FV_6423: the legacy 27Q codes and 66-75). '' = the token's sections take no nature
 * (FVU 1.2 refuses every code for them); a token missing here has no FVU code we know: the workbook gives the
 * 2-digit code itself. FORMAT_NOTES §7.
 */
const NEW_REMITTANCE = new Map([
  ['winnings_from_lottery_crossword_puzzle_card_game_gambling_or_betting', ''],
  ['winnings_from_online_games', ''],
  ['winnings_from_horse_race', ''],
  ['payments_to_non_resident_sportsmen_or_entertainer_sport_associations_or_institution', ''],
  ['cash_withdrawal', ''],
  ['interest_income', '27'],
  ['dividend_income_referred_to_in_section_207_1_table_sl_no_1', '16'],
  ['dividend_income_referred_to_in_section_207_1_table_sl_no_2', '16'],
  ['investment_income', '28'],
  ['fee_for_technical_services_or_included_services', '21'],
  ['royalty', '49'],
  ['other_income', '99'],
]);

/** FVU 1.2 (T_FV_6423): the Form 144 section codes each nature of remittance is allowed with. */
const UNITS = ['1048', '1049', '1050', '1055', '1056', '1057'];
const DIVIDEND_LIKE = ['1046', '1048', '1049', '1050', '1051', '1053', '1055', '1056', '1057'];
const natures = (codes: readonly string[], allowed: readonly string[]) => codes.map((code): [string, readonly string[]] => [code, allowed]);
export const REMITTANCE_SECTIONS_144: ReadonlyMap<string, readonly string[]> = new Map([
  ...natures(['16', '73'], DIVIDEND_LIKE),
  ...natures(['21', '28', '49', '74', '75', '99'], ['1057']),
  ...natures(['27'], ['1040', '1041', '1042', '1043', '1044', '1045', '1048', '1049', '1050', '1051', '1053', '1055', '1056', '1057']),
  ...natures(['66', '67', '68', '69', '70'], UNITS),
  ...natures(['71'], ['1052']),
  ...natures(['72'], ['1054']),
]);

/** FVU 1.2 (T_FV_6544): Form 144 sections whose rows must give a nature of remittance. */
export const REMITTANCE_REQUIRED_144: ReadonlySet<string> = new Set([
  '1040', '1041', '1042', '1043', '1044', '1045', '1046', '1048', '1049', '1050', '1051', '1052', '1053', '1054', '1055', '1056', '1057',
]);

/** The code of a nature-of-remittance token, or of a bare code the FVU accepts ('' for a new-form token whose sections take none); null when unknown. */
export function remittanceCode(token: string, family: Family): string | null {
  const text = token.trim();
  const code = (family === 'legacy' ? LEGACY_REMITTANCE : NEW_REMITTANCE).get(text);
  if (code !== undefined) return code;
  return family === 'new' && REMITTANCE_SECTIONS_144.has(text) ? text : null;
}

/** SD field 10: G general, W woman, S senior citizen, O super senior citizen. */
const EMPLOYEE_CATEGORY = new Map([
  ['general', 'G'],
  ['women', 'W'],
  ['woman', 'W'],
  ['senior_citizen', 'S'],
  ['super_senior_citizen', 'O'],
]);

export function employeeCategory(token: string): string | null {
  return EMPLOYEE_CATEGORY.get(token.trim().toLowerCase()) ?? null;
}

/**
 * The vendor's deductee_type tokens (master data, "Deductee type"), read from our optional payee column, with the
 * vendor's code for each. The codes are the FVU's 27Q/27EQ deductee codes from FY 2023-24 (FVU 9.4 checks them
 * against the PAN's 4th letter: DEDUCTEE_CODE_PAN_LETTERS).
 */
const DEDUCTEE_TYPES = new Map<string, { type: DeducteeType; code: number }>([
  ['company', { type: 'company', code: 1 }],
  ['individual', { type: 'individual_or_huf', code: 2 }],
  ['huf', { type: 'individual_or_huf', code: 3 }],
  ['association_of_persons', { type: 'other', code: 4 }],
  ['association_of_persons_companies_only', { type: 'other', code: 5 }],
  ['cooperative_society', { type: 'other', code: 6 }],
  ['firm', { type: 'other', code: 7 }],
  ['body_of_individuals', { type: 'other', code: 8 }],
  ['artificial_judicial_person', { type: 'other', code: 9 }],
  ['others', { type: 'other', code: 10 }],
  ['government', { type: 'other', code: 10 }],
  ['trust', { type: 'other', code: 10 }],
  ['local_authority', { type: 'other', code: 10 }],
]);

export type DeducteeType = 'company' | 'individual_or_huf' | 'other';

export function deducteeType(token: string): { type: DeducteeType; code: number } | null {
  return DEDUCTEE_TYPES.get(token.trim().toLowerCase()) ?? null;
}

/**
 * The PAN 4th letters each deductee code goes with, as FVU 9.4 checks them on 27Q/27EQ from FY 2023-24 (its
 * FormValidator, T-FV-4056; placeholder PANs may have any code 1 to 10; FORMAT_NOTES.md §16) and FVU 1.2 pairs them
 * for Forms 143/144 DD 12 (§17).
 */
export const DEDUCTEE_CODE_PAN_LETTERS: ReadonlyMap<number, string> = new Map([
  [1, 'C'], [2, 'P'], [3, 'H'], [4, 'A'], [5, 'A'], [6, 'CHAFBJ'], [7, 'F'], [8, 'B'], [9, 'J'], [10, 'GTEL'],
]);

const DEDUCTEE_CODE_OF_PAN_LETTER: Readonly<Record<string, number>> = { C: 1, P: 2, H: 3, A: 4, F: 7, B: 8, J: 9, G: 10, T: 10, E: 10, L: 10 };

/** The deductee code a valid PAN's 4th letter gives when the workbook names no deductee type (5 and 6 need the type). */
export function deducteeCodeFromPan(pan: string): number {
  return DEDUCTEE_CODE_OF_PAN_LETTER[pan.charAt(3)] ?? 10;
}

/** Deductee type implied by a valid PAN's 4th character. */
export function deducteeTypeFromPan(pan: string): DeducteeType {
  const status = pan.charAt(3);
  if (status === 'C') return 'company';
  if (status === 'P' || status === 'H') return 'individual_or_huf';
  return 'other';
}
