/**
 * The refusals that go with the golden cases for s.194P, the remark letters of each FVU release, the in-kind
 * sections and the cash-withdrawal columns: each starts from a golden workbook (fixtures/*.194p.json,
 * *.206ab.json, *.206cca.json, *.in-kind.json), changes one cell, and expects the rule code at that cell and no
 * TXT. Sources: tds-rules-addendum §2 (remarks), §3 (194P), §4 (in-kind codes, DD 22/23); FORMAT_NOTES.md §4, §5.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { convert, convertFile, type Problem } from '@satyapan/statement-engine';
import { FORM_140_Q1_IN_KIND } from './expected/form140-in-kind.js';
import { FORM_24Q_Q4_194P } from './expected/form24q-q4-194p.js';
import { FORM_26Q_Q2_206AB } from './expected/form26q-206ab.js';
import { FORM_27EQ_Q3_206CCA } from './expected/form27eq-206cca.js';
import { FORM_27Q_Q1_206AB } from './expected/form27q-206ab.js';
import { convertOptions, expectedTxt, loadFixture, type CaseOptions, type GoldenCase } from './golden-case.js';

type Workbook = Parameters<typeof convert>[0];
interface Table { name: string; header: string[]; rows: unknown[][] }
interface Sheet { blocks: Table[] }

const IST = (date: string): number => Date.parse(`${date}T00:00:00+05:30`);

function table(workbook: unknown, name: string): Table {
  for (const sheet of (workbook as { sheets: Sheet[] }).sheets) {
    const found = sheet.blocks.find((b) => b.name === name);
    if (found) return found;
  }
  throw new Error(`no ${name}`);
}

/** Sets a cell of `rows[index]` (sheet row index + 2) by column name. */
function setCell(workbook: unknown, tableName: string, index: number, column: string, value: unknown): void {
  const t = table(workbook, tableName);
  const position = t.header.indexOf(column);
  if (position < 0) throw new Error(`no column ${column} in ${tableName}`);
  t.rows[index]![position] = value;
}

function run(golden: GoldenCase, change: (workbook: unknown) => void, options: Partial<CaseOptions & { now: () => Date }> = {}) {
  const workbook = loadFixture(golden.fixture);
  change(workbook);
  return convert(workbook as Workbook, { ...convertOptions(golden), ...options });
}

const IN_FY_2025 = (): Date => new Date('2026-03-20T10:00:00+05:30');

function at(problems: readonly Problem[], code: string, sheet: string, row: number, column: string): Problem[] {
  return problems.filter((p) => p.code === code && p.sheet === sheet && p.row === row && p.column === column);
}

const U_TOKEN = 'deduction_is_on_higher_rate_in_view_of_section_206_ab_for_non_filing_of_return_of_income';

describe('s.194P (24Q): refusals and the streaming form', () => {
  it('a 194P salary row of a general employee: SECTION_194P_NOT_SENIOR at the row, no TXT', () => {
    const result = run(FORM_24Q_Q4_194P, (wb) => setCell(wb, 'payee_table', 0, 'employee_category', 'general'));
    expect(result.txt).to.equal(null);
    expect(at(result.report.problems, 'SECTION_194P_NOT_SENIOR', 'salary_detail_sheet', 2, 'payee_sr_no')).to.have.length(1);
    expect(at(result.report.problems, 'SECTION_194P_NOT_SENIOR', 'payment_sheet', 2, 'nature_of_payment')).to.have.length(1);
  });

  it('a 194P row with salary u/s 17(1), which the 94P record has no field for: SALARY_194P_COLUMN_NOT_APPLICABLE', () => {
    const result = run(FORM_24Q_Q4_194P, (wb) => setCell(wb, 'salary_detail_table', 0, 'salary_as_per_provisions_contained_in_section_17_1', 100000));
    expect(result.txt).to.equal(null);
    expect(at(result.report.problems, 'SALARY_194P_COLUMN_NOT_APPLICABLE', 'salary_detail_sheet', 2, 'salary_as_per_provisions_contained_in_section_17_1')).to.have.length(1);
  });

  it('net_tax_payable_under_194p that is not tax - 87A + surcharge + cess - 89: SALARY_194P_NET_TAX_MISMATCH at that cell', () => {
    const result = run(FORM_24Q_Q4_194P, (wb) => setCell(wb, 'salary_detail_table', 2, 'net_tax_payable_under_194p', 80000));
    expect(at(result.report.problems, 'SALARY_194P_NET_TAX_MISMATCH', 'salary_detail_sheet', 4, 'net_tax_payable_under_194p')).to.have.length(1);
  });

  it('convertFile writes the same bytes as convert(): 94P/P16/P6A after every SD, BH 70/71 from the spilled records', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'satyapan-194p-'));
    try {
      const input = join(dir, 'workbook.json');
      writeFileSync(input, JSON.stringify(loadFixture(FORM_24Q_Q4_194P.fixture)));
      const conversion = await convertFile(input, convertOptions(FORM_24Q_Q4_194P), { memoryBudget: 256 });
      const output = join(dir, 'statement.txt');
      await conversion.writeTo(output);
      const { readFileSync } = await import('node:fs');
      const expected = convert(loadFixture(FORM_24Q_Q4_194P.fixture) as Workbook, convertOptions(FORM_24Q_Q4_194P)).txt;
      expect(readFileSync(output, 'latin1')).to.equal(expected);
      expect(expected!.split('\r\n').map((l) => l.split('^')[1])).to.deep.equal(expectedTxt(FORM_24Q_Q4_194P).split('\r\n').map((l) => l.split('^')[1]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('remark letters per FVU release (legacy DD 30)', () => {
  it('26Q remark U on 2AA (192A, excluded from the 206AB list): REMARK_NOT_ALLOWED_FOR_SECTION at the reason cell', () => {
    const result = run(FORM_26Q_Q2_206AB, (wb) => setCell(wb, 'payment_table', 0, 'nature_of_payment', 'payment_of_accumulated_balance_of_provident_fund'));
    expect(result.txt).to.equal(null);
    expect(at(result.report.problems, 'REMARK_NOT_ALLOWED_FOR_SECTION', 'payment_sheet', 2, 'reason_for_lower_deduction')).to.have.length(1);
  });

  it('26Q remark B on 94C (194C is not in the published s.197A list): REMARK_NOT_ALLOWED_FOR_SECTION', () => {
    const result = run(FORM_26Q_Q2_206AB, (wb) => setCell(wb, 'payment_table', 2, 'nature_of_payment', 'sales_and_marketing_services'));
    expect(at(result.report.problems, 'REMARK_NOT_ALLOWED_FOR_SECTION', 'payment_sheet', 4, 'reason_for_lower_deduction')).to.have.length(1);
  });

  it('26Q remark U before FVU 7.2 (FY 2021-22 Q1): REMARK_NOT_IN_FORCE at the reason cell', () => {
    const result = run(
      FORM_26Q_Q2_206AB,
      (wb) => {
        table(wb, 'payment_table').rows.splice(1);
        setCell(wb, 'payment_table', 0, 'payment_date_epoch', IST('2021-06-15'));
        setCell(wb, 'payment_table', 0, 'deduction_date_epoch', IST('2021-06-15'));
        setCell(wb, 'challan_table', 0, 'paid_date_epoch', IST('2021-07-07'));
      },
      { quarter: 'Q1', financialYear: 'FY 2021-22' },
    );
    expect(at(result.report.problems, 'REMARK_NOT_IN_FORCE', 'payment_sheet', 2, 'reason_for_lower_deduction')).to.have.length(1);
  });

  it('26Q remark U for FY 2021-22 Q2 on a payment dated 30-06-2021, before s.206AB applied: REMARK_NOT_IN_FORCE', () => {
    const result = run(
      FORM_26Q_Q2_206AB,
      (wb) => {
        table(wb, 'payment_table').rows.splice(1);
        setCell(wb, 'payment_table', 0, 'payment_date_epoch', IST('2021-06-30'));
        setCell(wb, 'payment_table', 0, 'deduction_date_epoch', IST('2021-07-02'));
        setCell(wb, 'challan_table', 0, 'paid_date_epoch', IST('2021-08-07'));
      },
      { quarter: 'Q2', financialYear: 'FY 2021-22' },
    );
    const hits = at(result.report.problems, 'REMARK_NOT_IN_FORCE', 'payment_sheet', 2, 'reason_for_lower_deduction');
    expect(hits.map((p) => p.message).join()).to.match(/01\/07\/2021/);
  });

  it('27Q remark J in FY 2025-26 (s.206AB omitted from 1-Apr-2025): REMARK_NOT_IN_FORCE', () => {
    // Converted during FY 2025-26: a year that has not begun yet is refused before any row is read.
    const result = run(FORM_27Q_Q1_206AB, () => undefined, { financialYear: 'FY 2025-26', now: IN_FY_2025 });
    expect(at(result.report.problems, 'REMARK_NOT_IN_FORCE', 'payment_sheet', 2, 'reason_for_lower_deduction')).to.have.length(1);
  });

  it('27Q remark J on LBC (194LBC, excluded from the 206AB list): REMARK_NOT_ALLOWED_FOR_SECTION', () => {
    const result = run(FORM_27Q_Q1_206AB, (wb) => setCell(wb, 'payment_table', 0, 'nature_of_payment', 'income_in_respect_of_investment_in_securitization_trust'));
    expect(at(result.report.problems, 'REMARK_NOT_ALLOWED_FOR_SECTION', 'payment_sheet', 2, 'reason_for_lower_deduction')).to.have.length(1);
  });

  it('27EQ remark I in FY 2025-26 (s.206CCA omitted from 1-Apr-2025): REMARK_NOT_IN_FORCE', () => {
    const result = run(FORM_27EQ_Q3_206CCA, () => undefined, { financialYear: 'FY 2025-26', now: IN_FY_2025 });
    expect(result.txt).to.equal(null);
    expect(at(result.report.problems, 'REMARK_NOT_IN_FORCE', 'payment_sheet', 2, 'reason_for_lower_or_higher_collection')).to.have.length(1);
  });

  it('the 206AB token maps to remark U (no longer REASON_CODE_UNKNOWN): a U on the 4IA row is written in DD 30', () => {
    const result = run(FORM_26Q_Q2_206AB, (wb) => setCell(wb, 'payment_table', 3, 'reason_for_lower_deduction', U_TOKEN));
    expect(result.report.problems.filter((p) => p.code === 'REASON_CODE_UNKNOWN')).to.deep.equal([]);
    const dd = result.txt!.split('\r\n').filter((l) => l.split('^')[1] === 'DD').map((l) => l.split('^')[29]);
    expect(dd).to.deep.equal(['U', 'U', 'B', 'U', 'U']);
  });
});

describe('new forms: in-kind sections and the cash-withdrawal columns', () => {
  it('an in-kind row (1059) with tax deposited: IN_KIND_TAX_NOT_ZERO at total_tax_deposited (DD 25 must be 0.00)', () => {
    const result = run(FORM_140_Q1_IN_KIND, (wb) => setCell(wb, 'payment_table', 1, 'total_tax_deposited', 30000));
    expect(result.txt).to.equal(null);
    expect(at(result.report.problems, 'IN_KIND_TAX_NOT_ZERO', 'payment_sheet', 3, 'total_tax_deposited')).to.have.length(1);
  });

  it('an in-kind row with a stated rate: IN_KIND_TAX_NOT_ZERO at rate_of_deduction (DD 28 must be 0)', () => {
    const result = run(FORM_140_Q1_IN_KIND, (wb) => {
      const t = table(wb, 'payment_table');
      t.header.push('rate_of_deduction');
      t.rows.forEach((r, i) => (r[t.header.length - 1] = i === 1 ? 30 : null));
    });
    expect(at(result.report.problems, 'IN_KIND_TAX_NOT_ZERO', 'payment_sheet', 3, 'rate_of_deduction')).to.have.length(1);
  });

  it('the minor head 100 challan of in-kind rows gets no CHALLAN_EXCESS; 1033 and 1034 rows get IN_KIND_LIST_UNSETTLED', () => {
    const problems = run(FORM_140_Q1_IN_KIND, () => undefined).report.problems;
    expect(problems.filter((p) => p.code === 'CHALLAN_EXCESS')).to.deep.equal([]);
    expect(problems.filter((p) => p.code === 'IN_KIND_LIST_UNSETTLED').map((p) => p.row)).to.deep.equal([2, 4]);
  });

  it('1064 (co-operative society) with an amount in the "more than 1 crore" column (DD 22, which belongs to 1065): CASH_WITHDRAWAL_NOT_APPLICABLE', () => {
    const result = run(FORM_140_Q1_IN_KIND, (wb) => setCell(wb, 'payment_table', 3, 'nature_of_payment', 'cash_withdrawal_by_co_operative_societies'));
    expect(result.txt).to.equal(null);
    expect(at(result.report.problems, 'CASH_WITHDRAWAL_NOT_APPLICABLE', 'payment_sheet', 5, 'amount_of_cash_withdrawal_more_than_1_crore_under_section_393_3')).to.have.length(1);
  });
});
