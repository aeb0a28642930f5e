// The conso file's deductee rows read in place (src/correction/conso-fields.ts): the character-level checks agree
// with the regular expressions they stand for, and a row compared in place with a regular DD line gives exactly
// what comparing its fields (fields(), the values the correction writes) gives, for every form of value TRACES
// or a hand-edited file may hold: padded and unpadded amounts, rates, a padded deductee code, empty fields.

import { expect } from 'chai';
import { convert, parseConso, type ConsoDeductee } from '../src/index.js';
import { DD_COMPARED, same, toFields } from '../src/correction/compare.js';
import { DATE, DECIMAL, FieldBounds, isDateAt, isDecimalAt } from '../src/correction/conso-fields.js';
import { writeConso } from './support/conso.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook } from './support/sheet-json.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

describe('conso rows read in place', () => {
  it('isDecimalAt and isDateAt agree with DECIMAL and DATE on 20,000 strings, inside a line and alone', () => {
    const next = random(23);
    const alphabet = ['0', '1', '2', '3', '9', '.', '-', '^', 'a', ' ', '00', '31', '12', '13', '32'];
    for (let k = 0; k < 20_000; k++) {
      const length = Math.floor(next() * 9);
      let value = '';
      for (let c = 0; c < length; c++) value += pick(next, alphabet);
      const line = `x^${value}^y`;
      const s = 2;
      const e = s + value.length;
      expect(isDecimalAt(line, s, e), `decimal '${value}'`).to.equal(DECIMAL.test(value));
      expect(isDateAt(line, s, e), `date '${value}'`).to.equal(DATE.test(value));
    }
    for (const date of ['01012026', '31122025', '00012026', '32012026', '01132026', '0101202', '010120261', '1a012026']) {
      expect(isDateAt(date, 0, date.length), date).to.equal(DATE.test(date));
    }
  });

  it('FieldBounds finds each field as split("^") does, past the last field empty', () => {
    const bounds = new FieldBounds();
    for (const line of ['', 'a', '^', 'a^b', '^^x^', `${'y^'.repeat(100)}z`]) {
      const fields = line.split('^');
      bounds.scan(line);
      expect(bounds.count, line).to.equal(fields.length);
      for (let n = 1; n <= fields.length + 2; n++) expect(bounds.value(line, n), `${line} field ${n}`).to.equal(fields[n - 1] ?? '');
    }
  });

  it('sameAs() equals comparing fields() with the regular line, on 5,000 rows with changed and re-formatted values', () => {
    const txt = convert(buildWorkbook(form26qParts()), OPTIONS_26Q).txt!;
    const conso = writeConso(txt, { token: '123456789012345' });
    const expectation = { tan: 'MUMA12345E', form: '26Q' as const, yearCode: '202526', quarter: 'Q3' };
    const consoLines = conso.split('\r\n');
    const ddAt = consoLines.findIndex((l) => l.split('^')[1] === 'DD');
    const regularDd = txt.split('\r\n').find((l) => l.split('^')[1] === 'DD')!;
    const next = random(7);
    // Values a checked conso row may hold per kind, as TRACES pads them and as an edited file may not.
    const amounts = ['000000003000.00', '3000.00', '3000', '3000.5', '0003000.50', '0.00', '000000000000.00', '0', '-12.00', '-0012.00', '-0.00', '12.345', '99999999999999.99', '0000000000000123456789012.34', ''];
    const rates = ['10.0000', '010.0000', '10', '10.00', '0.0000', '9.9993', '-1.5000', ''];
    const codes = ['2', '02', '002', '1', '0', '', 'A', '0A'];
    const texts = ['X', 'Y', '', 'ABCPK1234F', '4JB', 'C'];
    const dates = ['01102025', '05112025', ''];
    const pans = ['ABCPK1234F', 'AAACB2345G', 'PANNOTAVBL'];
    const KIND: Record<number, readonly string[]> = { 8: codes, 10: pans, 14: amounts, 15: amounts, 16: amounts, 17: amounts, 19: amounts, 21: amounts, 22: amounts, 23: dates, 24: dates, 25: dates, 26: rates };
    let equal = 0;
    for (let k = 0; k < 5000; k++) {
      const row = consoLines[ddAt]!.split('^');
      // Conso field numbers (1-based): the compared ones, the section code at 34.
      for (const n of [...DD_COMPARED.filter((f) => f !== 33), 34]) {
        if (next() < 0.3) row[n - 1] = pick(next, KIND[n] ?? texts);
      }
      const lines = [...consoLines];
      lines[ddAt] = row.join('^');
      const d: ConsoDeductee = parseConso(lines.join('\r\n'), expectation).challans[0]!.deductees[0]!;
      const fields = d.fields;
      // The regular line: the row's own values (so most rows compare equal), some changed, some written another way.
      const regular = toFields(regularDd);
      for (const n of DD_COMPARED) {
        const r = next();
        regular[n] = r < 0.85 ? (fields[n] ?? '') : r < 0.93 ? pick(next, KIND[n] ?? texts) : (row[n === 33 ? 33 : n - 1] ?? '');
      }
      const line = regular.slice(1).join('^');
      const expected = same(fields, toFields(line), DD_COMPARED);
      expect(d.sameAs(line, DD_COMPARED), `conso ${lines[ddAt]} | regular ${line}`).to.equal(expected);
      if (expected) equal++;
    }
    // Both answers occur often enough to mean something.
    expect(equal).to.be.within(500, 4500);
  });
});
