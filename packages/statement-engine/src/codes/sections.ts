// nature_of_payment tokens -> the section / collection code written in DD field 33 (legacy) or 15 (new).
// A null code means the token is known but its FVU code is not confirmed by any source: the engine refuses
// the row (SECTION_CODE_UNKNOWN) rather than guess. See FORMAT_NOTES.md "Section codes".

import type { FormKind } from '../forms.js';
import type { Family } from '../period.js';

/** Form 140 splits contractors by payee type: 1023 individual/HUF, 1024 others. */
export interface PayeeTypeSplit {
  individualOrHuf: string;
  other: string;
}

export type SectionCode = string | PayeeTypeSplit | null;

const CONTRACT_TOKENS = [
  'tender_fees',
  'sales_and_marketing_services',
  'telecasting_services',
  'charter_hire_charges_shipping',
  'advertisement_fee',
  'amc_charges',
  'bandwidth_charges',
  'cargo_handling_services_inspection_and_logistics_services',
  'clearing_and_forwarding_charges',
  'fabrication_services',
  'freight_charges',
  'income_from_shipping_inland_waterways_or_air_transport',
  'sponsorship_fees',
  'retention_fees',
  'installation_and_commissioning_services',
  'warranty_services',
  'drilling',
];

const PROFESSIONAL_TOKENS = [
  'consulting_services',
  'licensing_fee',
  'payments_to_students_or_business_apprentice',
  'professional_services',
  'r_&_d_charges',
  'supervision_charges',
  'training',
  'architectural_services',
  'designing_fee',
  'engineering_services',
  'payments_to_sports_person_and_artists',
  'processing_charges_paid_to_others',
  'retainership_fees',
  'subscription_fees_other_than_membership_fees_or_sale_of_goods',
];

const TECHNICAL_TOKENS = ['fees_for_technical_service', 'royalty', 'seismic_data_processing', 'testing_charges'];
const GOODS_TOKENS = ['software_licences', 'payment_of_certain_sums_for_purchase_of_goods', 'purchase_of_software'];

/** Form 140 (vendor master data, published 7 July 2026). */
function form140(): Map<string, SectionCode> {
  const m = new Map<string, SectionCode>([
    ['payment_of_accumulated_balance_of_provident_fund', '1004'],
    ['insurance_commission', '1005'],
    ['other_commissions', '1006'],
    ['equipment_rental_charges', '1008'],
    ['lease_and_rental_payment', '1009'],
    ['payment_for_development_agreement', '1011'],
    ['payment_for_compulsory_acquisition_of_immovable_properties', '1012'],
    ['payment_for_repurchase_of_units_by_uti_or_mf', '1013'],
    ['dividend_from_mutual_funds', '1013'],
    ['interest_payment_from_units_of_a_business_trust', '1014'],
    ['dividend_payment_from_units_of_a_business_trust', '1015'],
    ['income_in_respect_of_units_of_investment_fund', '1017'],
    ['income_in_respect_of_investment_in_securitization_trust', '1018'],
    ['interest_on_securities', '1019'],
    ['interest_on_debentures_paid_by_cheque', '1019'],
    ['interest_from_bank_deposits_for_senior_citizen', '1020'],
    ['interest_from_bank_deposits', '1021'],
    ['other_interest', '1022'],
    ['directors_fees', '1028'],
    ['dividend', '1029'],
    ['payment_in_respect_of_life_insurance_policy', '1030'],
    ['prequisites_or_benefits_allowed_to_distributors_or_agents', '1033'],
    [
      'benefits_or_perquisites_of_business_or_profession_where_such_benefit_is_provided_in_kind_or_where_part_in_cash_is_not_sufficient_to_meet_tax_liability_and_tax_required_to_be_deducted_is_paid_before_such_benefit_is_released',
      '1034',
    ],
    ['payment_for_e-commerce_transactions', '1035'],
    ['payment_for_transfer_of_virtual_digital_assets', '1037'],
    [
      'payment_for_transfer_of_virtual_digital_asset_where_payment_is_in_kind_or_in_exchange_of_another_virtual_digital_asset_and_tax_required_to_be_deducted_is_paid_before_such_payment_is_released',
      '1038',
    ],
    ['winning_from_lotteries_crossword_puzzles_card_games_and_other_games_of_any_sort', '1058'],
    [
      'winnings_from_lottery_and_other_games_of_any_sort_where_winnings_are_made_in_kind_or_cash_is_not_sufficient_to_meet_the_tax_liability_and_tax_has_been_paid_before_said_winnings_are_released',
      '1059',
    ],
    ['winnings_from_online_games', '1060'],
    [
      'net_winnings_from_online_games_where_the_net_winnings_are_made_in_kind_or_cash_is_not_sufficient_to_meet_the_tax_liability_and_tax_has_been_paid_before_said_winnings_are_released',
      '1061',
    ],
    ['winning_from_horse_races', '1062'],
    ['commission_on_sale_of_lottery_tickets', '1063'],
    ['cash_withdrawal_by_co_operative_societies_being_non_filers', '1064'],
    ['cash_withdrawal_by_co_operative_societies', '1064'],
    ['cash_withdrawal', '1065'],
    ['cash_withdrawal_by_non_filers', '1065'],
    ['withdrawal_from_nss_deposit', '1066'],
    ['payment_of_salary_remuneration_commission_bonus_or_interest_to_a_partner_of_the_firm', '1067'],
  ]);
  for (const t of CONTRACT_TOKENS) m.set(t, { individualOrHuf: '1023', other: '1024' });
  for (const t of TECHNICAL_TOKENS) m.set(t, '1026');
  for (const t of PROFESSIONAL_TOKENS) m.set(t, '1027');
  for (const t of GOODS_TOKENS) m.set(t, '1031');
  return m;
}

/** Legacy 26Q: the same tokens, each mapped to the old section's 3-character code (26Q v7.8 Annexure 2). */
function form26q(): Map<string, SectionCode> {
  const m = new Map<string, SectionCode>([
    ['interest_on_securities', '193'],
    ['interest_on_debentures_paid_by_cheque', '193'],
    ['dividend', '194'],
    ['other_interest', '94A'],
    ['interest_from_bank_deposits', '94A'],
    ['interest_from_bank_deposits_for_senior_citizen', '94A'],
    ['winning_from_lotteries_crossword_puzzles_card_games_and_other_games_of_any_sort', '94B'],
    [
      'winnings_from_lottery_and_other_games_of_any_sort_where_winnings_are_made_in_kind_or_cash_is_not_sufficient_to_meet_the_tax_liability_and_tax_has_been_paid_before_said_winnings_are_released',
      '4BP',
    ],
    ['winning_from_horse_races', '4BB'],
    ['cash_withdrawal', '94N'],
    ['cash_withdrawal_by_non_filers', '4NF'],
    ['cash_withdrawal_by_co_operative_societies', '4NC'],
    ['cash_withdrawal_by_co_operative_societies_being_non_filers', '9FT'],
    ['insurance_commission', '94D'],
    ['withdrawal_from_nss_deposit', '4EE'],
    ['payment_for_repurchase_of_units_by_uti_or_mf', '94F'],
    ['commission_on_sale_of_lottery_tickets', '94G'],
    ['other_commissions', '94H'],
    ['equipment_rental_charges', '4IA'],
    ['lease_and_rental_payment', '4IB'],
    ['payment_for_compulsory_acquisition_of_immovable_properties', '94L'],
    ['payment_in_respect_of_life_insurance_policy', '4DA'],
    ['payment_of_accumulated_balance_of_provident_fund', '2AA'],
    ['income_in_respect_of_units_of_investment_fund', 'LBB'],
    ['sale_of_immovable_property', '9IA'],
    ['income_in_respect_of_investment_in_securitization_trust', 'LBC'],
    ['payment_for_development_agreement', '4IC'],
    ['dividend_from_mutual_funds', '94K'],
    ['directors_fees', '4JB'],
    ['interest_payment_from_units_of_a_business_trust', 'BA1'],
    ['dividend_payment_from_units_of_a_business_trust', 'BA2'],
    ['payment_for_e-commerce_transactions', '94O'],
    ['payment_for_transfer_of_virtual_digital_assets', '94S'],
    [
      'payment_for_transfer_of_virtual_digital_asset_where_payment_is_in_kind_or_in_exchange_of_another_virtual_digital_asset_and_tax_required_to_be_deducted_is_paid_before_such_payment_is_released',
      '4SP',
    ],
    ['prequisites_or_benefits_allowed_to_distributors_or_agents', '94R'],
    [
      'benefits_or_perquisites_of_business_or_profession_where_such_benefit_is_provided_in_kind_or_where_part_in_cash_is_not_sufficient_to_meet_tax_liability_and_tax_required_to_be_deducted_is_paid_before_such_benefit_is_released',
      '4RP',
    ],
    ['winnings_from_online_games', '9BA'],
    [
      'net_winnings_from_online_games_where_the_net_winnings_are_made_in_kind_or_cash_is_not_sufficient_to_meet_the_tax_liability_and_tax_has_been_paid_before_said_winnings_are_released',
      '4AP',
    ],
    ['payment_of_salary_remuneration_commission_bonus_or_interest_to_a_partner_of_the_firm', '94T'],
  ]);
  for (const t of CONTRACT_TOKENS) m.set(t, '94C');
  for (const t of TECHNICAL_TOKENS) m.set(t, '4JA');
  for (const t of PROFESSIONAL_TOKENS) m.set(t, '4JB');
  for (const t of GOODS_TOKENS) m.set(t, '94Q');
  return m;
}

/** Legacy 24Q (Annexure 2 of the salary format). */
const FORM24Q = new Map<string, SectionCode>([
  ['payout_to_government_employees', '92A'],
  ['payout_to_employees', '92B'],
  ['payout_to_union_government_employees', '92C'],
  ['deduction_for_specified_senior_citizens', '94P'],
]);

/** Form 138 (vendor master data). */
const FORM138 = new Map<string, SectionCode>([
  ['payments_made_to_government_employees_other_than_union_government_employees', '1001'],
  ['payments_made_to_employees_other_than_government_employees', '1002'],
  ['payments_made_to_union_government_employees', '1003'],
  ['deduction_of_tax_in_case_of_specified_senior_citizens', '1032'],
]);

/** Legacy 27Q. The 27Q list is the least certain (see FORMAT_NOTES.md); 194LC variants, 194LBA(c) rent and
 *  196D(1A) have no confirmed 3-character code and are refused. */
const FORM27Q = new Map<string, SectionCode>([
  ['participation_in_games_by_sportsmen', '94E'],
  ['advertisement_by_sportsmen', '94E'],
  ['any_performance_in_india_by_sportsmen', '94E'],
  ['contribution_of_articles_relating_to_any_game_or_sport_in_india', '94E'],
  ['any_other_sum_payable_to_non_resident', '195'],
  ['ltcg_referred_to_in_section_112_1_c_iii_or_112a', '195'],
  ['ltcg_other_than_referred_to_in_section_112_1_c_iii_or_112a', '195'],
  ['stcg_from_shares_and_securities_referred_to_in_section_111a', '195'],
  ['income_from_the_investment_made_by_nri_citizen', '195'],
  ['income_by_way_of_interest', '195'],
  ['income_by_way_of_royalty', '195'],
  ['fees_for_technical_service', '195'],
  ['income_by_way_of_interest_other_than_referred_in_section_194lb_or_section_194lc', '195'],
  ['payments_in_respect_of_units_to_an_offshore_fund', '96B'],
  ['income_from_foreign_currency_bonds_or_shares_of_indian_company_payable_to_non_resident', '96C'],
  ['income_of_foreign_institutional_investors_from_securities', '96D'],
  ['interest_payment_on_infrastructure_debt_fund', '4LB'],
  ['interest_payment_from_indian_company_or_business_trust', null],
  ['interest_payment_from_indian_company_or_business_trust_before_01_07_2023', null],
  ['interest_payment_from_indian_company_or_business_trust_after_01_07_2023', null],
  ['income_by_way_of_interest_from_bonds', '4LD'],
  ['interest_payment_on_bonds_and_government_securities', '4LD'],
  ['payment_of_accumulated_balance_of_provident_fund', '2AA'],
  ['certain_incomes_from_units_of_business_trust', '4BA'],
  ['income_in_respect_of_units_of_investment_fund', 'LBB'],
  ['income_in_respect_of_investment_in_securitization_trust', 'LBC'],
  ['cash_withdrawal', '94N'],
  ['interest_payment_from_units_of_a_business_trust', 'BA1'],
  ['dividend_payment_from_units_of_a_business_trust', 'BA2'],
  ['rental_income_from_units_of_a_business_trust', null],
  ['cash_withdrawal_by_non_filers', '4NF'],
  ['income_of_specified_fund_from_securities_referred_to_in_clause_a_of_sub_section_1_of_section_115_ad', null],
  ['winning_from_lotteries_crossword_puzzles_card_games_and_other_games_of_any_sort', '94B'],
  [
    'winnings_from_lottery_and_other_games_of_any_sort_where_winnings_are_made_in_kind_or_cash_is_not_sufficient_to_meet_the_tax_liability_and_tax_has_been_paid_before_said_winnings_are_released',
    '4BP',
  ],
  ['winnings_from_online_games', '9BA'],
  [
    'net_winnings_from_online_games_where_the_net_winnings_are_made_in_kind_or_cash_is_not_sufficient_to_meet_the_tax_liability_and_tax_has_been_paid_before_said_winnings_are_released',
    '4AP',
  ],
  ['winning_from_horse_races', '4BB'],
  ['cash_withdrawal_by_co_operative_societies', '4NC'],
  ['cash_withdrawal_by_co_operative_societies_being_non_filers', '9FT'],
]);

/** Form 144 (vendor master data). */
const FORM144 = new Map<string, SectionCode>([
  ['accumulated_balance_due_to_an_employee', '1004'],
  ['income_referred_to_in_section_211', '1039'],
  ['interest_on_monies_borrowed_in_foreign_currency_under_loan_agreement_or_long_term_bonds_before_1_july_2023', '1040'],
  ['interest_on_monies_borrowed_by_way_of_rupee_denominated_bond_before_1_july_2023', '1041'],
  ['interest_on_long_term_or_rupee_denominated_bond_listed_on_ifsc_exchange_issued_before_1_july_2023', '1042'],
  ['interest_on_long_term_or_rupee_denominated_bond_listed_on_ifsc_exchange_issued_on_or_after_1_july_2023', '1043'],
  ['interest_from_infrastructure_debt_fund_payable_to_non_resident', '1044'],
  ['distributed_income_referred_to_in_section_223_schedule_v_sl_no_3_b_a', '1045'],
  ['distributed_income_referred_to_in_section_223_schedule_v_sl_no_3_b_b', '1046'],
  ['distributed_income_referred_to_in_section_223_schedule_v_sl_no_4', '1047'],
  ['income_in_respect_of_units_of_investment_fund_specified_in_section_224', '1048'],
  ['income_in_respect_of_investment_in_securitisation_trust_specified_in_section_221', '1049'],
  ['income_in_respect_of_units_of_mutual_fund_or_from_specified_company', '1050'],
  ['income_in_respect_of_units_referred_to_in_section_208', '1051'],
  ['long_term_capital_gains_from_transfer_of_units_referred_to_in_section_208', '1052'],
  ['interest_or_dividends_on_bonds_or_global_depository_receipts_referred_to_in_section_209', '1053'],
  ['long_term_capital_gains_from_transfer_of_bonds_or_global_depository_receipts_referred_to_in_section_209', '1054'],
  ['income_in_respect_of_securities_referred_to_in_section_210_1_table_sl_no_15', '1055'],
  ['income_in_respect_of_securities_referred_to_in_section_210_1_table_sl_no_16', '1056'],
  ['any_other_interest_or_sum_chargeable_not_being_salaries', '1057'],
  ['winnings_from_lottery_crossword_puzzle_card_game_gambling_or_betting', '1058'],
  ['winnings_from_lottery_crossword_puzzle_card_game_gambling_or_betting_in_kind', '1059'],
  ['winnings_from_online_games', '1060'],
  ['winnings_from_online_games_in_kind', '1061'],
  ['winnings_from_horse_race', '1062'],
  ['commission_remuneration_or_prize_on_lottery_tickets', '1063'],
  ['cash_payments_to_co_operative_society_under_section_393_3', '1064'],
  ['cash_payments_to_person_other_than_co_operative_society_under_section_393_3', '1065'],
  ['amount_referred_to_in_section_80cca_2_a_of_income_tax_act_1961', '1066'],
  ['salary_remuneration_commission_bonus_or_interest_paid_to_partner_of_firm', '1067'],
]);

/** s.206C(1F) notified goods (Notification 36/2025), in notification order: legacy MA..MJ, Form 143 1076..1085. */
const NOTIFIED_GOODS = [
  'wrist_watch',
  'art_piece',
  'collectibles',
  'yacht_rowing_boat_canoe_or_helicopter',
  'sunglasses',
  'bag',
  'shoes',
  'sportswear_and_sports_equipment',
  'home_theatre_system',
  'horse_for_horse_racing_or_polo',
];

/** Legacy 27EQ collection codes are single letters (tds-gaps §1.3), not 6CA..6CT. Bullion tokens that the
 *  vendor marks '-' have no code. */
function form27eq(): Map<string, SectionCode> {
  const m = new Map<string, SectionCode>([
    ['liquour_for_human_consumption', 'A'],
    ['liquor_for_human_consumption', 'A'],
    ['sale_of_timber_from_forest_lease', 'B'],
    ['sale_of_timber_without_forest_lease', 'C'],
    ['forest_produce_not_being_timber_or_tendu_leaves', 'D'],
    ['scrap', 'E'],
    ['lease_or_contract_or_license_for_parking_lot', 'F'],
    ['lease_or_contract_or_license_for_toll_plaza', 'G'],
    ['lease_or_contract_or_license_for_mining_and_quarrying', 'H'],
    ['sale_of_tendu_leaves', 'I'],
    ['sale_of_coal', 'J'],
    ['sale_of_lignite', 'J'],
    ['sale_of_iron_ore', 'J'],
    ['cash_sale_of_bullion_and_jewellery', 'K'],
    ['sale_of_motor_vehicle', 'L'],
    ['cash_sale_of_goods', 'M'],
    ['cash_sale_of_any_goods_other_than_bullion_or_jewellery', 'M'],
    ['providing_any_services_other_than_ch_xvii_b', 'N'],
    ['foreign_flight_tickets', 'O'],
    ['international_hotel_bookings', 'O'],
    ['foreign_travel_expenses', 'O'],
    ['remittance_for_foreign_education_through_loan', 'P'],
    ['remittance_for_foreign_education_or_medical_treatment', 'Q'],
    ['sale_of_goods', 'R'],
    ['foreign_remittance_for_other_purposes', 'T'],
    ['bullion_coins', null],
    ['bullion_bars', null],
    ['bullion_ingots', null],
    ['sale_of_jewellery', null],
  ]);
  NOTIFIED_GOODS.forEach((t, i) => m.set(t, `M${String.fromCharCode(65 + i)}`));
  return m;
}

/** Form 143: our own token names for the 4-digit codes a public code file cites from Protean's v1.1 workbook.
 *  1072, 1086, 1087 and parking/toll/mining are not known and have no token. */
function form143(): Map<string, SectionCode> {
  const m = new Map<string, SectionCode>([
    ['liquor_for_human_consumption', '1068'],
    ['sale_of_tendu_leaves', '1069'],
    ['sale_of_timber_from_forest_lease', '1070'],
    ['sale_of_timber_without_forest_lease', '1071'],
    ['scrap', '1073'],
    ['sale_of_coal_lignite_or_iron_ore', '1074'],
    ['sale_of_motor_vehicle', '1075'],
    ['overseas_tour_programme_package', '1088'],
  ]);
  NOTIFIED_GOODS.forEach((t, i) => m.set(t, String(1076 + i)));
  return m;
}

const TABLES: Readonly<Record<FormKind, Record<Family, ReadonlyMap<string, SectionCode>>>> = {
  salary: { legacy: FORM24Q, new: FORM138 },
  nonsalary: { legacy: form26q(), new: form140() },
  nonresident: { legacy: FORM27Q, new: FORM144 },
  tcs: { legacy: form27eq(), new: form143() },
};

export function sectionTable(kind: FormKind, family: Family): ReadonlyMap<string, SectionCode> {
  return TABLES[kind][family];
}

/** Sections whose rows may carry the s.194N / s.393(3) cash-withdrawal amounts. */
export const CASH_WITHDRAWAL_SECTIONS = new Set(['94N', '4NF', '4NC', '9FT', '1064', '1065']);

/** Legacy 24Q section code of s.194P (specified senior citizens), FVU 7.2, FY 2021-22 on (addendum §3). */
export const SECTION_194P = '94P';
/** First financial year of s.194P (FVU 7.2 added the code for FY 2021-22 on). */
export const FIRST_194P_YEAR = 2021;
/** Employee categories (SD field 10 letters) a specified senior citizen (75 or older) can be in. */
export const SENIOR_CATEGORIES: ReadonlySet<string> = new Set(['S', 'O']);

/**
 * In-kind sections of the new forms (tax paid before the benefit or winnings are released). CONFLICT
 * (addendum §4.1): the Form 140 v1.0 workbook's field remarks (CD 13, DD 8, DD 24, DD 25, DD 28) list
 * IN_KIND_WORKBOOK_LIST literally; its own Annexure 2 marks the "Note 6" / "Note 2" (paid-in-kind) variants
 * 1034, 1038, 1059, 1061, and 1033 / 1037 are the ordinary cash codes of 393(1) Sl.8(iv) / 8(vi) (vendor
 * master data agrees). We follow Annexure 2; to follow the field remarks instead, use IN_KIND_WORKBOOK_LIST.
 */
export const IN_KIND_ANNEXURE_2 = ['1034', '1038', '1059', '1061'] as const;
export const IN_KIND_WORKBOOK_LIST = ['1059', '1033', '1037', '1038', '1061'] as const;
export const IN_KIND_SECTIONS: ReadonlySet<string> = new Set<string>(IN_KIND_ANNEXURE_2);
/** The codes the two lists disagree on: their rows get the warning IN_KIND_LIST_UNSETTLED until FVU 1.2 settles it. */
export const IN_KIND_LIST_UNSETTLED_SECTIONS: ReadonlySet<string> = new Set(['1033', '1034', '1037']);

/** New-form sections whose deductee must have a real PAN (reference §4.4, field 8): both lists. */
export const PAN_MANDATORY_SECTIONS: ReadonlySet<string> = new Set<string>([...IN_KIND_ANNEXURE_2, ...IN_KIND_WORKBOOK_LIST]);

/**
 * New forms, DD 22 (cash withdrawal above Rs 1 crore, persons other than co-operative societies) and DD 23
 * (above Rs 3 crore, co-operative societies): the section each column belongs to, in the workbook's column
 * order. CONFLICT (addendum §4.2): the v1.0 remark under both says "only when section is 1064"; the titles
 * point 22 to 1065 (other persons) and 23 to 1064 (co-operative societies), as Annexure 2 names the codes.
 * We follow the titles. Literal v1.0 reading: [['1064'], ['1064']].
 */
export const NEW_CASH_COLUMN_SECTIONS: ReadonlyArray<readonly string[]> = [['1065'], ['1064']];
