// The challan check against the CSI file: CSI files written by the test-side writer (support/csi.ts) from the
// documented layout; a matching file keeps every form clean, each mismatch is reported at its cell, and a
// malformed file is refused naming its line. The rule cases that make each code fire are in rules.test.ts.

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, convertFile, parseCsi, StatementEngineError, validate, validateFile, type ConvertOptions, type Problem } from '../src/index.js';
import { baseline, BASELINE_NAMES } from './support/baselines.js';
import { csiFor, writeCsi } from './support/csi.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook, ist } from './support/sheet-json.js';

const csiCodes = (problems: Problem[]) => problems.filter((p) => p.code.startsWith('CSI_'));
const where = (p: Problem) => `${p.code}@${p.sheet}!${p.column}${p.row}`;

function refusal(content: string): string {
  try {
    parseCsi(content);
  } catch (error) {
    expect(error).to.be.instanceOf(StatementEngineError);
    expect((error as StatementEngineError).code).to.equal('INVALID_CSI');
    return (error as Error).message;
  }
  throw new Error('the CSI file was accepted');
}

describe('CSI file: challan check', () => {
  for (const name of BASELINE_NAMES) {
    it(`${name}: a CSI file matching every challan reports nothing and leaves the TXT unchanged`, () => {
      const { parts, options } = baseline(name);
      const workbook = buildWorkbook(parts);
      const withCsi = convert(workbook, { ...options, csi: csiFor(parts, options.tan) });
      expect(csiCodes(withCsi.report.problems)).to.deep.equal([]);
      expect(withCsi.txt).to.equal(convert(workbook, options).txt);
    });
  }

  it('matches on all four of BSR code, date, serial and amount, each at its cell (legacy dialect)', () => {
    const parts = form26qParts();
    const options = { ...OPTIONS_26Q };
    const check = (change: Parameters<typeof csiFor>[2]) => csiCodes(convert(buildWorkbook(parts), { ...options, csi: csiFor(parts, options.tan, change) }).report.problems).map(where);
    expect(check((l) => (l[0]!.bsr = '0510309'))).to.deep.equal(['CSI_CHALLAN_NOT_FOUND@challan_sheet!challan_serial2']);
    expect(check((l) => (l[1]!.date = ist('2026-01-08')))).to.deep.equal(['CSI_CHALLAN_NOT_FOUND@challan_sheet!challan_serial3']);
    expect(check((l) => (l[1]!.serial = '202'))).to.deep.equal([]); // serials are compared as 5 digits
    expect(check((l) => (l[1]!.amount = 21300))).to.deep.equal(['CSI_AMOUNT_MISMATCH@challan_sheet!tds_amount3']);
    expect(check((l) => l.splice(0, 1))).to.deep.equal(['CSI_CHALLAN_NOT_FOUND@challan_sheet!challan_serial2']);
  });

  it('reports at the new dialect cells (Form 138) and the messages give both amounts', () => {
    const { parts, options } = baseline('138');
    const problems = csiCodes(validate(buildWorkbook(parts), { ...options, csi: csiFor(parts, options.tan, (l) => (l[0]!.serial = '99999')) }).problems);
    expect(problems.map(where)).to.deep.equal(['CSI_CHALLAN_NOT_FOUND@challan_sheet!bank_challan_number_or_ddo_serial_number2']);
    const short = csiCodes(validate(buildWorkbook(parts), { ...options, csi: csiFor(parts, options.tan, (l) => (l[0]!.amount -= 1)) }).problems);
    expect(short.map((p) => p.code)).to.include('CSI_AMOUNT_MISMATCH');
    expect(short.find((p) => p.code === 'CSI_AMOUNT_MISMATCH')!.message).to.match(/totals 13000.00; the CSI file \(line 2\) says 12999.00 was deposited/);
  });

  it('an error from the CSI check makes the statement invalid: no TXT', () => {
    const parts = form26qParts();
    const result = convert(buildWorkbook(parts), { ...OPTIONS_26Q, csi: csiFor(parts, OPTIONS_26Q.tan, (l) => l.pop()) });
    expect(result.txt).to.equal(null);
    expect(result.report.valid).to.equal(false);
  });

  it('accepts the file as bytes, with LF line ends and a byte-order mark', () => {
    const parts = form26qParts();
    const text = `\uFEFF${csiFor(parts, OPTIONS_26Q.tan).replace(/\r\n/g, '\n')}`;
    const report = validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi: new TextEncoder().encode(text) });
    expect(csiCodes(report.problems)).to.deep.equal([]);
  });

  it('convertFile and validateFile (the streaming form) take the same csi option', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-csi-'));
    try {
      const parts = form26qParts();
      const path = join(dir, 'wb.json');
      writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
      const csi = csiFor(parts, OPTIONS_26Q.tan, (l) => (l[0]!.amount = 12000));
      const expected = validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi }).problems;
      expect((await validateFile(path, { ...OPTIONS_26Q, csi })).problems).to.deep.equal(expected);
      const conversion = await convertFile(path, { ...OPTIONS_26Q, csi });
      await conversion.dispose();
      expect(conversion.report.problems).to.deep.equal(expected);
      expect(expected.map(where)).to.include.members(['CSI_AMOUNT_MISMATCH@challan_sheet!tds_amount2', 'CSI_CHALLAN_OVER_ALLOCATED@challan_sheet!tds_amount2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CSI file: reading', () => {
  const good = writeCsi('MUMA12345E', 'Acme Traders Pvt Ltd', [{ bsr: '0510308', date: '07112025', serial: '101', amount: 12150 }]);

  it('reads the header and the challan lines', () => {
    const csi = parseCsi(good);
    expect(csi).to.deep.include({ tan: 'MUMA12345E', name: 'Acme Traders Pvt Ltd' });
    expect(csi.challans).to.deep.equal([{ line: 2, bsr: '0510308', date: 20251107, serial: '00101', majorHead: '0020', minorHead: '200', amount: 1215000 }]);
  });

  const cases: Array<[string, string, RegExp]> = [
    ['an empty file', '', /^CSI file line 1: the header line/],
    ['a header without the name field', 'MUMA12345E^25112026\r\n', /^CSI file line 1: the header line/],
    ['a header whose TAN is not one', 'MUMA1234^25112026^Acme\r\n', /^CSI file line 1: 'MUMA1234' is not a TAN/],
    ['a challan line with too few fields', `${good}0510308^07112025^00102^0020^200\r\n`, /^CSI file line 3: a challan line has 6 fields/],
    ['a BSR code that is not 7 digits', good.replace('0510308^', '051030^'), /^CSI file line 2: BSR code '051030'/],
    ['a date that is not ddmmyyyy', good.replace('07112025', '2025-11-07'), /^CSI file line 2: tender date '2025-11-07' is not ddmmyyyy/],
    ['a date that is not a calendar date', good.replace('07112025', '31112025'), /^CSI file line 2: tender date 31112025 is not a calendar date/],
    ['a serial that is not digits', good.replace('^101^', '^1O1^'), /^CSI file line 2: challan serial '1O1'/],
    ['an amount with digit grouping', good.replace('12150.00', '12,150.00'), /^CSI file line 2: amount '12,150.00'/],
    ['the same CIN twice', `${good}0510308^07112025^00101^0020^200^5.00\r\n`, /^CSI file line 3: the same challan .* already on line 2/],
    ['an empty line inside the file', `${good}\r\n0510308^07112025^00102^0020^200^5.00\r\n`, /^CSI file line 3: empty line/],
  ];
  for (const [title, content, message] of cases) {
    it(`refuses ${title}, naming the line`, () => {
      expect(refusal(content)).to.match(message);
    });
  }

  it('convert() refuses a malformed CSI file through the options (StatementEngineError, not a report)', () => {
    const options: ConvertOptions = { ...OPTIONS_26Q, csi: 'MUMA12345E^x^Acme\r\nnot a challan\r\n' };
    expect(() => convert(buildWorkbook(form26qParts()), options)).to.throw(StatementEngineError, /CSI file line 2/);
    expect(() => convert(buildWorkbook(form26qParts()), { ...OPTIONS_26Q, csi: 42 as unknown as string })).to.throw(StatementEngineError, /csi option/);
  });
});

describe('CSI file: command line', function () {
  this.timeout(30000);
  const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');
  const STATEMENT = ['--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--now', '2026-05-10T11:00:00+05:30'];
  const cli = (args: string[]) => spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', CLI, ...args], { encoding: 'utf8' });
  let dir: string;
  let workbook: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-csi-cli-'));
    workbook = join(dir, 'wb.json');
    writeFileSync(workbook, JSON.stringify(buildWorkbook(form26qParts())));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--csi with a matching file: exit 0; with a missing challan: exit 1 and the problem at its cell', () => {
    const matching = join(dir, 'ok.csi');
    writeFileSync(matching, csiFor(form26qParts(), 'MUMA12345E'));
    const ok = cli(['validate', workbook, ...STATEMENT, '--csi', matching]);
    expect(ok.status, ok.stderr).to.equal(0);
    const missing = join(dir, 'missing.csi');
    writeFileSync(missing, csiFor(form26qParts(), 'MUMA12345E', (l) => l.pop()));
    const bad = cli(['validate', workbook, ...STATEMENT, '--csi', missing]);
    expect(bad.status).to.equal(1);
    expect(bad.stdout).to.include('CSI_CHALLAN_NOT_FOUND');
  });

  it('a malformed or missing CSI file: exit 2, one line naming the line or the file', () => {
    const broken = join(dir, 'broken.csi');
    writeFileSync(broken, 'MUMA12345E^25112026^Acme Traders Pvt Ltd\r\n0510308^07112025\r\n');
    const r = cli(['convert', workbook, ...STATEMENT, '--csi', broken]);
    expect(r.status).to.equal(2);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
    expect(r.stderr).to.match(/CSI file line 2: a challan line has 6 fields/);
    const absent = cli(['convert', workbook, ...STATEMENT, '--csi', join(dir, 'nope.csi')]);
    expect(absent.status).to.equal(2);
    expect(absent.stderr).to.match(/cannot read the CSI file .*nope\.csi: ENOENT/);
  });
});
