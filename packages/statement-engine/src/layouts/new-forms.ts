// New family (Income-tax Act 2025, tax year 2026-27 on): Forms 138 (Q1-Q3), 140, 143, 144, validated by
// FVU/RPU 1.x. The tables are the Form 140 "Version 1.0" workbook as machine-extracted in
// jabaharlalsah-cmd/Tally (tds-txt-format.md §4.1-4.4), which Forms 138 and 144 share except field 5 and the
// texts; the v1.2 changes and the addendum's corrections are applied where they touch a field. Forms 143 and
// 144: Protean's tables are not public (tds-gaps.md §3); their DD entries, CD 24/25 and BH 49 are where the
// official FVU 1.2 reads them and with the codes it accepts (FORMAT_NOTES.md §7, §17).

import {
  PAN_PLACEHOLDERS, COLLECTION_CODES_143, COUNTRY_CODES_144, DEDUCTEE_CODES_NEW, DEDUCTOR_CATEGORIES, MINOR_HEADS, QUARTERS, REMARKS, REMITTANCE_144, SECTIONS_138, SECTIONS_140, SECTIONS_144, STATE_CODES,
} from './code-lists.js';
import { fileHeader } from './file-header.js';
import { field as f, layout, na, YES_NO, type FieldSpec, type LayoutVersion, type PerForm, type Presence } from './types.js';

const VERSION = 'Form 140 v1.0 (02-Jul-2026) as extracted, with the FVU/RPU 1.2 changes (22-Jul-2026); Forms 138 Q1-Q3, 143, 144';
const FORMS = ['138', '140', '143', '144'] as const;
const FVU_DD = 'Forms 143/144: where FVU 1.2 reads it (its DD tokenizer; Protean\'s tables are not public)';
/** FVU 1.2 T-FV-4335..4338 and 4340..4343: only for a remark-C row without PAN and some natures of remittance. */
const CONTACT_NOTE = 'only with remark C, a PAN placeholder and nature of remittance 16 (the one FVU 1.2 code in its contact list); then M if the rate is below 20%';
const amount = (n: number, name: string, presence: FieldSpec['presence'] = 'M', extra: Partial<FieldSpec> = {}) => f(n, name, 'AMOUNT', 15, presence, extra);
const only = (forms: Partial<Record<'138' | '140' | '143' | '144', Presence>>, other: Presence = 'NA'): PerForm<Presence> => ({ other, ...forms });

/** A filler: optional in the 140 table, with no type or size; we never write one (the width 0 makes any value fail). */
const filler = (n: number, name: string): FieldSpec => f(n, name, 'CHAR', 0, 'O', { note: 'filler: no type or size in the table; written empty' });


const BH = layout({
  family: 'new',
  recordType: 'BH',
  version: VERSION,
  source: 'tds-txt-format.md §4.2 "Form 140 (new, v1.0 workbook)"; fields 9/52 per tds-rules-addendum.md §8',
  forms: FORMS,
  numbering: { serial: 3, counts: [{ field: 4, child: 'CD' }] },
  count: 72,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['BH'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Count of Challan/transfer voucher Records', 'INT', 9, 'M'),
    f(5, 'Form Number', 'CHAR', 4, 'M', { values: { other: undefined, '138': ['138'], '140': ['140'], '143': ['143'], '144': ['144'] } }),
    na(6, 'Transaction Type'),
    na(7, 'Batch Updation Indicator'),
    na(8, 'Original Token Number'),
    f(9, 'Token no. of previous regular statement', 'INT', 15, 'O', { exact: true, note: 'mandatory when field 52 = Y' }),
    na(10, 'Token Number of statement submitted'),
    na(11, 'Token Number date'),
    na(12, 'Last TAN of Deductor'),
    f(13, 'TAN of Deductor', 'CHAR', 10, 'M', { format: 'TAN' }),
    na(14, 'Receipt number (8-digit) provided by TIN'),
    f(15, 'PAN of Deductor', 'CHAR', 10, 'M', { format: 'PAN', values: ['PANNOTREQD'], note: 'a PAN or PANNOTREQD' }),
    f(16, 'Assessment Yr', 'INT', 6, 'M', { exact: true }),
    f(17, 'Tax Year', 'INT', 6, 'M', { exact: true }),
    f(18, 'Period', 'CHAR', 2, 'M', { values: QUARTERS }),
    f(19, 'Name of Deductor', 'CHAR', 75, 'M'),
    f(20, 'Deductor Address 6 (Country/Region)', 'CHAR', 25, 'M'),
    f(21, 'Deductor Address1 (Flat/Door/Block)', 'CHAR', 25, 'M'),
    f(22, 'Deductor Address2 (Post Office)', 'CHAR', 25, 'O'),
    f(23, 'Deductor Address3 (Road/Street/Block/Sector)', 'CHAR', 25, 'O'),
    f(24, 'Deductor Address4 (Area/locality)', 'CHAR', 25, 'O'),
    f(25, 'Deductor Address5 (District)', 'CHAR', 25, 'O'),
    f(26, 'Deductor State', 'INT', 2, 'M', { values: STATE_CODES }),
    f(27, 'Deductor Pincode', 'INT', 6, 'M', { exact: true }),
    f(28, 'Deductor Email', 'CHAR', 75, 'O', { note: 'M*: mandatory if field 42 is empty' }),
    f(29, 'Deductor Contact Country Code', 'INT', 5, 'M'),
    f(30, 'Deductor Contact Number', 'CHAR', 10, 'M', { note: 'digits' }),
    filler(31, 'Filler 1'),
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
    f(42, 'Responsible Person Email ID-1', 'CHAR', 75, 'O', { note: 'M*: mandatory if field 28 is empty' }),
    f(43, 'Responsible Person Country/Region', 'CHAR', 25, 'M'),
    f(44, 'Responsible Person Contact Country Code', 'INT', 5, 'M'),
    f(45, 'Responsible Person Contact Number', 'CHAR', 10, 'M'),
    filler(46, 'Filler 3'),
    amount(47, 'Batch Total of Total of Deposit Amount as per Challan', 'M', { whole: true }),
    f(48, 'Unmatched challan count', 'CHAR', 9, 'O'),
    f(49, 'Count of Salary Details Records', 'INT', 9, only({ '138': 'M' }), {
      values: { other: undefined, '138': ['0'] },
      note: 'Form 138 Q1-Q3: 0 (FVU 1.2 T-FV-2127 when empty, T-FV-2142 when not 0); other forms empty (T-FV-2140)',
    }),
    na(50, 'Batch Total of Gross Total Income as per Salary Detail'),
    filler(51, 'Filler 4'),
    f(52, 'Whether regular statement for Form filed for earlier period', 'CHAR', 1, 'M', { values: YES_NO }),
    na(53, 'Last Deductor Type'),
    f(54, 'State Name', 'CHAR', 2, 'O', { values: STATE_CODES, note: 'Annexure 5; mandatory for deductor types S, E, H, N' }),
    filler(55, 'Filler 5'),
    filler(56, 'Filler 6'),
    f(57, 'Ministry Name', 'CHAR', 3, 'O', { note: 'Annexure 3; mandatory for deductor types A, D, G' }),
    f(58, 'Ministry Name Other', 'CHAR', 150, 'O', { note: 'when field 57 = 99' }),
    f(59, 'PAN of the Responsible Person', 'CHAR', 10, 'M', { format: 'PAN' }),
    ...[7, 8, 9, 10, 11, 12, 13, 14].map((k) => filler(53 + k, `Filler ${k}`)),
    f(68, 'Account Office Identification Number (AIN) of PAO/TO/CDDO', 'CHAR', 7, 'O', { exact: true }),
    f(69, 'Goods and Service Tax Number (GSTN)', 'CHAR', 15, 'O', { exact: true }),
    na(70, 'Count of s.194P Detail Records'),
    na(71, 'Batch total of Gross Total Income as per s.194P Detail'),
    na(72, 'Record Hash'),
  ],
});

const CD = layout({
  family: 'new',
  recordType: 'CD',
  version: VERSION,
  source: 'tds-txt-format.md §4.3 "Form 140 (new), 30 fields"; nil challans per tds-rules-addendum.md §1.2; fields 24/25 (v1.2 allocations) and 26-29 (fillers) as FVU 1.2 reads them (FORMAT_NOTES.md §17)',
  forms: FORMS,
  numbering: { serial: 4, counts: [{ field: 5, child: 'DD' }] },
  count: 30,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['CD'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Challan-Detail Record Number', 'INT', 9, 'M'),
    f(5, 'Count of Deductee/Party Records', 'INT', 9, 'M'),
    f(6, 'NIL Challan Indicator', 'CHAR', 1, 'M', { values: YES_NO }),
    na(7, 'Challan Updation Indicator'),
    amount(8, 'Total tax deducted (B)', 'M', { whole: true }),
    amount(9, 'Total Interest (C)', 'M', { whole: true }),
    amount(10, 'Total fee (D)', 'M', { whole: true }),
    amount(11, 'Total Penalty/Others (E)', 'M', { whole: true }),
    amount(12, 'Total of Deposit Amount as per Challan (F = B+C+D+E)', 'M', { whole: true }),
    f(13, 'Mode of payment (G)', 'CHAR', 1, 'O', { values: ['C', 'B'], note: 'empty for a nil challan' }),
    na(14, 'Last BSR Code'),
    f(15, 'BSR Code / Form 137 receipt number (H)', 'INT', 7, 'O', { exact: true, note: 'M in the table; empty for a nil challan (addendum §1.2)' }),
    na(16, 'Last Bank Challan No'),
    f(17, 'Bank Challan No / DDO Serial No (J)', 'INT', 5, 'O', { exact: true, note: 'empty for a nil challan' }),
    na(18, 'Last Date of Bank Challan'),
    f(19, 'Date of Bank Challan / Transfer Voucher (I)', 'DATE', 8, 'M'),
    na(20, 'Last Total of Deposit Amount'),
    amount(21, 'Total Tax Deposited as per deductee annexure'),
    amount(22, 'Total Tax Deducted as per deductee annexure'),
    f(23, 'Minor Head of Challan (K)', 'INT', 3, 'O', { values: MINOR_HEADS, note: 'empty for a nil challan (addendum §1.2, inference)' }),
    amount(24, 'Interest Allocation', 'M', { whole: true, note: 'FVU 1.2 (T_FV_6546/6547): mandatory, ends in .00' }),
    amount(25, 'Others Allocation', 'M', { whole: true, note: 'FVU 1.2 (T_FV_6548/6549): mandatory, ends in .00' }),
    ...[3, 4, 5, 6].map((k) => filler(23 + k, `Filler ${k}`)),
    na(30, 'Record Hash'),
  ],
});

/** A field of Forms 143/144 only, in a position the other new forms leave empty (FVU 1.2, FORMAT_NOTES.md §7). */
const formOnly = (n: number, name: string, byForm: FieldSpec['byForm']): FieldSpec => ({ ...filler(n, name), note: `${FVU_DD}; empty in the other forms`, byForm: byForm! });
const yesNo = (name: string, presence: Presence) => ({ name, type: 'CHAR', width: 1, presence, values: YES_NO }) as const;

const DD = layout({
  family: 'new',
  recordType: 'DD',
  version: VERSION,
  source: 'tds-txt-format.md §4.4 "Form 140 (new), 45 fields" and "Form 138 DD"; in-kind and cash-withdrawal rules per tds-rules-addendum.md §4; Forms 143/144 as FVU 1.2 reads them (FORMAT_NOTES.md §7)',
  forms: FORMS,
  numbering: { serial: 4, parent: 5 },
  count: 45,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['DD'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Deductee / Party Detail Record No (A)', 'INT', 9, 'M', { note: 'FVU 1.2 checks it as the running number under the challan (T-FV-4007)' }),
    f(5, 'Challan reference Number (B)', 'INT', 9, 'M'),
    f(6, 'Mode', 'CHAR', 1, 'M', { values: ['O'] }),
    na(7, 'Last Deductee PAN'),
    f(8, "Deductee's PAN (C)", 'CHAR', 10, 'M', { format: 'PAN', values: PAN_PLACEHOLDERS, note: 'a PAN or a placeholder; no placeholder for the in-kind sections' }),
    f(9, 'Name of the Deductee (D)', 'CHAR', 75, 'M'),
    filler(10, 'Remarks 1 (future use)'),
    formOnly(11, 'Remarks 2 (future use)', { '143': yesNo('Whether collectee is non-resident (143)', 'M') }),
    formOnly(12, 'Remarks 3 (future use)', {
      '143': { name: 'Deductee / Collectee Code (143)', type: 'INT', width: 2, presence: 'M', values: DEDUCTEE_CODES_NEW },
      '144': { name: 'Deductee / Collectee Code (144)', type: 'INT', width: 2, presence: 'M', values: DEDUCTEE_CODES_NEW },
    }),
    formOnly(13, 'Remarks 4 (future use)', { '143': { ...yesNo('Collectee has a permanent establishment in India (143)', 'O'), note: 'M if field 11 = Y, empty if N (T_FV_6421, T-FV-4339)' } }),
    formOnly(14, 'Remarks 5 (future use)', {
      '143': yesNo('Whether opting out of taxation regime u/s 202(1) (143)', 'M'),
      '144': yesNo('Whether opting out of taxation regime u/s 202(1) (144)', 'M'),
    }),
    f(15, 'Section Code (E)', 'CHAR', 4, 'M', {
      exact: true,
      values: { other: undefined, '138': SECTIONS_138, '140': SECTIONS_140, '144': SECTIONS_144, '143': COLLECTION_CODES_143 },
      note: 'Annexure 2 (4 digits); the lists FVU 1.2 accepts (T_FV_6450-6453)',
    }),
    formOnly(16, 'Remarks 6', {
      '144': { name: 'Nature of remittance (144)', type: 'INT', width: 2, presence: 'O', exact: true, values: REMITTANCE_144, note: 'M for sections 1040-1046, 1048-1057 (T_FV_6544); code per section (T_FV_6423)' },
    }),
    formOnly(17, 'Remarks 7', { '144': { name: 'Country to which remittance is made (144)', type: 'INT', width: 3, presence: 'M', values: COUNTRY_CODES_144 } }),
    f(18, 'Whether tax deducted has been deposited (K)', 'CHAR', 1, 'M', { values: YES_NO }),
    f(19, 'Date of payment/credit (F)', 'DATE', 8, 'M', { note: 'within the quarter and tax year (FVU 1.2)' }),
    amount(20, 'Amount Paid/Credited (G)'),
    f(21, 'Grossing up indicator', 'CHAR', 0, 'NA', {
      note: 'empty in Forms 138/140/143 (FVU 1.2 T_FV_6430)',
      byForm: { '144': yesNo('Grossing up indicator (144)', 'M') },
    }),
    amount(22, 'Cash withdrawal > Rs 1 crore, s.393(3) (H)', only({ '140': 'O', '144': 'O' }), { note: 'not used in Forms 138/143' }),
    amount(23, 'Cash withdrawal > Rs 3 crore, co-operative societies (I)', only({ '140': 'O', '144': 'O' }), { note: 'not used in Forms 138/143' }),
    amount(24, 'Total Tax Deducted (J)', 'M', { note: '0.00 for the in-kind sections (addendum §4.1)' }),
    amount(25, 'Total Tax Deposited (L)', 'M', { note: '0.00 for the in-kind sections (addendum §4.1)' }),
    na(26, 'Last total tax deducted'),
    f(27, 'Date of deduction (N)', 'DATE', 8, 'O', { note: 'M*: required if field 24 > 0' }),
    f(28, 'Rate at which tax deducted (M)', 'RATE', 7, only({ '140': 'M', '144': 'M', '143': 'M' }), { note: 'Form 138: not used (§4.4)' }),
    f(29, 'Remarks 9', 'CHAR', 0, 'O', {
      note: 'a filler; Form 138 writes the date of deposit here (§4.4)',
      byForm: { '138': { name: 'Date of deposit (138)', type: 'DATE', width: 8, presence: 'O' } },
    }),
    formOnly(30, 'Remarks 10', { '144': { name: 'TDS rate as per the Act (A) or DTAA (B) (144)', type: 'CHAR', width: 1, presence: 'M', values: ['A', 'B'] } }),
    f(31, 'Unique Identification No. of Form 121 (Q)', 'CHAR', 26, only({ '140': 'O', '144': 'O' })),
    f(32, 'Reason for non/lower/higher deduction (O)', 'CHAR', 1, 'O', {
      values: { other: undefined, '138': REMARKS['138'], '140': REMARKS['140'], '143': REMARKS['143'], '144': REMARKS['144'] },
      note: 'Annexure 6 per form; FVU 1.2 allows each letter for some sections only (T_FV_6444-6448)',
    }),
    f(33, 'Certificate no. u/s 395 (P)', 'CHAR', 15, 'O', { note: '10 or 15 characters, mandatory if field 32 = A (T_FV_6454/6455)' }),
    formOnly(34, 'Filler 1', { '143': { ...yesNo('Payment by the collectee liable to TDS u/s 394(5), TDS deducted (143)', 'O'), note: 'M with remark F and codes 1086-1089 (T_FV_6457)' } }),
    formOnly(35, 'Filler 2', { '143': { name: 'TDS challan number (143)', type: 'INT', width: 5, presence: 'O', exact: true, note: 'only when field 34 = Y (T_FV_6459/6460)' } }),
    formOnly(36, 'Filler 3', { '143': { name: 'TDS date of payment (143)', type: 'DATE', width: 8, presence: 'O', note: 'only when field 34 = Y (T_FV_6459/6461)' } }),
    formOnly(37, 'Filler 4', { '144': { name: 'Address of deductee in country of residence (144)', type: 'CHAR', width: 150, presence: 'O', note: CONTACT_NOTE } }),
    formOnly(38, 'Filler 5', { '144': { name: 'Email of deductee (144)', type: 'CHAR', width: 75, presence: 'O', note: CONTACT_NOTE } }),
    formOnly(39, 'Filler 6', { '144': { name: 'Contact number of deductee (144)', type: 'INT', width: 15, presence: 'O', note: CONTACT_NOTE } }),
    filler(40, 'Filler 7'),
    formOnly(41, 'Filler 8', { '144': { name: 'Tax identification number of deductee (144)', type: 'CHAR', width: 25, presence: 'O', note: CONTACT_NOTE } }),
    na(42, 'Last total tax deposited'),
    filler(43, 'Filler 9'),
    filler(44, 'Filler 10'),
    na(45, 'Record Hash'),
  ],
});

export const NEW_LAYOUTS: LayoutVersion = {
  family: 'new',
  version: VERSION,
  appliesFrom: '202627',
  records: [fileHeader('new', VERSION, FORMS), BH, CD, DD],
};
