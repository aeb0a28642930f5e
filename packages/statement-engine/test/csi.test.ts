// The statement against the CSI file, in the layout the official FVU reads (support/csi.ts writes it): TAN, TAN
// name and challan count are checked, the challan match is left to the FVU (and the report says so), and a
// malformed file is refused naming its line. The rule cases that make each code fire are in rules.test.ts; the
// FVU's own verdicts on such files are in test/fvu/official-fvu.test.ts.

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
import { buildWorkbook } from './support/sheet-json.js';

const csiCodes = (problems: Problem[]) => problems.filter((p) => p.code.startsWith('CSI_'));
const where = (p: Problem) => `${p.code}@${p.sheet}!${p.column}${p.row}`;
const LEFT_TO_FVU = 'CSI_CHALLANS_LEFT_TO_FVU@null!nullnull';

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

describe('CSI file: the statement against it', () => {
  for (const name of BASELINE_NAMES) {
    it(`${name}: a CSI file of its TAN, name and challans says only that the FVU matches the challans, and changes no TXT`, () => {
      const { parts, options } = baseline(name);
      const workbook = buildWorkbook(parts);
      const withCsi = convert(workbook, { ...options, csi: csiFor(parts, options.tan) });
      const banked = parts.challans.some((c) => c.nil_challan_indicator !== 'Y' && c.nil_challan_indicator !== true && c.mode_of_payment !== 'B');
      expect(csiCodes(withCsi.report.problems).map(where)).to.deep.equal(banked ? [LEFT_TO_FVU] : []);
      expect(withCsi.txt).to.equal(convert(workbook, options).txt);
    });
  }

  it('names the challan counts in the message that leaves the match to the FVU', () => {
    const parts = form26qParts();
    const [problem] = csiCodes(validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi: csiFor(parts, OPTIONS_26Q.tan, (l) => l.push({ ...l[0]!, serial: '999' })) }).problems);
    expect(problem?.message).to.equal("The CSI file's 3 challan lines are hashes whose scheme is not published: the FVU matches the statement's 2 bank challans against them");
  });

  it('refuses another TAN (T_FV_6069) and another TAN name (T-FV-3173), the name compared ignoring case', () => {
    const parts = form26qParts();
    const check = (csi: string) => csiCodes(validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi }).problems).map(where).filter((w) => w !== LEFT_TO_FVU);
    const lines = [{ bsr: '0510308', date: '07112025', serial: '101', amount: 1 }, { bsr: '0510308', date: '07112025', serial: '102', amount: 1 }];
    expect(check(writeCsi('PNEA54321B', String(parts.payer.name), lines))).to.deep.equal(['CSI_TAN_MISMATCH@null!nullnull']);
    expect(check(writeCsi(OPTIONS_26Q.tan, String(parts.payer.name).toUpperCase(), lines))).to.deep.equal([]);
    expect(check(writeCsi(OPTIONS_26Q.tan, 'Acme Traders Private Limited', lines))).to.deep.equal(['CSI_NAME_MISMATCH@payer_sheet!payer_list.namenull']);
    const result = convert(buildWorkbook(parts), { ...OPTIONS_26Q, csi: writeCsi(OPTIONS_26Q.tan, 'Acme Traders Private Limited', lines) });
    expect(result.txt, 'an error from the CSI check makes the statement invalid').to.equal(null);
  });

  it('warns when the file lists fewer challans than the statement pays through a bank', () => {
    const parts = form26qParts();
    const problems = csiCodes(validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi: csiFor(parts, OPTIONS_26Q.tan, (l) => l.pop()) }).problems);
    const fewer = problems.find((p) => p.code === 'CSI_FEWER_CHALLANS');
    expect(fewer?.severity).to.equal('warning');
    expect(fewer?.message).to.equal('The statement has 2 challans paid through a bank; the CSI file lists 1: at least 1 cannot match');
  });

  it('accepts the file as bytes, with LF line ends and a byte-order mark', () => {
    const parts = form26qParts();
    const text = `\uFEFF${csiFor(parts, OPTIONS_26Q.tan).replace(/\r\n/g, '\n')}`;
    const report = validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi: new TextEncoder().encode(text) });
    expect(csiCodes(report.problems).map(where)).to.deep.equal([LEFT_TO_FVU]);
  });

  it('convertFile and validateFile (the streaming form) take the same csi option', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-csi-'));
    try {
      const parts = form26qParts();
      const path = join(dir, 'wb.json');
      writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
      const csi = writeCsi(OPTIONS_26Q.tan, 'Someone Else Ltd', [{ bsr: '0510308', date: '07112025', serial: '101', amount: 1 }]);
      const expected = validate(buildWorkbook(parts), { ...OPTIONS_26Q, csi }).problems;
      expect((await validateFile(path, { ...OPTIONS_26Q, csi })).problems).to.deep.equal(expected);
      const conversion = await convertFile(path, { ...OPTIONS_26Q, csi });
      await conversion.dispose();
      expect(conversion.report.problems).to.deep.equal(expected);
      expect(expected.map((p) => p.code)).to.include.members(['CSI_NAME_MISMATCH', 'CSI_FEWER_CHALLANS', 'CSI_CHALLANS_LEFT_TO_FVU']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CSI file: reading', () => {
  const good = writeCsi('MUMA12345E', 'Acme Traders Pvt Ltd', [{ bsr: '0510308', date: '07112025', serial: '101', amount: 12150 }]);
  const token = good.split('\r\n')[1]!;

  it('reads line 1 (count, TAN, TAN name, FVU versions, hash) and counts the challan lines', () => {
    const [, , , , , hash] = good.split('\r\n')[0]!.split('^');
    expect(parseCsi(good)).to.deep.equal({ count: 1, tan: 'MUMA12345E', name: 'Acme Traders Pvt Ltd', fvuHigherVersion: '9.4', fvuLowerVersion: '9.4', hash });
    expect(parseCsi('0^mumA12345e^Acme\r\n')).to.deep.include({ count: 0, tan: 'MUMA12345E', fvuHigherVersion: '', hash: '' });
  });

  const cases: Array<[string, string, RegExp]> = [
    ['an empty file', '', /^CSI file line 1: the header line has fields separated by \^ .*this one has 1$/],
    ['a header without the name field', '1^MUMA12345E\r\n', /^CSI file line 1: the header line/],
    ['a count that is not a number', good.replace(/^1\^/, 'one^'), /^CSI file line 1: the challan count 'one' \(first field\) is not a number/],
    ['a header whose TAN is not one', good.replace('MUMA12345E', 'MUMA1234'), /^CSI file line 1: 'MUMA1234' \(second field\) is not a TAN/],
    ['an empty TAN name', good.replace('Acme Traders Pvt Ltd', ' '), /^CSI file line 1: the TAN name \(third field\) is empty/],
    ['fewer challan lines than announced', good.replace(/^1\^/, '2^'), /^CSI file line 1: the header announces 2 challans; the file has 1 challan line \(it was cut short or altered\)$/],
    ['more challan lines than announced', `${good}${token}\r\n`, /^CSI file line 1: the header announces 1 challan; the file has 2 challan lines/],
    ['a challan line of fields (a file of another layout)', 'MUMA12345E^25112026^Acme\r\n0510308^07112025^00101^0020^200^5.00\r\n', /^CSI file line 1: the challan count 'MUMA12345E'/],
    ['a challan line of fields under a real header', '1^MUMA12345E^Acme\r\n0510308^07112025^00101^0020^200^5.00\r\n', /^CSI file line 2: a challan line is one token/],
    ['a token with a space', `1^MUMA12345E^Acme\r\nab cd\r\n`, /^CSI file line 2: a challan token has no spaces/],
    ['an empty line inside the file', good.replace('\r\n', '\r\n\r\n'), /^CSI file line 2: empty line/],
    ['a file that starts with an empty line', `\r\n${good}`, /^CSI file line 1: the file starts with an empty line/],
  ];
  for (const [title, content, message] of cases) {
    it(`refuses ${title}, naming the line`, () => {
      expect(refusal(content)).to.match(message);
    });
  }

  it('convert() refuses a malformed CSI file through the options (StatementEngineError, not a report)', () => {
    const options: ConvertOptions = { ...OPTIONS_26Q, csi: '1^MUMA12345E^Acme\r\nnot^a token\r\n' };
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

  it('--csi with a file of the TAN and name: exit 0 (the match left to the FVU); of another name: exit 1 and the problem at its cell', () => {
    const matching = join(dir, 'ok.csi');
    writeFileSync(matching, csiFor(form26qParts(), 'MUMA12345E'));
    const ok = cli(['validate', workbook, ...STATEMENT, '--csi', matching]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.stdout).to.include('CSI_CHALLANS_LEFT_TO_FVU');
    const other = join(dir, 'other.csi');
    writeFileSync(other, writeCsi('MUMA12345E', 'Someone Else Ltd', []));
    const bad = cli(['validate', workbook, ...STATEMENT, '--csi', other]);
    expect(bad.status).to.equal(1);
    expect(bad.stdout).to.include('CSI_NAME_MISMATCH');
  });

  it('a malformed or missing CSI file: exit 2, one line naming the line or the file', () => {
    const broken = join(dir, 'broken.csi');
    writeFileSync(broken, '1^MUMA12345E^Acme Traders Pvt Ltd\r\n0510308^07112025\r\n');
    const r = cli(['convert', workbook, ...STATEMENT, '--csi', broken]);
    expect(r.status).to.equal(2);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
    expect(r.stderr).to.match(/CSI file line 2: a challan line is one token/);
    const absent = cli(['convert', workbook, ...STATEMENT, '--csi', join(dir, 'nope.csi')]);
    expect(absent.status).to.equal(2);
    expect(absent.stderr).to.match(/cannot read the CSI file .*nope\.csi: ENOENT/);
  });
});
