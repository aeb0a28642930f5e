// Reason for lower / higher / no deduction (or collection) tokens -> the remark letter (Annexure 6).
// null: the token is in the vendor's enum but no source confirms its letter (REASON_CODE_UNKNOWN).

import type { FormKind } from '../forms.js';
import type { Family } from '../period.js';

const FORM24Q = new Map<string, string | null>([
  ['lower_deduction_no_deduction_on_account_of_certificate_u_s_197', 'A'],
  ['no_deduction_on_account_of_certificate_u_s_197_a', 'B'],
  ['deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan', 'C'],
]);

const FORM138 = new Map<string, string | null>([
  ['in_case_of_lower_deduction_on_account_of_certificate_under_section_395_1', 'A'],
  ['in_case_of_deduction_of_tax_at_higher_rate_due_to_non_furnishing_of_pan', 'C'],
]);

const FORM26Q = new Map<string, string | null>([
  ['lower_deduction_no_deduction_on_account_of_certificate_u_s_197', 'A'],
  ['no_deduction_on_account_of_certificate_u_s_197_a', 'B'],
  ['deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan', 'C'],
  ['in_case_of_transporter_transaction_and_valid_pan_is_provided', 'T'],
  ['software_acquired_u_s_194_j', 'S'],
  ['transaction_where_tax_not_been_deducted_as_amount_paid_to_vendor_party_has_not_exceeded_the_threshold_limit', 'Y'],
  ['no_deduction_on_account_of_payment_u_s_197_a_1_f', 'Z'],
  ['no_deduction_upto_rs_50_000_in_respect_of_interest_income_from_deposits_held_by_senior_citizen_u_s_80_ttb_for_section_194_a', 'R'],
  [
    'no_deduction_on_account_of_payment_made_to_person_referred_to_in_clause_iii_or_clause_iv_or_on_account_of_notification_issued_under_clause_v_for_section_194_n',
    'N',
  ],
  [
    'no_deduction_or_lower_deduction_on_account_of_payment_made_to_a_person_or_class_of_person_on_account_of_notification_issued_under_sub_section_5_for_section_194_a',
    'D',
  ],
  ['no_deduction_as_per_the_provisions_of_sub_section_2_a_of_section_194_lba', 'O'],
  ['no_deduction_or_lower_deduction_on_account_of_notification_issued_under_second_provision_to_section_194_n', 'M'],
  ['no_deduction_on_account_of_payment_being_made_to_a_person_referred_to_in_board_circular_no_3_of_2002_dated_28th_june_2002', 'E'],
  ['no_deduction_on_account_of_payment_being_made_to_a_person_referred_to_in_board_circular_no_11_of_2002_dated_22nd_november_2002', 'E'],
  ['no_deduction_on_account_of_payment_being_made_to_a_person_referred_to_in_board_circular_no_18_of_2017_dated_28th_may_2017', 'E'],
  ['in_case_of_no_deduction_is_on_account_of_payment_of_dividend_made_to_a_business_trust_as_per_section_194', 'P'],
  ['in_case_of_no_deduction_in_view_of_payment_made_to_an_entity_referred_to_in_clause_x_of_sub_section_3_of_section_194_a', 'Q'],
  ['deduction_is_on_higher_rate_in_view_of_section_206_ab_for_non_filing_of_return_of_income', 'U'],
  ['payment_of_salary_remuneration_commission_bonus_or_interest_to_a_partner_of_the_firm', null],
]);

const FORM140 = new Map<string, string | null>([
  ['lower_deduction_no_deduction_on_account_of_certificate_u_s_395_1', 'A'],
  ['no_deduction_on_account_of_declaration_u_s_393_6', 'B'],
  ['deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan_u_s_397_2', 'C'],
  [
    'no_deduction_or_lower_deduction_on_account_of_payment_made_to_a_person_or_class_of_person_on_account_of_notification_issued_u_s_194_a_5_or_u_s_400_1',
    'D',
  ],
  ['no_deduction_on_account_of_payment_being_made_to_a_person_referred_to_in_board_circular_no_3_of_2002_dated_28th_june_2002', 'E'],
  [
    'no_deduction_on_account_of_payment_made_to_a_person_referred_to_in_section_393_4_table_sl_no_18_or_on_account_of_notification_issued_under_fifth_proviso_to_section_194_n',
    'N',
  ],
  ['no_deduction_as_per_the_provisions_of_section_393_4_table_sl_no_5', 'O'],
  [
    'in_case_of_no_deduction_is_on_account_of_payment_of_dividend_made_to_a_business_trust_referred_to_in_section_393_4_table_sl_no_10_d_or_notification_issued_under_section_393_4_table_sl_no_10_e',
    'P',
  ],
  ['in_case_of_no_deduction_in_view_of_payment_made_to_an_entity_referred_to_in_section_393_4_table_sl_no_7_c_v', 'Q'],
  [
    'no_deduction_is_in_view_of_tax_being_deductible_or_collectible_under_any_provision_of_the_act_for_transaction_referred_in_section_393_1_table_sl_no_8_ii_note_1_a',
    'S',
  ],
  ['in_case_of_no_deduction_is_on_account_of_deductee_payee_being_transporter_and_valid_pan_is_provided', 'T'],
  ['no_deduction_on_account_of_payment_being_below_threshold_limit_as_specified_in_the_act', 'Y'],
  ['no_deduction_or_lower_deduction_on_account_of_notification_issued_u_s_400_1', 'Z'],
]);

const FORM27Q = new Map<string, string | null>([
  ['lower_deduction_no_deduction_on_account_of_certificate_u_s_197', 'A'],
  ['no_deduction_on_account_of_certificate_u_s_197_a', 'B'],
  ['deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan', 'C'],
  ['software_acquired_u_s_195', 'S'],
  [
    'no_deduction_on_account_of_payment_made_to_person_referred_to_in_clause_iii_or_clause_iv_or_on_account_of_notification_issued_under_clause_v_for_section_194_n',
    'N',
  ],
  ['no_deduction_is_as_per_the_provisions_of_sub_section_2_a_of_section_194_lba', 'O'],
  ['no_deduction_or_lower_deduction_is_on_account_of_notification_issued_under_second_provison_to_section_194_n', 'M'],
  ['no_deduction_in_view_of_clause_a_or_clause_b_of_sub_section_1_d_of_section_197_a', 'G'],
  [
    'no_deduction_in_view_of_sub_section_2_of_section_196_d_in_respect_of_income_of_the_nature_of_capital_gains_on_transfer_of_securities_referred_to_in_section_115_ad_paid_or_payable_to_a_foreign_institutional_investor',
    'I',
  ],
  [
    'no_deduction_in_view_of_proviso_to_sub_section_1_a_of_section_196_d_in_respect_of_an_income_paid_to_a_specified_fund_which_is_exempt_under_clause_4_d_of_section_10',
    'H',
  ],
  [
    'deduction_of_tax_at_a_higher_rate_in_view_of_section_206_ab_for_non_filing_of_return_of_income_by_the_non_resident_having_a_permanent_establishment_in_india',
    'J',
  ],
  ['transaction_where_tax_not_been_deducted_as_amount_paid_to_vendor_party_has_not_exceeded_the_threshold_limit', 'Y'],
  ['lower_or_no_deduction_due_to_notification_issued_under_sub_section_1_f_of_section_197_a', 'Z'],
]);

const FORM144 = new Map<string, string | null>([
  ['lower_or_no_deduction_on_account_of_certificate_under_section_395_1_and_395_2', 'A'],
  ['deduction_at_higher_rate_under_section_397_2_due_to_non_furnishing_of_pan', 'C'],
  ['no_deduction_on_interest_paid_by_offshore_banking_unit_under_section_393_8', 'G'],
  ['no_deduction_under_section_393_4_on_income_paid_to_specified_fund_exempt_under_schedule_vi', 'H'],
  ['no_deduction_under_section_393_4_on_capital_gains_on_securities_under_section_210_paid_to_foreign_institutional_investor', 'I'],
  ['no_deduction_on_payment_to_person_referred_to_in_section_393_4_or_notification_under_fifth_proviso_to_section_194n', 'N'],
  ['distributed_income_referred_to_in_section_223_schedule_v_sl_no_3_b_b', 'O'],
  ['no_deduction_on_payment_below_threshold_limit_under_income_tax_act_2025', 'Y'],
  ['no_or_lower_deduction_on_account_of_notification_under_section_400_1', 'Z'],
]);

const FORM27EQ = new Map<string, string | null>([
  ['lower_collection_as_per_section_206c_9', 'A'],
  ['no_collection_on_account_of_form_27c', 'B'],
  ['collection_of_tax_at_a_higher_rate_due_to_non-availability_of_pan', 'C'],
  ['no_collection_on_account_of_the_first_proviso_to_sub-section_1g_of_section_206c', 'D'],
  ['no_collection_on_account_of_the_fourth_proviso_to_sub-section_1g_of_section_206c', 'E'],
  [
    'no_collection_on_account_clause_i_or_clause_ii_of_the_fifth_proviso_to_sub-section_1g_or_in_view_of_notification_issued_under_clause_ii',
    'F',
  ],
  [
    'no_collection_on_account_clause_i_or_clause_ii_of_the_fifth_proviso_to_sub-section_1g_ or_in_view_of_notification_issued_under_clause_ii',
    'F',
  ],
  ['no_collection_on_account_of_the_second_proviso_to_sub-section_ih_of_section_206c', 'G'],
  [
    'no_collection_on_account_of_sub-clause_a_or_sub-clause_b_or_sub-clause_c_or_in_view_of_notification_issued_under_sub-clause_c_of_clause_a_of_the_explanation',
    'H',
  ],
  ['collection_of_tax_at_a_higher_rate_in_view_of_section_206cca', 'I'],
]);

/** Form 143: our tokens for A/B/C (by analogy with legacy 27EQ); FVU 1.2 also knows F, K, Y, Z (FORMAT_NOTES.md §17). */
const FORM143 = new Map<string, string | null>([
  ['lower_collection_on_account_of_certificate_under_section_395', 'A'],
  ['no_collection_on_account_of_declaration', 'B'],
  ['collection_of_tax_at_higher_rate_due_to_non_availability_of_pan', 'C'],
]);

const TABLES: Readonly<Record<FormKind, Record<Family, ReadonlyMap<string, string | null>>>> = {
  salary: { legacy: FORM24Q, new: FORM138 },
  nonsalary: { legacy: FORM26Q, new: FORM140 },
  nonresident: { legacy: FORM27Q, new: FORM144 },
  tcs: { legacy: FORM27EQ, new: FORM143 },
};

export function reasonTable(kind: FormKind, family: Family): ReadonlyMap<string, string | null> {
  return TABLES[kind][family];
}

/** Remarks that mean nothing was deducted: the row's tax must be zero. */
const ZERO_TAX: Readonly<Record<FormKind, Record<Family, ReadonlySet<string>>>> = {
  salary: { legacy: new Set(['B']), new: new Set() },
  nonsalary: { legacy: new Set(['B', 'T', 'Y', 'S', 'E', 'O', 'P', 'Q', 'R']), new: new Set(['B', 'E', 'O', 'P', 'Q', 'S', 'T', 'Y']) },
  nonresident: { legacy: new Set(['B', 'S', 'G', 'H', 'I', 'Y']), new: new Set(['G', 'H', 'I', 'O', 'Y']) },
  tcs: { legacy: new Set(['B', 'D', 'E', 'F', 'G', 'H']), new: new Set(['B']) },
};

export function zeroTaxRemarks(kind: FormKind, family: Family): ReadonlySet<string> {
  return ZERO_TAX[kind][family];
}

/** Remarks that need the payee's real PAN (certificate, declaration, transporter, threshold). */
export const REMARKS_NEEDING_PAN = new Set(['A', 'B', 'T', 'Y']);

/** Section codes from..to (4 digits). */
const span = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
const sections = (...codes: Array<string | string[]>): ReadonlySet<string> => new Set(codes.flat());
/** Each letter with the sections it may go with. */
const limits = (entries: ReadonlyArray<readonly [string, ReadonlySet<string>]>): ReadonlyMap<string, ReadonlySet<string>> =>
  new Map(entries.flatMap(([letters, allowed]) => [...letters].map((letter) => [letter, allowed] as const)));

/**
 * New-form remarks and the sections FVU 1.2 accepts each with (its remark checks T_FV_6444-6448, FORMAT_NOTES.md
 * §17). Legacy forms: codes/remark-releases.ts (per FVU release).
 */
const FORM138_REMARK_SECTIONS = limits([['AC', sections('1001', '1002', '1003', '1032')]]);

const FORM140_REMARK_SECTIONS = limits([
  ['ACE', sections(['1004', '1005', '1006', '1008', '1009'], span(1011, 1024), span(1026, 1031), ['1033', '1034', '1035', '1037', '1038'], span(1058, 1067))],
  ['B', sections('1004', '1005', '1008', '1009', '1013', '1019', '1020', '1021', '1022', '1029', '1030')],
  ['DQ', sections('1020', '1021', '1022')],
  ['N', sections('1064', '1065')],
  ['O', sections('1015')],
  ['P', sections('1029')],
  ['S', sections('1031')],
  ['T', sections('1023', '1024')],
  ['Y', sections(['1004', '1005', '1006', '1012', '1013', '1019', '1020', '1021', '1022', '1023', '1024', '1026', '1027', '1029', '1030', '1031'], ['1033', '1034', '1035', '1037', '1038', '1058', '1059', '1062', '1063', '1066', '1067'])],
  ['Z', sections('1005', '1006', '1008', '1017', '1019', '1023', '1024', '1026', '1027', '1028', '1029', '1045', '1046')],
]);

const FORM144_REMARK_SECTIONS = limits([
  ['AC', sections(['1004'], span(1039, 1067))],
  ['GZ', sections('1057')],
  ['H', sections('1056')],
  ['I', sections('1055')],
  ['N', sections('1064', '1065')],
  ['O', sections('1046')],
  ['Y', sections('1004', '1058', '1059', '1062', '1063', '1066', '1067')],
]);

const FORM143_REMARK_SECTIONS = limits([
  ['AC', sections(span(1068, 1092))],
  ['B', sections(span(1068, 1074))],
  ['F', sections(span(1086, 1089))],
  ['KY', sections('1086', '1087')],
  ['Z', sections(span(1075, 1085))],
]);

const NEW_REMARK_SECTIONS: Readonly<Record<FormKind, ReadonlyMap<string, ReadonlySet<string>>>> = {
  salary: FORM138_REMARK_SECTIONS,
  nonsalary: FORM140_REMARK_SECTIONS,
  nonresident: FORM144_REMARK_SECTIONS,
  tcs: FORM143_REMARK_SECTIONS,
};

/** New-form remark section limits (legacy forms: remarkRules in remark-releases.ts). */
export function newFormRemarkSections(kind: FormKind): ReadonlyMap<string, ReadonlySet<string>> {
  return NEW_REMARK_SECTIONS[kind];
}
