// Each employee's Part B, read back with PDF.js, against the SD / S16 / C6A records of the TXT written in the same
// conversion: every amount on the form is the statement's (the TXT is parsed here on its own, by field number,
// not through the records the PDF was made from).

import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { salaryAnnexure, type SalaryAnnexure } from '@satyapan/statement-engine';
import { form16Pdf, makeForm16s } from '../src/index.js';
import { allLines, amountsOf, amountsOfLabel, type Line } from './support/pdf-text.js';
import { FINANCIAL_YEAR, form16Workbook, NOW, TAN } from './support/workbook.js';

/** Part B item -> the SD field (1-based, as the layout numbers them) that carries the same amount. */
const ITEM_FIELD: Record<string, number> = {
  '1(a)': 67, '1(b)': 68, '1(c)': 69, '1(d)': 34, '1(e)': 35,
  '2(b)': 71, '2(c)': 72, '2(d)': 73, '2(f)': 80, '2(g)': 75, '2(h)': 75, '2(i)': 76,
  '5': 16, '6': 17, '7(b)': 77, '8': 18, '9': 19,
  '11': 22, '12': 23, '13': 24, '14': 78, '15': 25, '16': 26, '18': 27, '19': 28,
};
/** Chapter VI-A lines with a section of their own, and whether they show a qualifying amount. */
const C6A_LINES: Array<[string, string, boolean]> = [
  ['10(a)', '80C', false], ['10(b)', '80CCC', false], ['10(c)', '80CCD(1)', false], ['10(e)', '80CCD(1B)', false],
  ['10(f)', '80CCD(2)', false], ['10(g)', '80D', false], ['10(h)', '80E', false], ['10(k)', '80G', true], ['10(l)', '80TTA', true],
];

interface Statement {
  sd: string[];
  s16: Map<string, string>;
  /** section -> [deductible, gross, qualifying] (C6A fields 7, 8, 9). */
  c6a: Map<string, [string, string, string]>;
}

/** The employee's SD record and its children, from the TXT. */
function statementOf(txt: string, pan: string): Statement {
  const records = txt.split('\r\n').map((l) => l.split('^'));
  const sd = records.find((f) => f[1] === 'SD' && f[6] === pan);
  if (!sd) throw new Error(`no SD record for ${pan}`);
  const children = records.filter((f) => f[3] === sd[3]);
  return {
    sd,
    s16: new Map(children.filter((f) => f[1] === 'S16').map((f) => [f[5]!, f[6]!])),
    c6a: new Map(children.filter((f) => f[1] === 'C6A').map((f) => [f[5]!, [f[6]!, f[7]!, f[8]!] as [string, string, string]])),
  };
}

const field = (s: Statement, n: number) => s.sd[n - 1]!;
const paise = (amount: string) => Math.round(Number(amount) * 100);
const rupees = (p: number) => (p / 100).toFixed(2);

describe('Form 16 Part B: every amount is the 24Q Q4 statement\'s', function () {
  let annexure: SalaryAnnexure;
  const pdfs = new Map<string, Line[]>();

  before(async function () {
    annexure = salaryAnnexure(form16Workbook(), { form: '24Q', quarter: 'Q4', financialYear: FINANCIAL_YEAR, tan: TAN, now: () => NOW });
    expect(annexure.report.problems, 'the fixture workbook is valid').to.deep.equal([]);
    for (const employee of annexure.employees) {
      const pdf = await form16Pdf({ annexure, employee, partA: null, certificate: null, place: 'Mumbai', at: NOW });
      pdfs.set(employee.detail.pan, await allLines(pdf));
    }
  });

  it('makes one Part B for each SD record of the TXT', function () {
    const sdPans = annexure.txt!.split('\r\n').filter((l) => l.split('^')[1] === 'SD').map((l) => l.split('^')[6]);
    expect([...pdfs.keys()]).to.deep.equal(sdPans);
    expect(sdPans).to.have.length(3);
    const agnipath = annexure.txt!.split('\r\n').filter((l) => l.split('^')[1] === 'C6A' && l.split('^')[5] === '80CCH');
    expect(agnipath, 'an 80CCH amount under each regime (employees 1 and 3)').to.have.length(2);
  });

  for (const pan of ['ABCPM1234A', 'BCDPS2345B', 'DEFPK4567C']) {
    describe(pan, function () {
      let s: Statement;
      let lines: Line[];
      before(function () {
        s = statementOf(annexure.txt!, pan);
        lines = pdfs.get(pan)!;
      });

      it("names the employee, the employer, the period and the regime as the SD and BH records do", function () {
        const text = lines.map((l) => l.join(' '));
        const [from, to] = [field(s, 11), field(s, 12)].map((d) => `${d.slice(0, 2)}/${d.slice(2, 4)}/${d.slice(4)}`);
        expect(text).to.include(`PAN of the Employee ${pan}`);
        expect(text).to.include(`Name of the Employee ${field(s, 9)}`);
        expect(text).to.include(`Period with the Employer From ${from} To ${to}`);
        expect(text).to.include('Assessment Year 2026-27');
        expect(text).to.include(`TAN of the Deductor ${TAN}`);
        expect(text).to.include(`Whether opting out of taxation u/s 115BAC(1A)? ${field(s, 79) === 'Y' ? 'Yes' : 'No'}`);
      });

      it('prints each SD amount on its annexure line', function () {
        for (const [item, n] of Object.entries(ITEM_FIELD)) expect(amountsOf(lines, item), `item ${item} = SD ${n}`).to.deep.equal([field(s, n)]);
      });

      it('prints travel concession and HRA as the SD does: amounts under the old regime, not allowed under the new', function () {
        for (const [item, n] of [['2(a)', 70], ['2(e)', 74]] as const) {
          const line = lines.find((l) => l[0] === item)!;
          if (field(s, n) === '') expect(line, item).to.include('Not allowed (s.115BAC)');
          else expect(amountsOf(lines, item), `${item} = SD ${n}`).to.deep.equal([field(s, n)]);
        }
      });

      it('prints each S16 record on its section 16 line', function () {
        for (const [item, section] of [['4(a)', '16(ia)'], ['4(b)', '16(ii)'], ['4(c)', '16(iii)']] as const) {
          const line = lines.find((l) => l[0] === item)!;
          const amount = s.s16.get(section);
          if (amount === undefined && line.includes('Not allowed (s.115BAC)')) continue;
          expect(amountsOf(lines, item), `${item} = S16 ${section}`).to.deep.equal([amount ?? '0.00']);
        }
      });

      it('prints each C6A record (gross, qualifying, deductible) on its Chapter VI-A line, and 10(d) = SD 31', function () {
        for (const [item, section, qualifying] of C6A_LINES) {
          const c = s.c6a.get(section);
          const line = lines.find((l) => l[0] === item)!;
          if (!c && line.includes('Not allowed (s.115BAC)')) continue;
          const [deductible, gross, q] = c ?? ['0.00', '0.00', '0.00'];
          expect(amountsOf(lines, item), `${item} = C6A ${section}`).to.deep.equal(qualifying ? [gross, q || '0.00', deductible] : [gross, deductible]);
        }
        expect(amountsOf(lines, '10(d)').at(-1), '10(d) = SD 31').to.equal(field(s, 31));
        const others = s.c6a.get('OTHERS');
        if (others) expect(amountsOfLabel(lines, 'other sections: 80CCG, 80DD')).to.deep.equal([others[1], others[2], others[0]]);
        expect(amountsOf(lines, '10(n)').at(-1), '10(n) = C6A OTHERS').to.equal(others?.[0] ?? '0.00');
      });

      it("prints the statement's one 80CCH amount on the Agnipath line the regime allows: 10(j) under the new, 10(i) under the old", function () {
        const [deductible, gross] = s.c6a.get('80CCH') ?? ['0.00', '0.00'];
        const line = (item: string) => lines.find((l) => l[0] === item)!.join(' ');
        if (field(s, 79) === 'N') {
          expect(line('10(i)')).to.include('Not allowed (s.115BAC)');
          expect(amountsOf(lines, '10(j)'), '10(j) = C6A 80CCH').to.deep.equal([gross, deductible]);
        } else {
          expect(amountsOf(lines, '10(i)'), '10(i) = C6A 80CCH').to.deep.equal([gross, deductible]);
          if (s.c6a.has('80CCH')) expect(line('10(j)')).to.include('Included in 10(i)');
          else expect(amountsOf(lines, '10(j)')).to.deep.equal(['0.00', '0.00']);
        }
      });

      it("prints the lines the SD has no field for as the annexure's arithmetic of SD fields", function () {
        expect(amountsOf(lines, '3'), '3 = SD 34 - SD 76').to.deep.equal([rupees(paise(field(s, 34)) - paise(field(s, 76)))]);
        expect(amountsOf(lines, '7(a)'), '7(a) = SD 18 - SD 77').to.deep.equal([rupees(paise(field(s, 18)) - paise(field(s, 77)))]);
        expect(amountsOf(lines, '17'), '17 = SD 28 + SD 27').to.deep.equal([rupees(paise(field(s, 28)) + paise(field(s, 27)))]);
      });

      it('says it is not digitally signed', function () {
        expect(lines.map((l) => l.join(' '))).to.include('NOT DIGITALLY SIGNED');
      });
    });
  }
});

describe('makeForm16s: a workbook the statement would refuse', function () {
  it('gives the report and makes no PDF', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'form16-refused-'));
    try {
      const workbook = form16Workbook() as { sheets: Array<{ name: string; blocks: Array<{ header: string[]; rows: unknown[][] }> }> };
      const salary = workbook.sheets.find((s) => s.name === 'salary_detail_sheet')!.blocks[0]!;
      salary.rows[0]![salary.header.indexOf('employment_from_date_epoch')] = 'not a date';
      const result = await makeForm16s({ workbook, financialYear: FINANCIAL_YEAR, tan: TAN, outDir: dir, now: NOW });
      expect(result.report.valid).to.equal(false);
      expect(result.report.problems.filter((p) => p.severity === 'error').map((p) => p.column)).to.include('employment_from_date_epoch');
      expect(result.lines).to.deep.equal([]);
      expect(readdirSync(dir)).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
