/**
 * Single-field variations of the 26Q golden workbook that probe rules the main fixtures avoid on purpose:
 * each test changes one cell, converts, and checks the named field against the sources.
 */
import { expect } from 'chai';
import { convert } from '@satyapan/statement-engine';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { convertOptions, loadFixture } from './golden-case.js';
import { field, parseTxt, type ParsedStatement } from './txt-parser.js';

type Cells = unknown[];
interface Block { name: string; items?: Record<string, unknown>[]; rows?: Cells[] }
interface Workbook { sheets: { name: string; blocks: Block[] }[] }

function fixture(): Workbook {
  return loadFixture(FORM_26Q_Q2.fixture) as Workbook;
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

function convertParsed(workbook: Workbook): { parsed: ParsedStatement; warnings: string[] } {
  const result = convert(workbook as Parameters<typeof convert>[0], convertOptions(FORM_26Q_Q2));
  expect(result.report.errorCount, JSON.stringify(result.report.problems)).to.equal(0);
  return {
    parsed: parseTxt(result.txt as string, 'legacy'),
    warnings: result.report.problems.filter((p) => p.severity === 'warning').map((p) => `${p.code}@${p.sheet}/${p.row}/${p.column}`),
  };
}

function firstDeductee(parsed: ParsedStatement, challan = 0, deductee = 0) {
  const dd = parsed.batches[0]?.challans[challan]?.deductees[deductee];
  if (!dd) throw new Error('no such DD');
  return dd;
}

// Column positions in the 26Q tables of the fixture.
const PAY = { amount: 4, paymentDate: 5, tds: 6 };
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
