/**
 * Runs one golden case against the engine: convert the fixture workbook with the case's options, then check
 * the TXT against the expected lines field by field (each test names the record type and the field numbers
 * it checks), plus the file-level rules that hold for every case: CRLF on every line, the family's field
 * counts, running numbers and control totals recomputed from the engine's own detail records.
 */
import { expect } from 'chai';
import { convert, validate } from '@satyapan/statement-engine';
import { convertOptions, loadFixture, type GoldenCase } from './golden-case.js';
import { FIELD_COUNTS, fieldCount, type RecordType } from './layouts.js';
import { pinnedFields, recordMismatches } from './line-match.js';
import { controlTotalProblems, numberingProblems, parseTxt, splitCrlfLines, type ParsedStatement } from './txt-parser.js';

type Workbook = Parameters<typeof convert>[0];

interface Run { txt: string; parsed: ParsedStatement }

function errorsOf(result: ReturnType<typeof convert>): string {
  return result.report.problems.filter((p) => p.severity === 'error')
    .map((p) => `${p.sheet}/${p.row}/${p.column} ${p.code}: ${p.message}`).join('\n');
}

function convertCase(golden: GoldenCase): ReturnType<typeof convert> {
  return convert(loadFixture(golden.fixture) as Workbook, convertOptions(golden));
}

/** "CD line 7 (challan 2)" / "DD line 8 (challan 2, deductee 1)": where an expected line sits. */
function lineTitles(golden: GoldenCase): string[] {
  let challan = 0;
  let deductee = 0;
  let salary = 0;
  return golden.lines.map((line, index) => {
    const type = line.split('^')[1] as RecordType;
    const at = `${type} line ${index + 1}`;
    if (type === 'CD') { challan += 1; deductee = 0; return `${at} (challan ${challan})`; }
    if (type === 'DD') { deductee += 1; return `${at} (challan ${challan}, deductee ${deductee})`; }
    if (type === 'SD') { salary += 1; return `${at} (employee ${salary})`; }
    return at;
  });
}

function countsTitle(golden: GoldenCase): string {
  const types = [...new Set(golden.lines.map((line) => line.split('^')[1] as RecordType))];
  return types.map((type) => `${type} ${fieldCount(golden.family, type)}`).join(', ');
}

export function describeGolden(golden: GoldenCase): void {
  describe(`golden ${golden.title}`, () => {
    let run: Run | undefined;
    const current = (): Run => {
      if (!run) throw new Error('the conversion did not produce a TXT (see the first test)');
      return run;
    };

    before(() => {
      const result = convertCase(golden);
      if (result.txt !== null) run = { txt: result.txt, parsed: parseTxt(result.txt, golden.family) };
    });

    it(`converts ${golden.fixture} with no error and returns a TXT`, () => {
      const result = convertCase(golden);
      expect(result.report.errorCount, errorsOf(result)).to.equal(0);
      expect(result.report.valid).to.equal(true);
      expect(result.txt).to.be.a('string');
    });

    it('every record ends with CRLF, including the last; printable ASCII only', () => {
      expect(splitCrlfLines(current().txt)).to.have.length(golden.lines.length);
    });

    it(`field counts per record type (${golden.family}: ${countsTitle(golden)}) and the record sequence`, () => {
      const types = current().parsed.records.map((r) => `${r.type}:${r.values.length}`);
      const expected = golden.lines.map((line) => `${line.split('^')[1]}:${line.split('^').length}`);
      expect(types).to.deep.equal(expected);
      expect(Object.keys(FIELD_COUNTS[golden.family])).to.include.members([...new Set(current().parsed.records.map((r) => r.type))]);
    });

    it('numbering: field 1 line numbers 1..N, batch number (BH/CD/DD field 3), CD field 4 challan record no., DD challan reference and deductee no. restarting per challan', () => {
      expect(numberingProblems(current().parsed)).to.deep.equal([]);
    });

    it('control totals recomputed from the records: FH 9, BH 4 and 47, CD 5, CD sums of the DD amounts', () => {
      expect(controlTotalProblems(current().parsed, { salaryQ4: golden.salaryQ4 ?? false })).to.deep.equal([]);
    });

    const titles = lineTitles(golden);
    golden.lines.forEach((expectedLine, index) => {
      const type = expectedLine.split('^')[1] as RecordType;
      const count = fieldCount(golden.family, type);
      it(`${titles[index]}: fields 1-${count}, values in ${pinnedFields(expectedLine).join(' ')}, all others as expected`, () => {
        const record = current().parsed.records[index];
        expect(record, `record ${index + 1}`).to.not.equal(undefined);
        if (record) expect(recordMismatches(golden.family, record, expectedLine)).to.deep.equal([]);
      });
    });

    it('validate() gives the same verdict as convert()', () => {
      const report = validate(loadFixture(golden.fixture) as Workbook, convertOptions(golden));
      expect(report.errorCount).to.equal(convertCase(golden).report.errorCount);
      expect(report.valid).to.equal(true);
    });
  });
}
