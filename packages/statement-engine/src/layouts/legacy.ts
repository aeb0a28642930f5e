// Legacy family (Income-tax Act 1961 forms, up to FY 2025-26): 24Q Q1-Q3 v6.3, 24Q Q4 v7.5, 26Q v7.8, 27Q v7.5,
// 27EQ v6.9 (all dated 27-May-2025), validated by FVU 9.5 / RPU 6.0 (tds-txt-format.md §1).
//
// The legacy tables in tds-txt-format.md name every field by position but give types, sizes and M/O only for
// some; where a legacy field means the same as a Form 140 v1.0 field, its type and size are the Form 140 ones
// (the same workbook lineage), and the note says so.

import {
  PAN_PLACEHOLDERS, CHAPTER_6A_IDS, COLLECTION_CODES_27EQ, DEDUCTEE_CODES, DEDUCTEE_CODES_27, DEDUCTOR_CATEGORIES, EMPLOYEE_CATEGORIES, MINOR_HEADS, QUARTERS, REMARKS,
  REMITTANCE_27Q, SECTION_16_IDS, SECTIONS_24Q, SECTIONS_26Q, STATE_CODES,
} from './code-lists.js';
import { fileHeader } from './file-header.js';
import { field as f, layout, na, naRange, YES_NO, type FieldSpec, type LayoutVersion } from './types.js';

const VERSION = '24Q v6.3, 24Q Q4 v7.5, 26Q v7.8, 27Q v7.5, 27EQ v6.9 (27-May-2025); FVU 9.5';
const FORMS = ['24Q', '26Q', '27Q', '27EQ'] as const;
const amount = (n: number, name: string, presence: FieldSpec['presence'] = 'M', extra: Partial<FieldSpec> = {}) => f(n, name, 'AMOUNT', 15, presence, extra);
const whole = (n: number, name: string) => amount(n, name, 'M', { whole: true });
/** A CD field a C5 batch leaves empty: its challan only locates the rows whose PAN is updated (the FVU code it gives otherwise). */
const emptyInC5 = (code: string): Partial<FieldSpec> => ({ correction: { presence: 'O', note: `empty in a C5 batch (FVU ${code})` } });
/** CD 29-33 in a correction: what the batch's rows change, Σ (new − last), so negative when tax goes down (FVU T-FV-3091/3092). */
const rowDelta = (code: string): Partial<FieldSpec> => ({ correction: { presence: 'O', signed: true, note: `Σ (new − last) over the batch's rows (T-FV-3091, T-FV-3092); empty in a C5 batch (FVU ${code})` } });
/** CD 22-26, the challan's amounts as booked in OLTAS: a correction leaves them empty when the challan updation indicator is 0. */
const oltas = (n: number, name: string, code: string) => amount(n, name, 'M', { whole: true, correction: { presence: 'O', note: `empty when the challan updation indicator is 0 (FVU ${code})` } });
/** BH 6 in a correction (tds-corrections.md §1.2): Y (cancellation) is no longer accepted at TIN and is not listed. */
const CORRECTION_TYPES: readonly string[] = ['C1', 'C2', 'C3', 'C4', 'C5', 'C9'];

/**
 * BH deductor and responsible-person details (15, 19-46, 54-69; not AY, FY and period) in a correction: filled for C1 and, with batch
 * updation indicator 1, for C2/C3; left blank for C5 and C9 (JDE "Correction Format Info", tds-corrections.md
 * §2.2). The table marks them O in a correction; the correction writer fills them exactly when it should.
 * Field 52 is left empty in corrections (EY).
 */
function correctionDetails(spec: FieldSpec): FieldSpec {
  const details = (spec.n === 15 || (spec.n >= 19 && spec.n <= 46) || (spec.n >= 54 && spec.n <= 69) || spec.n === 52);
  if (!details || spec.presence === 'NA' || spec.correction) return spec;
  if (BH_IN_EVERY_BATCH[spec.n]) return { ...spec, correction: { presence: 'M', note: `in every batch, also when the details are not updated (FVU ${BH_IN_EVERY_BATCH[spec.n]}; FORMAT_NOTES.md §15)` } };
  return { ...spec, correction: { presence: 'O', note: 'only in the batch that updates the deductor details (C1, or C2/C3 with batch updation indicator 1); the FVU refuses them elsewhere (T-FV-2141, 2146, 2102-2122, 2078, 2201, 2075: FORMAT_NOTES.md §15)' } };
}

/** Deductor fields the FVU wants in every correction batch, with the code it gives when one is empty. */
const BH_IN_EVERY_BATCH: Readonly<Record<number, string>> = { 19: 'T-FV-2101', 26: 'T-FV-2082', 32: 'T-FV-2077', 59: 'T-FV-2235' };

const BH = layout({
  family: 'legacy',
  recordType: 'BH',
  version: VERSION,
  source: 'tds-txt-format.md §4.2 "Legacy BH" (names by position) with the Form 140 table for types and sizes; §5 for fields 49/50/70/71; tds-rules-addendum.md §8 for fields 9/52',
  forms: FORMS,
  numbering: { serial: 3, counts: [{ field: 4, child: 'CD' }, { field: 49, child: 'SD' }, { field: 70, child: '94P' }] },
  count: 72,
  fields: ([
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['BH'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Count of Challan/transfer voucher Records', 'INT', 9, 'M', { correction: { presence: 'O', note: 'empty in a C1 batch (FVU T-FV-2131)' } }),
    f(5, 'Form Number', 'CHAR', 4, 'M', { values: { other: undefined, '24Q': ['24Q'], '26Q': ['26Q'], '27Q': ['27Q'], '27EQ': ['27EQ'] } }),
    { ...na(6, 'Transaction Type'), correction: { type: 'CHAR', width: 2, presence: 'M', values: CORRECTION_TYPES, note: 'C1 C2 C3 C5 C9 (C4 and Y are refused: FORMAT_NOTES.md §15); tds-corrections.md §1.2, §2.2' } },
    { ...na(7, 'Batch Updation Indicator'), correction: { type: 'CHAR', width: 1, presence: 'O', values: ['0', '1'], note: '1 when the deductor details (other than TAN) change (JDE; EY; Oracle EBS), tds-corrections.md §2.2' } },
    { ...na(8, 'Original Token Number'), correction: { type: 'INT', width: 15, exact: true, presence: 'M', note: 'token (RRR) of the regular statement, tds-corrections.md §1.4' } },
    f(9, 'Token no. of previous regular statement', 'INT', 15, 'O', {
      exact: true,
      note: 'mandatory when field 52 = Y (addendum §8)',
      correction: { presence: 'M', note: 'Previous RRR: the regular statement\'s token for the first correction, else the last accepted correction\'s (tds-corrections.md §1.4)' },
    }),
    na(10, 'Token Number of statement submitted'),
    na(11, 'Token Number date'),
    { ...na(12, 'Last TAN of Deductor'), correction: { type: 'CHAR', width: 10, presence: 'M', format: 'TAN', note: 'the TAN as in the regular statement accepted at TIN (JDE), tds-corrections.md §1.3' } },
    f(13, 'TAN of Deductor', 'CHAR', 10, 'M', { format: 'TAN', correction: { presence: 'O', note: 'empty in a C5 batch (FVU T-FV-2073)' } }),
    na(14, 'Receipt number provided by TIN'),
    f(15, 'PAN of Deductor', 'CHAR', 10, 'M', { format: 'PAN', values: ['PANNOTREQD'], note: 'a PAN or PANNOTREQD' }),
    f(16, 'Assessment Year', 'INT', 6, 'M', { exact: true }),
    f(17, 'Financial Year', 'INT', 6, 'M', { exact: true }),
    f(18, 'Period', 'CHAR', 2, 'M', { values: QUARTERS }),
    f(19, 'Name of Deductor', 'CHAR', 75, 'M'),
    f(20, 'Deductor Branch/Division', 'CHAR', 75, 'O', { note: 'size not in the sources: 75 as the name' }),
    f(21, 'Deductor Address1', 'CHAR', 25, 'M'),
    f(22, 'Deductor Address2', 'CHAR', 25, 'O'),
    f(23, 'Deductor Address3', 'CHAR', 25, 'O'),
    f(24, 'Deductor Address4', 'CHAR', 25, 'O'),
    f(25, 'Deductor Address5', 'CHAR', 25, 'O'),
    f(26, 'Deductor State', 'INT', 2, 'M', { values: STATE_CODES }),
    f(27, 'Deductor Pincode', 'INT', 6, 'M', { exact: true }),
    f(28, 'Deductor Email', 'CHAR', 75, 'O', { note: 'mandatory if field 42 is empty' }),
    f(29, 'Deductor STD code', 'INT', 5, 'O', { note: 'M/O not in the sources' }),
    f(30, 'Deductor Telephone', 'INT', 10, 'O', { note: 'M/O not in the sources' }),
    f(31, 'Change of address of Deductor since last return', 'CHAR', 1, 'M', { values: YES_NO }),
    f(32, 'Deductor Type', 'CHAR', 1, 'M', { values: DEDUCTOR_CATEGORIES }),
    f(33, 'Name of Person responsible for Deduction', 'CHAR', 75, 'M'),
    f(34, 'Designation of the Person responsible for Deduction', 'CHAR', 20, 'M'),
    f(35, 'Responsible Person Address1', 'CHAR', 25, 'M'),
    f(36, 'Responsible Person Address2', 'CHAR', 25, 'O'),
    f(37, 'Responsible Person Address3', 'CHAR', 25, 'O'),
    f(38, 'Responsible Person Address4', 'CHAR', 25, 'O'),
    f(39, 'Responsible Person Address5', 'CHAR', 25, 'O'),
    f(40, 'Responsible Person State', 'INT', 2, 'M', { values: STATE_CODES }),
    f(41, 'Responsible Person PIN', 'INT', 6, 'M', { exact: true }),
    f(42, 'Responsible Person Email ID-1', 'CHAR', 75, 'O', { note: 'mandatory if field 28 is empty' }),
    f(43, 'Mobile number', 'INT', 10, 'O', { note: 'legacy: responsible person mobile, 10 digits (tds-txt-format.md §4.2); M/O not in the sources' }),
    f(44, 'Responsible Person STD Code', 'INT', 5, 'O'),
    f(45, 'Responsible Person Telephone', 'INT', 10, 'O'),
    f(46, 'Change of address of Responsible person since last Return', 'CHAR', 1, 'M', { values: YES_NO }),
    amount(47, 'Batch Total of Total of Deposit Amount as per Challan', 'M', { whole: true, correction: { presence: 'O', note: 'empty in C1 and C5 batches (FVU T-FV-2134); else the sum over the batch\'s challans (T-FV-2096)' } }),
    f(48, 'Unmatched challan count', 'INT', 9, 'O'),
    f(49, 'Count of Salary Details Records', 'INT', 9, { other: 'NA', '24Q': 'M' }, { note: '24Q: 0 in Q1-Q3, the SD count in Q4 (§5)' }),
    amount(50, 'Batch Total of Gross Total Income as per Salary Detail', { other: 'NA', '24Q': 'O' }, { note: '24Q Q4 only' }),
    f(51, 'AO Approval', 'CHAR', 1, 'M', { values: YES_NO }),
    f(52, 'Whether regular statement for Form filed for earlier period', 'CHAR', 1, 'M', { values: YES_NO }),
    { ...na(53, 'Last Deductor Type'), correction: { type: 'CHAR', width: 1, presence: 'O', values: DEDUCTOR_CATEGORIES, note: 'deductor category in the last accepted statement (JDE; Oracle EBS LAST_EMPLOYER_TYPE), tds-corrections.md §2.2' } },
    f(54, 'State Name', 'INT', 2, 'O', { values: STATE_CODES, note: 'Annexure 5 (numeric state codes); mandatory for deductor types S, E, H, N' }),
    f(55, 'PAO Code', 'CHAR', 20, 'O', { note: 'size not in the sources' }),
    f(56, 'DDO Code', 'CHAR', 20, 'O', { note: 'size not in the sources' }),
    f(57, 'Ministry Name', 'CHAR', 3, 'O', { note: 'Annexure 3; mandatory for deductor types A, D, G' }),
    f(58, 'Ministry Name Other', 'CHAR', 150, 'O'),
    f(59, 'PAN of the Responsible Person', 'CHAR', 10, 'M', { format: 'PAN' }),
    f(60, 'PAO Registration No.', 'CHAR', 7, 'O', { note: 'size not in the sources' }),
    f(61, 'DDO Registration No.', 'CHAR', 10, 'O', { note: 'size not in the sources' }),
    f(62, 'Employer/Deductor STD code (Alternate)', 'INT', 5, 'O'),
    f(63, 'Employer/Deductor Telephone (Alternate)', 'INT', 10, 'O'),
    f(64, 'Employer/Deductor Email (Alternate)', 'CHAR', 75, 'O'),
    f(65, 'Responsible Person STD Code (Alternate)', 'INT', 5, 'O'),
    f(66, 'Responsible Person Telephone (Alternate)', 'INT', 10, 'O'),
    f(67, 'Responsible Person Email (Alternate)', 'CHAR', 75, 'O'),
    f(68, 'Account Office Identification Number (AIN) of PAO/TO/CDDO', 'CHAR', 7, 'O', { exact: true }),
    f(69, 'Goods and Service Tax Number (GSTN)', 'CHAR', 15, 'O', { exact: true }),
    f(70, 'Count of s.194P Detail Records', 'INT', 9, { other: 'NA', '24Q': 'O' }, { note: '24Q Q4 (addendum §3)' }),
    amount(71, 'Batch Total of Gross Total Income as per s.194P Detail', { other: 'NA', '24Q': 'O' }, { note: '24Q Q4 (addendum §3)' }),
    na(72, 'Record Hash'),
  ] as FieldSpec[]).map(correctionDetails),
});

const CD = layout({
  family: 'legacy',
  recordType: 'CD',
  version: VERSION,
  source: 'tds-txt-format.md §4.3 "Legacy CD" (41 fields) and §5; nil challans per tds-rules-addendum.md §1.1; sizes as Form 140',
  forms: FORMS,
  numbering: { serial: 4, counts: [{ field: 5, child: 'DD' }] },
  correctionNumbering: { own: 4, counts: [{ field: 5, child: 'DD' }] },
  count: 41,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['CD'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Challan-Detail Record Number', 'INT', 9, 'M'),
    f(5, 'Count of Deductee/Party Records', 'INT', 9, 'M'),
    f(6, 'NIL Challan Indicator', 'CHAR', 1, 'M', { values: YES_NO }),
    { ...na(7, 'Challan Updation Indicator'), correction: { type: 'CHAR', width: 1, presence: 'O', values: ['0', '1'], note: 'C2/C3: 1 when the challan\'s own fields change, else 0 (EY; Oracle EBS DECODE(mode,U,1,0)), tds-corrections.md §2.3; empty in a C5 batch (FVU T-FV-3008)' } },
    ...naRange(8, 10, 'Filler'),
    { ...na(11, 'Last Bank Challan No'), correction: { type: 'INT', width: 5, exact: true, presence: 'O', note: 'as in the latest statement (conso), tds-corrections.md §2.3' } },
    f(12, 'Bank Challan No', 'INT', 5, 'O', { exact: true, note: 'empty for book entry or a nil challan' }),
    { ...na(13, 'Last Transfer Voucher No / DDO serial no'), correction: { type: 'INT', width: 5, exact: true, presence: 'O', note: 'book entry, as in the latest statement (EY, NAV), tds-corrections.md §2.3' } },
    f(14, 'DDO serial no. of Form No. 24G', 'INT', 5, 'O', { exact: true, note: 'government book entry only' }),
    { ...na(15, 'Last Bank-Branch Code/ Form 24G Receipt Number'), correction: { type: 'INT', width: 7, exact: true, presence: 'O', note: 'as in the latest statement (conso), tds-corrections.md §2.3' } },
    f(16, 'Bank-Branch Code/ Form 24G Receipt Number', 'INT', 7, 'O', { exact: true, note: 'empty for a nil challan (addendum §1.1)' }),
    { ...na(17, 'Last Date of Bank Challan No / Transfer Voucher No'), correction: { type: 'DATE', width: 8, presence: 'O', note: 'as in the latest statement (conso), tds-corrections.md §2.3' } },
    f(18, 'Date of Bank Challan No / Transfer Voucher No', 'DATE', 8, 'M', emptyInC5('T-FV-3119')),
    ...naRange(19, 20, 'Filler'),
    na(21, 'Section', 'only up to FY 2012-13'),
    oltas(22, 'Oltas TDS / TCS -Income Tax', 'T-FV-3027'),
    oltas(23, 'Oltas TDS / TCS -Surcharge', 'T-FV-3093'),
    oltas(24, 'Oltas TDS / TCS - Cess', 'T-FV-3106'),
    oltas(25, 'Oltas TDS / TCS - Interest Amount', 'T-FV-3109'),
    oltas(26, 'Oltas TDS / TCS - Others (amount)', 'T-FV-3112'),
    amount(27, 'Total of Deposit Amount as per Challan/Transfer Voucher Number', 'M', { whole: true, ...emptyInC5('T-FV-3120') }),
    { ...na(28, 'Last Total of Deposit Amount as per Challan'), correction: { type: 'AMOUNT', width: 15, whole: true, presence: 'O', note: 'as in the latest statement (conso): EY, Oracle EBS, NAV, tds-corrections.md §2.3' } },
    amount(29, 'Total Tax Deposit Amount as per deductee annexure', 'M', rowDelta('T-FV-3075')),
    amount(30, 'TDS / TCS -Income Tax (sum of DD field 14)', 'M', rowDelta('T-FV-3083')),
    amount(31, 'TDS / TCS -Surcharge (sum of DD field 15)', 'M', rowDelta('T-FV-3099')),
    amount(32, 'TDS / TCS - Cess (sum of DD field 16)', 'M', rowDelta('T-FV-3102')),
    amount(33, 'Sum of Total Income Tax Deducted at Source (sum of DD field 17)', 'M', rowDelta('T-FV-3050')),
    amount(34, 'TDS / TCS - Interest Amount', 'M', { whole: true, ...emptyInC5('T-FV-3086') }),
    amount(35, 'TDS / TCS - Others (amount)', 'M', { whole: true, ...emptyInC5('T-FV-3088') }),
    na(36, 'Cheque / DD No.', 'empty from FY 2013-14'),
    f(37, 'By Book entry / Cash', 'CHAR', 1, 'O', { values: YES_NO, note: 'N for a bank challan; empty for a nil challan (addendum §1.1)' }),
    f(38, 'Remarks', 'CHAR', 14, 'O', { note: 'size not in the sources; written empty' }),
    amount(39, 'Fee u/s 234E', 'M', { whole: true, correction: { presence: 'O', note: 'empty in a C5 batch (FVU); given with challan updation indicator 0 (T-FV-3158)' } }),
    f(40, 'Minor Head of Challan', 'INT', 3, 'O', { values: MINOR_HEADS, note: 'mandatory for a bank challan from FY 2013-14; empty for book entry and nil challans; in a correction empty when the challan updation indicator is 0 (FVU T-FV-3162)' }),
    na(41, 'Record Hash'),
  ],
});

/**
 * A C5 (PAN update) DD gives only the row's numbers, the new PAN and reference and the "last" keys: the FVU refuses
 * the mode, code, name, amounts, dates, rate, remark and section there (T-FV-4211, 4183, 4186, 4112, 4113, 4117,
 * 4046, 4209, 4087, 4090, 4099, 4091, 4100, 4317). The layout has one entry per upload type, so in a correction these
 * fields are optional where they are mandatory, and the correction writer leaves them empty exactly in C5.
 */
const DD_IN_C5 = new Set([1, 2, 3, 4, 5, 10, 11, 12, 18, 20]);
function optionalInC5(spec: FieldSpec): FieldSpec {
  if (DD_IN_C5.has(spec.n) || spec.presence === 'NA' || spec.presence === 'O') return spec;
  const relax = (p: FieldSpec['presence']): FieldSpec['presence'] => (typeof p === 'string' ? (p === 'M' ? 'O' : p) : (Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v === 'M' ? 'O' : v])) as FieldSpec['presence']));
  const base = spec.correction?.presence ?? spec.presence;
  return { ...spec, correction: { ...spec.correction, presence: relax(base), note: `${spec.correction?.note ? `${spec.correction.note}; ` : ''}empty in a C5 batch (FVU)` } };
}

const DD = layout({
  family: 'legacy',
  recordType: 'DD',
  version: VERSION,
  source: 'tds-txt-format.md §4.4 "Legacy DD" (54 fields, per-form columns); 27Q fields 27 and 35-43 with sizes from tds-gaps.md §2.1; 27EQ fields 30-36 from tds-gaps.md §1.1; rate and remarks per tds-rules-addendum.md §2 and §6',
  forms: FORMS,
  numbering: { parent: 4, serial: 5 },
  correctionNumbering: { parent: 4, own: 5 },
  count: 54,
  fields: ([
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['DD'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Challan-Detail Record Number', 'INT', 9, 'M'),
    f(5, 'Deductee / Party Detail Record No', 'INT', 9, 'M'),
    f(6, 'Mode', 'CHAR', 1, 'M', { values: ['O'], correction: { values: ['O', 'A', 'U'], note: 'O regular and C9; A add, U update in C3 (JDE); D (delete) is refused by the FVU (T_FV_6049); empty in C5 (T-FV-4211), FORMAT_NOTES.md §15' } }),
    f(7, 'Employee Serial No', 'CHAR', 10, { other: 'NA', '24Q': 'M' }, { note: '24Q: mandatory on every row (FVU T-FV-4033): the row serial' }),
    {
      ...f(8, 'Deductee / Party Code', 'CHAR', 2, { other: 'M', '24Q': 'NA' }, { values: DEDUCTEE_CODES, note: '1 company, 2 other (FVU T-FV-4056)' }),
      // 27Q/27EQ before FY 2023-24 take 1 or 2 only: the engine writes those; the table holds one list per form.
      byForm: Object.fromEntries((['27Q', '27EQ'] as const).map((form) => [form, { values: DEDUCTEE_CODES_27, note: 'from FY 2023-24 the deductee type 1 to 10, agreeing with the PAN 4th letter (FVU T-FV-4056); before, 1 or 2' }])),
    },
    { ...na(9, 'Last Employee/Party PAN'), correction: { type: 'CHAR', width: 10, presence: 'O', format: 'PAN', values: PAN_PLACEHOLDERS, note: 'PAN as in the latest statement, for U/D (tds-corrections.md §1.3, §2.4)' } },
    f(10, 'PAN of the Employee/Party', 'CHAR', 10, 'M', { format: 'PAN', values: PAN_PLACEHOLDERS, note: 'a PAN or a placeholder' }),
    { ...na(11, 'Last Employee/Party PAN Ref. No.'), correction: { type: 'CHAR', width: 10, presence: 'O', note: 'as in the latest statement (EY bean, NAV), tds-corrections.md §2.4' } },
    f(12, 'Employee/Party PAN Ref. No.', 'CHAR', 10, 'O', { note: 'needed with a placeholder PAN; exactly 10 characters, not all zeros (FVU T_FV_4325)' }),
    f(13, 'Name of Employee/Party', 'CHAR', 75, 'M'),
    amount(14, 'TDS / TCS -Income Tax for the period'),
    amount(15, 'TDS / TCS -Surcharge for the period'),
    amount(16, 'TDS / TCS -Cess'),
    amount(17, 'Total Income Tax Deducted at Source (TDS / TCS Income Tax+ TDS / TCS Surcharge + TDS/TCS Cess)'),
    { ...na(18, 'Last Total Income Tax Deducted at Source'), correction: { type: 'AMOUNT', width: 15, presence: 'O', note: 'as in the latest statement, for U/D (tds-corrections.md §1.3, §2.4)' } },
    amount(19, 'Total Tax Deposited'),
    { ...na(20, 'Last Total Tax Deposited'), correction: { type: 'AMOUNT', width: 15, presence: 'O', note: 'as in the latest statement, for U/D (tds-corrections.md §1.3, §2.4)' } },
    amount(21, 'Total Value of Purchase', { other: 'NA', '27EQ': 'M' }),
    amount(22, 'Amount of Payment / Credit'),
    f(23, 'Date on which Amount paid / Credited', 'DATE', 8, 'M'),
    f(24, 'Date on which tax Deducted / Collected', 'DATE', 8, 'O', { note: 'mandatory when tax > 0 (addendum §7)' }),
    f(25, 'Date of Deposit', 'DATE', 8, { other: 'NA', '24Q': 'M' }),
    f(26, 'Rate at which Tax Deducted / Collected', 'RATE', 7, { other: 'M', '24Q': 'NA' }, { note: 'size as Form 140 DD 28; empty for 24Q (addendum §6)' }),
    f(27, 'Grossing up Indicator', 'CHAR', 1, { other: 'NA', '27Q': 'O' }, { values: YES_NO, note: 'size 1 (tds-gaps.md §2.1); Y/N is our reading' }),
    na(28, 'Book Entry / Cash Indicator'),
    na(29, 'Date of furnishing Tax Deduction Certificate'),
    f(30, 'Remarks 1 (Reason for non-deduction / lower deduction / higher deduction)', 'CHAR', 1, 'O', {
      values: { other: undefined, '24Q': REMARKS['24Q'], '26Q': REMARKS['26Q'], '27Q': REMARKS['27Q'], '27EQ': REMARKS['27EQ'] },
      note: 'Annexure 6 per form (addendum §2)',
    }),
    f(31, 'Remarks 2 (27EQ: whether collectee is non-resident)', 'CHAR', 1, { other: 'NA', '27EQ': 'O' }, { values: YES_NO, note: '27EQ: FVU 5.7, for collectees without PAN (tds-gaps.md §1.1)' }),
    f(32, 'Remarks 3 (27EQ: whether collectee has a permanent establishment in India)', 'CHAR', 1, { other: 'NA', '27EQ': 'O' }, { values: YES_NO }),
    f(33, 'Section Code', 'CHAR', 3, 'M', {
      values: { other: undefined, '24Q': SECTIONS_24Q, '26Q': SECTIONS_26Q, '27EQ': COLLECTION_CODES_27EQ },
      note: 'Annexure 2; 27Q v7.5 Annexure 2 is not in the sources (tds-gaps.md §2.4), so 27Q has no list',
    }),
    f(34, 'Certificate number u/s 197 / 206C(9)', 'CHAR', 10, 'O', { note: '10 characters from FY 2013-14 (FVU 4.4, addendum §5)' }),
    f(35, '27Q: TDS rate as per IT Act (A) or DTAA (B); 27EQ: whether payment is liable to TDS', 'CHAR', 1, { other: 'NA', '27Q': 'O', '27EQ': 'O' }, {
      values: { other: undefined, '27Q': ['A', 'B'], '27EQ': YES_NO },
    }),
    f(36, '27Q: Nature of Remittance; 27EQ: challan number', 'CHAR', 3, { other: 'NA', '27Q': 'O', '27EQ': 'O' }, {
      values: { other: undefined, '27Q': REMITTANCE_27Q },
      note: '27Q nature of remittance is mandatory from FY 2013-14 (FVU 5.7, tds-gaps.md §2.1)',
    }),
    f(37, '27Q: Unique Acknowledgement of Form 15CA; 27EQ: challan date', 'CHAR', 15, { other: 'NA', '27Q': 'O', '27EQ': 'O' }),
    f(38, '27Q: Country of residence of the deductee', 'INT', 3, { other: 'NA', '27Q': 'O' }),
    f(39, '27Q: Email ID of deductee', 'CHAR', 75, { other: 'NA', '27Q': 'O' }),
    f(40, '27Q: Contact number of deductee', 'CHAR', 15, { other: 'NA', '27Q': 'O' }),
    f(41, '27Q: Address of deductee in country of residence', 'CHAR', 150, { other: 'NA', '27Q': 'O' }),
    f(42, '27Q: Tax Identification Number of deductee', 'CHAR', 25, { other: 'NA', '27Q': 'O' }),
    ...[1, 2, 3, 4, 5, 6].map((k) => amount(42 + k, `Cash withdrawal amount u/s 194N (${k})`, { other: 'NA', '26Q': 'O', '27Q': 'O' }, { note: 'six s.194N columns (tds-txt-format.md §4.4)' })),
    f(49, 'Whether opting out of taxation u/s 115BAC', 'CHAR', 1, { other: 'NA', '27Q': 'O', '27EQ': 'O' }, { values: YES_NO, note: 'UNVERIFIED position (C# app, tds-txt-format.md §4.4)' }),
    ...naRange(50, 53, 'Filler'),
    na(54, 'Record Hash'),
  ] as FieldSpec[]).map(optionalInC5),
});

const SD_AMOUNT_NOTE = 'size as the legacy DD amounts (15)';
const SD = layout({
  family: 'legacy',
  recordType: 'SD',
  version: '24Q Q4 v7.5; FVU 9.5',
  source: 'tds-txt-format.md §4.5 "SD — Salary Detail, 88 fields" (Odoo and the C# app agree); types from the field meanings, amount size 15 as the DD amounts',
  forms: ['24Q'],
  numbering: { serial: 4, counts: [{ field: 15, child: 'S16' }, { field: 21, child: 'C6A' }] },
  correctionNumbering: { own: 4, counts: [{ field: 15, child: 'S16' }, { field: 21, child: 'C6A' }] },
  count: 88,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['SD'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Salary Details Record No', 'INT', 9, 'M'),
    f(5, 'Mode', 'CHAR', 1, 'M', { values: ['A'], correction: { values: ['A', 'D'], note: 'C4: add or delete, no update (tdsman; D is an inference, tds-corrections.md §2.5); C4 is refused (FORMAT_NOTES.md §15)' } }),
    f(6, 'Employee Serial No', 'CHAR', 10, 'O'),
    f(7, 'PAN of Employee', 'CHAR', 10, 'M', { format: 'PAN', values: PAN_PLACEHOLDERS, note: 'a PAN or a placeholder' }),
    f(8, 'Employee PAN Ref No', 'CHAR', 10, 'O'),
    f(9, 'Name of Employee', 'CHAR', 75, 'M'),
    f(10, 'Category of Employee', 'CHAR', 1, 'M', { values: EMPLOYEE_CATEGORIES, note: 'G W S O: UNVERIFIED (§4.5)' }),
    f(11, 'Date from which employed with current employer', 'DATE', 8, 'M'),
    f(12, 'Date to which employed with current employer', 'DATE', 8, 'M'),
    amount(13, 'Total amount of salary'),
    na(14, 'Filler'),
    f(15, 'Count of salary details - Section 16 records', 'INT', 9, 'M'),
    amount(16, 'Gross total of Total Deduction under section 16'),
    amount(17, 'Income chargeable under the head Salaries'),
    amount(18, 'Income (including loss from house property) under any head other than Salaries offered for TDS', 'M', { signed: true }),
    amount(19, 'Gross Total Income', 'M', { signed: true }),
    { ...na(20, 'Last Gross Total Income'), correction: <FieldSpec['correction']>{ type: 'AMOUNT', width: 15, signed: true, presence: 'O', note: 'GTI as in the latest statement (CPC reasons; Oracle EBS PREV_F16_GROSS_TOT_INC), tds-corrections.md §2.5' } },
    f(21, 'Count of salary details - Chapter VI-A records', 'INT', 9, 'M'),
    amount(22, 'Gross total of Amount deductible under chapter VI-A'),
    amount(23, 'Total Taxable Income', 'M', { signed: true }),
    amount(24, 'Income Tax on Total Income'),
    amount(25, 'Surcharge'),
    amount(26, 'Health and Education Cess'),
    amount(27, 'Income Tax Relief u/s 89'),
    amount(28, 'Net Income Tax payable'),
    amount(29, 'Total amount of tax deducted at source for the whole year'),
    amount(30, 'Shortfall in tax deduction (+) / Excess tax deduction (-)', 'M', { signed: true }),
    amount(31, 'Aggregate amount of deductions under sections 80C, 80CCC and 80CCD(1)'),
    ...naRange(32, 33, 'Remarks'),
    amount(34, 'Taxable Amount on which tax is deducted by the current employer'),
    amount(35, 'Reported Taxable Amount on which tax is deducted by previous employer(s)'),
    amount(36, 'Total Amount of Tax Deducted at Source by current employer for the whole year'),
    amount(37, 'Reported amount of Tax deducted at source by previous employer(s)'),
    f(38, 'Whether tax deducted at higher rate due to non-furnishing of PAN', 'CHAR', 1, 'M', { values: YES_NO }),
    f(39, 'Whether aggregate rent payment exceeds rupees one lakh during previous year', 'CHAR', 1, 'M', { values: YES_NO }),
    f(40, 'Count of PAN of the landlord', 'INT', 1, 'O'),
    ...[1, 2, 3, 4].flatMap((k) => [
      f(39 + 2 * k, `PAN of landlord ${k}`, 'CHAR', 10, 'O', { format: 'PAN' }),
      f(40 + 2 * k, `Name of landlord ${k}`, 'CHAR', 75, 'O'),
    ]),
    f(49, 'Whether Interest paid to the lender under the head Income from house property', 'CHAR', 1, 'M', { values: YES_NO }),
    f(50, 'Count of PAN of the lender', 'INT', 1, 'O'),
    ...[1, 2, 3, 4].flatMap((k) => [
      f(49 + 2 * k, `PAN of lender ${k}`, 'CHAR', 10, 'O', { format: 'PAN' }),
      f(50 + 2 * k, `Name of lender ${k}`, 'CHAR', 75, 'O'),
    ]),
    f(59, 'Whether contributions paid by the trustees of an approved superannuation fund', 'CHAR', 1, 'M', { values: YES_NO }),
    f(60, 'Name of the superannuation fund', 'CHAR', 75, 'O'),
    f(61, 'Date from which the employee has contributed to the superannuation fund', 'DATE', 8, 'O'),
    f(62, 'Date to which the employee has contributed to the superannuation fund', 'DATE', 8, 'O'),
    amount(63, 'The amount of contribution repaid on account of principal and interest from superannuation fund', 'O'),
    f(64, 'The average rate of deduction of tax during the preceding three years', 'RATE', 7, 'O'),
    amount(65, 'The amount of tax deducted on repayment of superannuation fund', 'O'),
    amount(66, 'Gross total income including contribution repaid on account of principal and interest from superannuation fund', 'O', { signed: true }),
    amount(67, 'Gross Salary as per provisions contained in section 17(1)'),
    amount(68, 'Value of perquisites under section 17(2)'),
    amount(69, 'Profits in lieu of salary under section 17(3)'),
    amount(70, 'Travel concession or assistance under section 10(5)', 'O', { note: 'empty under the new regime' }),
    amount(71, 'Death-cum-retirement gratuity under section 10(10)'),
    amount(72, 'Commuted value of pension under section 10(10A)'),
    amount(73, 'Cash equivalent of leave salary encashment under section 10(10AA)'),
    amount(74, 'House rent allowance under section 10(13A)', 'O', { note: 'empty under the new regime' }),
    amount(75, 'Amount of any other exemption under section 10'),
    amount(76, 'Total amount of exemption claimed under section 10'),
    amount(77, 'Income under the head Other Sources offered for TDS'),
    amount(78, 'Rebate under section 87A'),
    f(79, 'Whether opting out of taxation u/s 115BAC(1A)', 'CHAR', 1, 'M', { values: YES_NO }),
    amount(80, 'Other special allowances under section 10(14)'),
    amount(81, 'Amount of other TDS/TCS reported u/s 192(2B)'),
    ...naRange(82, 87, 'Filler'),
    na(88, 'Record Hash'),
  ].map((spec) => (spec.type === 'AMOUNT' && !spec.note ? { ...spec, note: SD_AMOUNT_NOTE } : spec)),
});

/** S16 and P16: line, type, batch, parent record, own number, section id, amount, hash. */
function section16Layout(recordType: 'S16' | 'P16', parent: string, source: string) {
  return layout({
    family: 'legacy',
    recordType,
    version: '24Q Q4 v7.5; FVU 9.5',
    source,
    forms: ['24Q'],
    numbering: { parent: 4, serial: 5 },
    count: 8,
    fields: [
      f(1, 'Line Number', 'INT', 9, 'M'),
      f(2, 'Record Type', 'CHAR', 3, 'M', { values: [recordType] }),
      f(3, 'Batch Number', 'INT', 9, 'M'),
      f(4, `${parent} Record Number`, 'INT', 9, 'M'),
      f(5, `${recordType} Record Number`, 'INT', 9, 'M'),
      f(6, 'Section ID', 'CHAR', 10, 'M', { values: SECTION_16_IDS }),
      amount(7, 'Total Deduction under section 16'),
      na(8, 'Record Hash'),
    ],
  });
}

const S16 = section16Layout('S16', 'Salary Details', 'tds-txt-format.md §4.5 "S16 — 8 fields" (Odoo; the C# app writes the same shape) and §9 (e)');
const P16 = section16Layout('P16', '194P Detail', 'tds-txt-format.md §4.5 and tds-rules-addendum.md §3 (children of 94P; shape assumed as S16: one implementation, UNVERIFIED)');

const C6A = layout({
  family: 'legacy',
  recordType: 'C6A',
  version: '24Q Q4 v7.5; FVU 9.5',
  source: 'tds-txt-format.md §4.5 "C6A — 10 fields" (C# app order: deductible, gross, qualifying) and §9 (e)',
  forms: ['24Q'],
  numbering: { parent: 4, serial: 5 },
  count: 10,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 3, 'M', { values: ['C6A'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Salary Details Record Number', 'INT', 9, 'M'),
    f(5, 'C6A Record Number', 'INT', 9, 'M'),
    f(6, 'Section ID', 'CHAR', 10, 'M', { values: CHAPTER_6A_IDS }),
    amount(7, 'Total Deductible amount under Chapter VI-A'),
    amount(8, 'Gross Amount'),
    amount(9, 'Qualifying Amount', 'O', { note: 'for 80G, 80TTA and OTHERS' }),
    na(10, 'Record Hash'),
  ],
});

const P6A = layout({
  family: 'legacy',
  recordType: 'P6A',
  version: '24Q Q4 v7.5; FVU 9.5',
  source: 'tds-rules-addendum.md §3 (the one public writer: section, gross, qualifying, deductible; FORMAT_NOTES.md §11): one implementation, UNVERIFIED; 10 fields as C6A',
  forms: ['24Q'],
  numbering: { parent: 4, serial: 5 },
  count: 10,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 3, 'M', { values: ['P6A'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, '194P Detail Record Number', 'INT', 9, 'M'),
    f(5, 'P6A Record Number', 'INT', 9, 'M'),
    f(6, 'Section ID', 'CHAR', 10, 'M', { values: [...CHAPTER_6A_IDS, '80TTB'], note: '80TTB (senior-citizen interest) has its own id in the one public 94P writer (addendum §3 [S15]; FORMAT_NOTES.md §5)' }),
    amount(7, 'Gross Amount'),
    amount(8, 'Qualifying Amount (the writer\'s order: gross, qualifying, deductible)', 'O'),
    amount(9, 'Deductible Amount'),
    na(10, 'Record Hash'),
  ],
});

const P94 = layout({
  family: 'legacy',
  recordType: '94P',
  version: '24Q Q4 v7.5; FVU 9.5',
  source: 'tds-txt-format.md §4.5 "94P" (the C# Get194PString, 28 fields) and tds-rules-addendum.md §3: one implementation, Medium',
  forms: ['24Q'],
  numbering: { serial: 4, counts: [{ field: 11, child: 'P16' }, { field: 18, child: 'P6A' }] },
  count: 28,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 3, 'M', { values: ['94P'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, '194P Detail Record Number', 'INT', 9, 'M'),
    f(5, 'Mode', 'CHAR', 1, 'M', { values: ['A'] }),
    f(6, 'PAN of specified senior citizen', 'CHAR', 10, 'M', { format: 'PAN', values: PAN_PLACEHOLDERS, note: 'a PAN or a placeholder' }),
    f(7, 'Name of specified senior citizen', 'CHAR', 75, 'M'),
    f(8, 'Category', 'CHAR', 1, 'M', { values: EMPLOYEE_CATEGORIES }),
    f(9, 'Whether opting out of taxation u/s 115BAC(1A)', 'CHAR', 1, 'M', { values: YES_NO }),
    amount(10, 'Gross salary / pension'),
    f(11, 'Count of P16 records', 'INT', 9, 'M'),
    amount(12, 'Total deduction under section 16'),
    amount(13, 'Income chargeable under the head Salaries'),
    amount(14, 'Income from other sources (interest from the specified bank)', 'M', { signed: true }),
    amount(15, 'Gross Total Income', 'M', { signed: true }),
    na(16, 'Blank'),
    amount(17, 'Aggregate amount of deductions under sections 80C, 80CCC and 80CCD(1)'),
    f(18, 'Count of P6A records', 'INT', 9, 'M'),
    amount(19, 'Gross total of amount deductible under Chapter VI-A'),
    amount(20, 'Total Taxable Income', 'M', { signed: true }),
    amount(21, 'Income Tax on Total Income'),
    amount(22, 'Rebate under section 87A'),
    amount(23, 'Surcharge'),
    amount(24, 'Health and Education Cess'),
    amount(25, 'Total tax payable'),
    amount(26, 'Income Tax Relief u/s 89'),
    amount(27, 'Net tax payable'),
    na(28, 'Record Hash'),
  ],
});

export const LEGACY_LAYOUTS: LayoutVersion = {
  family: 'legacy',
  version: VERSION,
  appliesFrom: '201011',
  records: [fileHeader('legacy', VERSION, FORMS), BH, CD, DD, SD, S16, C6A, P94, P16, P6A],
};
