/**
 * Single-field variations of the 26Q golden workbook that probe rules the main fixtures avoid on purpose:
 * each test changes one cell, converts, and checks the named field against the sources.
 */
import { expect } from 'chai';
import { convert } from '@satyapan/statement-engine';
import { FORM_140_Q1 } from './expected/form140.js';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { convertOptions, loadFixture, type GoldenCase } from './golden-case.js';
import { field, parseTxt, type ParsedStatement } from './txt-parser.js';

type Cells = unknown[];
interface Block { name: string; items?: Record<string, unknown>[]; rows?: Cells[] }
interface Workbook { sheets: { name: string; blocks: Block[] }[] }

function fixture(golden: GoldenCase = FORM_26Q_Q2): Workbook {
  return loadFixture(golden.fixture) as Workbook;
}

function block(workbook: Workbook, sheet: string, name: string): Block {
  const found = workbook.sheets.find((s) => s.name === sheet)?.blocks.find((b) => b.name === name);
  if (!found) throw new Error(`fixture has no ${sheet}/${name}`);
  return found;
}

function row(workbook: Workbook, sheet: string, name: string, index: number): Cells {
  const found = block(workbook, sheet, name).rows?.[index];
  if (!found) throw new Error(`fixture has no row ${index} in ${name}`);
  return found;
}

function convertParsed(workbook: Workbook, golden: GoldenCase = FORM_26Q_Q2): { parsed: ParsedStatement; warnings: string[] } {
  const result = convert(workbook as Parameters<typeof convert>[0], convertOptions(golden));
  expect(result.report.errorCount, JSON.stringify(result.report.problems)).to.equal(0);
  return {
    parsed: parseTxt(result.txt as string, golden.family),
    warnings: result.report.problems.filter((p) => p.severity === 'warning').map((p) => `${p.code}@${p.sheet}/${p.row}/${p.column}`),
  };
}

function firstDeductee(parsed: ParsedStatement, challan = 0, deductee = 0) {
  const dd = parsed.batches[0]?.challans[challan]?.deductees[deductee];
  if (!dd) throw new Error('no such DD');
  return dd;
}

// Column positions in the 26Q tables of the fixture.
const PAY = { amount: 4, paymentDate: 5, tds: 6, deductionDate: 9, reason: 10 };
const CHALLAN_TDS = 4;
const PAYEE_NAME = 2;

describe('statement-engine edge cases (26Q variations)', () => {
  it('BH fields 26 and 40 (state): a state numbered below 10 is written with 2 digits (ASSAM → 04, §6.4)', () => {
    const workbook = fixture();
    for (const list of ['payer_list', 'responsible_person_list']) {
      for (const item of block(workbook, 'payer_sheet', list).items ?? []) if ('state' in item) item.state = 'ASSAM';
    }
    const { parsed } = convertParsed(workbook);
    const bh = parsed.batches[0]?.bh;
    expect(bh && [field(bh, 26), field(bh, 40)]).to.deep.equal(['04', '04']);
  });

  it('DD field 26 (rate): 4 decimals rounded half up, 12345 on 10000000 → 0.1235 (DECISIONS.md D-19)', () => {
    const workbook = fixture();
    const payment = row(workbook, 'payment_sheet', 'payment_table', 0);
    payment[PAY.amount] = 10_000_000;
    payment[PAY.tds] = 12_345;
    row(workbook, 'challan_sheet', 'challan_table', 0)[CHALLAN_TDS] = 23_500 - 10_000 + 12_345;
    const { parsed } = convertParsed(workbook);
    expect(field(firstDeductee(parsed), 26)).to.equal('0.1235');
  });

  it('DD field 13 (name): a caret in a name cannot split the record; the DD keeps 54 fields (§12)', () => {
    const workbook = fixture();
    row(workbook, 'payee_sheet', 'payee_table', 1)[PAYEE_NAME] = 'Dinesh^Patil';
    const { parsed, warnings } = convertParsed(workbook);
    const dd = firstDeductee(parsed, 0, 1);
    expect(dd.values).to.have.length(54);
    expect(field(dd, 13)).to.not.include('^');
    expect(warnings.some((w) => w.includes('payee_sheet/3/name')), warnings.join(' ')).to.equal(true);
  });

  it('DD field 13 (name): a non-ASCII name is written in ASCII (§2 item 1, §12)', () => {
    const workbook = fixture();
    row(workbook, 'payee_sheet', 'payee_table', 1)[PAYEE_NAME] = 'Dinesh Pàtil';
    const { parsed } = convertParsed(workbook);
    expect(field(firstDeductee(parsed, 0, 1), 13)).to.match(/^[\x20-\x7e]+$/);
  });

  it('DD field 23 (date of payment): 23:30 IST on 15-07-2025 (18:00 UTC) is still 15072025 (DECISIONS.md D-04)', () => {
    const workbook = fixture();
    row(workbook, 'payment_sheet', 'payment_table', 0)[PAY.paymentDate] = Date.UTC(2025, 6, 15, 18, 0);
    const { parsed } = convertParsed(workbook);
    expect(field(firstDeductee(parsed), 23)).to.equal('15072025');
  });

  it('DD field 23 (date of payment): 00:30 IST on 16-07-2025 (19:00 UTC on the 15th) is 16072025', () => {
    const workbook = fixture();
    row(workbook, 'payment_sheet', 'payment_table', 0)[PAY.paymentDate] = Date.UTC(2025, 6, 15, 19, 0);
    const { parsed } = convertParsed(workbook);
    expect(field(firstDeductee(parsed), 23)).to.equal('16072025');
  });
});

/** Column positions in the Form 140 payment table of the fixture. */
const PAY_140 = { nature: 3, amount: 4, deducted: 6, deposited: 7, deductionDate: 8, reason: 9, uin: 11, cashAbove1Crore: 12 };
const CHALLAN_140_TAX = 4;

/** Makes row 1 of the 26Q fixture (payee 2, 120000, tax 12000 in challan 1) a zero-tax row with a reason. */
function zeroTax26q(reason: string): Workbook {
  const workbook = fixture();
  const payment = row(workbook, 'payment_sheet', 'payment_table', 1);
  payment[PAY.tds] = 0;
  payment[PAY.deductionDate] = null;
  payment[PAY.reason] = reason;
  row(workbook, 'challan_sheet', 'challan_table', 0)[CHALLAN_TDS] = 23_500 - 12_000;
  return workbook;
}

/** Makes row 1 of the 140 fixture (payee 2, 300000, tax 6000 in challan 1) a zero-tax row with a reason. */
function zeroTax140(reason: string, deductionDate: number | null): Workbook {
  const workbook = fixture(FORM_140_Q1);
  const payment = row(workbook, 'payment_sheet', 'payment_table', 1);
  payment[PAY_140.deducted] = 0;
  payment[PAY_140.deposited] = 0;
  payment[PAY_140.deductionDate] = deductionDate;
  payment[PAY_140.reason] = reason;
  row(workbook, 'challan_sheet', 'challan_table', 0)[CHALLAN_140_TAX] = 27_000 - 6_000;
  return workbook;
}

describe('statement-engine edge cases (zero-tax rows and cash withdrawals)', () => {
  it('26Q remark Y (below threshold), no tax: DD 14-17 and 19 are 0.00, 24 (date of deduction) empty, 26 (rate) 0.0000, 30 = Y', () => {
    const { parsed } = convertParsed(zeroTax26q('transaction_where_tax_not_been_deducted_as_amount_paid_to_vendor_party_has_not_exceeded_the_threshold_limit'));
    const dd = firstDeductee(parsed, 0, 1);
    expect([14, 15, 16, 17, 19, 24, 26, 30].map((n) => field(dd, n)))
      .to.deep.equal(['0.00', '0.00', '0.00', '0.00', '0.00', '', '0.0000', 'Y']);
  });

  it('140 remark B with a Form 121 UIN, no tax: DD 24/25 0.00, 27 empty even if the workbook gives a date, 28 0.0000, 31 = UIN, 32 = B (§4.4)', () => {
    const workbook = zeroTax140('no_deduction_on_account_of_declaration_u_s_393_6', Date.UTC(2026, 3, 24, 18, 30));
    row(workbook, 'payment_sheet', 'payment_table', 1)[PAY_140.uin] = 'UIN121ABCDE12345';
    // FVU 1.2 takes remark B with some sections only (T_FV_6446): interest on securities (1019) is one.
    row(workbook, 'payment_sheet', 'payment_table', 1)[PAY_140.nature] = 'interest_on_securities';
    const { parsed } = convertParsed(workbook, FORM_140_Q1);
    const dd = firstDeductee(parsed, 0, 1);
    expect([24, 25, 27, 28, 31, 32].map((n) => field(dd, n))).to.deep.equal(['0.00', '0.00', '', '0.0000', 'UIN121ABCDE12345', 'B']);
  });

  it('140 remark Y, no tax and no deduction date: DD 27 empty, 28 0.0000, 32 = Y; CD 22 is the sum of DD 24 (21000.00)', () => {
    const { parsed } = convertParsed(zeroTax140('no_deduction_on_account_of_payment_being_below_threshold_limit_as_specified_in_the_act', null), FORM_140_Q1);
    const dd = firstDeductee(parsed, 0, 1);
    expect([27, 28, 32].map((n) => field(dd, n))).to.deep.equal(['', '0.0000', 'Y']);
    const cd = parsed.batches[0]?.challans[0]?.cd;
    expect(cd && [field(cd, 8), field(cd, 21), field(cd, 22)]).to.deep.equal(['21000.00', '21000.00', '21000.00']);
  });

  it('140 cash withdrawal (section 1065): DD 15 = 1065, DD 22 = the amount above 1 crore, DD 23 empty (§4.4)', () => {
    const workbook = fixture(FORM_140_Q1);
    const payment = row(workbook, 'payment_sheet', 'payment_table', 1);
    payment[PAY_140.nature] = 'cash_withdrawal';
    payment[PAY_140.amount] = 15_000_000;
    payment[PAY_140.cashAbove1Crore] = 15_000_000;
    const { parsed } = convertParsed(workbook, FORM_140_Q1);
    const dd = firstDeductee(parsed, 0, 1);
    expect([15, 20, 22, 23, 28].map((n) => field(dd, n))).to.deep.equal(['1065', '15000000.00', '15000000.00', '', '0.0400']);
  });
});
