// The record layouts as data (src/layouts) and the self-check of every TXT against them. Valid lines come from
// the golden expected files (written by hand from the reference, test/golden/expected); each table then gets
// invalid lines, one broken field at a time, and the check must name the line, the record type, the field and
// the reason.

import { expect } from 'chai';
import { convert, type FormName } from '../src/index.js';
import { TxtLayoutError } from '../src/errors.js';
import { checkTxt, LAYOUT_VERSIONS, layoutVersion, type RecordLayout } from '../src/layouts/index.js';
import { deducteeCheckFor } from '../src/layouts/field-check.js';
import { resolveOptions } from '../src/options.js';
import { FIELD_COUNTS as ENGINE_FIELD_COUNTS } from '../src/records/fields.js';
import { ByteFieldWriter, StringFieldWriter } from '../src/records/field-writer.js';
import { writeStatementBytes } from '../src/stream/byte-writer.js';
import { statementLines } from '../src/output.js';
import { GOLDEN_CASES } from './golden/cases.js';
import { convertOptions, expectedTxt, loadFixture, type GoldenCase } from './golden/golden-case.js';
import { FIELD_COUNTS as GOLDEN_FIELD_COUNTS, type RecordType as GoldenRecordType } from './golden/layouts.js';

const yearCode = (financialYear: string) => financialYear.slice(3, 7) + financialYear.slice(8, 10);

function goldenCase(form: FormName, quarter?: string): GoldenCase {
  const found = GOLDEN_CASES.find((g) => g.options.form === form && (!quarter || g.options.quarter === quarter) && !g.title.startsWith('tds-txt-format'));
  if (!found) throw new Error(`no golden case for ${form}`);
  return found;
}

/** Runs the self-check; returns the mismatch it reports, or null when the TXT passes. */
function mismatchOf(txt: string, golden: GoldenCase) {
  try {
    checkTxt(txt, golden.family, golden.options.form, yearCode(golden.options.financialYear));
    return null;
  } catch (error) {
    if (!(error instanceof TxtLayoutError)) throw error;
    return error.mismatch;
  }
}

/** The engine's TXT of a golden workbook (the golden suite checks it field by field against the expected lines). */
function goldenTxt(golden: GoldenCase): string {
  const { txt } = convert(loadFixture(golden.fixture) as never, convertOptions(golden));
  if (txt === null) throw new Error(`${golden.title} gives no TXT`);
  return txt;
}

/** The golden file with field `field` of the first `type` record set to `value`; returns the TXT and that line's number. */
function withField(golden: GoldenCase, type: string, field: number, value: string): { txt: string; line: number } {
  const lines = goldenTxt(golden).split('\r\n').slice(0, -1);
  const index = lines.findIndex((l) => l.split('^')[1] === type);
  if (index < 0) throw new Error(`${golden.title} has no ${type} record`);
  const fields = lines[index]!.split('^');
  fields[field - 1] = value;
  lines[index] = fields.join('^');
  return { txt: lines.map((l) => `${l}\r\n`).join(''), line: index + 1 };
}

describe('record layouts as data', () => {
  it('every table numbers its fields 1..n, names its source and version, and gives each field a type, width and presence', () => {
    for (const version of LAYOUT_VERSIONS) {
      expect(version.records.map((r) => r.recordType)).to.include.members(['FH', 'BH', 'CD', 'DD']);
      for (const record of version.records) {
        expect(record.source, `${record.family} ${record.recordType}`).to.match(/tds-(txt-format|gaps|rules-addendum)\.md|FORMAT_NOTES\.md/);
        expect(record.version).to.not.equal('');
        record.fields.forEach((f, i) => {
          expect(f.n).to.equal(i + 1);
          expect(f.name, `${record.recordType} ${f.n}`).to.not.equal('');
          expect(['INT', 'CHAR', 'DATE', 'AMOUNT', 'RATE']).to.include(f.type);
        });
      }
    }
  });

  it('field counts agree with the engine writers and with the independent golden tables', () => {
    for (const version of LAYOUT_VERSIONS) {
      const engine = ENGINE_FIELD_COUNTS[version.family] as Record<string, number>;
      const golden = GOLDEN_FIELD_COUNTS[version.family];
      for (const record of version.records) {
        if (engine[record.recordType] !== undefined) expect(record.fields.length, `engine ${record.recordType}`).to.equal(engine[record.recordType]);
        const goldenCount = golden[record.recordType as GoldenRecordType];
        if (goldenCount !== undefined) expect(record.fields.length, `golden ${record.recordType}`).to.equal(goldenCount);
      }
    }
  });

  it('picks the version in force for the statement year', () => {
    expect(layoutVersion('legacy', '202526').family).to.equal('legacy');
    expect(layoutVersion('new', '202627').version).to.match(/Form 140 v1\.0/);
    const dd = (v: { records: readonly RecordLayout[] }) => v.records.find((r) => r.recordType === 'DD')!;
    expect(dd(layoutVersion('legacy', '201819')).fields).to.have.length(54);
  });
});

describe('self-check: every golden case passes', () => {
  for (const golden of GOLDEN_CASES) {
    // Expected files with markers («zero», «any», ...) or reproducing an older sample are not literal TXT.
    const literal = !golden.lines.some((l) => l.includes('«')) && !golden.title.startsWith('tds-txt-format');
    it(`${golden.title}: the engine's TXT${literal ? ' and the expected TXT pass' : ' passes'}`, () => {
      expect(mismatchOf(goldenTxt(golden), golden)).to.equal(null);
      if (literal) expect(mismatchOf(expectedTxt(golden), golden)).to.equal(null);
    });
  }
});

interface Broken {
  form: FormName;
  quarter?: string;
  type: string;
  field: number;
  value: string;
  reason: RegExp;
  /** The line the mismatch is reported on, when not the broken line itself (counts are checked when a record closes). */
  reportedField?: number;
}

// One table per record type: a valid line (the golden file passes, above) and invalid ones.
const BROKEN: Record<string, Broken[]> = {
  FH: [
    { form: '24Q', quarter: 'Q3', type: 'FH', field: 3, value: 'NS1', reason: /not one of the layout's values \(SL1\)/ },
    { form: '140', type: 'FH', field: 5, value: '32072026', reason: /not a date/ },
    { form: '26Q', type: 'FH', field: 11, value: 'HASH', reason: /not applicable/ },
    { form: '26Q', type: 'FH', field: 8, value: 'MUM12345B', reason: /not a TAN/ },
  ],
  BH: [
    { form: '26Q', type: 'BH', field: 18, value: 'Q5', reason: /not one of the layout's values/ },
    { form: '26Q', type: 'BH', field: 19, value: '', reason: /mandatory, but empty/ },
    { form: '26Q', type: 'BH', field: 27, value: '40001', reason: /exactly 6/ },
    { form: '140', type: 'BH', field: 26, value: '08', reason: /not one of the layout's values/ },
    { form: '140', type: 'BH', field: 49, value: '0', reason: /not applicable/ },
    { form: '27Q', type: 'BH', field: 4, value: '9', reason: /says 9 CD records/ },
    { form: '27EQ', type: 'BH', field: 47, value: '100.50', reason: /whole rupees/ },
  ],
  CD: [
    { form: '26Q', type: 'CD', field: 22, value: '10.5', reason: /2 decimals/ },
    { form: '26Q', type: 'CD', field: 6, value: 'X', reason: /values \(Y, N\)/ },
    { form: '26Q', type: 'CD', field: 4, value: '2', reason: /running number 2, expected 1/ },
    { form: '26Q', type: 'CD', field: 5, value: '7', reason: /says 7 DD records/ },
    { form: '140', type: 'CD', field: 13, value: 'X', reason: /values \(C, B\)/ },
    { form: '140', type: 'CD', field: 24, value: '5.50', reason: /whole rupees|\.00/ },
    { form: '140', type: 'CD', field: 26, value: '5.00', reason: /filler/ },
    { form: '144', type: 'CD', field: 15, value: '051030', reason: /exactly 7/ },
  ],
  DD: [
    { form: '26Q', type: 'DD', field: 10, value: 'ABCDE1234F', reason: /not a PAN/ },
    { form: '26Q', type: 'DD', field: 13, value: 'N'.repeat(76), reason: /76 characters, the layout allows 75/ },
    { form: '26Q', type: 'DD', field: 26, value: '10.00', reason: /4 decimals/ },
    { form: '26Q', type: 'DD', field: 33, value: 'XYZ', reason: /not one of the layout's values/ },
    { form: '26Q', type: 'DD', field: 4, value: '2', reason: /refers to CD 2, but it follows CD 1/ },
    { form: '26Q', type: 'DD', field: 9, value: 'ABCDE1234F', reason: /not applicable/ },
    { form: '24Q', quarter: 'Q3', type: 'DD', field: 26, value: '10.0000', reason: /not applicable/ },
    { form: '27EQ', type: 'DD', field: 21, value: '', reason: /mandatory, but empty/ },
    { form: '27Q', type: 'DD', field: 35, value: 'C', reason: /values \(A, B\)/ },
    { form: '140', type: 'DD', field: 15, value: '9999', reason: /not one of the layout's values/ },
    { form: '140', type: 'DD', field: 21, value: 'Y', reason: /not applicable/ },
    { form: '140', type: 'DD', field: 28, value: '', reason: /mandatory, but empty/ },
    { form: '140', type: 'DD', field: 5, value: '2', reason: /refers to CD 2/ },
    { form: '140', type: 'DD', field: 4, value: '3', reason: /running number 3, expected 1/ },
    { form: '138', type: 'DD', field: 28, value: '10.0000', reason: /not applicable/ },
    { form: '144', type: 'DD', field: 30, value: 'C', reason: /values \(A, B\)/ },
    { form: '143', type: 'DD', field: 21, value: 'Y', reason: /not applicable/ },
    { form: '144', type: 'DD', field: 12, value: '11', reason: /values/ },
    { form: '143', type: 'DD', field: 11, value: 'X', reason: /values \(Y, N\)/ },
  ],
  SD: [
    { form: '24Q', quarter: 'Q4', type: 'SD', field: 10, value: 'X', reason: /values \(G, W, S, O\)/ },
    { form: '24Q', quarter: 'Q4', type: 'SD', field: 13, value: '-5.00', reason: /negative amount/ },
    { form: '24Q', quarter: 'Q4', type: 'SD', field: 4, value: '5', reason: /running number 5, expected 1/ },
    { form: '24Q', quarter: 'Q4', type: 'SD', field: 15, value: '3', reason: /says 3 S16 records/ },
  ],
  S16: [
    { form: '24Q', quarter: 'Q4', type: 'S16', field: 6, value: '16(iv)', reason: /values \(16\(ia\), 16\(ii\), 16\(iii\)\)/ },
    { form: '24Q', quarter: 'Q4', type: 'S16', field: 4, value: '2', reason: /refers to SD 2, but it follows SD 1/ },
    { form: '24Q', quarter: 'Q4', type: 'S16', field: 8, value: 'H', reason: /not applicable/ },
  ],
  C6A: [
    { form: '24Q', quarter: 'Q4', type: 'C6A', field: 6, value: '80Z', reason: /not one of the layout's values/ },
    { form: '24Q', quarter: 'Q4', type: 'C6A', field: 7, value: '', reason: /mandatory, but empty/ },
  ],
};

describe('self-check: each table refuses an invalid line, naming line, record type, field and reason', () => {
  for (const [type, cases] of Object.entries(BROKEN)) {
    describe(`${type} records`, () => {
      for (const c of cases) {
        it(`Form ${c.form}${c.quarter ? ` ${c.quarter}` : ''}: ${type} field ${c.field} = '${c.value.slice(0, 12)}' -> ${c.reason.source}`, () => {
          const golden = goldenCase(c.form, c.quarter);
          expect(mismatchOf(goldenTxt(golden), golden), 'the valid file').to.equal(null);
          const { txt, line } = withField(golden, c.type, c.field, c.value);
          const mismatch = mismatchOf(txt, golden);
          expect(mismatch, 'a mismatch').to.not.equal(null);
          expect(mismatch!.reason).to.match(c.reason);
          expect(mismatch!.recordType).to.equal(type);
          expect(mismatch!.field).to.equal(c.reportedField ?? c.field);
          expect(mismatch!.line).to.equal(line);
          expect(mismatch!.fieldName).to.not.equal('');
        });
      }
    });
  }
});

/** A legacy 24Q Q4 file with one specified senior citizen: the 94P record and its P16 / P6A children. */
function withSeniorCitizen(p94: (fields: string[]) => void = () => {}): { golden: GoldenCase; txt: string } {
  const golden = goldenCase('24Q', 'Q4');
  const lines = goldenTxt(golden).split('\r\n').slice(0, -1);
  const bh = lines[1]!.split('^');
  bh[69] = '1'; // BH 70: count of 94P records
  lines[1] = bh.join('^');
  const n = lines.length;
  const record = ['', '94P', '1', '1', 'A', 'AAAPV1234C', 'Vasudev Rao', 'O', 'N', '600000.00', '1', '75000.00', '525000.00', '120000.00', '645000.00', '', '0.00', '1', '50000.00', '595000.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', ''];
  p94(record);
  record[0] = String(n + 1);
  lines.push(record.join('^'), `${n + 2}^P16^1^1^1^16(ia)^75000.00^`, `${n + 3}^P6A^1^1^1^80TTA^50000.00^^50000.00^`);
  return { golden, txt: lines.map((l) => `${l}\r\n`).join('') };
}

describe('self-check: 94P, P16 and P6A (24Q Q4, s.194P)', () => {
  it('a 94P record with its P16 and P6A children passes', () => {
    const { golden, txt } = withSeniorCitizen();
    expect(mismatchOf(txt, golden)).to.equal(null);
  });

  it('a 94P record with an unknown category, or a count that does not match its children, is refused', () => {
    const category = withSeniorCitizen((f) => (f[7] = 'Z'));
    expect(mismatchOf(category.txt, category.golden)).to.include({ recordType: '94P', field: 8 });
    const count = withSeniorCitizen((f) => (f[17] = '2'));
    expect(mismatchOf(count.txt, count.golden)).to.include({ recordType: '94P', field: 18 });
  });
});

describe('self-check: the file as a whole', () => {
  const golden = goldenCase('26Q');
  const lines = () => goldenTxt(golden).split('\r\n').slice(0, -1);
  const join = (ls: string[]) => ls.map((l) => `${l}\r\n`).join('');

  it('an extra field, a missing CRLF, a line number out of sequence and a record out of order are refused', () => {
    const extra = lines();
    extra[2] += '^';
    expect(mismatchOf(join(extra), golden)).to.include({ line: 3, recordType: 'CD' });
    expect(mismatchOf(join(lines()).replace(/\r\n$/, '\n'), golden)?.reason).to.match(/CRLF/);
    const renumbered = lines();
    renumbered[3] = renumbered[3]!.replace(/^4\^/, '5^');
    expect(mismatchOf(join(renumbered), golden)).to.include({ line: 4, field: 1 });
    const swapped = lines();
    [swapped[2], swapped[3]] = [swapped[3]!.replace(/^4\^/, '3^'), swapped[2]!.replace(/^3\^/, '4^')];
    expect(mismatchOf(join(swapped), golden)?.reason).to.match(/must follow its CD/);
  });

  it('an unknown record type is refused', () => {
    const bad = lines();
    bad[3] = bad[3]!.replace('^DD^', '^XX^');
    expect(mismatchOf(join(bad), golden)).to.include({ line: 4, field: 2 });
  });
});

describe('self-check in the writers: deductee records are checked as their fields are written', () => {
  const options = resolveOptions({ form: '140', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'MUMZ12345E' });

  function writeRecord(w: StringFieldWriter | ByteFieldWriter, serial: number, name: string, pan = 'AAAPA1234Q', section = '1027', challan = 1): void {
    w.text(2, 'DD');
    w.text(3, '1');
    w.int(4, serial);
    w.int(5, challan);
    w.text(6, 'O');
    w.text(8, pan);
    w.text(9, name);
    w.text(15, section);
    w.text(18, 'Y');
    w.date(19, 20260410);
    w.paise(20, 12000000);
    w.paise(24, 1200000);
    w.paise(25, 1200000);
    w.rate(28, 100000);
    w.end();
  }

  it('a valid record leaves no failure; a name too long is caught by either writer at DD field 9, and its line is computed', () => {
    for (const make of [
      (check: ReturnType<typeof deducteeCheckFor>) => new StringFieldWriter(45, () => {}, check),
      (check: ReturnType<typeof deducteeCheckFor>) => new ByteFieldWriter(() => {}, check).start(Buffer.alloc(4096), 0, 45),
    ]) {
      const check = deducteeCheckFor(options);
      check.start(1);
      writeRecord(make(check), 1, 'M/s Legal Advisors');
      expect(check.failure).to.equal(null);
      check.start(1);
      writeRecord(make(check), 2, 'N'.repeat(80));
      expect(check.failure).to.deep.include({ parent: 1, serial: 2, field: 9 });
      expect(() => check.raise([{ record: 1, deductees: 2 }])).to.throw(TxtLayoutError).with.property('mismatch').that.deep.include({ line: 5, recordType: 'DD', field: 9, fieldName: 'Name of the Deductee (D)' });
    }
  });

  it('a character a text field cannot hold (a caret, a control character, beyond Latin-1) is caught by either writer at its field', () => {
    for (const name of ['Legal^Advisors', 'Legal\tAdvisors', 'Legal Advisors \u2603', 'Legal Advisors \u00e9']) {
      for (const make of [
        (check: ReturnType<typeof deducteeCheckFor>) => new StringFieldWriter(45, () => {}, check),
        (check: ReturnType<typeof deducteeCheckFor>) => new ByteFieldWriter(() => {}, check).start(Buffer.alloc(4096), 0, 45),
      ]) {
        const check = deducteeCheckFor(options);
        check.start(1);
        writeRecord(make(check), 1, name);
        expect(check.failure, JSON.stringify(name)).to.deep.include({ parent: 1, serial: 1, field: 9 });
        expect(check.failure!.reason).to.match(/cannot hold/);
      }
    }
  });

  it('a PAN of the wrong shape and a section code not in the table are caught by either writer, after good ones passed', () => {
    for (const [pan, section, field] of [
      ['AAAXA1234Q', '1027', 8], // fourth letter not a holder status
      ['AAAPA1234', '1027', 8],
      ['aaapa1234q', '1027', 8],
      ['PANNOTAVBL', '9999', 15], // an allowed placeholder, then an unknown section
      ['AAAPA1234Q', '102', 15],
    ] as const) {
      for (const make of [
        (check: ReturnType<typeof deducteeCheckFor>) => new StringFieldWriter(45, () => {}, check),
        (check: ReturnType<typeof deducteeCheckFor>) => new ByteFieldWriter(() => {}, check).start(Buffer.alloc(4096), 0, 45),
      ]) {
        const check = deducteeCheckFor(options);
        check.start(1);
        writeRecord(make(check), 1, 'Good Name');
        check.start(1);
        writeRecord(make(check), 2, 'Good Name', 'BBBCB2345R', '1027');
        expect(check.failure).to.equal(null);
        check.start(1);
        writeRecord(make(check), 3, 'Good Name', pan, section);
        expect(check.failure, `${pan} ${section}`).to.deep.include({ parent: 1, serial: 3, field });
      }
    }
  });

  it('a wrong running number or challan reference is caught by either writer, after right ones passed', () => {
    for (const [serial, challan, field] of [
      [3, 1, 4], // the third record under challan 1 is number 2
      [2, 2, 5], // written under challan 1, refers to challan 2
    ] as const) {
      for (const make of [
        (check: ReturnType<typeof deducteeCheckFor>) => new StringFieldWriter(45, () => {}, check),
        (check: ReturnType<typeof deducteeCheckFor>) => new ByteFieldWriter(() => {}, check).start(Buffer.alloc(4096), 0, 45),
      ]) {
        const check = deducteeCheckFor(options);
        check.start(1);
        writeRecord(make(check), 1, 'Good Name');
        expect(check.failure).to.equal(null);
        check.start(1);
        writeRecord(make(check), serial, 'Good Name', 'AAAPA1234Q', '1027', challan);
        expect(check.failure, `${serial} ${challan}`).to.deep.include({ parent: 1, serial: 2, field });
      }
    }
  });

  it('a mandatory field left out, a value in a not-applicable field and an amount with a fraction of a paisa are caught', () => {
    const check = deducteeCheckFor(options);
    check.start(1);
    const w = new StringFieldWriter(45, () => {}, check);
    w.text(2, 'DD');
    w.text(3, '1');
    w.int(4, 1);
    w.int(5, 1);
    w.text(6, 'O');
    w.text(9, 'No PAN written');
    expect(check.failure).to.include({ field: 8, reason: 'mandatory, but empty' });
    const na = deducteeCheckFor(options);
    na.start(1);
    na.text(7, 'X');
    expect(na.failure).to.include({ field: 7 });
    const fraction = deducteeCheckFor(options);
    fraction.start(1);
    fraction.paise(20, 10.5, 4);
    expect(fraction.failure?.reason).to.match(/whole number of paise/);
  });
});

describe('self-check on the way out: a wrong record is never handed out', () => {
  const golden = goldenCase('26Q');
  const options = resolveOptions(convertOptions(golden));

  it('the TXT lines and the byte writer: a deductee body that breaks the layout throws TXT_LAYOUT_MISMATCH with its line, and nothing is emitted', async () => {
    const result = convert(loadFixture(golden.fixture) as never, convertOptions(golden));
    const lines = result.txt!.split('\r\n');
    const { createPipeline } = await import('../src/statement.js');
    const { MemoryDeducteeStore, MemorySalaryStore, MemoryLateRows } = await import('../src/assembly/stores.js');
    const { walkWorkbook } = await import('../src/workbook/walk.js');
    const pipeline = createPipeline(options, new MemoryDeducteeStore(54), new MemorySalaryStore(), new MemoryLateRows());
    walkWorkbook(loadFixture(golden.fixture), pipeline.reader, pipeline.problems, pipeline.description);
    const statement = pipeline.assembler.finish();
    const goodBodies = lines.filter((l) => l.split('^')[1] === 'DD').map((l) => l.slice(l.indexOf('^') + 1));
    const bad = goodBodies[0]!.replace('^O^', '^X^');
    const records = { deductees: (record: number) => (record === 1 ? [bad, ...goodBodies.slice(1)] : []), salaryGroups: () => [] };
    expect(() => [...statementLines(statement, options, pipeline.ctx.today, records)]).to.throw(TxtLayoutError, /line 4, DD field 6 \(Mode\)/);

    const emitted: Buffer[] = [];
    const writing = writeStatementBytes(statement, options, pipeline.ctx.today, { deductees: (record) => (record === 1 ? [Buffer.from(`${bad}\n`)] : []), salary: () => [] }, async (chunk) => {
      emitted.push(chunk);
    });
    const error = await writing.then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(TxtLayoutError);
    expect((error as TxtLayoutError).code).to.equal('TXT_LAYOUT_MISMATCH');
    expect((error as TxtLayoutError).mismatch).to.include({ line: 4, recordType: 'DD', field: 6 });
    expect(emitted, 'nothing was emitted').to.deep.equal([]);
  });
});

describe('found by the self-check', () => {
  it('a 26Q payee without PAN whose number has 11 digits is a workbook error at sr_no, not a TXT that breaks DD field 12 (10 characters)', async () => {
    const { form26qParts, OPTIONS_26Q } = await import('./support/fixtures.js');
    const { buildWorkbook } = await import('./support/sheet-json.js');
    const parts = form26qParts();
    parts.payees[2]!['sr_no'] = 12345678901;
    parts.payments[2]!['payee_sr_no'] = 12345678901;
    const { txt, report } = convert(buildWorkbook(parts), OPTIONS_26Q);
    expect(txt).to.equal(null);
    expect(report.problems.filter((p) => p.severity === 'error').map((p) => [p.code, p.column, p.row])).to.deep.equal([['FIELD_TOO_LONG', 'sr_no', 4]]);
    parts.payees[2]!['sr_no'] = 1234567890;
    parts.payments[2]!['payee_sr_no'] = 1234567890;
    expect(convert(buildWorkbook(parts), OPTIONS_26Q).txt).to.be.a('string');
  });
});
