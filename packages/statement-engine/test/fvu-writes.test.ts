// What the FVU accepts, field by field on the TXT (field numbers as in the layouts: ../FORMAT_NOTES.md and
// test/golden/layouts.ts): the previous statement's token in BH 9/52, nil challans (CD 6 = Y), the quarter rule
// on the date of deduction (legacy) or of payment (new forms), the 24Q amount ceiling, and challans identified
// by their CIN (BSR code + date + serial). Sources: tds-rules-addendum.md §1, §5, §7, §8 (in FORMAT_NOTES §11).

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, convertFile, convertStream, type ConversionResult, type ConvertOptions, type Problem, type StreamConversion } from '../src/index.js';
import { baseline, BASELINE_NAMES, type BaselineName } from './support/baselines.js';
import { buildWorkbook, ist, type Row, type WorkbookParts } from './support/sheet-json.js';
import { ofType, records } from './support/txt.js';

/** A token number in the shape of the CBDT FAQ's example (15 digits, leading zero). */
const TOKEN = '010010200083251';

function run(name: BaselineName, change: (p: WorkbookParts, o: ConvertOptions) => void = () => {}): ConversionResult {
  const { parts, options } = baseline(name);
  change(parts, options);
  return convert(buildWorkbook(parts), options);
}

const errorsOf = (r: ConversionResult) => r.report.problems.filter((p) => p.severity === 'error').map((p) => `${p.code}@${p.sheet}/${p.row}/${p.column}: ${p.message}`);
const placesOf = (r: ConversionResult, code: string) =>
  r.report.problems.filter((p) => p.code === code).map((p: Problem) => ({ severity: p.severity, sheet: p.sheet, row: p.row, column: p.column }));

/** Fields of the n-th record (1-based) of a type: fields[k] is field k. */
function recordOf(txt: string | null, type: string, n = 1): string[] {
  expect(txt, 'a TXT').to.be.a('string');
  const found = ofType(txt!, type)[n - 1];
  expect(found, `${type} record ${n}`).to.not.equal(undefined);
  return found!.fields;
}

/** The listed fields of a record, as { field number: value }, so a failure names the field. */
const pick = (fields: string[], numbers: number[]) => Object.fromEntries(numbers.map((k) => [k, fields[k]]));

/** The DD records written under challan record `challan` (legacy DD 4, new DD 5). */
function deducteesOf(txt: string, family: 'legacy' | 'new', challan: number): string[][] {
  const ref = family === 'legacy' ? 4 : 5;
  return ofType(txt, 'DD').filter((r) => r.fields[ref] === String(challan)).map((r) => r.fields);
}

const pay = (p: WorkbookParts, i: number): Row => p.payments[i]!;

async function* bytes(text: string): AsyncGenerator<Buffer> {
  yield Buffer.from(text, 'utf8');
}

async function linesOf(conversion: StreamConversion): Promise<string | null> {
  if (!conversion.lines) return null;
  let txt = '';
  for await (const l of conversion.lines) txt += l;
  return txt;
}

describe('what the FVU accepts: BH 9 / BH 52 from the previous receipt number', () => {
  for (const name of BASELINE_NAMES) {
    it(`${name}: BH 9 = the token and BH 52 = Y when given; BH 9 empty and BH 52 = N when not; FH 4 = R and BH 8 empty either way; nothing else changes`, () => {
      const { parts, options } = baseline(name);
      const workbook = buildWorkbook(parts);
      const regular = convert(workbook, options);
      const later = convert(workbook, { ...options, previousReceiptNumber: TOKEN });
      expect(errorsOf(later)).to.deep.equal([]);
      expect(pick(recordOf(later.txt, 'BH'), [8, 9, 52])).to.deep.equal({ 8: '', 9: TOKEN, 52: 'Y' });
      expect(pick(recordOf(regular.txt, 'BH'), [8, 9, 52])).to.deep.equal({ 8: '', 9: '', 52: 'N' });
      expect(recordOf(later.txt, 'FH')[4], 'FH 4 (regular statement)').to.equal('R');
      const withoutBh9And52 = (txt: string) => records(txt).map((r) => (r.type === 'BH' ? r.fields.filter((_, k) => k !== 9 && k !== 52) : r.fields));
      expect(withoutBh9And52(later.txt!)).to.deep.equal(withoutBh9And52(regular.txt!));
      expect(later.report.problems).to.deep.equal(regular.report.problems);
    });
  }

  it('a blank previous receipt number is no receipt number (BH 52 = N); surrounding spaces are trimmed', () => {
    expect(pick(recordOf(run('26Q', (_p, o) => (o.previousReceiptNumber = '  ')).txt, 'BH'), [9, 52])).to.deep.equal({ 9: '', 52: 'N' });
    expect(pick(recordOf(run('140', (_p, o) => (o.previousReceiptNumber = ` ${TOKEN} `)).txt, 'BH'), [9, 52])).to.deep.equal({ 9: TOKEN, 52: 'Y' });
  });

  for (const [label, value] of [
    ['14 digits', '01001020008325'],
    ['16 digits', '0100102000832511'],
    ['a letter', '01001020008325A'],
    ['a number that lost its leading zero', 10010200083255],
  ] as const) {
    it(`refuses a previous receipt number with ${label}: INVALID_RECEIPT_NUMBER (options, no cell), no TXT`, () => {
      const r = run('26Q', (_p, o) => (o.previousReceiptNumber = value as unknown as string));
      expect(r.txt).to.equal(null);
      expect(placesOf(r, 'INVALID_RECEIPT_NUMBER')).to.deep.equal([{ severity: 'error', sheet: null, row: null, column: null }]);
      expect(errorsOf(r)).to.have.length(1);
    });
  }

  it('convertFile and convertStream write the same BH 9 / BH 52 as convert()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-fvu-writes-'));
    try {
      for (const name of ['26Q', '140'] as const) {
        const { parts, options } = baseline(name);
        const text = JSON.stringify(buildWorkbook(parts));
        const withToken = { ...options, previousReceiptNumber: TOKEN };
        const expected = convert(JSON.parse(text), withToken).txt;
        const path = join(dir, `${name}.json`);
        writeFileSync(path, text);
        const fromFile = await linesOf(await convertFile(path, withToken));
        const fromStream = await linesOf(await convertStream(bytes(text), withToken));
        expect(fromFile, name).to.equal(expected);
        expect(fromStream, name).to.equal(expected);
        expect(pick(recordOf(fromFile, 'BH'), [9, 52])).to.deep.equal({ 9: TOKEN, 52: 'Y' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the command line takes --previous-receipt-number', function () {
    this.timeout(30000);
    const dir = mkdtempSync(join(tmpdir(), 'engine-fvu-writes-cli-'));
    try {
      const { parts } = baseline('26Q');
      const path = join(dir, 'w.json');
      writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
      const cliPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');
      const statement = ['--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--now', '2026-05-10T11:00:00+05:30'];
      const cli = (extra: string[]) =>
        spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', cliPath, 'convert', path, ...statement, ...extra], { encoding: 'latin1' });
      const ok = cli(['--previous-receipt-number', TOKEN]);
      expect(ok.status, ok.stderr).to.equal(0);
      expect(pick(recordOf(ok.stdout, 'BH'), [9, 52])).to.deep.equal({ 9: TOKEN, 52: 'Y' });
      const bad = cli(['--previous-receipt-number', '12345']);
      expect(bad.status).to.equal(1);
      expect(bad.stderr).to.include('INVALID_RECEIPT_NUMBER');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A 26Q challan row with no amounts, stated nil through our nil_challan_indicator extension column. */
function statedNil26Q(p: WorkbookParts, indicator: unknown = 'Y', extra: Row = {}): void {
  p.challanHeader.push('nil_challan_indicator');
  p.challans.push({
    challan_serial: '',
    bsr_code: '',
    paid_date_epoch: ist('2025-12-31'),
    minor_head: '',
    tds_amount: 0,
    surcharge: 0,
    health_and_education_cess: 0,
    interest: 0,
    late_filing_fees: 0,
    other_penalty: 0,
    nil_challan_indicator: indicator,
    ...extra,
  });
  // The payment with remark Y (threshold not exceeded, no tax) moves under it.
  Object.assign(pay(p, 4), { challan_serial: '', bsr_code: '' });
}

/** Legacy CD amount fields: 22-27 OLTAS amounts and total, 29-35 deductee totals, 39 fee. */
const LEGACY_CD_AMOUNTS = [22, 23, 24, 25, 26, 27, 29, 30, 31, 32, 33, 34, 35, 39];
const zeroes = (numbers: number[]) => Object.fromEntries(numbers.map((k) => [k, '0.00']));

describe('what the FVU accepts: nil challans (CD 6 = Y)', () => {
  it('26Q (legacy), stated with nil_challan_indicator Y: CD 6 = Y; 12 serial, 16 BSR, 37 book entry, 40 minor head empty; 18 = quarter end; amounts 0.00; its DD row has remark Y and no tax', () => {
    const r = run('26Q', (p) => statedNil26Q(p));
    expect(errorsOf(r)).to.deep.equal([]);
    expect(placesOf(r, 'NIL_CHALLAN_ASSUMED')).to.deep.equal([]);
    expect(recordOf(r.txt, 'BH')[4], 'BH 4 challan count').to.equal('3');
    const cd = recordOf(r.txt, 'CD', 3);
    expect(pick(cd, [4, 5, 6, 12, 14, 16, 18, 37, 40])).to.deep.equal({ 4: '3', 5: '1', 6: 'Y', 12: '', 14: '', 16: '', 18: '31122025', 37: '', 40: '' });
    expect(pick(cd, LEGACY_CD_AMOUNTS)).to.deep.equal(zeroes(LEGACY_CD_AMOUNTS));
    const [dd] = deducteesOf(r.txt!, 'legacy', 3);
    expect(pick(dd!, [4, 5, 17, 19, 22, 24, 30])).to.deep.equal({ 4: '3', 5: '1', 17: '0.00', 19: '0.00', 22: '30000.00', 24: '', 30: 'Y' });
    expect(recordOf(r.txt, 'CD', 2)[6], 'CD 6 of the paid challan').to.equal('N');
  });

  it('27EQ: an all-zero challan with serial and BSR (as in the vendor sample) is written nil with NIL_CHALLAN_ASSUMED: CD 6 = Y, 12/16/37/40 empty, 18 = quarter end, never a paid challan', () => {
    // Facts of the vendor's 27EQ sample (in-co-sandbox/in-co-sandbox-docs, data/tcs/reports/form/
    // form27eq_workbook.data.json): challan 23456 / BSR 1234567, tcs_payable, every amount 0, dated inside the
    // quarter; its one row: sale_of_goods, no TCS, remark G (206C(1H) second proviso) in the sample; scrap with a
    // Form 27C declaration (remark B) here, as the FVU refuses code R from FY 2025-26 (T_FV_6380).
    const r = run('27EQ', (p) => {
      p.payees.push({ sr_no: 6, pan: 'AAAPX3456A', name: 'TONY', nri: false, permanent_establishment_in_india: false, opting_new_regime: false });
      p.challans.push({ challan_serial: '23456', bsr_code: '1234567', paid_date_epoch: ist('2025-11-02'), minor_head: 'tcs_payable', tcs_amount: 0, surcharge: 0, health_and_education_cess: 0, interest: 0, late_filing_fees: 0, other_penalty: 0 });
      p.payments.push({
        payee_sr_no: 6, challan_serial: '23456', bsr_code: '1234567', nature_of_payment: 'scrap', total_value_of_purchase: 750000, amount_received: 750000,
        payment_date_epoch: ist('2025-10-04'), tcs_amount: 0, surcharge: 0, health_and_education_cess: 0, collection_date_epoch: ist('2025-10-04'),
        reason_for_lower_or_higher_collection: 'no_collection_on_account_of_form_27c',
      });
    });
    expect(errorsOf(r)).to.deep.equal([]);
    expect(placesOf(r, 'NIL_CHALLAN_ASSUMED')).to.deep.equal([{ severity: 'warning', sheet: 'challan_sheet', row: 3, column: 'paid_date_epoch' }]);
    const cd = recordOf(r.txt, 'CD', 2);
    expect(pick(cd, [4, 5, 6, 12, 16, 18, 37, 40])).to.deep.equal({ 4: '2', 5: '1', 6: 'Y', 12: '', 16: '', 18: '31122025', 37: '', 40: '' });
    expect(pick(cd, LEGACY_CD_AMOUNTS)).to.deep.equal(zeroes(LEGACY_CD_AMOUNTS));
    const [dd] = deducteesOf(r.txt!, 'legacy', 2);
    expect(pick(dd!, [4, 5, 17, 19, 30])).to.deep.equal({ 4: '2', 5: '1', 17: '0.00', 19: '0.00', 30: 'B' });
  });

  it('Form 140, stated with nil_challan_indicator Y: CD 6 = Y; 13 mode, 15 BSR, 17 serial, 23 minor head empty; 19 = quarter end; 8-12, 21, 22 = 0.00; DD 18 = N', () => {
    const r = run('140', (p) => {
      p.challanHeader.push('nil_challan_indicator');
      p.challans.push({ challan_serial: '', bsr_code: '', paid_date_epoch: ist('2026-06-30'), minor_head: '', total_tax_deducted: 0, interest: 0, late_filing_fees: 0, other_penalty: 0, nil_challan_indicator: 'Y' });
      p.payments.push({
        payee_sr_no: 1, challan_serial: '', bsr_code: '', nature_of_payment: 'professional_services', payment_amount: 20000, payment_date_epoch: ist('2026-06-05'),
        total_tax_deducted: 0, total_tax_deposited: 0, deduction_date_epoch: null, reason_for_lower_deduction: 'no_deduction_on_account_of_payment_being_below_threshold_limit_as_specified_in_the_act',
      });
    });
    expect(errorsOf(r)).to.deep.equal([]);
    const cd = recordOf(r.txt, 'CD', 2);
    expect(pick(cd, [4, 5, 6, 8, 9, 10, 11, 12, 13, 15, 17, 19, 21, 22, 23])).to.deep.equal({
      4: '2', 5: '1', 6: 'Y', 8: '0.00', 9: '0.00', 10: '0.00', 11: '0.00', 12: '0.00', 13: '', 15: '', 17: '', 19: '30062026', 21: '0.00', 22: '0.00', 23: '',
    });
    const [dd] = deducteesOf(r.txt!, 'new', 2);
    expect(pick(dd!, [4, 5, 18, 20, 24, 25, 27, 32])).to.deep.equal({ 4: '1', 5: '2', 18: 'N', 20: '20000.00', 24: '0.00', 25: '0.00', 27: '', 32: 'Y' });
  });

  it('Form 138: an all-zero challan with indicator N is written nil with NIL_CHALLAN_ASSUMED: CD 6 = Y, 13/15/17/23 empty, 19 = quarter end; DD 18 = N', () => {
    const r = run('138', (p) => {
      p.challans.push({
        bank_challan_number_or_ddo_serial_number: '05009', bsr_code_or_form_24g_receipt_number: '0510308', bank_challan_or_transfer_voucher_date_epoch: ist('2026-05-20'),
        minor_head: 'tds_payable_by_taxpayer', mode_of_payment: 'C', nil_challan_indicator: 'N', total_tax_deducted: 0, total_interest: 0, total_fee: 0, total_penalty: 0, total_tax_deposited: 0,
      });
      p.payments.push({
        payee_sr_no: 2, bank_challan_number_or_ddo_serial_number: '05009', bsr_code_or_form_24g_receipt_number: '0510308', nature_of_payment: 'payments_made_to_employees_other_than_government_employees',
        payment_amount: 50000, payment_date_epoch: ist('2026-05-15'), total_tax_deducted: 0, deduction_date_epoch: null, total_tax_deposited: 0, deposit_date_epoch: null,
        reason_for_lower_deduction: 'in_case_of_lower_deduction_on_account_of_certificate_under_section_395_1', certificate_number: 'CERT39500000001',
      });
    });
    expect(errorsOf(r)).to.deep.equal([]);
    expect(placesOf(r, 'NIL_CHALLAN_ASSUMED')).to.deep.equal([{ severity: 'warning', sheet: 'challan_sheet', row: 4, column: 'bank_challan_or_transfer_voucher_date_epoch' }]);
    expect(pick(recordOf(r.txt, 'CD', 3), [6, 8, 12, 13, 15, 17, 19, 23])).to.deep.equal({ 6: 'Y', 8: '0.00', 12: '0.00', 13: '', 15: '', 17: '', 19: '30062026', 23: '' });
    const [dd] = deducteesOf(r.txt!, 'new', 3);
    expect(pick(dd!, [18, 24, 25, 29])).to.deep.equal({ 18: 'N', 24: '0.00', 25: '0.00', 29: '' });
  });

  it('Form 144, stated with the vendor column (serial, BSR, mode, minor head null): CD 6 = Y, 19 = quarter end; its row has remark Y', () => {
    const r = run('144', (p) => {
      p.challans.push({
        bank_challan_number_or_ddo_serial_number: null, bsr_code_or_form_24g_receipt_number: null, bank_challan_or_transfer_voucher_date_epoch: ist('2026-06-30'),
        minor_head: null, mode_of_payment: null, nil_challan_indicator: 'Y', total_tax_deducted: 0, total_interest: 0, total_fee: 0, total_penalty: 0, total_tax_deposited: 0,
      });
      p.payments.push({
        ...pay(p, 0), bank_challan_number_or_ddo_serial_number: null, bsr_code_or_form_24g_receipt_number: null, total_tax_deducted: 0, total_tax_deposited: 0, deduction_date_epoch: null,
        reason_for_lower_deduction: 'no_deduction_on_payment_below_threshold_limit_under_income_tax_act_2025',
        // FVU 1.2 takes remark Y with 1004, 1058, 1059, 1062, 1063, 1066, 1067 only (T_FV_6447); 1058 takes no nature of remittance.
        nature_of_payment: 'winnings_from_lottery_crossword_puzzle_card_game_gambling_or_betting', nature_of_remittance: null,
      });
    });
    expect(errorsOf(r)).to.deep.equal([]);
    expect(pick(recordOf(r.txt, 'CD', 3), [5, 6, 13, 15, 17, 19])).to.deep.equal({ 5: '1', 6: 'Y', 13: '', 15: '', 17: '', 19: '30062026' });
    expect(pick(deducteesOf(r.txt!, 'new', 3)[0]!, [18, 24, 32])).to.deep.equal({ 18: 'N', 24: '0.00', 32: 'Y' });
  });

  it('an explicit nil challan with amounts is NIL_CHALLAN_INCONSISTENT; one not dated the quarter end is NIL_CHALLAN_DATE (legacy extension column)', () => {
    const withAmount = run('26Q', (p) => statedNil26Q(p, 'Y', { interest: 100 }));
    expect(placesOf(withAmount, 'NIL_CHALLAN_INCONSISTENT')).to.deep.equal([{ severity: 'error', sheet: 'challan_sheet', row: 4, column: 'nil_challan_indicator' }]);
    const misdated = run('26Q', (p) => statedNil26Q(p, 'Y', { paid_date_epoch: ist('2025-12-15') }));
    expect(placesOf(misdated, 'NIL_CHALLAN_DATE')).to.deep.equal([{ severity: 'error', sheet: 'challan_sheet', row: 4, column: 'paid_date_epoch' }]);
  });

  it('rows under a nil challan: tax is NIL_CHALLAN_ROW at the tax cell (not CHALLAN_SHORT); a remark outside the published 26Q list (A B Y S T Z) is NIL_CHALLAN_ROW at the remark', () => {
    const taxed = run('26Q', (p) => {
      statedNil26Q(p);
      Object.assign(pay(p, 3), { challan_serial: '', bsr_code: '' }); // 11000 of tax
      p.challans[1]!.tds_amount = 10000;
    });
    expect(placesOf(taxed, 'NIL_CHALLAN_ROW')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 5, column: 'tds_amount' }, { severity: 'error', sheet: 'payment_sheet', row: 5, column: 'reason_for_lower_deduction' }]);
    expect(placesOf(taxed, 'CHALLAN_SHORT')).to.deep.equal([]);
    expect(taxed.txt).to.equal(null);
    const seniorCitizen = run('26Q', (p) => {
      statedNil26Q(p);
      Object.assign(pay(p, 4), { nature_of_payment: 'other_interest', reason_for_lower_deduction: 'no_deduction_upto_rs_50_000_in_respect_of_interest_income_from_deposits_held_by_senior_citizen_u_s_80_ttb_for_section_194_a' });
    });
    expect(placesOf(seniorCitizen, 'NIL_CHALLAN_ROW')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 6, column: 'reason_for_lower_deduction' }]);
  });

  it('a nil challan without deductee rows is NIL_CHALLAN_WITHOUT_DEDUCTEES (an error), not the CHALLAN_WITHOUT_DEDUCTEES warning', () => {
    const r = run('26Q', (p) => {
      statedNil26Q(p);
      Object.assign(pay(p, 4), { challan_serial: '00202', bsr_code: '0510308' });
    });
    expect(placesOf(r, 'NIL_CHALLAN_WITHOUT_DEDUCTEES')).to.deep.equal([{ severity: 'error', sheet: 'challan_sheet', row: 4, column: null }]);
    expect(placesOf(r, 'CHALLAN_WITHOUT_DEDUCTEES')).to.deep.equal([]);
  });

  it('the legacy extension column reads N, empty and null as a paid challan', () => {
    for (const indicator of ['N', '', null]) {
      const r = run('26Q', (p) => {
        p.challanHeader.push('nil_challan_indicator');
        p.challans[0]!.nil_challan_indicator = indicator;
      });
      expect(errorsOf(r), String(indicator)).to.deep.equal([]);
      expect(recordOf(r.txt, 'CD', 1)[6]).to.equal('N');
    }
  });
});

describe('what the FVU accepts: the quarter rule is on the date of deduction (legacy) and of payment (new forms)', () => {
  it('26Q: a payment credited in the previous quarter and deducted in this one (late deduction) is written: DD 23 = payment date, DD 24 = deduction date', () => {
    const r = run('26Q', (p) => Object.assign(pay(p, 0), { payment_date_epoch: ist('2025-09-15'), deduction_date_epoch: ist('2025-10-15') }));
    expect(errorsOf(r)).to.deep.equal([]);
    expect(pick(deducteesOf(r.txt!, 'legacy', 1)[0]!, [22, 23, 24])).to.deep.equal({ 22: '400000.00', 23: '15092025', 24: '15102025' });
  });

  it('24Q: the same late deduction is written', () => {
    const r = run('24Q', (p) => Object.assign(pay(p, 0), { payment_date_epoch: ist('2025-09-30') }));
    expect(errorsOf(r)).to.deep.equal([]);
    expect(pick(deducteesOf(r.txt!, 'legacy', 1)[0]!, [23, 24])).to.deep.equal({ 23: '30092025', 24: '31102025' });
  });

  it('26Q: a date of deduction before or after the quarter is an error at its cell', () => {
    const before = run('26Q', (p) => (pay(p, 0).deduction_date_epoch = ist('2025-09-30')));
    expect(placesOf(before, 'DEDUCTION_DATE_BEFORE_QUARTER')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 2, column: 'deduction_date_epoch' }]);
    const after = run('26Q', (p) => (pay(p, 1).deduction_date_epoch = ist('2026-01-01')));
    expect(placesOf(after, 'DEDUCTION_DATE_AFTER_QUARTER')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 3, column: 'deduction_date_epoch' }]);
    expect(placesOf(after, 'PAYMENT_DATE_OUTSIDE_QUARTER')).to.deep.equal([]);
  });

  it('Form 140: a payment dated before the quarter is PAYMENT_DATE_OUTSIDE_QUARTER at its cell (FVU 1.2)', () => {
    const r = run('140', (p) => Object.assign(pay(p, 0), { payment_date_epoch: ist('2026-03-31') }));
    expect(placesOf(r, 'PAYMENT_DATE_OUTSIDE_QUARTER')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 2, column: 'payment_date_epoch' }]);
    expect(r.txt).to.equal(null);
  });
});

describe('what the FVU accepts: the 24Q amount ceiling (FVU 4.4)', () => {
  it('24Q: an amount paid of 999999999.00 is written in DD 22; one paisa more is AMOUNT_PAID_TOO_LARGE, an error, and no TXT', () => {
    const at = run('24Q', (p) => (pay(p, 0).payment_amount = 999999999));
    expect(errorsOf(at)).to.deep.equal([]);
    expect(deducteesOf(at.txt!, 'legacy', 1)[0]![22], 'DD 22').to.equal('999999999.00');
    const above = run('24Q', (p) => (pay(p, 0).payment_amount = 999999999.01));
    expect(placesOf(above, 'AMOUNT_PAID_TOO_LARGE')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 2, column: 'payment_amount' }]);
    expect(above.txt).to.equal(null);
  });

  for (const name of ['26Q', '27Q', '140'] as const) {
    it(`${name}: no such ceiling (FVU 4.4 sets it for 24Q only); 1500000000.00 is written in the amount field`, () => {
      const r = run(name, (p) => (pay(p, 0).payment_amount = 1500000000));
      expect(errorsOf(r)).to.deep.equal([]);
      expect(placesOf(r, 'AMOUNT_PAID_TOO_LARGE')).to.deep.equal([]);
      const family = name === '140' ? 'new' : 'legacy';
      expect(deducteesOf(r.txt!, family, 1)[0]![family === 'new' ? 20 : 22]).to.equal('1500000000.00');
    });
  }

  it('24Q Q4: total taxable income (SD 23) above 999999999.00 is SALARY_INCOME_TOO_LARGE', () => {
    const r = run('24Q-Q4', (p) => (p.salaries![1]!.salary_as_per_provisions_contained_in_section_17_1 = 2000000000));
    expect(placesOf(r, 'SALARY_INCOME_TOO_LARGE')).to.deep.equal([{ severity: 'error', sheet: 'salary_detail_sheet', row: 3, column: 'salary_as_per_provisions_contained_in_section_17_1' }]);
  });
});

/** A second 26Q challan with the first one's serial and BSR code, on another day; the first row moves to it. */
function sameSerialOtherDay(p: WorkbookParts, withDates: boolean): void {
  p.challans[0]!.tds_amount = 4000;
  p.challans.push({ ...p.challans[0]!, paid_date_epoch: ist('2025-11-20'), tds_amount: 8000, interest: 0 });
  if (!withDates) return;
  p.paymentHeader.push('challan_date_epoch');
  pay(p, 0).challan_date_epoch = ist('2025-11-20');
  pay(p, 1).challan_date_epoch = ist('2025-11-07');
}

describe('what the FVU accepts: a challan is its CIN (BSR code + date + serial)', () => {
  it('26Q: two challans with the same serial and BSR on different dates are two CD records (12/16 equal, 18 differs), each with its own rows', () => {
    const r = run('26Q', (p) => sameSerialOtherDay(p, true));
    expect(errorsOf(r)).to.deep.equal([]);
    expect(placesOf(r, 'DUPLICATE_CHALLAN')).to.deep.equal([]);
    expect(pick(recordOf(r.txt, 'CD', 1), [4, 5, 12, 16, 18, 22])).to.deep.equal({ 4: '1', 5: '1', 12: '00101', 16: '0510308', 18: '07112025', 22: '4000.00' });
    expect(pick(recordOf(r.txt, 'CD', 3), [4, 5, 12, 16, 18, 22])).to.deep.equal({ 4: '3', 5: '1', 12: '00101', 16: '0510308', 18: '20112025', 22: '8000.00' });
    expect(pick(deducteesOf(r.txt!, 'legacy', 3)[0]!, [4, 5, 17, 22])).to.deep.equal({ 4: '3', 5: '1', 17: '8000.00', 22: '400000.00' });
    expect(pick(deducteesOf(r.txt!, 'legacy', 1)[0]!, [4, 5, 17, 22])).to.deep.equal({ 4: '1', 5: '1', 17: '4000.00', 22: '40000.00' });
  });

  it('26Q: without the payment\'s challan date, serial + BSR naming two challans is CHALLAN_AMBIGUOUS at each payment cell; no guess, no TXT', () => {
    const r = run('26Q', (p) => sameSerialOtherDay(p, false));
    expect(placesOf(r, 'CHALLAN_AMBIGUOUS')).to.deep.equal([
      { severity: 'error', sheet: 'payment_sheet', row: 2, column: 'challan_serial' },
      { severity: 'error', sheet: 'payment_sheet', row: 3, column: 'challan_serial' },
    ]);
    expect(placesOf(r, 'DUPLICATE_CHALLAN')).to.deep.equal([]);
    expect(r.txt).to.equal(null);
  });

  it('26Q: a challan date that matches none of them is UNKNOWN_CHALLAN at the challan_date_epoch cell', () => {
    const r = run('26Q', (p) => {
      sameSerialOtherDay(p, true);
      pay(p, 0).challan_date_epoch = ist('2025-11-21');
    });
    expect(placesOf(r, 'UNKNOWN_CHALLAN')).to.deep.equal([{ severity: 'error', sheet: 'payment_sheet', row: 2, column: 'challan_date_epoch' }]);
  });

  it('26Q: the same serial, BSR and date twice is DUPLICATE_CHALLAN', () => {
    const r = run('26Q', (p) => p.challans.push({ ...p.challans[0]! }));
    expect(placesOf(r, 'DUPLICATE_CHALLAN')).to.deep.equal([{ severity: 'error', sheet: 'challan_sheet', row: 4, column: 'challan_serial' }]);
  });

  it('Form 138 (the vendor\'s voucher columns): the same serial and BSR on two dates, told apart by challan_date_epoch', () => {
    const r = run('138', (p) => {
      p.challans[1]!.bank_challan_number_or_ddo_serial_number = '11111';
      p.paymentHeader.push('challan_date_epoch');
      p.payments.forEach((row, i) => Object.assign(row, { bank_challan_number_or_ddo_serial_number: '11111', challan_date_epoch: ist(i < 2 ? '2026-05-07' : '2026-06-05') }));
    });
    expect(errorsOf(r)).to.deep.equal([]);
    expect(pick(recordOf(r.txt, 'CD', 2), [4, 5, 17, 19])).to.deep.equal({ 4: '2', 5: '2', 17: '11111', 19: '05062026' });
    expect(deducteesOf(r.txt!, 'new', 2).map((dd) => dd[29])).to.deep.equal(['05062026', '05062026']);
  });

  it('the streaming form links, refuses and writes the same: convertStream gives convert()\'s TXT and problems', async () => {
    for (const change of [(p: WorkbookParts) => sameSerialOtherDay(p, true), (p: WorkbookParts) => sameSerialOtherDay(p, false), (p: WorkbookParts) => statedNil26Q(p)]) {
      const { parts, options } = baseline('26Q');
      change(parts);
      const text = JSON.stringify(buildWorkbook(parts));
      const expected = convert(JSON.parse(text), options);
      const streamed = await convertStream(bytes(text), options);
      expect(await linesOf(streamed)).to.equal(expected.txt);
      expect(streamed.report).to.deep.equal(expected.report);
    }
  });
});
