// Code lists the layouts name (annexures), copied from the reference files so that the self-check does not
// lean on the engine's own token-to-code tables (src/codes/*). Each list names its source.

const range = (from: number, to: number, pad = 2): string[] => {
  const out: string[] = [];
  for (let i = from; i <= to; i++) out.push(String(i).padStart(pad, '0'));
  return out;
};

/** Deductee PAN placeholders (tds-txt-format.md §7). */
export const PAN_PLACEHOLDERS: readonly string[] = ['PANAPPLIED', 'PANINVALID', 'PANNOTAVBL'];

/** Annexure 1 state codes (tds-txt-format.md §6.4): 01-37, 08 unused. */
export const STATE_CODES: readonly string[] = range(1, 37).filter((c) => c !== '08');

/** Annexure 4 deductor categories (tds-txt-format.md §6.5). */
export const DEDUCTOR_CATEGORIES: readonly string[] = ['A', 'S', 'D', 'E', 'G', 'H', 'L', 'N', 'K', 'M', 'P', 'T', 'J', 'B', 'Q', 'F'];

/** Annexure 7 minor heads (tds-txt-format.md §6.6; 100 for in-kind sections, addendum §4.1). */
export const MINOR_HEADS: readonly string[] = ['100', '200', '400'];

export const QUARTERS: readonly string[] = ['Q1', 'Q2', 'Q3', 'Q4'];

/** Legacy 24Q section codes (tds-txt-format.md §6.1; 94P from FVU 7.2, addendum §3). */
export const SECTIONS_24Q: readonly string[] = ['92A', '92B', '92C', '94P'];

/** Legacy 26Q section codes, 26Q v7.8 (tds-txt-format.md §6.1). */
export const SECTIONS_26Q: readonly string[] = [
  '2AA', '193', '194', '94A', '94B', '4BP', '4BB', '9BA', '4AP', '94C', '94D', '4DA', '4EE', '94F', '94G', '94H', '4IA', '4IB',
  '9IA', '4IC', '4JA', '4JB', '94K', '94L', '4BA', 'BA1', 'BA2', 'LBB', 'LBC', '94N', '4NF', '4NC', '9FT', '94O', '94Q', '94R',
  '4RP', '94S', '4SP', '94T',
];

/** Legacy 27EQ collection codes: letters (tds-gaps.md §1.3, which corrects the 6CA... list of tds-txt-format.md §6.1). */
export const COLLECTION_CODES_27EQ: readonly string[] = [
  ...'ABCDEFGHIJKLMNOPQRT'.split(''),
  ...'ABCDEFGHIJ'.split('').map((l) => `M${l}`),
];

/** Form 138 section codes (tds-txt-format.md §6.1). */
export const SECTIONS_138: readonly string[] = ['1001', '1002', '1003', '1032'];

/** Form 140 Annexure 2 section codes (tds-txt-format.md §6.1). */
export const SECTIONS_140: readonly string[] = [
  '1004', '1005', '1006', '1008', '1009', '1011', '1012', '1013', '1014', '1015', '1016', '1017', '1018', '1019', '1020', '1021',
  '1022', '1023', '1024', '1026', '1027', '1028', '1029', '1030', '1031', '1033', '1034', '1035', '1037', '1038', '1058', '1059',
  '1060', '1061', '1062', '1063', '1064', '1065', '1066', '1067',
];

/** Form 144 section codes: 1004 and 1039-1067 (tds-txt-format.md §6.1, confirmed by tds-gaps.md §3.2). */
export const SECTIONS_144: readonly string[] = ['1004', ...range(1039, 1067, 4)];

/** Form 143 collection codes 1068-1092: the list FVU 1.2 accepts (T_FV_6453; tds-gaps.md §3.1 knew 1068-1088). */
export const COLLECTION_CODES_143: readonly string[] = range(1068, 1092, 4);

/** Remark (reason) letters per form: addendum §2 for the legacy forms, tds-txt-format.md §6.3 for the new ones. */
export const REMARKS = {
  '24Q': ['A', 'B', 'C'],
  '26Q': ['A', 'B', 'C', 'T', 'Y', 'S', 'Z', 'R', 'D', 'E', 'N', 'M', 'O', 'P', 'Q', 'U'],
  '27Q': ['A', 'B', 'C', 'S', 'N', 'M', 'O', 'G', 'I', 'H', 'J', 'Y', 'P'],
  '27EQ': ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'],
  '138': ['A', 'C'],
  '140': ['A', 'B', 'C', 'D', 'E', 'N', 'O', 'P', 'Q', 'S', 'T', 'Y', 'Z'],
  '144': ['A', 'C', 'G', 'H', 'I', 'N', 'O', 'Y', 'Z'],
  // Form 143: the letters FVU 1.2 accepts (T_FV_6448), each for some collection codes (FORMAT_NOTES.md §17).
  '143': ['A', 'B', 'C', 'F', 'K', 'Y', 'Z'],
} as const;

/** Legacy 27Q nature-of-remittance codes (tds-gaps.md §2.2). */
export const REMITTANCE_27Q: readonly string[] = ['16', '21', '27', '28', '31', '49', '52', '99'];

/**
 * Form 144 nature-of-remittance codes as FVU 1.2 accepts them (T_FV_6423): the legacy 27Q list without 31/52,
 * and 66-75. Sandbox's 01-19 (tds-gaps.md §3.2) are refused.
 */
export const REMITTANCE_144: readonly string[] = ['16', '21', '27', '28', '49', '66', '67', '68', '69', '70', '71', '72', '73', '74', '75', '99'];

/** Form 143/144 DD 12, deductee / collectee code: 1-10 (FVU 1.2 T_FV_6416/6417; Sandbox master data "Deductee type"). */
export const DEDUCTEE_CODES_NEW: readonly string[] = range(1, 10, 1);

/** Form 144 DD 17, country to which remittance is made: 1-286 (FVU 1.2 T_FV_6426); we write 01-09 with their zero. */
export const COUNTRY_CODES_144: readonly string[] = range(1, 286);

/** DD 8: one digit, 1 company, 2 other (FVU 9.4 T-FV-4056 refuses `01`/`02`). */
export const DEDUCTEE_CODES: readonly string[] = ['1', '2'];
/** 27Q / 27EQ from FY 2023-24: the vendor's ten deductee types, checked against the PAN by FVU 9.4 (T-FV-4056). */
export const DEDUCTEE_CODES_27: readonly string[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];

/** Salary employee category, SD field 10 (tds-txt-format.md §4.5, UNVERIFIED). */
export const EMPLOYEE_CATEGORIES: readonly string[] = ['G', 'W', 'S', 'O'];

/** S16 section ids (tds-txt-format.md §4.5). */
export const SECTION_16_IDS: readonly string[] = ['16(ia)', '16(ii)', '16(iii)'];

/** C6A section ids seen (tds-txt-format.md §4.5). */
export const CHAPTER_6A_IDS: readonly string[] = ['80C', '80CCC', '80CCD(1)', '80CCD(1B)', '80CCD(2)', '80CCH', '80CCH(1)', '80D', '80E', '80G', '80TTA', 'OTHERS'];
