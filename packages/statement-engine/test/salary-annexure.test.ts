// salaryAnnexure(): the records of a 24Q Q4 salary annexure with the TXT written from them, in one conversion.

import { expect } from 'chai';
import { convert, salaryAnnexure, StatementEngineError } from '../src/index.js';
import { buildWorkbook } from './support/sheet-json.js';
import { form24qQ4Parts, OPTIONS_24Q_Q3, OPTIONS_24Q_Q4 } from './support/more-fixtures.js';
import { FORM_24Q_Q4_194P } from './golden/expected/form24q-q4-194p.js';
import { convertOptions, loadFixture } from './golden/golden-case.js';

describe('salaryAnnexure', function () {
  it("gives convert()'s TXT and one record per SD, in record order, with the figures the SD fields carry", function () {
    const workbook = buildWorkbook(form24qQ4Parts());
    const annexure = salaryAnnexure(workbook, OPTIONS_24Q_Q4);
    expect(annexure.txt).to.equal(convert(workbook, OPTIONS_24Q_Q4).txt);
    const sd = annexure.txt!.split('\r\n').filter((l) => l.split('^')[1] === 'SD').map((l) => l.split('^'));
    expect(annexure.employees.map((e) => [e.detail.record, e.detail.pan])).to.deep.equal(sd.map((f) => [Number(f[3]), f[6]]));
    expect(annexure.employees.map((e) => (e.figures.netTax / 100).toFixed(2))).to.deep.equal(sd.map((f) => f[27]));
    expect(annexure.period).to.deep.equal({ label: 'FY 2025-26', assessmentYear: '2026-27', yearStart: '01042025', yearEnd: '31032026' });
    expect(annexure.deductor.tan).to.equal(OPTIONS_24Q_Q4.tan);
    expect(annexure.seniorCitizens).to.deep.equal([]);
  });

  it('gives the 94P records of s.194P specified senior citizens apart', function () {
    const workbook = loadFixture(FORM_24Q_Q4_194P.fixture);
    const annexure = salaryAnnexure(workbook, convertOptions(FORM_24Q_Q4_194P));
    expect(annexure.txt).to.equal(convert(workbook, convertOptions(FORM_24Q_Q4_194P)).txt);
    const p94 = annexure.txt!.split('\r\n').filter((l) => l.split('^')[1] === '94P').map((l) => l.split('^')[5]);
    expect(p94.length).to.be.greaterThan(0);
    expect(annexure.seniorCitizens.map((s) => s.detail.pan)).to.deep.equal(p94);
  });

  it('gives no records for a workbook with errors, and refuses a form without the annexure', function () {
    const parts = form24qQ4Parts();
    parts.salaries![0]!.employment_from_date_epoch = 'not a date';
    const refused = salaryAnnexure(buildWorkbook(parts), OPTIONS_24Q_Q4);
    expect(refused.report.valid).to.equal(false);
    expect([refused.txt, refused.employees]).to.deep.equal([null, []]);
    expect(() => salaryAnnexure(buildWorkbook(form24qQ4Parts()), OPTIONS_24Q_Q3)).to.throw(StatementEngineError).with.property('code', 'NO_SALARY_ANNEXURE');
  });
});
