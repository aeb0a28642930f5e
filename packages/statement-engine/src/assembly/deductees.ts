// payment_table rows -> Deductee, with the per-row rules (sections, remarks, certificates, dates, amounts).

import { DEDUCTION_DATE_BY_QUARTER_END, NIL_CHALLAN_REMARKS } from '../codes/fvu-choices.js';
import { LEGACY_CERTIFICATE_PATTERN, NEW_CERTIFICATE_PATTERN } from '../codes/identifiers.js';
import { writesNonResidentContact } from '../records/deductee.js';
import { REMITTANCE_REQUIRED_144, REMITTANCE_SECTIONS_144, remittanceCode } from '../codes/misc.js';
import { REMARKS_NEEDING_PAN, newFormRemarkSections, reasonTable, zeroTaxRemarks } from '../codes/reasons.js';
import { remarkRules, sectionAllowed, type RemarkRules } from '../codes/remark-releases.js';
import {
  CASH_WITHDRAWAL_SECTIONS,
  IN_KIND_LIST_UNSETTLED_SECTIONS,
  IN_KIND_SECTIONS,
  NEW_CASH_COLUMN_SECTIONS,
  PAN_MANDATORY_SECTIONS,
  FIRST_194P_YEAR,
  SECTION_194P,
  SENIOR_CATEGORIES,
  sectionTable,
} from '../codes/sections.js';
import { formatForPeople, fromEpochMillis, isPlausibleEpoch, type CivilDate } from '../dates.js';
import { formatPaise, formatRate, MAX_AMOUNT_PAISE, parseRate, rateOf } from '../money.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import { col } from './columns.js';
import type { BuildContext } from './context.js';
import type { Challan, Deductee, Payee } from './models.js';
import { readAmount, readCode, readDate, readText, yn, type PlaceFn } from './values.js';
import { fieldWidth } from '../layouts/compile.js';

/** Sections whose higher rate without PAN is 5% rather than 20% (194O/194Q and their successors). */
const FIVE_PERCENT_SECTIONS = new Set(['94O', '94Q', '1031', '1035']);

/**
 * DD rate (legacy 26, new 28): the rate of the tax alone (DD 14 / DD 24 ÷ amount paid), without surcharge and
 * cess. No workbook or FVU text says which (addendum §6, Low); the FVU check T-FV-4278 (FVU 3.1) is one-sided
 * (tax shown ≥ 10% below amount × rate is an error), so a rate without surcharge and cess always passes it
 * when the tax shown includes them, while an inclusive rate fails if the FVU compares with income tax alone.
 * Only 27Q and 27EQ rows carry surcharge and cess in practice; set false to write the inclusive rate.
 */
export const RATE_EXCLUDES_SURCHARGE_AND_CESS = true;

export interface Lookups {
  payee(srNo: number): Payee | undefined;
  /** The challan(s) with this serial and BSR code: several when they differ only in date. */
  challan(serial: string, bsr: string): Challan | readonly Challan[] | undefined;
  /** A payee row's number could not be read: an unknown payee number may be that row's (not reported). */
  readonly payeesUnreadable: boolean;
  /** A challan row's serial or BSR could not be read: likewise for an unknown challan. */
  readonly challansUnreadable: boolean;
}

/** Place of a column (by position) in the current row, built only when a problem is reported. */
type At = (position: number) => PlaceFn;

/** Positions (or -1) of every column the payment builder reads, resolved once per table. */
function columns(layout: TableLayout) {
  const spec = layout.spec;
  const newKeys = col(spec, 'bank_challan_number_or_ddo_serial_number') >= 0;
  const pos = (k: string) => col(spec, k);
  const taxKey = ['total_tax_deducted', 'total_tax_collected', 'tds_amount', 'tcs_amount'].find((k) => col(spec, k) >= 0)!;
  const deductionKey = col(spec, 'collection_date_epoch') >= 0 ? 'collection_date_epoch' : 'deduction_date_epoch';
  const reasonKey = col(spec, 'reason_for_lower_collection') >= 0 ? 'reason_for_lower_collection' : 'reason_for_lower_deduction';
  return {
    payee: pos('payee_sr_no'),
    serial: pos(newKeys ? 'bank_challan_number_or_ddo_serial_number' : 'challan_serial'),
    bsr: pos(newKeys ? 'bsr_code_or_form_24g_receipt_number' : 'bsr_code'),
    challanDate: pos('challan_date_epoch'),
    nature: pos('nature_of_payment'),
    amount: pos('payment_amount'),
    paymentDate: pos('payment_date_epoch'),
    taxKey,
    tax: pos(taxKey),
    surcharge: pos('surcharge'),
    cess: pos('health_and_education_cess'),
    deposited: pos('total_tax_deposited'),
    deductionKey,
    deductionDate: pos(deductionKey),
    depositDate: pos('deposit_date_epoch'),
    reason: pos(reasonKey),
    certificate: pos('certificate_number'),
    rate: pos('rate_of_deduction'),
    cashKeys: spec.columns.filter((c) => c.key.startsWith('amount_of_cash_withdrawal')).map((c) => c.key),
    cash: spec.columns.flatMap((c, i) => (c.key.startsWith('amount_of_cash_withdrawal') ? [i] : [])),
    form121: pos('unique_identification_number_form_121'),
    totalValue: pos('total_value_of_purchase'),
    remittance: pos('nature_of_remittance'),
    dtaa: pos('applicability_of_tds_rate_under_dtaa'),
    form15ca: pos('form_15ca_acknowledgement_number'),
    grossingUp: pos('grossing_up_indicator'),
    grossedUp: pos('grossed_up_under_section_393_10'),
  };
}

type Columns = ReturnType<typeof columns>;

const columnsCache = new WeakMap<TableLayout, Columns>();

function columnsOf(layout: TableLayout): Columns {
  let n = columnsCache.get(layout);
  if (!n) {
    n = columns(layout);
    columnsCache.set(layout, n);
  }
  return n;
}

/** Cell at a position; null for a column this workbook lacks or a short row. */
const at0 = (cells: readonly unknown[], position: number): unknown => (position < 0 ? null : (cells[position] ?? null));

/** The row's payee, or undefined after reporting an unknown payee number. */
function payeeOf(ctx: BuildContext, layout: TableLayout, row: TableRow, lookups: Lookups, n: Columns): Payee | undefined {
  const srNo = row.cells[n.payee];
  const payee = typeof srNo === 'number' ? lookups.payee(srNo) : undefined;
  if (typeof srNo === 'number' && !payee && !lookups.payeesUnreadable) ctx.report('UNKNOWN_PAYEE', () => layout.place(row.number, n.payee), `Payee ${srNo} is not in the payee sheet`);
  return payee;
}

/** The challan(s) a payment row names, if the challan sheet has them (nothing reported). */
function lookUpChallans(cells: readonly unknown[], lookups: Lookups, n: Columns): Challan | readonly Challan[] | undefined {
  const rawSerial = at0(cells, n.serial);
  const rawBsr = at0(cells, n.bsr);
  // Strings as read are tried first; trimming (and number cells) only when that fails.
  const found = typeof rawSerial === 'string' && typeof rawBsr === 'string' ? lookups.challan(rawSerial, rawBsr) : undefined;
  return found ?? lookups.challan(readCode(rawSerial), readCode(rawBsr));
}

/** The challans a payment row that could not be built may name (several when its serial and BSR are shared). */
export function namedChallans(layout: TableLayout, row: TableRow, lookups: Lookups): readonly Challan[] {
  const found = lookUpChallans(row.cells, lookups, columnsOf(layout));
  if (found === undefined) return [];
  return Array.isArray(found) ? (found as readonly Challan[]) : [found as Challan];
}

/** The row's challan, or undefined after reporting an unknown or ambiguous challan. */
function challanOf(ctx: BuildContext, layout: TableLayout, row: TableRow, lookups: Lookups, n: Columns): Challan | undefined {
  const found = lookUpChallans(row.cells, lookups, n);
  if (found === undefined) {
    if (!row.damaged && !lookups.challansUnreadable) {
      const serial = readCode(at0(row.cells, n.serial));
      const bsr = readCode(at0(row.cells, n.bsr));
      ctx.report('UNKNOWN_CHALLAN', () => layout.place(row.number, n.serial), `No challan with serial '${serial}' and BSR code '${bsr}' in the challan sheet`);
    }
    return undefined;
  }
  return Array.isArray(found) ? challanByDate(ctx, layout, row, found as readonly Challan[], n) : (found as Challan);
}

/**
 * Serial and BSR code name several challans (the same serial at the same branch on different days): the
 * payment's `challan_date_epoch` (our extension column) says which. Without it we report rather than guess.
 */
function challanByDate(ctx: BuildContext, layout: TableLayout, row: TableRow, candidates: readonly Challan[], n: Columns): Challan | undefined {
  const given = at0(row.cells, n.challanDate);
  const rows = candidates.map((c) => `row ${c.row} dated ${formatForPeople(c.givenDate)}`).join(', ');
  if (given === null) {
    if (!row.damaged) ctx.report('CHALLAN_AMBIGUOUS', () => layout.place(row.number, n.serial), `Serial '${candidates[0]!.serial}' and BSR code '${candidates[0]!.bsr}' name ${candidates.length} challans (${rows}); add the column challan_date_epoch with the challan's date`);
    return undefined;
  }
  const date = isPlausibleEpoch(given) ? fromEpochMillis(given) : Number.NaN;
  const challan = candidates.find((c) => c.givenDate === date);
  if (!challan && !row.damaged) ctx.report('UNKNOWN_CHALLAN', () => layout.place(row.number, n.challanDate), `None of the challans with serial '${candidates[0]!.serial}' and BSR code '${candidates[0]!.bsr}' (${rows}) has this date`);
  return challan;
}

/**
 * The place of a column in the row being built, worked out only when a problem is reported. One locator per
 * table is reused across rows (rows are built one at a time), so building a row allocates no closures.
 */
interface Locator {
  row: number;
  at: At;
}

const locators = new WeakMap<TableLayout, Locator>();

function locatorOf(layout: TableLayout): Locator {
  let locator = locators.get(layout);
  if (!locator) {
    const made: Locator = { row: 0, at: (position) => () => layout.place(made.row, position < 0 ? null : position) };
    locators.set(layout, made);
    locator = made;
  }
  return locator;
}

/** Amount in paise; whole non-negative rupees (most cells) skip the general reader. */
function amountAt(ctx: BuildContext, cells: readonly unknown[], position: number, at: At, label: string): number {
  const v = at0(cells, position);
  if (v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_AMOUNT_PAISE / 100) return v * 100;
  return readAmount(ctx, v, at(position), label);
}

/**
 * The deductee being built. Rows are built one at a time and each Deductee is written out (and dropped)
 * before the next row is read, so one object serves every row: a million-row file allocates it once.
 */
const current: Deductee = {
  row: 0,
  payee: null as unknown as Payee,
  challan: null as unknown as Challan,
  section: '',
  amountPaid: 0,
  paymentDate: 0,
  incomeTax: 0,
  surcharge: 0,
  cess: 0,
  deducted: 0,
  deposited: 0,
  deductionDate: null,
  depositDate: null,
  rate: 0,
  remark: '',
  certificate: '',
  cash: [],
  form121: '',
  totalValue: 0,
  dtaa: null,
  remittance: '',
  form15ca: '',
  grossingUp: '',
};

/** The row as a Deductee (valid until the next call), or null when the row cannot be written. */
export function buildDeductee(ctx: BuildContext, layout: TableLayout, row: TableRow, lookups: Lookups): Deductee | null {
  const n = columnsOf(layout);
  const payee = payeeOf(ctx, layout, row, lookups, n);
  const challan = challanOf(ctx, layout, row, lookups, n);
  // A damaged payee (PAN unreadable) or challan still has its payments checked; a damaged row itself does not.
  if (!payee || !challan || row.damaged) return null;
  const locator = locatorOf(layout);
  locator.row = row.number;
  const at = locator.at;
  const c = row.cells;

  const section = readSection(ctx, payee, at0(c, n.nature), at, n.nature);
  const amountPaid = amountAt(ctx, c, n.amount, at, 'Amount paid');
  const legacyTax = ctx.isLegacy;
  const incomeTax = amountAt(ctx, c, n.tax, at, 'Tax');
  const surcharge = legacyTax ? amountAt(ctx, c, n.surcharge, at, 'Surcharge') : 0;
  const cess = legacyTax ? amountAt(ctx, c, n.cess, at, 'Cess') : 0;
  const deducted = incomeTax + surcharge + cess;
  const deposited = legacyTax ? deducted : amountAt(ctx, c, n.deposited, at, 'Tax deposited');
  const paymentDate = dateOf(ctx, at0(c, n.paymentDate), at, n.paymentDate, 'Date of payment');
  if (Number.isNaN(amountPaid) || Number.isNaN(deducted) || Number.isNaN(deposited) || section === null || paymentDate === null) return null;

  const d = current;
  d.row = row.number;
  d.payee = payee;
  d.challan = challan;
  d.section = section;
  d.amountPaid = amountPaid;
  d.paymentDate = paymentDate;
  d.incomeTax = incomeTax;
  d.surcharge = surcharge;
  d.cess = cess;
  d.deducted = deducted;
  d.deposited = deposited;
  d.deductionDate = null;
  d.depositDate = null;
  d.rate = 0;
  d.remark = '';
  d.certificate = '';
  d.cash = NO_CASH;
  d.form121 = '';
  d.totalValue = 0;
  d.dtaa = null;
  d.remittance = '';
  d.form15ca = '';
  d.grossingUp = '';
  checkAmounts(ctx, d, at, n);
  readDates(ctx, row, d, at, n);
  readRemark(ctx, d, at0(c, n.reason), at0(c, n.certificate), at, n);
  if (challan.nil && !challan.damaged) checkNilChallanRow(ctx, d, at0(c, n.reason), at, n);
  checkSectionRules(ctx, d, at, n);
  readRate(ctx, d, at0(c, n.rate), at, n.rate);
  if (n.cash.length > 0) readCash(ctx, d, row, n, at);
  readFormColumns(ctx, d, row, at, n);
  return d;
}

const NO_CASH: Array<number | null> = [];

/** readDate with a fast path for a plausible epoch that is not in the future (no closure allocated). */
function dateOf(ctx: BuildContext, value: unknown, at: At, position: number, label: string): CivilDate | null {
  if (isPlausibleEpoch(value)) {
    const date = fromEpochMillis(value);
    if (date <= ctx.today) return date;
  }
  return readDate(ctx, value, at(position), label);
}

function readSection(ctx: BuildContext, payee: Payee, token: unknown, at: At, position: number): string | null {
  const text = readCode(token);
  // One lookup: a code is a string, a split by payee type or null (known, no confirmed code); undefined is unknown.
  const code = sectionTable(ctx.kind, ctx.family).get(text);
  if (code === undefined) {
    ctx.report('INVALID_NATURE_OF_PAYMENT', at(position), `Nature of payment '${text.slice(0, 80)}' is not one of Form ${ctx.form.formNumber}'s`);
    return null;
  }
  if (code === null) {
    ctx.report('SECTION_CODE_UNKNOWN', at(position), `No confirmed Form ${ctx.form.formNumber} section code for '${text.slice(0, 80)}'`);
    return null;
  }
  if (typeof code === 'string') return code;
  if (payee.panKind !== 'valid' && payee.deducteeType === 'other' && !payee.damaged) {
    ctx.report('SECTION_PAYEE_TYPE_ASSUMED', at(position), `Payee ${payee.srNo} has no PAN to tell an individual from others; section ${code.other} written`);
  }
  return payee.deducteeType === 'individual_or_huf' ? code.individualOrHuf : code.other;
}

function checkAmounts(ctx: BuildContext, d: Deductee, at: At, n: Columns): void {
  if (d.amountPaid <= 0) ctx.report('AMOUNT_PAID_NOT_POSITIVE', at(n.amount), 'Amount paid/credited must be more than zero');
  if (d.amountPaid > ctx.amountCeiling) {
    ctx.report('AMOUNT_PAID_TOO_LARGE', at(n.amount), `Amount paid ${formatPaise(d.amountPaid)} is above ${formatPaise(ctx.amountCeiling)}, the most the FVU accepts in Form ${ctx.form.formNumber}`);
  }
  if (d.deducted > d.amountPaid && d.amountPaid > 0) ctx.report('TAX_EXCEEDS_AMOUNT', at(n.tax), `Tax ${formatPaise(d.deducted)} is more than the amount paid ${formatPaise(d.amountPaid)}`);
  if (!ctx.isLegacy && d.deposited !== d.deducted) {
    ctx.report('DEDUCTED_DEPOSITED_MISMATCH', at(n.deposited), `Tax deposited ${formatPaise(d.deposited)} differs from tax deducted ${formatPaise(d.deducted)}`);
  }
}

function readDates(ctx: BuildContext, row: TableRow, d: Deductee, at: At, n: Columns): void {
  const p = ctx.period;
  // Legacy: a payment credited in an earlier quarter is a late deduction, reported in the quarter of deduction.
  if (ctx.paymentDateInQuarter && (d.paymentDate < p.quarterStart || d.paymentDate > p.quarterEnd)) {
    ctx.report('PAYMENT_DATE_OUTSIDE_QUARTER', at(n.paymentDate), `Date of payment ${formatForPeople(d.paymentDate)} is outside ${ctx.describeQuarter()}`);
  }
  const deduction = dateOf(ctx, at0(row.cells, n.deductionDate), at, n.deductionDate, 'Date of deduction');
  const taxed = d.deducted > 0;
  if (taxed && deduction === null) {
    ctx.report('DEDUCTION_DATE_REQUIRED', at(n.deductionDate), 'Tax was deducted, so the date of deduction is required');
  } else if (taxed && deduction !== null) {
    d.deductionDate = deduction;
    if (deduction < p.quarterStart) ctx.report('DEDUCTION_DATE_BEFORE_QUARTER', at(n.deductionDate), `Date of deduction ${formatForPeople(deduction)} is before the quarter starts`);
    if (DEDUCTION_DATE_BY_QUARTER_END && deduction > p.quarterEnd) {
      ctx.report('DEDUCTION_DATE_AFTER_QUARTER', at(n.deductionDate), `Date of deduction ${formatForPeople(deduction)} is after ${ctx.describeQuarter()}; it belongs to a later quarter's statement`);
    }
    if (!d.challan.nil && d.challan.date !== 0 && d.challan.date < deduction) {
      ctx.report('DEPOSIT_BEFORE_DEDUCTION', at(n.deductionDate), `The challan is dated ${formatForPeople(d.challan.date)}, before the deduction on ${formatForPeople(deduction)}`);
    }
  }
  if (ctx.kind !== 'salary' || !taxed) return;
  // 24Q and 138 carry the date of deposit: the date of the deductee's challan.
  if (n.depositDate >= 0) {
    const given = readDate(ctx, at0(row.cells, n.depositDate), at(n.depositDate), 'Date of deposit');
    if (given !== null && given !== d.challan.date) {
      ctx.report('DEPOSIT_DATE_MISMATCH', at(n.depositDate), `Date of deposit ${formatForPeople(given)} is not its challan's date ${formatForPeople(d.challan.date)}`);
    }
  }
  d.depositDate = d.challan.date as CivilDate;
}

function readRemark(ctx: BuildContext, d: Deductee, token: unknown, certificate: unknown, at: At, n: Columns): void {
  const text = readCode(token);
  const certificateText = readCode(certificate);
  if (text !== '') {
    const table = reasonTable(ctx.kind, ctx.family);
    if (!table.has(text)) {
      ctx.report('INVALID_REASON', at(n.reason), `Reason '${text.slice(0, 80)}' is not one of Form ${ctx.form.formNumber}'s`);
    } else if (table.get(text) === null) {
      ctx.report('REASON_CODE_UNKNOWN', at(n.reason), `No confirmed Form ${ctx.form.formNumber} remark code for '${text.slice(0, 80)}'`);
    } else {
      d.remark = table.get(text)!;
    }
  }
  const r = d.remark;
  // An unreadable PAN (already reported) is neither valid nor missing: the PAN rules are left out.
  const pan = d.payee.damaged ? null : d.payee.panKind;
  if (r === 'C' && pan === 'valid') ctx.report('REMARK_C_REQUIRES_NO_PAN', at(n.reason), 'Remark C (higher rate for want of PAN) is only for payees without a valid PAN');
  if (REMARKS_NEEDING_PAN.has(r) && pan !== 'valid' && pan !== null) ctx.report('REMARK_REQUIRES_PAN', at(n.reason), `Remark ${r} needs the payee's valid PAN`);
  if (r !== 'C' && pan === 'placeholder' && d.deducted > 0) {
    ctx.report('PLACEHOLDER_PAN_WITHOUT_REMARK', at(n.reason), `Payee ${d.payee.srNo} has no PAN but the remark is not C (higher rate)`);
  }
  if (zeroTaxRemarks(ctx.kind, ctx.family).has(r) && d.deducted > 0) ctx.report('REMARK_REQUIRES_ZERO_TAX', at(n.reason), `Remark ${r} means no deduction, but tax ${formatPaise(d.deducted)} is given`);
  if (r !== '') checkRemarkSection(ctx, d, at(n.reason));
  // 24Q: A and B are both u/s 197 certificates (lower / no deduction); elsewhere only A has a certificate.
  const certificateRemark = r === 'A' || (r === 'B' && ctx.kind === 'salary' && ctx.isLegacy);
  if (certificateRemark) {
    const pattern = ctx.isLegacy ? LEGACY_CERTIFICATE_PATTERN : NEW_CERTIFICATE_PATTERN;
    if (certificateText === '') ctx.report('CERTIFICATE_REQUIRED', at(n.certificate), `Remark ${r} needs the lower/no deduction certificate number`);
    else if (!pattern.test(certificateText)) ctx.report('INVALID_CERTIFICATE', at(n.certificate), `The certificate number must be ${ctx.isLegacy ? 10 : 15} letters or digits`);
    d.certificate = certificateText.toUpperCase();
    if (d.certificate !== certificateText) ctx.report('IDENTIFIER_UPPERCASED', at(n.certificate), 'The certificate number was written in lower case; it is upper-cased');
  } else if (certificateText !== '') {
    ctx.report('CERTIFICATE_WITHOUT_REMARK', at(n.certificate), 'A certificate number is written only with a certificate remark (A); it is left out');
  }
}

/** The remark rules of the statement's period, folded once per conversion. */
const remarkRulesByContext = new WeakMap<BuildContext, RemarkRules>();

function remarkRulesOf(ctx: BuildContext): RemarkRules {
  let rules = remarkRulesByContext.get(ctx);
  if (!rules) {
    rules = remarkRules(ctx.kind, ctx.family, ctx.period);
    remarkRulesByContext.set(ctx, rules);
  }
  return rules;
}

/** The remark's section limit and period: the FVU release in force (legacy) or the Form 140/144 table (new). */
function checkRemarkSection(ctx: BuildContext, d: Deductee, place: PlaceFn): void {
  const r = d.remark;
  if (!ctx.isLegacy) {
    const allowed = newFormRemarkSections(ctx.kind).get(r);
    if (allowed && !allowed.has(d.section)) ctx.report('REMARK_NOT_ALLOWED_FOR_SECTION', place, `Remark ${r} is not allowed with section ${d.section}`);
    return;
  }
  const rules = remarkRulesOf(ctx);
  const off = rules.notInForce.get(r);
  if (off !== undefined) {
    ctx.report('REMARK_NOT_IN_FORCE', place, `Remark ${r} is not accepted for ${ctx.period.label} ${ctx.period.quarter} (${off})`);
    return;
  }
  const limit = rules.limits.get(r);
  if (!limit) return;
  if (!sectionAllowed(limit.sections, d.section)) ctx.report('REMARK_NOT_ALLOWED_FOR_SECTION', place, `Remark ${r} is not allowed with section ${d.section} (${limit.release})`);
  const window = limit.paymentDates;
  if (window && (d.paymentDate < window.from || d.paymentDate > window.to)) {
    ctx.report('REMARK_NOT_IN_FORCE', place, `Remark ${r}: its section applied to payments from ${formatForPeople(window.from)} to ${formatForPeople(window.to)}, not ${formatForPeople(d.paymentDate)}`);
  }
}

/** Remarks a row under a nil challan may carry: the published list, or A and the form's no-deduction remarks. */
function nilChallanRemarks(ctx: BuildContext): ReadonlySet<string> {
  return NIL_CHALLAN_REMARKS[ctx.form.formNumber] ?? new Set(['A', ...zeroTaxRemarks(ctx.kind, ctx.family)]);
}

/** FVU 4.0: each row under a nil challan deposits no tax and says why nothing was deducted (addendum §1.4). */
function checkNilChallanRow(ctx: BuildContext, d: Deductee, reason: unknown, at: At, n: Columns): void {
  const tax = Math.max(d.deducted, d.deposited);
  if (tax > 0) {
    ctx.report('NIL_CHALLAN_ROW', at(n.tax), `Its challan (challan_sheet row ${d.challan.row}) is a nil challan that deposits nothing, so this row cannot carry tax ${formatPaise(tax)}`);
  }
  if (d.remark === '' && readCode(reason) !== '') return; // an unknown reason, already reported
  const allowed = nilChallanRemarks(ctx);
  if (!allowed.has(d.remark)) {
    const letters = [...allowed].sort().join(', ');
    const what = d.remark === '' ? 'has no remark' : `has remark ${d.remark}`;
    ctx.report('NIL_CHALLAN_ROW', at(n.reason), `A row under a nil challan (challan_sheet row ${d.challan.row}) ${what}; Form ${ctx.form.formNumber} allows ${letters} there`);
  }
}

/** 27EQ collection codes the FVU 9.4 refuses from FY 2025-26 on (T_FV_6380): D (forest produce) and R (sale of goods). */
const COLLECTION_CODES_ENDED = new Set(['D', 'R']);
const FIRST_YEAR_WITHOUT_ENDED_CODES = 2025;

function checkSectionRules(ctx: BuildContext, d: Deductee, at: At, n: Columns): void {
  if (d.section === SECTION_194P) check194P(ctx, d, at(n.nature));
  if (ctx.form.formNumber === '27EQ' && ctx.period.startYear >= FIRST_YEAR_WITHOUT_ENDED_CODES && COLLECTION_CODES_ENDED.has(d.section)) {
    ctx.report('COLLECTION_CODE_NOT_IN_FORCE', at(n.nature), `Collection code ${d.section} applies before FY 2025-26 only, not ${ctx.period.label} (FVU T_FV_6380)`);
  }
  if (ctx.isLegacy) return;
  if (PAN_MANDATORY_SECTIONS.has(d.section) && d.payee.panKind !== 'valid' && !d.payee.damaged) {
    ctx.report('PAN_REQUIRED_FOR_SECTION', at(n.payee), `Section ${d.section} needs the payee's valid PAN`);
  }
  if (IN_KIND_LIST_UNSETTLED_SECTIONS.has(d.section)) {
    ctx.report('IN_KIND_LIST_UNSETTLED', at(n.nature), `Section ${d.section}: written as ${IN_KIND_SECTIONS.has(d.section) ? 'in kind' : 'paid in cash'} (Annexure 2); the workbook's in-kind list says otherwise`);
  }
  if (IN_KIND_SECTIONS.has(d.section)) {
    d.challan.hasInKindSection = true;
    // Form 140 v1.0 DD 24, 25 and 28 for these codes: 0.00 (the tax is paid by challan under minor head 100).
    if (d.deducted !== 0) ctx.report('IN_KIND_TAX_NOT_ZERO', at(n.tax), `Section ${d.section} is paid in kind: tax deducted must be 0.00`);
    if (d.deposited !== 0) ctx.report('IN_KIND_TAX_NOT_ZERO', at(n.deposited), `Section ${d.section} is paid in kind: tax deposited must be 0.00`);
  }
}

/** Legacy 24Q section 194P: from FY 2021-22 (FVU 7.2), for specified senior citizens (75 or older) only. */
function check194P(ctx: BuildContext, d: Deductee, place: PlaceFn): void {
  if (ctx.period.startYear < FIRST_194P_YEAR) ctx.report('SECTION_194P_NOT_IN_FORCE', place, `Section 194P applies from FY 2021-22, not ${ctx.period.label}`);
  const category = d.payee.employeeCategory;
  if (category !== '' && !SENIOR_CATEGORIES.has(category)) {
    ctx.report('SECTION_194P_NOT_SENIOR', place, `Payee ${d.payee.srNo} is not in the senior_citizen or super_senior_citizen category`);
  }
}

function readRate(ctx: BuildContext, d: Deductee, given: unknown, at: At, position: number): void {
  // The rate is that of the tax alone (DD 14), without surcharge and cess: see RATE_EXCLUDES_SURCHARGE_AND_CESS.
  const basis = RATE_EXCLUDES_SURCHARGE_AND_CESS ? d.incomeTax : d.deducted;
  d.rate = rateOf(basis, d.amountPaid);
  if (d.deducted === 0 && IN_KIND_SECTIONS.has(d.section)) {
    if (given !== null && given !== undefined && parseRate(given) !== 0) ctx.report('IN_KIND_TAX_NOT_ZERO', at(position), `Section ${d.section} is paid in kind: the rate must be 0`);
    return;
  }
  if (given !== null && given !== undefined) {
    const rate = parseRate(given);
    if (Number.isNaN(rate)) {
      ctx.report('INVALID_RATE', at(position), 'Rate must be a percentage from 0 to 100 with at most four decimals');
    } else {
      d.rate = rate;
      const expected = Math.round((d.amountPaid * rate) / 1000000);
      if (Math.abs(expected - basis) > 100) {
        ctx.report('RATE_INCONSISTENT', at(position), `Amount x rate is ${formatPaise(expected)} but the tax is ${formatPaise(basis)}`);
      }
    }
  }
  if (d.remark === 'C' && ctx.kind !== 'tcs' && d.deducted > 0 && !FIVE_PERCENT_SECTIONS.has(d.section) && d.rate < 200000) {
    ctx.report('HIGHER_RATE_BELOW_20', at(position), `Remark C with a rate of ${formatRate(d.rate)}%`);
  }
}

function readCash(ctx: BuildContext, d: Deductee, row: TableRow, n: Columns, at: At): void {
  let given = false;
  for (const position of n.cash) if (at0(row.cells, position) !== null) given = true;
  if (!given) {
    d.cash = NO_CASH;
    return;
  }
  let any = false;
  const cash = n.cash.map((position) => {
    const v = at0(row.cells, position);
    if (v === null) return null;
    const paise = readAmount(ctx, v, at(position), 'Cash withdrawal amount');
    if (Number.isNaN(paise)) return null;
    if (paise !== 0) any = true;
    return paise;
  });
  const applicable = CASH_WITHDRAWAL_SECTIONS.has(d.section);
  if (any && !applicable) {
    ctx.report('CASH_WITHDRAWAL_NOT_APPLICABLE', at(n.cash[0]!), `Cash-withdrawal amounts are only for the cash-withdrawal sections, not ${d.section}`);
  }
  if (applicable && !ctx.isLegacy) checkNewCashColumns(ctx, d, cash, n, at);
  d.cash = applicable ? cash : NO_CASH;
}

/** New forms: each s.393(3) column (DD 22, DD 23) belongs to one cash section (NEW_CASH_COLUMN_SECTIONS). */
function checkNewCashColumns(ctx: BuildContext, d: Deductee, cash: ReadonlyArray<number | null>, n: Columns, at: At): void {
  cash.forEach((paise, i) => {
    const sections = NEW_CASH_COLUMN_SECTIONS[i];
    if (paise && sections && !sections.includes(d.section)) {
      ctx.report('CASH_WITHDRAWAL_NOT_APPLICABLE', at(n.cash[i]!), `This cash-withdrawal column (DD ${22 + i}) is for section ${sections.join('/')}, not ${d.section}`);
    }
  });
}

/**
 * Nature of remittance (27Q DD 36, Form 144 DD 16). Form 144 follows FVU 1.2: mandatory for sections 1040-1046 and
 * 1048-1057 (T_FV_6544), each code only with its sections (T_FV_6423), and no code for the other sections.
 */
function readRemittance(ctx: BuildContext, d: Deductee, token: string, place: PlaceFn): void {
  const code = !ctx.isLegacy && token === '' ? '' : remittanceCode(token, ctx.family);
  if (code === null) {
    const hint = ctx.isLegacy ? '' : ' (or no FVU 1.2 code is known for it: give the 2-digit code)';
    ctx.report('INVALID_NATURE_OF_REMITTANCE', place, `Nature of remittance '${token.slice(0, 80)}' is not one of Form ${ctx.form.formNumber}'s${hint}`);
    return;
  }
  d.remittance = code;
  if (ctx.isLegacy) return;
  if (code === '' && REMITTANCE_REQUIRED_144.has(d.section)) {
    ctx.report('NATURE_OF_REMITTANCE_REQUIRED', place, `Section ${d.section} needs the nature of remittance (FVU 1.2 T_FV_6544)`);
  } else if (code !== '' && !REMITTANCE_SECTIONS_144.get(code)!.includes(d.section)) {
    ctx.report('NATURE_OF_REMITTANCE_NOT_FOR_SECTION', place, `Nature of remittance ${code} ('${token.slice(0, 80)}') is not allowed with section ${d.section} (FVU 1.2 T_FV_6423)`);
  }
}

/** Columns only some forms have: Form 121 UIN, TCS purchase value, non-resident remittance details. */
function readFormColumns(ctx: BuildContext, d: Deductee, row: TableRow, at: At, n: Columns): void {
  const c = row.cells;
  if (n.form121 >= 0) {
    d.form121 = readCode(at0(c, n.form121));
    if (d.form121.length > fieldWidth(ctx.family, ctx.form.formNumber, 'DD', 31) || /[\^\r\n]/.test(d.form121)) ctx.report('INVALID_FORM121_UIN', at(n.form121), 'The Form 121 UIN is at most 26 characters');
    if (d.remark === 'B' && d.form121 === '') ctx.report('FORM121_UIN_MISSING', at(n.form121), 'Remark B (Form 121 declaration) without the declaration UIN');
  }
  if (n.totalValue >= 0) {
    const v = readAmount(ctx, at0(c, n.totalValue), at(n.totalValue), 'Total value of purchase');
    d.totalValue = Number.isNaN(v) ? 0 : v;
  }
  if (n.remittance >= 0) {
    readRemittance(ctx, d, readCode(at0(c, n.remittance)), at(n.remittance));
    const dtaa = at0(c, n.dtaa);
    d.dtaa = typeof dtaa === 'boolean' ? dtaa : null;
  }
  if (n.form15ca >= 0) {
    d.form15ca = readText(ctx, at0(c, n.form15ca), at(n.form15ca), 'Form 15CA acknowledgement', { max: fieldWidth(ctx.family, ctx.form.formNumber, 'DD', ctx.isLegacy ? 37 : 36) });
  }
  if (n.grossingUp >= 0) {
    const g = readCode(at0(c, n.grossingUp)).toUpperCase();
    if (g !== '' && g !== 'Y' && g !== 'N') ctx.report('INVALID_FLAG', at(n.grossingUp), 'Grossing-up indicator must be Y or N');
    d.grossingUp = g === 'Y' || g === 'N' ? g : '';
  }
  if (n.grossedUp >= 0) {
    const g = at0(c, n.grossedUp);
    d.grossingUp = typeof g === 'boolean' ? yn(g) : '';
  }
  if (!ctx.isLegacy && ctx.kind === 'nonresident') checkNonResidentContact(ctx, d, at(n.reason));
}

/** FVU 1.2 T-FV-4335..4338: where Form 144 carries the payee's contact details, below 20% they are mandatory. */
function checkNonResidentContact(ctx: BuildContext, d: Deductee, place: PlaceFn): void {
  if (!writesNonResidentContact(d) || d.rate >= 200000) return;
  const p = d.payee;
  const missing = [['address_in_country_of_residence', p.address], ['email', p.email], ['mobile', p.contactNumber], ['tax_identification_number', p.taxId]]
    .filter(([, value]) => value === '')
    .map(([key]) => key);
  if (missing.length > 0) ctx.report('NONRESIDENT_CONTACT_REQUIRED', place, `Payee ${p.srNo} (no PAN, remark C at ${formatRate(d.rate)}%) needs ${missing.join(', ')} in the payee sheet`);
}
