/**
 * Inputs the sources say the FVU would reject must produce no TXT. The worked Form 140 example of
 * tds-txt-format.md §9(d), with the deductee PANs exactly as published (ABCDE1234F, BCDEF2345G: 4th characters
 * D and E are not valid PAN holder types, §7), is one: the engine must flag both payee rows. So are a Form 138
 * Q4 statement (its format is unpublished, §0 item 1) and a workbook converted as the wrong form.
 */
import { expect } from 'chai';
import { convert } from '@satyapan/statement-engine';
import { FORM_138_Q1 } from './expected/form138.js';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { SAMPLE_D_FORM_140 } from './expected/sample-d.js';
import { convertOptions, loadFixture } from './golden-case.js';

type Workbook = Parameters<typeof convert>[0];

describe('statement-engine refusals', () => {
  it('§9(d) with its published PANs: errors on payee_sheet rows 2 and 3, column pan, and no TXT', () => {
    const result = convert(loadFixture('sample-d_as-published_invalid-pans.json') as Workbook, convertOptions(SAMPLE_D_FORM_140));
    expect(result.txt).to.equal(null);
    expect(result.report.valid).to.equal(false);
    const panErrors = result.report.problems
      .filter((p) => p.severity === 'error' && p.sheet === 'payee_sheet' && p.column === 'pan')
      .map((p) => p.row);
    expect(panErrors).to.include.members([2, 3]);
    expect(panErrors).to.not.include(4);
  });
});

describe('statement-engine refusals of the period and form', () => {
  it('Form 138 Q4 (TY 2026-27): no TXT and an error, since Protean has not published the Q4 format (§0 item 1)', () => {
    const result = convert(loadFixture(FORM_138_Q1.fixture) as Workbook, { ...convertOptions(FORM_138_Q1), quarter: 'Q4' });
    expect(result.txt).to.equal(null);
    expect(result.report.problems.some((p) => p.severity === 'error' && /138|Q4|PUBLISHED/.test(p.code))).to.equal(true);
  });

  it('a form26q_workbook converted as Form 140 for TY 2026-27: no TXT and an error naming the workbook', () => {
    const result = convert(loadFixture(FORM_26Q_Q2.fixture) as Workbook,
      // A date in TY 2026-27: a year that has not begun is refused before the workbook is looked at.
      { ...convertOptions(FORM_26Q_Q2), form: '140', financialYear: 'TY 2026-27', now: () => new Date('2026-07-20T10:00:00+05:30') });
    expect(result.txt).to.equal(null);
    expect(result.report.problems.some((p) => p.severity === 'error' && /WORKBOOK/.test(p.code))).to.equal(true);
  });
});
