/**
 * fast-check generators for the property test: random valid Form 26Q (legacy) and Form 140 (new) workbooks,
 * and single-field corruptions that each name the sheet / row / column where the engine must report an error.
 * Rows are numbered as a person sees them in the workbook: a table's header is row 1, rows[i] is row i + 2.
 */
import fc from 'fast-check';
import type { CodeTables } from './statement-model.js';
import type { Cell } from './workbook-reader.js';

export type PropertyForm = '26Q' | '140';

interface Nature { readonly token: string; readonly legacy: string; readonly modern: string; readonly rate: number }

/** Tokens with an unambiguous code in both families (DECISIONS.md D-20) and their usual rate, in percent. */
const NATURES: readonly Nature[] = [
  { token: 'professional_services', legacy: '4JB', modern: '1027', rate: 10 },
  { token: 'fees_for_technical_service', legacy: '4JA', modern: '1026', rate: 2 },
  { token: 'equipment_rental_charges', legacy: '4IA', modern: '1008', rate: 2 },
  { token: 'lease_and_rental_payment', legacy: '4IB', modern: '1009', rate: 10 },
  { token: 'other_commissions', legacy: '94H', modern: '1006', rate: 2 },
  { token: 'interest_on_securities', legacy: '193', modern: '1019', rate: 10 },
  { token: 'other_interest', legacy: '94A', modern: '1022', rate: 10 },
];

/** 194C: the rate and the new-form code depend on whether the payee is an individual / HUF. */
const CONTRACTOR = 'sales_and_marketing_services';

const LOWER_DEDUCTION: Record<PropertyForm, string> = {
  '26Q': 'lower_deduction_no_deduction_on_account_of_certificate_u_s_197',
  '140': 'lower_deduction_no_deduction_on_account_of_certificate_u_s_395_1',
};
const NO_PAN_HIGHER_RATE = 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan_u_s_397_2';

function isIndividualPan(pan: string): boolean {
  return pan[3] === 'P' || pan[3] === 'H';
}

export function codeTables(form: PropertyForm): CodeTables {
  const byToken = new Map(NATURES.map((n) => [n.token, n]));
  return {
    section: (token, pan) => {
      if (token === CONTRACTOR) return form === '26Q' ? '94C' : isIndividualPan(pan) ? '1023' : '1024';
      const nature = byToken.get(token);
      return nature ? (form === '26Q' ? nature.legacy : nature.modern) : `?${token}`;
    },
    remark: { [LOWER_DEDUCTION[form]]: 'A', [NO_PAN_HIGHER_RATE]: 'C' },
    minorHead: { tds_payable: '200' },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Periods

export interface Period {
  readonly form: PropertyForm;
  readonly quarter: 'Q1' | 'Q3';
  readonly financialYear: string;
  /** IST midnight of the quarter's first day, epoch ms. */
  readonly startMs: number;
  readonly days: number;
  readonly now: Date;
}

const DAY_MS = 86_400_000;
const IST_MIDNIGHT_OFFSET_MS = -330 * 60 * 1000;

function istMidnight(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) + IST_MIDNIGHT_OFFSET_MS;
}

export const PERIODS: Record<PropertyForm, Period> = {
  '26Q': { form: '26Q', quarter: 'Q3', financialYear: 'FY 2025-26', startMs: istMidnight(2025, 10, 1), days: 92, now: new Date('2026-01-20T06:30:00Z') },
  '140': { form: '140', quarter: 'Q1', financialYear: 'TY 2026-27', startMs: istMidnight(2026, 4, 1), days: 91, now: new Date('2026-07-20T06:30:00Z') },
};

// ---------------------------------------------------------------------------------------------------------
// Plans: the meaning of a workbook before it is written in a form's columns

export interface PlanPayee { readonly pan: string; readonly name: string }
export interface PlanRow {
  readonly payee: number;
  readonly nature: string;
  readonly amount: number;
  readonly tax: number;
  readonly day: number;
  readonly reason: string | null;
  readonly certificate: string | null;
}
export interface PlanChallan {
  readonly serial: string;
  readonly bsr: string;
  readonly day: number;
  readonly interest: number;
  readonly fee: number;
  readonly others: number;
  readonly rows: readonly PlanRow[];
}
export interface Plan {
  readonly period: Period;
  readonly payees: readonly PlanPayee[];
  readonly challans: readonly PlanChallan[];
  /** List items as [key, value] pairs instead of {"key": value} objects. */
  readonly pairs: boolean;
  /** Order of the payment rows in the workbook (a permutation): rows of different challans may interleave. */
  readonly paymentOrder: readonly number[];
}

const LETTER = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
const DIGITS4 = fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0'));

export const validPan = fc
  .tuple(fc.array(LETTER, { minLength: 3, maxLength: 3 }), fc.constantFrom(...'PCFHAT'.split('')), LETTER, DIGITS4, LETTER)
  .map(([first, fourth, fifth, digits, last]) => `${first.join('')}${fourth}${fifth}${digits}${last}`);

const NAMES = ['Asha Verma', 'Bharat Traders', 'Chitra Menon', 'Deccan Metals Pvt Ltd', 'Eshan Kapoor', 'Farida Sheikh'];

function payeeArb(form: PropertyForm): fc.Arbitrary<PlanPayee> {
  const pan = form === '140' ? fc.oneof({ weight: 5, arbitrary: validPan }, { weight: 1, arbitrary: fc.constant('PANNOTAVBL') }) : validPan;
  return fc.record({ pan, name: fc.constantFrom(...NAMES) });
}

interface RowSeed { payee: number; natureIndex: number; hundreds: number; day: number; lower: boolean; certificateNo: number }

const rowSeed = (payees: number, days: number): fc.Arbitrary<RowSeed> => fc.record({
  payee: fc.integer({ min: 0, max: payees - 1 }),
  natureIndex: fc.integer({ min: 0, max: NATURES.length }),
  hundreds: fc.integer({ min: 100, max: 50_000 }),
  day: fc.integer({ min: 0, max: days - 1 }),
  lower: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  certificateNo: fc.integer({ min: 0, max: 99_999 }),
});

function certificate(form: PropertyForm, n: number): string {
  const digits = String(n).padStart(5, '0');
  return form === '26Q' ? `LDC26${digits}` : `CERT395${digits}AB`.slice(0, 15).padEnd(15, 'X');
}

/** Tax, rate and remark of one row, from its seed and its payee. */
function planRow(form: PropertyForm, seed: RowSeed, payee: PlanPayee): PlanRow {
  const amount = seed.hundreds * 100;
  const contractor = seed.natureIndex === NATURES.length;
  const noPan = payee.pan === 'PANNOTAVBL';
  const nature = contractor && !noPan ? CONTRACTOR : (NATURES[seed.natureIndex % NATURES.length] as Nature).token;
  const baseRate = nature === CONTRACTOR ? (isIndividualPan(payee.pan) ? 1 : 2) : (NATURES.find((n) => n.token === nature) as Nature).rate;
  if (noPan) return { payee: 0, nature, amount, tax: amount / 5, day: seed.day, reason: NO_PAN_HIGHER_RATE, certificate: null };
  const lower = seed.lower && nature !== CONTRACTOR;
  const rate = lower ? baseRate / 2 : baseRate;
  return {
    payee: 0, nature, amount, tax: (amount * rate) / 100, day: seed.day,
    reason: lower ? LOWER_DEDUCTION[form] : null, certificate: lower ? certificate(form, seed.certificateNo) : null,
  };
}

function challanArb(form: PropertyForm, payees: readonly PlanPayee[], days: number, serial: string): fc.Arbitrary<PlanChallan> {
  return fc.record({
    seeds: fc.array(rowSeed(payees.length, days), { minLength: 1, maxLength: 4 }),
    bsr: fc.integer({ min: 1, max: 9_999_999 }).map((n) => String(n).padStart(7, '0')),
    dayShift: fc.nat({ max: 20 }),
    interest: fc.constantFrom(0, 0, 100, 250),
    fee: fc.constantFrom(0, 0, 200),
    others: fc.constantFrom(0, 0, 50),
  }).map(({ seeds, bsr, dayShift, interest, fee, others }) => {
    const rows = seeds.map((seed) => ({ ...planRow(form, seed, payees[seed.payee] as PlanPayee), payee: seed.payee }));
    const lastRowDay = Math.max(...rows.map((r) => r.day));
    return { serial, bsr, day: Math.min(days - 1, lastRowDay + dayShift), interest, fee, others, rows };
  });
}

export function planArb(form: PropertyForm): fc.Arbitrary<Plan> {
  const period = PERIODS[form];
  return fc.record({
    payees: fc.array(payeeArb(form), { minLength: 1, maxLength: 4 }),
    serials: fc.uniqueArray(fc.integer({ min: 1, max: 99_999 }), { minLength: 1, maxLength: 3 }),
    pairs: fc.boolean(),
  }).chain(({ payees, serials, pairs }) => fc
    .tuple(...serials.map((s) => challanArb(form, payees, period.days, String(s).padStart(5, '0'))))
    .chain((challans) => {
      const count = challans.reduce((total, challan) => total + challan.rows.length, 0);
      const indexes = Array.from({ length: count }, (_, index) => index);
      return fc.shuffledSubarray(indexes, { minLength: count, maxLength: count })
        .map((paymentOrder) => ({ period, payees, challans, pairs, paymentOrder }));
    }));
}

// ---------------------------------------------------------------------------------------------------------
// Writing a plan as a workbook

type Json = Cell | Json[] | { [key: string]: Json };

const PAYER_26Q: [string, Cell][] = [
  ['name', 'Godavari Agro Foods Pvt Ltd'], ['tan', 'HYDG01234C'], ['pan', 'AABCG4321R'], ['branch', 'Head Office'],
  ['gstin', '36AABCG4321R1Z8'], ['street', 'Plot 7 Industrial Estate'], ['area', 'Sanathnagar'], ['city', 'Hyderabad'],
  ['state', 'TELANGANA'], ['postal_code', '500018'], ['email', 'tds@godavariagro.in'], ['mobile', null],
];
const PAYER_140: [string, Cell][] = [
  ['tan', 'HYDG01234C'], ['pan', 'AABCG4321R'], ['name', 'Godavari Agro Foods Pvt Ltd'], ['street', 'Plot 7 Industrial Estate'],
  ['area', 'Sanathnagar'], ['city', 'Hyderabad'], ['state', 'TELANGANA'], ['postal_code', '500018'],
  ['email', 'tds@godavariagro.in'], ['mobile', '9848012345'], ['gstin', '36AABCG4321R1Z8'], ['country', 'INDIA'],
  ['country_code', '91'], ['deductor_type', 'company'],
];
const RP_COMMON: [string, Cell][] = [
  ['designation', 'Chief Accountant'], ['name', 'Lakshmi Narayana'], ['pan', 'ACRPN2468D'], ['street', 'Plot 7 Industrial Estate'],
  ['area', 'Sanathnagar'], ['city', 'Hyderabad'], ['state', 'TELANGANA'], ['postal_code', '500018'],
  ['email', 'lakshmi.n@godavariagro.in'], ['mobile', '9866012345'],
];
const RP_140: [string, Cell][] = [...RP_COMMON, ['country', 'INDIA'], ['country_code', '91']];

export const TAN = 'HYDG01234C';

function list(name: string, entries: [string, Cell][], pairs: boolean): Json {
  return { name, '@entity': 'list', items: entries.map(([key, value]) => (pairs ? [key, value] : { [key]: value })) };
}

function tableBlock(name: string, header: string[], rows: Cell[][]): Json {
  return { name, '@entity': 'table', header, rows };
}

const sheetOf = (name: string, ...blocks: Json[]): Json => ({ name, '@entity': 'sheet', blocks });

export const CHALLAN_HEADER: Record<PropertyForm, string[]> = {
  '26Q': ['challan_serial', 'bsr_code', 'paid_date_epoch', 'minor_head', 'tds_amount', 'surcharge', 'health_and_education_cess', 'interest', 'late_filing_fees', 'other_penalty'],
  '140': ['challan_serial', 'bsr_code', 'paid_date_epoch', 'minor_head', 'total_tax_deducted', 'interest', 'late_filing_fees', 'other_penalty'],
};

const CASH_26Q = ['amount_of_cash_withdrawal_more_than_1_crore_us_194N', 'amount_of_cash_withdrawal_between_20_lakhs_and_1_crore_us_194N_for_non_filers',
  'amount_of_cash_withdrawal_more_than_1_crore_us_194N_for_non_filers', 'amount_of_cash_withdrawal_more_than_3_crore_us_194N_for_co-operative_societies',
  'amount_of_cash_withdrawal_between_20_lakhs_and_3_crore_us_194N_for_non_filers', 'amount_of_cash_withdrawal_more_than_3_crore_us_194N_for_non_filers'];

export const PAYMENT_HEADER: Record<PropertyForm, string[]> = {
  '26Q': ['payee_sr_no', 'challan_serial', 'bsr_code', 'nature_of_payment', 'payment_amount', 'payment_date_epoch', 'tds_amount',
    'surcharge', 'health_and_education_cess', 'deduction_date_epoch', 'reason_for_lower_deduction', 'certificate_number', ...CASH_26Q],
  '140': ['payee_sr_no', 'challan_serial', 'bsr_code', 'nature_of_payment', 'payment_amount', 'payment_date_epoch', 'total_tax_deducted',
    'total_tax_deposited', 'deduction_date_epoch', 'reason_for_lower_deduction', 'certificate_number', 'unique_identification_number_form_121',
    'amount_of_cash_withdrawal_more_than_1_crore_under_section_393_3', 'amount_of_cash_withdrawal_more_than_3_crore_for_cooperative_societies_under_section_393_3'],
};

function dayMs(period: Period, day: number): number {
  return period.startMs + day * DAY_MS;
}

function challanRow(plan: Plan, challan: PlanChallan): Cell[] {
  const tax = challan.rows.reduce((sum, row) => sum + row.tax, 0);
  const head: Cell[] = [challan.serial, challan.bsr, dayMs(plan.period, challan.day), 'tds_payable'];
  const taxes: Cell[] = plan.period.form === '26Q' ? [tax, 0, 0] : [tax];
  return [...head, ...taxes, challan.interest, challan.fee, challan.others];
}

function paymentRow(plan: Plan, challan: PlanChallan, row: PlanRow): Cell[] {
  const date = dayMs(plan.period, row.day);
  const head: Cell[] = [row.payee + 1, challan.serial, challan.bsr, row.nature, row.amount, date];
  if (plan.period.form === '26Q') return [...head, row.tax, 0, 0, date, row.reason, row.certificate, null, null, null, null, null, null];
  return [...head, row.tax, row.tax, date, row.reason, row.certificate, null, null, null];
}

function paymentRows(plan: Plan): Cell[][] {
  const grouped = plan.challans.flatMap((c) => c.rows.map((r) => paymentRow(plan, c, r)));
  return plan.paymentOrder.map((index) => grouped[index] as Cell[]);
}

export function workbookOf(plan: Plan): { [key: string]: Json } {
  const form = plan.period.form;
  const payer = form === '26Q' ? PAYER_26Q : PAYER_140;
  const rp = form === '26Q' ? RP_COMMON : RP_140;
  return {
    name: form === '26Q' ? 'form26q_workbook' : 'form140_workbook',
    '@entity': 'workbook',
    sheets: [
      sheetOf('payer_sheet', list('payer_list', payer, plan.pairs), list('responsible_person_list', rp, plan.pairs)),
      sheetOf('payee_sheet', tableBlock('payee_table', ['sr_no', 'pan', 'name'], plan.payees.map((p, i) => [i + 1, p.pan, p.name]))),
      sheetOf('challan_sheet', tableBlock('challan_table', CHALLAN_HEADER[form], plan.challans.map((c) => challanRow(plan, c)))),
      sheetOf('payment_sheet', tableBlock('payment_table', PAYMENT_HEADER[form], paymentRows(plan))),
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------
// Single-field corruptions

/** One cell changed in a fresh copy of a plan's workbook, and where a person sees it (row: header is row 1). */
export interface ChangedCell {
  readonly workbook: { [key: string]: Json };
  readonly sheet: string;
  readonly row: number;
  readonly column: string;
}

export interface Corruption extends ChangedCell {
  readonly kind: string;
}

interface TableRef { rows: Cell[][]; header: string[] }

function tableIn(workbook: { [key: string]: Json }, sheet: string): TableRef {
  const sheets = workbook.sheets as unknown as { name: string; blocks: TableRef[] }[];
  const found = sheets.find((s) => s.name === sheet)?.blocks[0];
  if (!found) throw new Error(`no table on ${sheet}`);
  return found;
}

function setCell(workbook: { [key: string]: Json }, sheet: string, index: number, column: string, value: Cell): Corruption['sheet'] {
  const table = tableIn(workbook, sheet);
  const row = table.rows[index];
  if (!row) throw new Error(`no row ${index} on ${sheet}`);
  row[table.header.indexOf(column)] = value;
  return sheet;
}

/** Replaces one list value; a list's items[i] is row i + 1 and its column is `<list block>.<key>`. */
function setListValue(
  workbook: { [key: string]: Json }, kind: CorruptionKind, pairs: boolean, block: string, key: string, value: Cell,
): Corruption {
  const sheets = workbook.sheets as unknown as { name: string; blocks: { name: string; items: Json[] }[] }[];
  const list = sheets.find((s) => s.name === 'payer_sheet')?.blocks.find((b) => b.name === block);
  if (!list) throw new Error(`no ${block}`);
  const index = list.items.findIndex((item) => (pairs ? (item as Json[])[0] === key : key in (item as object)));
  list.items[index] = pairs ? [key, value] : { [key]: value };
  return { kind, workbook, sheet: 'payer_sheet', row: index + 1, column: `${block}.${key}` };
}

export type CorruptionKind =
  | 'bad-pan' | 'deduction-before-quarter' | 'payment-outside-quarter' | 'negative-amount' | 'unknown-nature'
  | 'challan-short' | 'certificate-missing' | 'unknown-payee' | 'bad-bsr' | 'unknown-state' | 'unknown-minor-head'
  | 'tax-above-amount';

export const CORRUPTIONS: Record<PropertyForm, readonly CorruptionKind[]> = {
  '26Q': ['bad-pan', 'deduction-before-quarter', 'negative-amount', 'unknown-nature', 'challan-short', 'certificate-missing',
    'unknown-payee', 'bad-bsr', 'unknown-state', 'unknown-minor-head', 'tax-above-amount'],
  '140': ['bad-pan', 'deduction-before-quarter', 'payment-outside-quarter', 'negative-amount', 'unknown-nature', 'challan-short',
    'certificate-missing', 'unknown-payee', 'bad-bsr', 'unknown-state', 'unknown-minor-head', 'tax-above-amount'],
};

/**
 * What the rule code of the reported error must mention, per corruption. Codes are the engine's own (its
 * exported RULES registry); the test checks them loosely, by the word that names the broken thing.
 */
export const CODE_PATTERNS: Record<CorruptionKind, RegExp> = {
  'bad-pan': /PAN/,
  'deduction-before-quarter': /DEDUCTION_DATE|QUARTER/,
  'payment-outside-quarter': /PAYMENT_DATE|QUARTER/,
  'negative-amount': /NEGATIVE|AMOUNT/,
  'unknown-nature': /NATURE|SECTION/,
  'challan-short': /^CHALLAN_SHORT$/,
  'certificate-missing': /CERTIFICATE/,
  'unknown-payee': /PAYEE/,
  'bad-bsr': /BSR/,
  'unknown-state': /STATE/,
  'unknown-minor-head': /MINOR_HEAD/,
  'tax-above-amount': /TAX|AMOUNT|EXCEED/,
};

const BAD_PANS = ['ABCDE1234F', 'ABCP1234F', 'ABCPE12345', '1BCPE1234F'];

/** Applies one corruption to a fresh copy of the plan's workbook; `pick` chooses the row and the variant. */
export function corrupt(plan: Plan, kind: CorruptionKind, pick: number): Corruption {
  const workbook = workbookOf(plan);
  const form = plan.period.form;
  const payments = tableIn(workbook, 'payment_sheet');
  const paymentIndex = pick % payments.rows.length;
  const challanIndex = pick % plan.challans.length;
  const payment = (column: string, value: Cell): Corruption =>
    ({ kind, workbook, sheet: setCell(workbook, 'payment_sheet', paymentIndex, column, value), row: paymentIndex + 2, column });
  const challan = (column: string, value: Cell): Corruption =>
    ({ kind, workbook, sheet: setCell(workbook, 'challan_sheet', challanIndex, column, value), row: challanIndex + 2, column });
  const original = (column: string): Cell => (payments.rows[paymentIndex] as Cell[])[payments.header.indexOf(column)] ?? null;
  switch (kind) {
    case 'bad-pan': {
      const payeeIndex = pick % plan.payees.length;
      const sheet = setCell(workbook, 'payee_sheet', payeeIndex, 'pan', BAD_PANS[pick % BAD_PANS.length] as string);
      return { kind, workbook, sheet, row: payeeIndex + 2, column: 'pan' };
    }
    case 'deduction-before-quarter':
      return payment('deduction_date_epoch', plan.period.startMs - 15 * DAY_MS);
    case 'payment-outside-quarter':
      return payment('payment_date_epoch', plan.period.startMs - 20 * DAY_MS);
    case 'negative-amount':
      return payment('payment_amount', -Number(original('payment_amount')));
    case 'unknown-nature':
      return payment('nature_of_payment', 'consultancy_of_an_unknown_kind');
    case 'challan-short': {
      const column = form === '26Q' ? 'tds_amount' : 'total_tax_deducted';
      const sum = (plan.challans[challanIndex] as PlanChallan).rows.reduce((total, row) => total + row.tax, 0);
      return challan(column, sum - 1);
    }
    case 'certificate-missing': {
      setCell(workbook, 'payment_sheet', paymentIndex, 'reason_for_lower_deduction', LOWER_DEDUCTION[form]);
      return payment('certificate_number', null);
    }
    case 'unknown-payee':
      return payment('payee_sr_no', 999);
    case 'bad-bsr':
      return challan('bsr_code', '12A4567');
    case 'unknown-state':
      return setListValue(workbook, kind, plan.pairs, pick % 2 === 0 ? 'payer_list' : 'responsible_person_list', 'state', 'ATLANTIS');
    case 'unknown-minor-head':
      return challan('minor_head', 'tds_payable_somewhere_else');
    case 'tax-above-amount': {
      const column = form === '26Q' ? 'tds_amount' : 'total_tax_deducted';
      return payment(column, Number(original('payment_amount')) + 100);
    }
  }
}

/**
 * A payee PAN written in lower case. Not a corruption: the engine upper-cases it and warns (DECISIONS.md X-02).
 * The payee is one with a real PAN, chosen by `pick`; null when every payee of the plan is PAN-less.
 */
export function lowerCasePan(plan: Plan, pick: number): ChangedCell | null {
  const withPan = plan.payees.flatMap((payee, index) => (payee.pan === 'PANNOTAVBL' ? [] : [index]));
  if (withPan.length === 0) return null;
  const payeeIndex = withPan[pick % withPan.length] as number;
  const workbook = workbookOf(plan);
  const sheet = setCell(workbook, 'payee_sheet', payeeIndex, 'pan', (plan.payees[payeeIndex] as PlanPayee).pan.toLowerCase());
  return { workbook, sheet, row: payeeIndex + 2, column: 'pan' };
}
