// New family (Income-tax Act 2025, tax year 2026-27 on): Forms 138 (Q1-Q3), 140, 143, 144, validated by
// FVU/RPU 1.x. The tables are the Form 140 "Version 1.0" workbook as machine-extracted in
// jabaharlalsah-cmd/Tally (tds-txt-format.md §4.1-4.4), which Forms 138 and 144 share except field 5 and the
// texts; the v1.2 changes and the addendum's corrections are applied where they touch a field. Forms 143 and
// 144: Protean's tables are not public (tds-gaps.md §3); their DD entries follow our design (FORMAT_NOTES.md §7).

import {
  PAN_PLACEHOLDERS, COLLECTION_CODES_143, DEDUCTOR_CATEGORIES, MINOR_HEADS, QUARTERS, REMARKS, REMITTANCE_144, SECTIONS_138, SECTIONS_140, SECTIONS_144, STATE_CODES,
} from './code-lists.js';
import { fileHeader } from './file-header.js';
import { field as f, layout, na, YES_NO, type FieldSpec, type LayoutVersion, type PerForm, type Presence } from './types.js';

const VERSION = 'Form 140 v1.0 (02-Jul-2026) as extracted, with the FVU/RPU 1.2 changes (22-Jul-2026); Forms 138 Q1-Q3, 143, 144';
const FORMS = ['138', '140', '143', '144'] as const;
const DESIGN = 'Forms 143/144: our design in the 140 filler (FORMAT_NOTES.md §7; Protean table not public)';
const amount = (n: number, name: string, presence: FieldSpec['presence'] = 'M', extra: Partial<FieldSpec> = {}) => f(n, name, 'AMOUNT', 15, presence, extra);
const only = (forms: Partial<Record<'138' | '140' | '143' | '144', Presence>>, other: Presence = 'NA'): PerForm<Presence> => ({ other, ...forms });

/** A filler: optional in the 140 table, with no type or size; we never write one (the width 0 makes any value fail). */
const filler = (n: number, name: string): FieldSpec => f(n, name, 'CHAR', 0, 'O', { note: 'filler: no type or size in the table; written empty' });

/** A 140 filler that Forms 143/144 use for their own items (our design). */
const designed = (n: number, name: string, byForm: FieldSpec['byForm']): FieldSpec => ({ ...filler(n, name), note: `a filler in Forms 140/138. ${DESIGN}`, byForm: byForm! });
const dtaa = { name: 'Rate as per DTAA (B) or the Act (A) (144)', type: 'CHAR', width: 1, presence: 'O', values: ['A', 'B'] } as const;

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
    na(49, 'Count of Salary Details Records'),
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
  source: 'tds-txt-format.md §4.3 "Form 140 (new), 30 fields"; nil challans per tds-rules-addendum.md §1.2; fields 24/25 (v1.2 allocations) left as fillers: position UNVERIFIED (§0 item 4)',
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
    ...[1, 2, 3, 4, 5, 6].map((k) => filler(23 + k, `Filler ${k}`)),
    na(30, 'Record Hash'),
  ],
});

const DD = layout({
  family: 'new',
  recordType: 'DD',
  version: VERSION,
  source: 'tds-txt-format.md §4.4 "Form 140 (new), 45 fields" and "Form 138 DD"; in-kind and cash-withdrawal rules per tds-rules-addendum.md §4; Forms 143/144 per FORMAT_NOTES.md §7',
  forms: FORMS,
  numbering: { serial: 4, parent: 5 },
  count: 45,
  fields: [
    f(1, 'Line Number', 'INT', 9, 'M'),
    f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['DD'] }),
    f(3, 'Batch Number', 'INT', 9, 'M'),
    f(4, 'Deductee / Party Detail Record No (A)', 'INT', 9, 'M', { note: 'CONFLICT with the legacy order (§0 item 3): the workbook extraction is followed' }),
    f(5, 'Challan reference Number (B)', 'INT', 9, 'M'),
    f(6, 'Mode', 'CHAR', 1, 'M', { values: ['O'] }),
    na(7, 'Last Deductee PAN'),
    f(8, "Deductee's PAN (C)", 'CHAR', 10, 'M', { format: 'PAN', values: PAN_PLACEHOLDERS, note: 'a PAN or a placeholder; no placeholder for the in-kind sections' }),
    f(9, 'Name of the Deductee (D)', 'CHAR', 75, 'M'),
    ...[1, 2, 3, 4, 5].map((k) => filler(9 + k, `Remarks ${k} (future use)`)),
    f(15, 'Section Code (E)', 'CHAR', 4, 'M', {
      exact: true,
      values: { other: undefined, '138': SECTIONS_138, '140': SECTIONS_140, '144': SECTIONS_144, '143': COLLECTION_CODES_143 },
      note: 'Annexure 2 (4 digits); 143: collection codes of tds-gaps.md §3.1',
    }),
    filler(16, 'Remarks 6'),
    filler(17, 'Remarks 7'),
    f(18, 'Whether tax deducted has been deposited (K)', 'CHAR', 1, 'M', { values: YES_NO }),
    f(19, 'Date of payment/credit (F)', 'DATE', 8, 'M', { note: 'within the quarter and tax year (FVU 1.2)' }),
    amount(20, 'Amount Paid/Credited (G)'),
    f(21, 'Grossing up indicator', 'CHAR', 0, 'NA', {
      note: `NA in Forms 140/138. ${DESIGN}`,
      byForm: {
        '144': { name: 'Grossing up indicator (144)', type: 'CHAR', width: 1, presence: 'O', values: YES_NO },
        '143': { name: 'Total value of the purchase (143)', type: 'AMOUNT', width: 15, presence: 'O' },
      },
    }),
    amount(22, 'Cash withdrawal > Rs 1 crore, s.393(3) (H)', only({ '140': 'O', '144': 'O' }), { note: 'not used in Form 138' }),
    amount(23, 'Cash withdrawal > Rs 3 crore, co-operative societies (I)', only({ '140': 'O', '144': 'O' }), { note: 'not used in Form 138' }),
    amount(24, 'Total Tax Deducted (J)', 'M', { note: '0.00 for the in-kind sections (addendum §4.1)' }),
    amount(25, 'Total Tax Deposited (L)', 'M', { note: '0.00 for the in-kind sections (addendum §4.1)' }),
    na(26, 'Last total tax deducted'),
    f(27, 'Date of deduction (N)', 'DATE', 8, 'O', { note: 'M*: required if field 24 > 0' }),
    f(28, 'Rate at which tax deducted (M)', 'RATE', 7, only({ '140': 'M', '144': 'M', '143': 'M' }), { note: 'Form 138: not used (§4.4)' }),
    f(29, 'Remarks 9', 'CHAR', 0, 'O', {
      note: 'a filler; Form 138 writes the date of deposit here (§4.4)',
      byForm: { '138': { name: 'Date of deposit (138)', type: 'DATE', width: 8, presence: 'O' } },
    }),
    filler(30, 'Remarks 10'),
    f(31, 'Unique Identification No. of Form 121 (Q)', 'CHAR', 26, 'O'),
    f(32, 'Reason for non/lower/higher deduction (O)', 'CHAR', 1, 'O', {
      values: { other: undefined, '138': REMARKS['138'], '140': REMARKS['140'], '143': REMARKS['143'], '144': REMARKS['144'] },
      note: 'Annexure 6 per form (§6.3); 143 our design',
    }),
    f(33, 'Certificate no. u/s 395 (P)', 'CHAR', 15, 'O', { note: '15 alphanumeric, mandatory if field 32 = A' }),
    designed(34, 'Filler 1', { '144': dtaa, '143': { name: 'Collectee is non-resident (143)', type: 'CHAR', width: 1, presence: 'O', values: YES_NO } }),
    designed(35, 'Filler 2', {
      '144': { name: 'Nature of remittance (144)', type: 'INT', width: 2, presence: 'O', exact: true, values: REMITTANCE_144 },
      '143': { name: 'Permanent establishment in India (143)', type: 'CHAR', width: 1, presence: 'O', values: YES_NO },
    }),
    designed(36, 'Filler 3', { '144': { name: 'Form 15CA acknowledgement (144)', type: 'CHAR', width: 15, presence: 'O' } }),
    designed(37, 'Filler 4', { '144': { name: 'Country of residence (144)', type: 'INT', width: 3, presence: 'O' } }),
    designed(38, 'Filler 5', { '144': { name: 'Email of deductee (144)', type: 'CHAR', width: 75, presence: 'O' } }),
    designed(39, 'Filler 6', { '144': { name: 'Contact number of deductee (144)', type: 'CHAR', width: 15, presence: 'O' } }),
    designed(40, 'Filler 7', { '144': { name: 'Address in country of residence (144)', type: 'CHAR', width: 150, presence: 'O' } }),
    designed(41, 'Filler 8', { '144': { name: 'Tax identification number (144)', type: 'CHAR', width: 25, presence: 'O' } }),
    na(42, 'Last total tax deposited'),
    filler(43, 'Filler 10'),
    filler(44, 'Filler 11'),
    na(45, 'Record Hash'),
  ],
});

export const NEW_LAYOUTS: LayoutVersion = {
  family: 'new',
  version: VERSION,
  appliesFrom: '202627',
  records: [fileHeader('new', VERSION, FORMS), BH, CD, DD],
};
