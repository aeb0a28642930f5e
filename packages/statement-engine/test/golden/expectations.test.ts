/**
 * Self-check of the golden expectations, independent of the engine: every expected TXT must have the field
 * counts of its family, consecutive numbering and control totals that add up, and every fixture must be a
 * well-formed workbook whose payment rows point at existing payees and challans. A mistake in our own
 * arithmetic shows here rather than as a false disagreement with the engine.
 */
import { expect } from 'chai';
import { GOLDEN_CASES } from './cases.js';
import { expectedTxt, loadFixture, type GoldenCase } from './golden-case.js';
import { FIELD_COUNTS } from './layouts.js';
import { controlTotalProblems, numberingProblems, parseTxt } from './txt-parser.js';
import { readWorkbook } from './workbook-reader.js';

function checkFixture(golden: GoldenCase): void {
  const workbook = readWorkbook(loadFixture(golden.fixture));
  for (const table of workbook.tables.values()) {
    table.rows.forEach((row, index) => {
      expect(row.length, `${table.name} row ${index + 1} width`).to.equal(table.header.length);
    });
  }
  expect(workbook.tables.has('payment_table'), 'payment_table present').to.equal(true);
}

describe('statement-engine golden expectations (self-check, no engine)', () => {
  for (const golden of GOLDEN_CASES) {
    describe(golden.title, () => {
      it(`expected TXT has the ${golden.family} field counts (${Object.entries(FIELD_COUNTS[golden.family]).map(([t, n]) => `${t} ${n}`).join(', ')})`, () => {
        expect(() => parseTxt(expectedTxt(golden), golden.family)).not.to.throw();
      });

      it('expected TXT numbering: field 1 line numbers, batch numbers, CD field 4, DD challan reference and deductee number', () => {
        expect(numberingProblems(parseTxt(expectedTxt(golden), golden.family))).to.deep.equal([]);
      });

      it('expected TXT control totals: FH 9, BH 4/47, CD 5 and the CD sums of DD amounts', () => {
        const parsed = parseTxt(expectedTxt(golden), golden.family);
        expect(controlTotalProblems(parsed, { salaryQ4: golden.salaryQ4 ?? false })).to.deep.equal([]);
      });

      it(`fixture ${golden.fixture} is a well-formed workbook`, () => checkFixture(golden));
    });
  }
});
