/**
 * Inputs the sources say the FVU would reject must produce no TXT. The worked Form 140 example of
 * tds-txt-format.md §9(d), with the deductee PANs exactly as published (ABCDE1234F, BCDEF2345G: 4th characters
 * D and E are not valid PAN holder types, §7), is one: the engine must flag both payee rows.
 */
import { expect } from 'chai';
import { convert } from '@satyapan/statement-engine';
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
