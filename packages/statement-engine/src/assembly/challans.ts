// challan_table rows -> Challan. Three dialects: legacy (tds/tcs + surcharge + cess), Form 140 (one tax
// column, legacy keys) and the new 138/144/143 style (nil indicator, mode of payment, total deposited).

import { BSR_PATTERN, CHALLAN_SERIAL_PATTERN } from '../codes/identifiers.js';
import { minorHead } from '../codes/misc.js';
import { civilDate, formatForPeople, fromEpochMillis, isPlausibleEpoch, type CivilDate } from '../dates.js';
import { formatPaise } from '../money.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import { cell, col } from './columns.js';
import type { BuildContext } from './context.js';
import type { Challan } from './models.js';
import { readAmount, readCode, readDate, type PlaceFn } from './values.js';

const isNewStyle = (layout: TableLayout) => col(layout.spec, 'bank_challan_number_or_ddo_serial_number') >= 0;

function keyCells(layout: TableLayout): [string, string] {
  return isNewStyle(layout) ? ['bank_challan_number_or_ddo_serial_number', 'bsr_code_or_form_24g_receipt_number'] : ['challan_serial', 'bsr_code'];
}

function dateCell(layout: TableLayout): string {
  return isNewStyle(layout) ? 'bank_challan_or_transfer_voucher_date_epoch' : 'paid_date_epoch';
}

/** The challan's date as the workbook gives it (0 when it is not a date). */
function givenDate(value: unknown): CivilDate {
  return isPlausibleEpoch(value) ? fromEpochMillis(value) : 0;
}

/**
 * A challan is identified by its CIN: BSR code + date of deposit + challan serial. Two challans sharing serial
 * and BSR on different dates are different challans (serials restart every day at a branch).
 */
export function challanIdentityOf(layout: TableLayout, row: TableRow): string {
  const [serialKey, bsrKey] = keyCells(layout);
  const spec = layout.spec;
  return `${readCode(cell(row.cells, spec, serialKey))}|${readCode(cell(row.cells, spec, bsrKey))}|${givenDate(cell(row.cells, spec, dateCell(layout)))}`;
}

/** False for a damaged row whose serial or BSR cell could not be read: payments cannot be matched to it. */
export function challanKeyReadable(layout: TableLayout, row: TableRow): boolean {
  if (!row.damaged) return true;
  const [serialKey, bsrKey] = keyCells(layout);
  return cell(row.cells, layout.spec, serialKey) !== null && cell(row.cells, layout.spec, bsrKey) !== null;
}

function blankChallan(record: number, row: number): Challan {
  return {
    record,
    recordText: String(record),
    row,
    taxColumn: '',
    damaged: true,
    incomplete: false,
    nil: false,
    serial: '',
    bsr: '',
    date: 0,
    givenDate: 0,
    minorHead: '',
    mode: 'C',
    incomeTax: 0,
    surcharge: 0,
    cess: 0,
    interest: 0,
    fee: 0,
    others: 0,
    deductees: 0,
    sumIncomeTax: 0,
    sumSurcharge: 0,
    sumCess: 0,
    sumDeducted: 0,
    sumDeposited: 0,
    hasInKindSection: false,
    earliestPayment: 99999999,
    rowPan: '',
    rowPansDiffer: false,
  };
}

/** Total deposited as per challan: tax + surcharge + cess + interest + fee + others. */
export function challanTotal(c: Challan): number {
  return c.incomeTax + c.surcharge + c.cess + c.interest + c.fee + c.others;
}

export function buildChallan(ctx: BuildContext, layout: TableLayout, row: TableRow, record: number): Challan {
  const spec = layout.spec;
  const [serialKey, bsrKey] = keyCells(layout);
  const dateKey = dateCell(layout);
  const challan = blankChallan(record, row.number);
  // A damaged row (a cell of the wrong type, already reported and read as empty) still gives its values, so the
  // payments naming it are checked; only the challan's own cross-checks are left out.
  challan.damaged = row.damaged;
  challan.serial = readCode(cell(row.cells, spec, serialKey));
  challan.bsr = readCode(cell(row.cells, spec, bsrKey));
  challan.givenDate = givenDate(cell(row.cells, spec, dateKey));
  const at = (k: string): PlaceFn => () => layout.place(row.number, col(spec, k));
  challan.date = readDate(ctx, cell(row.cells, spec, dateKey), at(dateKey), 'Challan date') ?? 0;
  const amountsRead = readChallanAmounts(ctx, layout, row, challan, at);
  if (col(spec, 'nil_challan_indicator') >= 0) challan.nil = nilIndicator(ctx, cell(row.cells, spec, 'nil_challan_indicator'), at('nil_challan_indicator'));
  if (row.damaged) return challan;
  if (challan.nil) {
    checkNilChallan(ctx, layout, row, challan, at);
  } else if (amountsRead && challanTotal(challan) === 0) {
    ctx.report('NIL_CHALLAN_ASSUMED', at(dateKey), `Nothing was deposited with this challan, so it is written as a nil challan: no serial, BSR code or minor head, dated ${formatForPeople(ctx.period.quarterEnd)}, the last day of the quarter`);
    writeAsNil(ctx, challan);
  } else {
    checkPaidChallan(ctx, layout, row, challan, at);
  }
  return challan;
}

/** The challan's amounts (0 for a cell in error); false when any cell was in error. */
function readChallanAmounts(ctx: BuildContext, layout: TableLayout, row: TableRow, challan: Challan, at: (k: string) => PlaceFn): boolean {
  const spec = layout.spec;
  let allRead = true;
  const amount = (k: string, label: string) => {
    const v = readAmount(ctx, cell(row.cells, spec, k), at(k), `Challan ${label}`, { wholeRupees: true });
    if (Number.isNaN(v)) allRead = false;
    return Number.isNaN(v) ? 0 : v;
  };
  if (isNewStyle(layout)) {
    const taxKey = ctx.kind === 'tcs' ? 'total_tax_collected' : 'total_tax_deducted';
    challan.taxColumn = layout.columnName(col(spec, taxKey));
    challan.incomeTax = amount(taxKey, 'tax');
    challan.interest = amount('total_interest', 'interest');
    challan.fee = amount('total_fee', 'fee');
    challan.others = amount('total_penalty', 'penalty');
    const declared = amount('total_tax_deposited', 'total deposited');
    if (!row.damaged && declared !== challanTotal(challan)) {
      ctx.report('CHALLAN_TOTAL_MISMATCH', at('total_tax_deposited'), `Total deposited ${formatPaise(declared)} is not tax + interest + fee + penalty (${formatPaise(challanTotal(challan))})`);
    }
  } else {
    const taxKey = col(spec, 'total_tax_deducted') >= 0 ? 'total_tax_deducted' : ctx.kind === 'tcs' ? 'tcs_amount' : 'tds_amount';
    challan.taxColumn = layout.columnName(col(spec, taxKey));
    challan.incomeTax = amount(taxKey, 'tax');
    if (col(spec, 'surcharge') >= 0) {
      challan.surcharge = amount('surcharge', 'surcharge');
      challan.cess = amount('health_and_education_cess', 'cess');
    }
    challan.interest = amount('interest', 'interest');
    challan.fee = amount('late_filing_fees', 'fee');
    challan.others = amount('other_penalty', 'penalty');
  }
  return allRead;
}

function nilIndicator(ctx: BuildContext, value: unknown, place: PlaceFn): boolean {
  // Empty: our optional column in the legacy and Form 140 workbooks, or a damaged row's cell (already reported).
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  const text = readCode(value).toUpperCase();
  if (text === '') return false;
  if (text === 'Y' || text === 'YES') return true;
  if (text !== 'N' && text !== 'NO') ctx.report('INVALID_NIL_INDICATOR', place, 'The nil challan indicator must be Y or N');
  return false;
}

/**
 * A nil challan (CD 6 = Y: no tax deposited) as the layouts prescribe (addendum §1): no serial, BSR code, mode
 * or minor head, dated the last day of the quarter. Its serial and BSR code stay the link its payment rows use.
 */
function writeAsNil(ctx: BuildContext, challan: Challan): void {
  challan.nil = true;
  challan.mode = '';
  challan.minorHead = '';
  challan.date = ctx.period.quarterEnd;
}

/**
 * A challan the workbook states as nil. The vendor's 138/144 columns for serial, BSR, mode and minor head may be
 * empty and must be. The legacy and Form 140 workbooks (our `nil_challan_indicator` extension) require serial
 * and BSR cells, which then only link the payment rows (an empty string will do) and are not written.
 */
function checkNilChallan(ctx: BuildContext, layout: TableLayout, row: TableRow, challan: Challan, at: (k: string) => PlaceFn): void {
  const carried: string[] = [];
  if (challanTotal(challan) !== 0) carried.push('amounts');
  if (isNewStyle(layout)) {
    if (challan.serial !== '') carried.push('a challan serial');
    if (challan.bsr !== '') carried.push('a BSR code');
    if (readCode(cell(row.cells, layout.spec, 'mode_of_payment')) !== '') carried.push('a mode of payment');
    if (readCode(cell(row.cells, layout.spec, 'minor_head')) !== '') carried.push('a minor head');
  }
  if (carried.length > 0) ctx.report('NIL_CHALLAN_INCONSISTENT', at('nil_challan_indicator'), `A nil challan cannot carry ${carried.join(', ')}`);
  if (challan.date !== 0 && challan.date !== ctx.period.quarterEnd) {
    ctx.report('NIL_CHALLAN_DATE', at(dateCell(layout)), `A nil challan must be dated ${formatForPeople(ctx.period.quarterEnd)}, the last day of the quarter`);
  }
  writeAsNil(ctx, challan);
}

function checkPaidChallan(ctx: BuildContext, layout: TableLayout, row: TableRow, challan: Challan, at: (k: string) => PlaceFn): void {
  const spec = layout.spec;
  const [serialKey, bsrKey] = keyCells(layout);
  const serialRequired = !isNewStyle(layout);
  if ((serialRequired || challan.serial !== '') && !CHALLAN_SERIAL_PATTERN.test(challan.serial)) {
    ctx.report('INVALID_CHALLAN_SERIAL', at(serialKey), 'Challan serial / DDO serial number must be 5 digits');
  }
  if (!BSR_PATTERN.test(challan.bsr)) ctx.report('INVALID_BSR_CODE', at(bsrKey), 'BSR code / Form 24G receipt number must be 7 digits');
  const mode = readCode(cell(row.cells, spec, 'mode_of_payment')).toUpperCase();
  if (mode !== '' && mode !== 'C' && mode !== 'B') ctx.report('INVALID_MODE_OF_PAYMENT', at('mode_of_payment'), 'Mode of payment must be C (challan) or B (book adjustment)');
  // Book adjustment is checked against the deductor's category once the whole workbook is read.
  challan.mode = mode === 'B' ? 'B' : 'C';
  const head = readCode(cell(row.cells, spec, 'minor_head'));
  if (challan.mode === 'B') {
    challan.minorHead = '';
  } else if (head === '') {
    ctx.report('VALUE_REQUIRED', at('minor_head'), 'A challan paid through the bank needs its minor head');
  } else {
    challan.minorHead = minorHead(head, ctx.kind, ctx.family) ?? '';
    if (challan.minorHead === '') ctx.report('INVALID_MINOR_HEAD', at('minor_head'), `Minor head '${head.slice(0, 60)}' is not accepted for Form ${ctx.form.formNumber}`);
  }
  const earliest: CivilDate = civilDate(ctx.period.startYear - 1, 4, 1);
  if (challan.date !== 0 && challan.date < earliest) {
    ctx.report('CHALLAN_DATE_OUT_OF_RANGE', at(dateCell(layout)), `Challan date ${formatForPeople(challan.date)} is before ${formatForPeople(earliest)}`);
  }
}
