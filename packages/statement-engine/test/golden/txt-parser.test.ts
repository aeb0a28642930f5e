/**
 * The test-side TXT reader must itself refuse what the layouts forbid, or the golden and property tests
 * built on it would prove nothing. These cases feed it hand-made broken files.
 */
import { expect } from 'chai';
import { FORM_140_Q1 } from './expected/form140.js';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { expectedTxt } from './golden-case.js';
import {
  amountText, controlTotalProblems, isDdmmyyyy, numberingProblems, paise, parseTxt, TxtShapeError,
} from './txt-parser.js';

const legacyTxt = expectedTxt(FORM_26Q_Q2);
const newTxt = expectedTxt(FORM_140_Q1);

function replaceField(txt: string, line: number, fieldNo: number, value: string): string {
  const lines = txt.split('\r\n');
  const fields = (lines[line - 1] ?? '').split('^');
  fields[fieldNo - 1] = value;
  lines[line - 1] = fields.join('^');
  return lines.join('\r\n');
}

describe('golden test TXT reader', () => {
  it('reads a legacy file into 1 batch, 2 challans with 3 and 2 deductees', () => {
    const parsed = parseTxt(legacyTxt, 'legacy');
    expect(parsed.batches).to.have.length(1);
    expect(parsed.batches[0]?.challans.map((c) => c.deductees.length)).to.deep.equal([3, 2]);
  });

  it('refuses a file whose last record lacks CRLF', () => {
    expect(() => parseTxt(legacyTxt.slice(0, -2), 'legacy')).to.throw(TxtShapeError, /CRLF/);
  });

  it('refuses a bare LF between records', () => {
    expect(() => parseTxt(legacyTxt.replace('\r\n', '\n'), 'legacy')).to.throw(TxtShapeError, /bare CR or LF/);
  });

  it('refuses a legacy DD with 53 fields (one caret short)', () => {
    const lines = legacyTxt.split('\r\n');
    lines[3] = (lines[3] ?? '').replace(/\^$/, '');
    expect(() => parseTxt(lines.join('\r\n'), 'legacy')).to.throw(TxtShapeError, /DD has 53 fields/);
  });

  it('refuses a new-family CD with the legacy 41 fields', () => {
    const lines = newTxt.split('\r\n');
    lines[2] = `${lines[2] ?? ''}${'^'.repeat(11)}`;
    expect(() => parseTxt(lines.join('\r\n'), 'new')).to.throw(TxtShapeError, /CD has 41 fields/);
  });

  it('refuses SD records in the new family (no salary layout there)', () => {
    expect(() => parseTxt(`${newTxt}11^SD^1${'^'.repeat(85)}\r\n`, 'new')).to.throw(TxtShapeError, /unknown record type 'SD'/);
  });

  it('refuses a DD before any CD', () => {
    const lines = legacyTxt.split('\r\n');
    const [fh, bh, cd, dd] = [lines[0], lines[1], lines[2], lines[3]];
    const reordered = [fh, bh, dd, cd, ...lines.slice(4)].join('\r\n');
    expect(() => parseTxt(reordered, 'legacy')).to.throw(TxtShapeError, /DD not directly under a CD/);
  });

  it('reports a line number out of sequence (field 1)', () => {
    const problems = numberingProblems(parseTxt(replaceField(legacyTxt, 5, 1, '9'), 'legacy'));
    expect(problems).to.deep.equal(["DD field 1 (line number) on line 5: is '9', the records give '5'"]);
  });

  it('reports a deductee number that does not restart at 1 under the second challan (legacy DD field 5)', () => {
    const problems = numberingProblems(parseTxt(replaceField(legacyTxt, 8, 5, '4'), 'legacy'));
    expect(problems).to.deep.equal(["DD field 5 (deductee detail record number) on line 8: is '4', the records give '1'"]);
  });

  it('reports a wrong challan reference in new-family DD field 5', () => {
    const problems = numberingProblems(parseTxt(replaceField(newTxt, 8, 5, '1'), 'new'));
    expect(problems).to.deep.equal(["DD field 5 (challan reference number) on line 8: is '1', the records give '2'"]);
  });

  it('reports a legacy CD field 33 that is not the sum of DD field 17', () => {
    const problems = controlTotalProblems(parseTxt(replaceField(legacyTxt, 3, 33, '23400.00'), 'legacy'));
    expect(problems).to.deep.equal(["CD field 33 (sum of DD total tax) on line 3: is '23400.00', the records give '23500.00'"]);
  });

  it('reports a new-family BH field 47 that is not the sum of CD field 12', () => {
    const problems = controlTotalProblems(parseTxt(replaceField(newTxt, 2, 47, '49000.00'), 'new'));
    expect(problems).to.deep.equal(["BH field 47 (batch total of deposit amount as per challan): is '49000.00', the records give '49120.00'"]);
  });

  it('refuses an amount written without 2 decimals', () => {
    const broken = parseTxt(replaceField(newTxt, 4, 24, '15000'), 'new');
    expect(() => controlTotalProblems(broken)).to.throw(TxtShapeError, /not an amount with 2 decimals/);
  });

  it('converts amounts to paise and back, and checks calendar dates', () => {
    expect(paise('1234.05', 'x')).to.equal(123405);
    expect(amountText(123405)).to.equal('1234.05');
    expect(isDdmmyyyy('29022024')).to.equal(true);
    expect(isDdmmyyyy('29022025')).to.equal(false);
  });
});
