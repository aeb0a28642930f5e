// payment_table rows -> Deductee, with the per-row rules (sections, remarks, certificates, dates, amounts).

import { LEGACY_CERTIFICATE_PATTERN, NEW_CERTIFICATE_PATTERN } from '../codes/identifiers.js';
import { remittanceCode } from '../codes/misc.js';
import { REMARKS_NEEDING_PAN, reasonTable, remarkSections, zeroTaxRemarks } from '../codes/reasons.js';
import { CASH_WITHDRAWAL_SECTIONS, IN_KIND_SECTIONS, PAN_MANDATORY_SECTIONS, sectionTable } from '../codes/sections.js';
import { formatForPeople, type CivilDate } from '../dates.js';
import { formatPaise, formatRate, parseRate, rateOf } from '../money.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import { challanKey } from './challans.js';
import { cell, col } from './columns.js';
import type { BuildContext } from './context.js';
import type { Challan, Deductee, Payee } from './models.js';
import { readAmount, readCode, readDate, readText, yn, type PlaceFn } from './values.js';

/** Sections whose higher rate without PAN is 5% rather than 20% (194O/194Q and their successors). */
const FIVE_PERCENT_SECTIONS = new Set(['94O', '94Q', '1031', '1035']);
const LEGACY_MAX_AMOUNT_PAID = 99999999900;

export interface Lookups {
  payee(srNo: number): Payee | undefined;
  challan(key: string): Challan | undefined;
}

type At = (key: string) => PlaceFn;

/** The names this workbook uses for columns that differ across dialects. */
function names(layout: TableLayout) {
  const spec = layout.spec;
  const newKeys = col(spec, 'bank_challan_number_or_ddo_serial_number') >= 0;
  return {
    serial: newKeys ? 'bank_challan_number_or_ddo_serial_number' : 'challan_serial',
    bsr: newKeys ? 'bsr_code_or_form_24g_receipt_number' : 'bsr_code',
    tax: ['total_tax_deducted', 'total_tax_collected', 'tds_amount', 'tcs_amount'].find((k) => col(spec, k) >= 0)!,
    deductionDate: col(spec, 'collection_date_epoch') >= 0 ? 'collection_date_epoch' : 'deduction_date_epoch',
    reason: col(spec, 'reason_for_lower_collection') >= 0 ? 'reason_for_lower_collection' : 'reason_for_lower_deduction',
    cash: spec.columns.filter((c) => c.key.startsWith('amount_of_cash_withdrawal')).map((c) => c.key),
  };
}

const namesCache = new WeakMap<TableLayout, ReturnType<typeof names>>();

function namesOf(layout: TableLayout): ReturnType<typeof names> {
  let n = namesCache.get(layout);
  if (!n) {
    n = names(layout);
    namesCache.set(layout, n);
  }
  return n;
}

/** Resolves the payee and challan a payment names; reports and returns null when either is unknown. */
function resolve(ctx: BuildContext, layout: TableLayout, row: TableRow, lookups: Lookups): { payee: Payee; challan: Challan } | null {
  const n = namesOf(layout);
  const at: At = (k) => () => layout.place(row.number, col(layout.spec, k));
  const srNo = cell(row.cells, layout.spec, 'payee_sr_no');
  const payee = typeof srNo === 'number' ? lookups.payee(srNo) : undefined;
  if (typeof srNo === 'number' && !payee) ctx.report('UNKNOWN_PAYEE', at('payee_sr_no'), `Payee ${srNo} is not in the payee sheet`);
  const key = challanKey(cell(row.cells, layout.spec, n.serial), cell(row.cells, layout.spec, n.bsr));
  const challan = lookups.challan(key);
  if (!challan && !row.damaged) ctx.report('UNKNOWN_CHALLAN', at(n.serial), `No challan with serial '${key.split('|')[0]}' and BSR code '${key.split('|')[1]}' in the challan sheet`);
  if (!payee || !challan) return null;
  return { payee, challan };
}

export function buildDeductee(ctx: BuildContext, layout: TableLayout, row: TableRow, lookups: Lookups): Deductee | null {
  const resolved = resolve(ctx, layout, row, lookups);
  if (!resolved || row.damaged || resolved.payee.damaged || resolved.challan.damaged) return null;
  const { payee, challan } = resolved;
  const spec = layout.spec;
  const n = namesOf(layout);
  const at: At = (k) => () => layout.place(row.number, col(spec, k));
  const c = row.cells;
  const amount = (k: string, label: string) => readAmount(ctx, cell(c, spec, k), at(k), label);

  const section = readSection(ctx, payee, cell(c, spec, 'nature_of_payment'), at('nature_of_payment'));
  const amountPaid = amount('payment_amount', 'Amount paid');
  const legacyTax = ctx.isLegacy;
  const incomeTax = amount(n.tax, 'Tax');
  const surcharge = legacyTax ? amount('surcharge', 'Surcharge') : 0;
  const cess = legacyTax ? amount('health_and_education_cess', 'Cess') : 0;
  const deducted = incomeTax + surcharge + cess;
  const deposited = legacyTax ? deducted : amount('total_tax_deposited', 'Tax deposited');
  const paymentDate = readDate(ctx, cell(c, spec, 'payment_date_epoch'), at('payment_date_epoch'), 'Date of payment');
  if ([amountPaid, deducted, deposited].some(Number.isNaN) || section === null || paymentDate === null) return null;

  const d: Deductee = {
    row: row.number,
    payee,
    challan,
    section,
    amountPaid,
    paymentDate,
    incomeTax,
    surcharge,
    cess,
    deducted,
    deposited,
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
  checkAmounts(ctx, d, at, n.tax);
  readDates(ctx, layout, row, d, at, n.deductionDate);
  readRemark(ctx, d, cell(c, spec, n.reason), at(n.reason), cell(c, spec, 'certificate_number'), at('certificate_number'));
  checkSectionRules(ctx, d, at);
  readRate(ctx, d, cell(c, spec, 'rate_of_deduction'), at('rate_of_deduction'));
  readCash(ctx, d, layout, row, n.cash, at);
  readFormColumns(ctx, d, layout, row, at);
  return d;
}

function readSection(ctx: BuildContext, payee: Payee, token: unknown, place: PlaceFn): string | null {
  const text = readCode(token);
  const table = sectionTable(ctx.kind, ctx.family);
  if (!table.has(text)) {
    ctx.report('INVALID_NATURE_OF_PAYMENT', place, `Nature of payment '${text.slice(0, 80)}' is not one of Form ${ctx.form.formNumber}'s`);
    return null;
  }
  const code = table.get(text)!;
  if (code === null) {
    ctx.report('SECTION_CODE_UNKNOWN', place, `No confirmed Form ${ctx.form.formNumber} section code for '${text.slice(0, 80)}'`);
    return null;
  }
  if (typeof code === 'string') return code;
  if (payee.panKind !== 'valid' && payee.deducteeType === 'other') {
    ctx.report('SECTION_PAYEE_TYPE_ASSUMED', place, `Payee ${payee.srNo} has no PAN to tell an individual from others; section ${code.other} written`);
  }
  return payee.deducteeType === 'individual_or_huf' ? code.individualOrHuf : code.other;
}

function checkAmounts(ctx: BuildContext, d: Deductee, at: At, taxKey: string): void {
  if (d.amountPaid <= 0) ctx.report('AMOUNT_PAID_NOT_POSITIVE', at('payment_amount'), 'Amount paid/credited must be more than zero');
  if (ctx.isLegacy && d.amountPaid > LEGACY_MAX_AMOUNT_PAID) ctx.report('AMOUNT_PAID_TOO_LARGE', at('payment_amount'), `Amount paid ${formatPaise(d.amountPaid)} is above 999999999.00`);
  if (d.deducted > d.amountPaid && d.amountPaid > 0) ctx.report('TAX_EXCEEDS_AMOUNT', at(taxKey), `Tax ${formatPaise(d.deducted)} is more than the amount paid ${formatPaise(d.amountPaid)}`);
  if (!ctx.isLegacy && d.deposited !== d.deducted) {
    ctx.report('DEDUCTED_DEPOSITED_MISMATCH', at('total_tax_deposited'), `Tax deposited ${formatPaise(d.deposited)} differs from tax deducted ${formatPaise(d.deducted)}`);
  }
}

function readDates(ctx: BuildContext, layout: TableLayout, row: TableRow, d: Deductee, at: At, deductionKey: string): void {
  const p = ctx.period;
  if (d.paymentDate < p.quarterStart || d.paymentDate > p.quarterEnd) {
    ctx.report('PAYMENT_DATE_OUTSIDE_QUARTER', at('payment_date_epoch'), `Date of payment ${formatForPeople(d.paymentDate)} is outside ${ctx.describeQuarter()}`);
  }
  const deduction = readDate(ctx, cell(row.cells, layout.spec, deductionKey), at(deductionKey), 'Date of deduction');
  const taxed = d.deducted > 0;
  if (taxed && deduction === null) {
    ctx.report('DEDUCTION_DATE_REQUIRED', at(deductionKey), 'Tax was deducted, so the date of deduction is required');
  } else if (taxed && deduction !== null) {
    d.deductionDate = deduction;
    if (deduction < p.quarterStart) ctx.report('DEDUCTION_DATE_BEFORE_QUARTER', at(deductionKey), `Date of deduction ${formatForPeople(deduction)} is before the quarter starts`);
    if (!d.challan.nil && d.challan.date !== 0 && d.challan.date < deduction) {
      ctx.report('DEPOSIT_BEFORE_DEDUCTION', at(deductionKey), `The challan is dated ${formatForPeople(d.challan.date)}, before the deduction on ${formatForPeople(deduction)}`);
    }
  }
  if (ctx.kind !== 'salary' || !taxed) return;
  // 24Q and 138 carry the date of deposit: the date of the deductee's challan.
  if (col(layout.spec, 'deposit_date_epoch') >= 0) {
    const given = readDate(ctx, cell(row.cells, layout.spec, 'deposit_date_epoch'), at('deposit_date_epoch'), 'Date of deposit');
    if (given !== null && given !== d.challan.date) {
      ctx.report('DEPOSIT_DATE_MISMATCH', at('deposit_date_epoch'), `Date of deposit ${formatForPeople(given)} is not its challan's date ${formatForPeople(d.challan.date)}`);
    }
  }
  d.depositDate = d.challan.date as CivilDate;
}

function readRemark(ctx: BuildContext, d: Deductee, token: unknown, place: PlaceFn, certificate: unknown, certificatePlace: PlaceFn): void {
  const text = readCode(token);
  const certificateText = readCode(certificate);
  if (text !== '') {
    const table = reasonTable(ctx.kind, ctx.family);
    if (!table.has(text)) {
      ctx.report('INVALID_REASON', place, `Reason '${text.slice(0, 80)}' is not one of Form ${ctx.form.formNumber}'s`);
    } else if (table.get(text) === null) {
      ctx.report('REASON_CODE_UNKNOWN', place, `No confirmed Form ${ctx.form.formNumber} remark code for '${text.slice(0, 80)}'`);
    } else {
      d.remark = table.get(text)!;
    }
  }
  const r = d.remark;
  const pan = d.payee.panKind;
  if (r === 'C' && pan === 'valid') ctx.report('REMARK_C_REQUIRES_NO_PAN', place, 'Remark C (higher rate for want of PAN) is only for payees without a valid PAN');
  if (REMARKS_NEEDING_PAN.has(r) && pan !== 'valid') ctx.report('REMARK_REQUIRES_PAN', place, `Remark ${r} needs the payee's valid PAN`);
  if (r !== 'C' && pan === 'placeholder' && d.deducted > 0) {
    ctx.report('PLACEHOLDER_PAN_WITHOUT_REMARK', place, `Payee ${d.payee.srNo} has no PAN but the remark is not C (higher rate)`);
  }
  if (zeroTaxRemarks(ctx.kind, ctx.family).has(r) && d.deducted > 0) ctx.report('REMARK_REQUIRES_ZERO_TAX', place, `Remark ${r} means no deduction, but tax ${formatPaise(d.deducted)} is given`);
  const allowed = remarkSections(ctx.kind, ctx.family).get(r);
  if (allowed && !allowed.has(d.section)) ctx.report('REMARK_NOT_ALLOWED_FOR_SECTION', place, `Remark ${r} is not allowed with section ${d.section}`);
  // 24Q: A and B are both u/s 197 certificates (lower / no deduction); elsewhere only A has a certificate.
  const certificateRemark = r === 'A' || (r === 'B' && ctx.kind === 'salary' && ctx.isLegacy);
  if (certificateRemark) {
    const pattern = ctx.isLegacy ? LEGACY_CERTIFICATE_PATTERN : NEW_CERTIFICATE_PATTERN;
    if (certificateText === '') ctx.report('CERTIFICATE_REQUIRED', certificatePlace, `Remark ${r} needs the lower/no deduction certificate number`);
    else if (!pattern.test(certificateText)) ctx.report('INVALID_CERTIFICATE', certificatePlace, `The certificate number must be ${ctx.isLegacy ? 10 : 15} letters or digits`);
    d.certificate = certificateText.toUpperCase();
  } else if (certificateText !== '') {
    ctx.report('CERTIFICATE_WITHOUT_REMARK', certificatePlace, 'A certificate number is written only with a certificate remark (A); it is left out');
  }
}

function checkSectionRules(ctx: BuildContext, d: Deductee, at: At): void {
  if (ctx.isLegacy) return;
  if (PAN_MANDATORY_SECTIONS.has(d.section) && d.payee.panKind !== 'valid') {
    ctx.report('PAN_REQUIRED_FOR_SECTION', at('payee_sr_no'), `Section ${d.section} needs the payee's valid PAN`);
  }
  if (IN_KIND_SECTIONS.has(d.section)) {
    d.challan.hasInKindSection = true;
    if (d.deducted !== 0) ctx.report('IN_KIND_TAX_NOT_ZERO', at('total_tax_deducted'), `Section ${d.section} is paid in kind: tax deducted must be 0.00 (the tax deposited carries the amount)`);
  }
}

function readRate(ctx: BuildContext, d: Deductee, given: unknown, place: PlaceFn): void {
  const computed = rateOf(d.deducted, d.amountPaid);
  d.rate = computed;
  if (given !== null && given !== undefined) {
    const rate = parseRate(given);
    if (Number.isNaN(rate)) {
      ctx.report('INVALID_RATE', place, 'Rate must be a percentage from 0 to 100 with at most four decimals');
    } else {
      d.rate = rate;
      const expected = Math.round((d.amountPaid * rate) / 1000000);
      if (Math.abs(expected - d.deducted) > 100) {
        ctx.report('RATE_INCONSISTENT', place, `Amount x rate is ${formatPaise(expected)} but the tax is ${formatPaise(d.deducted)}`);
      }
    }
  }
  if (d.remark === 'C' && ctx.kind !== 'tcs' && d.deducted > 0 && !FIVE_PERCENT_SECTIONS.has(d.section) && d.rate < 200000) {
    ctx.report('HIGHER_RATE_BELOW_20', place, `Remark C with a rate of ${formatRate(d.rate)}%`);
  }
}

function readCash(ctx: BuildContext, d: Deductee, layout: TableLayout, row: TableRow, keys: readonly string[], at: At): void {
  let any = false;
  d.cash = keys.map((k) => {
    const v = cell(row.cells, layout.spec, k);
    if (v === null) return null;
    const paise = readAmount(ctx, v, at(k), 'Cash withdrawal amount');
    if (Number.isNaN(paise)) return null;
    if (paise !== 0) any = true;
    return paise;
  });
  if (any && !CASH_WITHDRAWAL_SECTIONS.has(d.section)) {
    ctx.report('CASH_WITHDRAWAL_NOT_APPLICABLE', at(keys[0]!), `Cash-withdrawal amounts are only for the cash-withdrawal sections, not ${d.section}`);
  }
  if (!CASH_WITHDRAWAL_SECTIONS.has(d.section)) d.cash = d.cash.map(() => null);
}

/** Columns only some forms have: Form 121 UIN, TCS purchase value, non-resident remittance details. */
function readFormColumns(ctx: BuildContext, d: Deductee, layout: TableLayout, row: TableRow, at: At): void {
  const spec = layout.spec;
  const c = row.cells;
  if (col(spec, 'unique_identification_number_form_121') >= 0) {
    d.form121 = readCode(cell(c, spec, 'unique_identification_number_form_121'));
    if (d.form121.length > 26 || /[\^\r\n]/.test(d.form121)) ctx.report('INVALID_FORM121_UIN', at('unique_identification_number_form_121'), 'The Form 121 UIN is at most 26 characters');
    if (d.remark === 'B' && d.form121 === '') ctx.report('FORM121_UIN_MISSING', at('unique_identification_number_form_121'), 'Remark B (Form 121 declaration) without the declaration UIN');
  }
  if (col(spec, 'total_value_of_purchase') >= 0) {
    const v = readAmount(ctx, cell(c, spec, 'total_value_of_purchase'), at('total_value_of_purchase'), 'Total value of purchase');
    d.totalValue = Number.isNaN(v) ? 0 : v;
  }
  if (col(spec, 'nature_of_remittance') >= 0) {
    const token = readCode(cell(c, spec, 'nature_of_remittance'));
    d.remittance = remittanceCode(token, ctx.family) ?? '';
    if (d.remittance === '') ctx.report('INVALID_NATURE_OF_REMITTANCE', at('nature_of_remittance'), `Nature of remittance '${token.slice(0, 80)}' is not one of Form ${ctx.form.formNumber}'s`);
    const dtaa = cell(c, spec, 'applicability_of_tds_rate_under_dtaa');
    d.dtaa = typeof dtaa === 'boolean' ? dtaa : null;
  }
  if (col(spec, 'form_15ca_acknowledgement_number') >= 0) {
    d.form15ca = readText(ctx, cell(c, spec, 'form_15ca_acknowledgement_number'), at('form_15ca_acknowledgement_number'), 'Form 15CA acknowledgement', { max: 15 });
  }
  if (col(spec, 'grossing_up_indicator') >= 0) {
    const g = readCode(cell(c, spec, 'grossing_up_indicator')).toUpperCase();
    if (g !== '' && g !== 'Y' && g !== 'N') ctx.report('INVALID_FLAG', at('grossing_up_indicator'), 'Grossing-up indicator must be Y or N');
    d.grossingUp = g === 'Y' || g === 'N' ? g : '';
  }
  if (col(spec, 'grossed_up_under_section_393_10') >= 0) {
    const g = cell(c, spec, 'grossed_up_under_section_393_10');
    d.grossingUp = typeof g === 'boolean' ? yn(g) : '';
  }
}
