// Options, money, dates and text: the small pieces every record depends on.

import { expect } from 'chai';
import { civilDate, formatDdMmYyyy, fromEpochMillis } from '../src/dates.js';
import { convert, StatementEngineError, type ConvertOptions } from '../src/index.js';
import { formatPaise, formatRate, parsePaise, parseRate, rateOf } from '../src/money.js';
import { resolveOptions } from '../src/options.js';
import { cleanText, wrapWords } from '../src/text.js';
import { remarkRules, sectionAllowed } from '../src/codes/remark-releases.js';
import { makePeriod } from '../src/period.js';
import { baseline } from './support/baselines.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook } from './support/sheet-json.js';

function thrownCode(options: Partial<ConvertOptions>): string | null {
  try {
    resolveOptions({ ...OPTIONS_26Q, ...options } as ConvertOptions);
    return null;
  } catch (error) {
    expect(error).to.be.instanceOf(StatementEngineError);
    return (error as StatementEngineError).code;
  }
}

describe('options', () => {
  it('throws INVALID_FORM / INVALID_QUARTER / INVALID_FINANCIAL_YEAR / INVALID_TAN with stable codes', () => {
    expect(thrownCode({ form: '22Q' as never })).to.equal('INVALID_FORM');
    expect(thrownCode({ quarter: 'Q5' as never })).to.equal('INVALID_QUARTER');
    // A year that has not begun on the options' `now` (10 May 2026) is refused: TY 2027-28, FY 9999-00.
    for (const year of ['2025-26', 'FY 2025-27', 'TY 2025-26', 'FY 2009-10', '', 'TY 2027-28', 'FY 9999-00']) expect(thrownCode({ financialYear: year }), year).to.equal('INVALID_FINANCIAL_YEAR');
    for (const tan of ['MUM12345B', 'MUMA1234B', '', 'MUMA12345EB']) expect(thrownCode({ tan }), tan).to.equal('INVALID_TAN');
    // The FVU's T-FV-1010: a city code from its list, and the check letter of the 5 digits (12345 mod 7 = 4: E or L).
    for (const tan of ['MUMA12345B', 'XYZA12345E', 'EABC23456N']) expect(thrownCode({ tan }), tan).to.equal('INVALID_TAN');
    for (const tan of ['MUMA12345E', 'MUMA12345L', 'DELG00000A', 'DELG00000H', 'VPNX00006G']) expect(resolveOptions({ ...OPTIONS_26Q, tan }).tan, tan).to.equal(tan);
    expect(() => convert(buildWorkbook(form26qParts()), { ...OPTIONS_26Q, form: '99Q' as never })).to.throw(StatementEngineError);
  });

  it('reads either form name and decides the family from the period (FY 2026-27 is the tax year 2026-27)', () => {
    const r = (form: string, financialYear: string) => resolveOptions({ ...OPTIONS_26Q, form: form as never, financialYear });
    expect(r('26Q', 'FY 2025-26').form.formNumber).to.equal('26Q');
    expect(r('140', 'FY 2025-26').form.formNumber).to.equal('26Q');
    expect(r('26Q', 'TY 2026-27').form.formNumber).to.equal('140');
    expect(r('26q', 'FY 2026-27').form.formNumber).to.equal('140');
    expect(resolveOptions({ ...OPTIONS_26Q, form: '27EQ', financialYear: 'TY 2027-28', now: () => new Date('2027-04-01T00:00:00+05:30') }).form.formNumber).to.equal('143');
    expect(r('24Q', 'FY 2025-2026').period).to.include({ yearCode: '202526', assessmentYearCode: '202627', label: 'FY 2025-26' });
    expect(r('144', 'TY 2026-27').period).to.include({ yearCode: '202627', assessmentYearCode: '202728', label: 'TY 2026-27' });
    expect(resolveOptions({ ...OPTIONS_26Q, tan: ' muma12345e ' }).tan).to.equal('MUMA12345E');
  });

  it('quarters: Q1 Apr-Jun, Q2 Jul-Sep, Q3 Oct-Dec, Q4 Jan-Mar of the next calendar year', () => {
    const q = (quarter: string) => resolveOptions({ ...OPTIONS_26Q, quarter: quarter as never }).period;
    expect([q('Q1').quarterStart, q('Q1').quarterEnd]).to.deep.equal([20250401, 20250630]);
    expect([q('Q2').quarterStart, q('Q2').quarterEnd]).to.deep.equal([20250701, 20250930]);
    expect([q('Q3').quarterStart, q('Q3').quarterEnd]).to.deep.equal([20251001, 20251231]);
    expect([q('Q4').quarterStart, q('Q4').quarterEnd]).to.deep.equal([20260101, 20260331]);
  });
});

describe('money', () => {
  it('reads amounts exactly as integer paise, rejects a third decimal, forgives float noise', () => {
    expect(parsePaise(9164.6)).to.equal(916460);
    expect(parsePaise(12000)).to.equal(1200000);
    expect(parsePaise(0.05)).to.equal(5);
    expect(parsePaise(999999999999.99)).to.equal(99999999999999);
    expect(parsePaise(45823 * 0.2)).to.equal(916460);
    expect(parsePaise(0.1 + 0.2)).to.equal(30);
    expect(parsePaise(-12.5)).to.equal(-1250);
    for (const bad of [0.105, 100.001, 1e15, Number.NaN, Infinity, '12', null]) expect(parsePaise(bad), String(bad)).to.be.NaN;
  });

  it('formats paise with two decimals, rates with four; rates round half up', () => {
    expect([formatPaise(0), formatPaise(5), formatPaise(916460), formatPaise(-1250), formatPaise(99999999999999)]).to.deep.equal(['0.00', '0.05', '9164.60', '-12.50', '999999999999.99']);
    expect([formatRate(0), formatRate(100000), formatRate(19737), formatRate(75000)]).to.deep.equal(['0.0000', '10.0000', '1.9737', '7.5000']);
    expect(rateOf(150000, 7600000)).to.equal(19737);
    expect(rateOf(1, 300)).to.equal(3333);
    expect([parseRate(7.5), parseRate(0.1), parseRate(100)]).to.deep.equal([75000, 1000, 1000000]);
    expect(parseRate(1.23456)).to.be.NaN;
  });
});

describe('dates', () => {
  it('reads epoch milliseconds as the calendar day in IST, like Date shifted by +05:30, across two centuries', () => {
    for (let ms = Date.UTC(1901, 0, 1); ms < Date.UTC(2199, 0, 1); ms += 86400000 * 3.7 + 4321) {
      const d = new Date(ms + 19800000);
      expect(fromEpochMillis(ms)).to.equal(civilDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()));
    }
    expect(fromEpochMillis(1697740200000)).to.equal(20231020); // the vendor sample's IST midnight
    expect(fromEpochMillis(Date.UTC(2025, 2, 31, 18, 29, 59))).to.equal(20250331);
    expect(fromEpochMillis(Date.UTC(2025, 2, 31, 18, 30, 0))).to.equal(20250401);
  });

  it('writes ddmmyyyy', () => {
    expect([formatDdMmYyyy(20250401), formatDdMmYyyy(20261231), formatDdMmYyyy(19990101)]).to.deep.equal(['01042025', '31122026', '01011999']);
  });
});

describe('text', () => {
  it('keeps printable ASCII, folds accents, replaces carets and line breaks, flags the rest', () => {
    expect(cleanText('  Acme Pvt Ltd ')).to.deep.equal({ text: 'Acme Pvt Ltd', replaced: false, nonAscii: false });
    expect(cleanText('Café Müller')).to.deep.equal({ text: 'Cafe Muller', replaced: false, nonAscii: false });
    expect(cleanText('A^B\r\nC')).to.deep.equal({ text: 'A B C', replaced: true, nonAscii: false });
    expect(cleanText('किरण').nonAscii).to.equal(true);
  });

  it('wraps a long street over address lines at word boundaries', () => {
    expect(wrapWords('12 Marine Drive', 25, 3)).to.deep.equal(['12 Marine Drive']);
    expect(wrapWords('Flat 1203, Tower B, Lodha Bellissimo, N M Joshi Marg', 25, 3)).to.deep.equal(['Flat 1203, Tower B, Lodha', 'Bellissimo, N M Joshi', 'Marg']);
    expect(wrapWords('x'.repeat(26), 25, 3)).to.equal(null);
  });
});

describe('field writers', () => {
  it('the byte writer gives exactly the string writer text, for random records', async () => {
    const { ByteFieldWriter, StringFieldWriter } = await import('../src/records/field-writer.js');
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let trial = 0; trial < 500; trial++) {
      const count = 3 + Math.floor(random() * 60);
      let text = '';
      const strings = new StringFieldWriter(count, (body) => (text = body));
      const buffer = Buffer.alloc(8192);
      let end = 0;
      const bytes = new ByteFieldWriter((e) => (end = e)).start(buffer, 0, count);
      for (let n = 2; n <= count; n++) {
        if (random() < 0.4) continue;
        const kind = Math.floor(random() * 5);
        const paise = Math.floor((random() - 0.2) * 1e13);
        const write = (w: typeof strings | typeof bytes) => {
          if (kind === 0) w.text(n, random() < 0.2 ? '' : `v${n}`);
          else if (kind === 1) w.paise(n, random() < 0.2 ? null : paise);
          else if (kind === 2) w.rate(n, Math.floor(random() * 1000000));
          else if (kind === 3) w.date(n, random() < 0.2 ? null : civilDate(1990 + Math.floor(random() * 100), 1 + Math.floor(random() * 12), 1 + Math.floor(random() * 28)));
          else w.int(n, Math.floor(random() * 1e9));
        };
        const s = seed;
        write(strings);
        seed = s;
        write(bytes);
      }
      strings.end();
      bytes.end();
      expect(buffer.toString('latin1', 0, end)).to.equal(`${text}\n`);
    }
  });
});

describe('remark letters per FVU release (codes/remark-releases.ts)', () => {
  const letters = (kind: 'nonsalary' | 'nonresident' | 'tcs', year: number, quarter: 'Q1' | 'Q2') => {
    const rules = remarkRules(kind, 'legacy', makePeriod(year, quarter));
    return { inForce: [...rules.limits.keys()].sort().join(''), notInForce: [...rules.notInForce.keys()].sort().join('') };
  };

  it('26Q: R from FY 2018-19 (FVU 5.8); P, Q, U from FY 2021-22 Q2 (FVU 7.2); U withdrawn from FY 2025-26', () => {
    expect(letters('nonsalary', 2017, 'Q1')).to.deep.equal({ inForce: 'BDMNOSTY', notInForce: 'PQRU' });
    expect(letters('nonsalary', 2021, 'Q1')).to.deep.equal({ inForce: 'BDMNORSTY', notInForce: 'PQU' });
    expect(letters('nonsalary', 2021, 'Q2')).to.deep.equal({ inForce: 'BDMNOPQRSTUY', notInForce: '' });
    expect(letters('nonsalary', 2025, 'Q1')).to.deep.equal({ inForce: 'BDMNOPQRSTY', notInForce: 'U' });
  });

  it('27Q J and 27EQ I: FY 2021-22 Q2 to FY 2024-25 only', () => {
    expect(letters('nonresident', 2021, 'Q1').notInForce).to.equal('HIJ');
    expect(letters('nonresident', 2024, 'Q1').inForce).to.include('J');
    expect(letters('nonresident', 2025, 'Q1').notInForce).to.equal('J');
    expect(letters('tcs', 2021, 'Q1').notInForce).to.equal('I');
    expect(letters('tcs', 2022, 'Q2').inForce).to.equal('I');
    expect(letters('tcs', 2025, 'Q2').notInForce).to.equal('I');
  });

  it('section limits: U excludes 192A/194B/194BB/194LBC/194N/194NF; B is the s.197A list; Y gains 94B/4BB in FY 2025-26', () => {
    const fy2024 = remarkRules('nonsalary', 'legacy', makePeriod(2024, 'Q1')).limits;
    expect(['94C', '4JB', '2AA', '94B', 'LBC'].map((s) => sectionAllowed(fy2024.get('U')!.sections, s))).to.deep.equal([true, true, false, false, false]);
    expect(['94A', '4EE', '94K', '94C', '4JB'].map((s) => sectionAllowed(fy2024.get('B')!.sections, s))).to.deep.equal([true, true, true, false, false]);
    expect(sectionAllowed(fy2024.get('Y')!.sections, '94B')).to.equal(false);
    expect(sectionAllowed(remarkRules('nonsalary', 'legacy', makePeriod(2025, 'Q1')).limits.get('Y')!.sections, '94B')).to.equal(true);
  });
});

describe('DD 8, the deductee code (FVU 9.4 T-FV-4056)', () => {
  const dd8 = (txt: string | null) => (txt ?? '').split(/\r?\n/).filter((l) => l.split('^')[1] === 'DD').map((l) => l.split('^')[7]);

  it('27Q from FY 2023-24: the code of the PAN\'s 4th letter, or of the deductee type given', () => {
    const { parts, options } = baseline('27Q');
    const codes = (pan: string, type?: string) => {
      const p = structuredClone(parts);
      p.payees[0]!.pan = pan;
      if (type) {
        p.payeeHeader.push('deductee_type');
        p.payees[0]!.deductee_type = type;
      }
      return dd8(convert(buildWorkbook(p), options).txt)[0];
    };
    const byLetter: Array<[string, string]> = [['C', '1'], ['P', '2'], ['H', '3'], ['A', '4'], ['F', '7'], ['B', '8'], ['J', '9'], ['G', '10'], ['T', '10'], ['L', '10']];
    for (const [letter, code] of byLetter) expect(codes(`AAF${letter}G1234K`), letter).to.equal(code);
    expect(codes('AAFCG1234K', 'cooperative_society')).to.equal('6');
    expect(codes('AAFAG1234K', 'association_of_persons_companies_only')).to.equal('5');
    expect(codes('AAFTG1234K', 'trust')).to.equal('10');
  });

  it('26Q: 1 for a company, 2 for anyone else, whatever the PAN\'s letter', () => {
    const { parts, options } = baseline('26Q');
    const p = structuredClone(parts);
    p.payees[0]!.pan = 'AAFFG1234K';
    expect(dd8(convert(buildWorkbook(p), options).txt)[0]).to.equal('2');
    p.payees[0]!.pan = 'AAFCG1234K';
    expect(dd8(convert(buildWorkbook(p), options).txt)[0]).to.equal('1');
  });
});
