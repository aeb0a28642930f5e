/**
 * Property tests of the statement engine (issue 3): random valid Form 26Q (legacy family) and Form 140 (new
 * family) workbooks convert to a TXT that parses back, with the test-side reader, into the same challans,
 * deductees and totals; and random single-field corruptions of those workbooks produce no TXT and an error
 * on the sheet, row and column that was corrupted, with a rule code from the engine's registry that names the
 * broken thing (a challan short of its rows names its tax column: DECISIONS.md X-01). A payee PAN in lower case
 * is no corruption: it gives the same TXT and one warning at its cell. Runs are bounded (60 each;
 * PROPERTY_RUNS overrides) so the suite stays fast.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { convert, RULES, validate } from '@satyapan/statement-engine';
import {
  CODE_PATTERNS, codeTables, corrupt, CORRUPTIONS, lowerCasePan, planArb, TAN, workbookOf, type Plan, type PropertyForm,
} from './golden/property-workbooks.js';
import { canonical, from140Workbook, from26qWorkbook, fromTxt } from './golden/statement-model.js';
import { controlTotalProblems, numberingProblems, parseTxt } from './golden/txt-parser.js';
import { readWorkbook } from './golden/workbook-reader.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);

function optionsFor(plan: Plan) {
  const { period } = plan;
  return { form: period.form, quarter: period.quarter, financialYear: period.financialYear, tan: TAN, now: () => new Date(period.now) };
}

function convertPlan(plan: Plan, workbook: unknown = workbookOf(plan)) {
  return convert(workbook as Parameters<typeof convert>[0], optionsFor(plan));
}

function describeErrors(problems: readonly { severity: string; sheet: string | null; row: number | null; column: string | null; code: string; message: string }[]): string {
  return problems.filter((p) => p.severity === 'error').map((p) => `${p.sheet}/${p.row}/${p.column} ${p.code}: ${p.message}`).join('\n');
}

function roundTrip(form: PropertyForm): void {
  const family = form === '26Q' ? 'legacy' : 'new';
  const modelOf = form === '26Q' ? from26qWorkbook : from140Workbook;
  fc.assert(
    fc.property(planArb(form), (plan) => {
      const result = convertPlan(plan);
      expect(result.report.errorCount, describeErrors(result.report.problems)).to.equal(0);
      expect(result.txt, 'TXT of a valid workbook').to.be.a('string');
      const parsed = parseTxt(result.txt as string, family);
      expect(numberingProblems(parsed), 'numbering').to.deep.equal([]);
      expect(controlTotalProblems(parsed), 'control totals').to.deep.equal([]);
      const expected = modelOf(readWorkbook(workbookOf(plan)), codeTables(form));
      expect(canonical(fromTxt(parsed))).to.deep.equal(canonical(expected));
      const report = validate(workbookOf(plan) as Parameters<typeof validate>[0], optionsFor(plan));
      expect(report.errorCount, 'validate() agrees with convert()').to.equal(0);
    }),
    { numRuns: RUNS },
  );
}

function corruptionFires(form: PropertyForm): void {
  const kinds = fc.constantFrom(...CORRUPTIONS[form]);
  fc.assert(
    fc.property(planArb(form), kinds, fc.nat({ max: 1000 }), (plan, kind, pick) => {
      const corruption = corrupt(plan, kind, pick);
      const result = convertPlan(plan, corruption.workbook);
      const where = `${kind} at ${corruption.sheet} row ${corruption.row} column ${corruption.column}`;
      expect(result.txt, `${where}: no TXT`).to.equal(null);
      expect(result.report.valid, where).to.equal(false);
      const hits = result.report.problems.filter((p) => p.severity === 'error'
        && p.sheet === corruption.sheet && p.row === corruption.row && p.column === corruption.column);
      expect(hits, `${where}; errors reported:\n${describeErrors(result.report.problems)}`).to.not.deep.equal([]);
      const codes = hits.map((p) => p.code);
      expect(codes.some((code) => CODE_PATTERNS[kind].test(code)), `${where}: rule codes ${codes.join(', ')}`).to.equal(true);
      for (const code of codes) {
        expect(RULES, `${code} is in the engine's rule registry`).to.have.property(code);
        expect(RULES[code as keyof typeof RULES].severity, `${code} severity`).to.equal('error');
      }
    }),
    { numRuns: RUNS },
  );
}

/** DECISIONS.md X-02: a lower-case PAN is upper-cased, with one warning at its cell; the TXT is unchanged. */
function lowerCasePanUpperCased(form: PropertyForm): void {
  fc.assert(
    fc.property(planArb(form), fc.nat({ max: 1000 }), (plan, pick) => {
      const changed = lowerCasePan(plan, pick);
      fc.pre(changed !== null);
      const capitals = convertPlan(plan);
      const result = convertPlan(plan, changed.workbook);
      expect(result.txt, 'the TXT of the same workbook with the PAN in capitals').to.be.a('string').and.equal(capitals.txt);
      const uppercased = result.report.problems.filter((p) => p.code === 'IDENTIFIER_UPPERCASED');
      expect(uppercased.map((p) => ({ severity: p.severity, sheet: p.sheet, row: p.row, column: p.column })))
        .to.deep.equal([{ severity: 'warning', sheet: changed.sheet, row: changed.row, column: changed.column }]);
      expect(result.report.problems.filter((p) => p.code !== 'IDENTIFIER_UPPERCASED')).to.deep.equal(capitals.report.problems);
    }),
    { numRuns: RUNS },
  );
}

describe('statement-engine properties (fast-check)', function () {
  this.timeout(60_000);

  it('Form 26Q FY 2025-26: random valid workbooks parse back into the same challans, deductees and totals', () => roundTrip('26Q'));
  it('Form 140 TY 2026-27: random valid workbooks parse back into the same challans, deductees and totals', () => roundTrip('140'));
  it('Form 26Q: a single corrupted field gives an error on its sheet/row/column and no TXT', () => corruptionFires('26Q'));
  it('Form 140: a single corrupted field gives an error on its sheet/row/column and no TXT', () => corruptionFires('140'));
  it('Form 26Q: a payee PAN in lower case gives the TXT of the PAN in capitals and one IDENTIFIER_UPPERCASED warning at its cell', () => lowerCasePanUpperCased('26Q'));
  it('Form 140: a payee PAN in lower case gives the TXT of the PAN in capitals and one IDENTIFIER_UPPERCASED warning at its cell', () => lowerCasePanUpperCased('140'));
});
