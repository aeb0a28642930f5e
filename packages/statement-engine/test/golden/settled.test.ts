/**
 * The two disagreements with the engine that DECISIONS.md once left open, asserted now that the engine has
 * settled them, on the golden workbooks (property.test.ts asserts both on random workbooks too):
 *   X-01 a challan whose tax is below the sum of its rows is CHALLAN_SHORT on the challan's tax column;
 *   X-02 a payee PAN in lower case is upper-cased with an IDENTIFIER_UPPERCASED warning at its cell, and the
 *        TXT is byte for byte the one of the same workbook in capitals.
 */
import { expect } from 'chai';
import { convert } from '@satyapan/statement-engine';
import { FORM_140_Q1 } from './expected/form140.js';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { convertOptions, loadFixture, type GoldenCase } from './golden-case.js';
import type { Cell } from './workbook-reader.js';

interface Table { header: string[]; rows: Cell[][] }
interface Workbook { sheets: { name: string; blocks: Table[] }[] }

/** The one table of a sheet (fixtures are read afresh for each test, so it may be changed). */
function tableOf(workbook: Workbook, sheet: string): Table {
  const found = workbook.sheets.find((s) => s.name === sheet)?.blocks[0];
  if (!found) throw new Error(`fixture has no table on ${sheet}`);
  return found;
}

function column(table: Table, name: string): number {
  const index = table.header.indexOf(name);
  if (index < 0) throw new Error(`no column ${name}`);
  return index;
}

const sum = (row: Cell[], table: Table, columns: readonly string[]): number =>
  columns.reduce((total, name) => total + Number(row[column(table, name)] ?? 0), 0);

function convertCase(golden: GoldenCase, workbook: Workbook) {
  return convert(workbook as unknown as Parameters<typeof convert>[0], convertOptions(golden));
}

const placeOf = (p: { severity: string; sheet: string | null; row: number | null; column: string | null }) =>
  ({ severity: p.severity, sheet: p.sheet, row: p.row, column: p.column });

interface ShortCase {
  readonly golden: GoldenCase;
  /** The challan columns that add up to its tax; the first is the one the problem must name. */
  readonly challanTax: readonly string[];
  /** The payment columns that add up to the tax a row says was deposited. */
  readonly rowDeposited: readonly string[];
}

const SHORT_CASES: readonly ShortCase[] = [
  { golden: FORM_140_Q1, challanTax: ['total_tax_deducted'], rowDeposited: ['total_tax_deposited'] },
  {
    golden: FORM_26Q_Q2,
    challanTax: ['tds_amount', 'surcharge', 'health_and_education_cess'],
    rowDeposited: ['tds_amount', 'surcharge', 'health_and_education_cess'],
  },
];

describe('statement-engine settled disputes (DECISIONS.md X-01, X-02)', () => {
  for (const { golden, challanTax, rowDeposited } of SHORT_CASES) {
    const taxColumn = challanTax[0] as string;
    it(`X-01 ${golden.options.form}: a challan one rupee short of its rows is CHALLAN_SHORT at challan_sheet row 2, column ${taxColumn}; no TXT`, () => {
      const workbook = loadFixture(golden.fixture) as Workbook;
      const challans = tableOf(workbook, 'challan_sheet');
      const payments = tableOf(workbook, 'payment_sheet');
      const challan = challans.rows[0] as Cell[];
      const link = (row: Cell[], table: Table) => `${row[column(table, 'challan_serial')]}/${row[column(table, 'bsr_code')]}`;
      const deposited = payments.rows
        .filter((row) => link(row, payments) === link(challan, challans))
        .reduce((total, row) => total + sum(row, payments, rowDeposited), 0);
      const otherTax = sum(challan, challans, challanTax) - Number(challan[column(challans, taxColumn)]);
      challan[column(challans, taxColumn)] = deposited - 1 - otherTax;

      const result = convertCase(golden, workbook);
      expect(result.txt).to.equal(null);
      const short = result.report.problems.filter((p) => p.code === 'CHALLAN_SHORT').map(placeOf);
      expect(short).to.deep.equal([{ severity: 'error', sheet: 'challan_sheet', row: 2, column: taxColumn }]);
    });
  }

  for (const golden of [FORM_26Q_Q2, FORM_140_Q1]) {
    it(`X-02 ${golden.options.form}: a payee PAN in lower case gives the golden TXT byte for byte and one IDENTIFIER_UPPERCASED warning at payee_sheet row 2, column pan`, () => {
      const capitals = convertCase(golden, loadFixture(golden.fixture) as Workbook);
      const workbook = loadFixture(golden.fixture) as Workbook;
      const payees = tableOf(workbook, 'payee_sheet');
      const first = payees.rows[0] as Cell[];
      const pan = String(first[column(payees, 'pan')]);
      first[column(payees, 'pan')] = pan.toLowerCase();
      expect(first[column(payees, 'pan')], 'the fixture PAN has letters to lower').to.not.equal(pan);

      const result = convertCase(golden, workbook);
      expect(result.txt).to.be.a('string').and.equal(capitals.txt);
      const uppercased = result.report.problems.filter((p) => p.code === 'IDENTIFIER_UPPERCASED').map(placeOf);
      expect(uppercased).to.deep.equal([{ severity: 'warning', sheet: 'payee_sheet', row: 2, column: 'pan' }]);
      expect(result.report.problems.filter((p) => p.code !== 'IDENTIFIER_UPPERCASED')).to.deep.equal(capitals.report.problems);
    });
  }
});
