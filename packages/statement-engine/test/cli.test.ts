// The satyapan-statement command, spawned as a process: exit codes, outputs, one-line errors.

import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert } from '../src/index.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook, ist } from './support/sheet-json.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');
const NOW = '2026-05-10T11:00:00+05:30';
const STATEMENT = ['--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--now', NOW];

function cli(args: string[]) {
  const r = spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', CLI, ...args], { encoding: 'latin1' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function oneLine(stderr: string): void {
  expect(stderr.trimEnd().split('\n'), stderr).to.have.length(1);
  expect(stderr).not.to.match(/\bat .+:\d+:\d+/);
}

describe('satyapan-statement CLI', function () {
  this.timeout(30000);
  let dir: string;
  let valid: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-cli-test-'));
    valid = join(dir, 'valid.json');
    writeFileSync(valid, JSON.stringify(buildWorkbook(form26qParts())));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('convert: exit 0, the TXT in --out, the report in --report (JSON); the TAN is read from the workbook', () => {
    const out = join(dir, 'out.txt');
    const report = join(dir, 'report.json');
    const r = cli(['convert', valid, ...STATEMENT, '--out', out, '--report', report]);
    expect(r.status, r.stderr).to.equal(0);
    expect(readFileSync(out, 'latin1')).to.equal(convert(buildWorkbook(form26qParts()), { ...OPTIONS_26Q, now: () => new Date(NOW) }).txt);
    expect(JSON.parse(readFileSync(report, 'utf8'))).to.include({ valid: true, errorCount: 0 });
    expect(r.stderr).to.match(/^wrote \d+ lines/);
  });

  it('convert without --out writes the TXT to stdout', () => {
    const r = cli(['convert', valid, ...STATEMENT, '--tan', 'MUMA12345E']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.startsWith('1^FH^NS1^R^10052026^')).to.equal(true);
    expect(r.stdout.endsWith('\r\n')).to.equal(true);
  });

  it('convert with validation errors: exit 1, the problems as a table on stderr, no TXT, an .xlsx report', async () => {
    const parts = form26qParts();
    parts.payments[0]!.deduction_date_epoch = ist('2025-09-30');
    parts.payees[1]!.pan = 'BAD';
    const path = join(dir, 'invalid.json');
    writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
    const out = join(dir, 'invalid.txt');
    const xlsx = join(dir, 'report.xlsx');
    const r = cli(['convert', path, ...STATEMENT, '--out', out, '--report', xlsx]);
    expect(r.status).to.equal(1);
    expect(existsSync(out)).to.equal(false);
    expect(r.stderr).to.match(/LEVEL\s+CODE\s+WHERE\s+MESSAGE/);
    expect(r.stderr).to.include('DEDUCTION_DATE_BEFORE_QUARTER');
    expect(r.stderr).to.match(/payment_sheet \/ row 2 \/ deduction_date_epoch/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx);
    const problems = workbook.getWorksheet('Problems')!;
    const codes = problems.getColumn(2).values.slice(2);
    expect(codes).to.include.members(['DEDUCTION_DATE_BEFORE_QUARTER', 'INVALID_PAN']);
    expect(workbook.getWorksheet('Summary')!.getRow(2).values).to.deep.equal([undefined, 'Valid', 'No']);
  });

  it('validate: exit 0 for a valid workbook, 1 with the table on stdout otherwise', () => {
    const ok = cli(['validate', valid, ...STATEMENT]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.stdout).to.include('0 error(s), 0 warning(s)');
    const parts = form26qParts();
    parts.challans[0]!.tds_amount = 1;
    const path = join(dir, 'short.json');
    writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
    const bad = cli(['validate', path, ...STATEMENT]);
    expect(bad.status).to.equal(1);
    expect(bad.stdout).to.include('CHALLAN_SHORT');
  });

  it('a truncated workbook: said so in one line, exit 1 (the input is refused, not the command line)', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"name": "form26q_workbook", "sheets": [');
    const r = cli(['convert', path, ...STATEMENT, '--tan', 'MUMA12345E']);
    expect(r.status).to.equal(1);
    oneLine(r.stderr);
    expect(r.stderr).to.equal(`satyapan-statement: ${path} is truncated: the JSON ends early (Unexpected end of input at byte 40)\n`);
  });

  it('a file that is not JSON, empty, a folder or truncated is reported as exactly that, before any option problem, exit 1', function () {
    this.timeout(120000);
    const notJson = join(dir, 'notes.json');
    writeFileSync(notJson, 'payee,amount\n1,400000\n');
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    const blank = join(dir, 'blank.json');
    writeFileSync(blank, '  \n');
    const truncated = join(dir, 'truncated.json');
    writeFileSync(truncated, readFileSync(valid, 'utf8').slice(0, 2000));
    const expected: Array<[string, RegExp]> = [
      [notJson, /is not JSON: Invalid JSON value 'payee' at byte 0$/],
      [empty, /is empty$/],
      [blank, /is empty$/],
      [dir, /is a folder, not a workbook file$/],
      [truncated, /is truncated: the JSON ends early/],
    ];
    for (const [path, message] of expected) {
      // Without --tan (the TAN would come from the file), then without --form: the file's problem comes first.
      for (const args of [['convert', path, ...STATEMENT], ['validate', path, '--tan', 'MUMA12345E', '--quarter', 'Q3']]) {
        const r = cli(args);
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(1);
        oneLine(r.stderr);
        expect(r.stderr.trimEnd(), args.join(' ')).to.match(message);
        expect(r.stderr.startsWith(`satyapan-statement: ${path} `)).to.equal(true);
      }
    }
  });

  it('a workbook for another form: one clear line, exit 1', () => {
    const r = cli(['convert', valid, '--form', '27Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--now', NOW]);
    expect(r.status).to.equal(1);
    oneLine(r.stderr);
    expect(r.stderr).to.match(/WORKBOOK_WRONG_FORM: The workbook name is 'form26q_workbook'; Form 27Q .* needs form27q_workbook/);
  });

  it('a missing sheet or a header without a needed column: refused for its data, one clear line, exit 1', () => {
    const wb = buildWorkbook(form26qParts());
    const path = join(dir, 'missing.json');
    writeFileSync(path, JSON.stringify({ ...wb, sheets: wb.sheets.filter((s) => s.name !== 'challan_sheet') }));
    const r = cli(['validate', path, ...STATEMENT]);
    expect(r.status).to.equal(1);
    oneLine(r.stderr);
    expect(r.stderr).to.match(/SHEET_MISSING: Sheet 'challan_sheet' is missing/);
    const parts = form26qParts();
    parts.paymentHeader = parts.paymentHeader.filter((h) => h !== 'payment_amount');
    const headless = join(dir, 'headless.json');
    writeFileSync(headless, JSON.stringify(buildWorkbook(parts)));
    const h = cli(['convert', headless, ...STATEMENT]);
    expect(h.status).to.equal(1);
    expect(h.stderr).to.match(/HEADER_MISMATCH: The header of payment_table lacks column 'payment_amount'/);
  });

  it("the vendor's 27Q sample converts (exit 0, digit-text cells as warnings); its 24Q sample for Q4 is refused for its data (exit 1)", () => {
    const samples = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'vendor-samples');
    const ok = cli(['convert', join(samples, 'form27q_workbook.data.json'), '--form', '27Q', '--quarter', 'Q3', '--year', 'FY 2023-24', '--now', NOW, '--out', join(dir, 'sample27q.txt')]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(ok.stderr).to.include('NUMBER_FROM_TEXT');
    expect(readFileSync(join(dir, 'sample27q.txt'), 'latin1')).to.match(/^1\^FH\^NS1\^R\^/);
    const refused = cli(['convert', join(samples, 'form24q_workbook.data.json'), '--form', '24Q', '--quarter', 'Q4', '--year', 'FY 2023-24', '--now', NOW]);
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.match(/SHEET_MISSING: Sheet 'salary_detail_sheet' is missing/);
  });

  it('no arguments: the usage, exit 2', () => {
    const r = cli([]);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/^usage:\n/);
    expect(r.stderr).to.include('satyapan-statement convert <workbook.json>');
    expect(r.stderr).to.include('exit codes:');
  });

  it('an unknown flag: one line naming the closest valid flag, exit 2', () => {
    const typo = cli(['convert', valid, ...STATEMENT, '--tann', 'MUMA12345E']);
    expect(typo.status).to.equal(2);
    expect(typo.stderr).to.equal('satyapan-statement: unknown flag --tann; did you mean --tan?\n');
    expect(cli(['validate', valid, '--qaurter', 'Q3']).stderr).to.equal('satyapan-statement: unknown flag --qaurter; did you mean --quarter?\n');
    const far = cli(['convert', valid, ...STATEMENT, '--frobnicate']);
    expect(far.status).to.equal(2);
    oneLine(far.stderr);
    expect(far.stderr).to.match(/unknown flag --frobnicate; the flags are --form, --quarter, --year, --tan, --out, --report, --csi, --now, --previous-receipt-number, --conso, --workbook, --original-receipt-number, --last-correction-receipt-number, --types, --xlsx, --limit, --help, --version/);
  });

  it('a TAN the FVU refuses: from the workbook (no --tan) the workbook is refused, exit 1; given as --tan, a usage error, exit 2', () => {
    const parts = form26qParts();
    parts.payer.tan = 'AHMA00000C';
    const path = join(dir, 'bad-tan.json');
    writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
    const fromWorkbook = cli(['convert', path, ...STATEMENT]);
    expect(fromWorkbook.status, fromWorkbook.stderr).to.equal(1);
    oneLine(fromWorkbook.stderr);
    expect(fromWorkbook.stderr).to.match(/the workbook's payer_list tan: Invalid TAN AHMA00000C: .*T-FV-1010/);
    const given = cli(['convert', valid, ...STATEMENT, '--tan', 'AHMA00000C']);
    expect(given.status, given.stderr).to.equal(2);
    expect(given.stderr).to.match(/^satyapan-statement: Invalid TAN AHMA00000C/);
  });

  it('usage and I/O errors: one line, exit 2', () => {
    for (const args of [['convert'], ['convert', valid], ['frobnicate'], ['--now', NOW], ['convert', join(dir, 'absent.json'), ...STATEMENT], ['convert', valid, ...STATEMENT, '--bogus'], ['template', '--form', '99Q'], ['convert', valid, '--form', '26Q', '--quarter', 'Q5', '--year', 'FY 2025-26']]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).to.equal(2);
      oneLine(r.stderr);
    }
  });

  it('template --form 140 writes the empty Form 140 workbook, which reads back with only "empty" problems', () => {
    const r = cli(['template', '--form', '140']);
    expect(r.status, r.stderr).to.equal(0);
    const template = JSON.parse(r.stdout) as { name: string; sheets: Array<{ name: string; blocks: Array<{ name: string; header?: string[] }> }> };
    expect(template.name).to.equal('form140_workbook');
    expect(template.sheets.map((s) => s.name)).to.deep.equal(['payer_sheet', 'payee_sheet', 'challan_sheet', 'payment_sheet']);
    expect(template.sheets[3]!.blocks[0]!.header).to.have.length(14);
    const path = join(dir, 'template.json');
    writeFileSync(path, r.stdout);
    const v = cli(['validate', path, '--form', '140', '--quarter', 'Q1', '--year', 'TY 2026-27', '--tan', 'MUMA12345E', '--now', NOW]);
    expect(v.status).to.equal(1);
    expect(v.stdout).to.include('VALUE_REQUIRED');
    expect(v.stdout).not.to.match(/HEADER_MISMATCH|SHEET_MISSING|BLOCK_MISSING|LIST_KEY_UNKNOWN/);
  });

  it('draws a progress bar on stderr only when stderr is a terminal and the input is large (> 20 MiB)', () => {
    const parts = form26qParts();
    const row = parts.payments[1]!;
    parts.payments = [];
    for (let i = 0; i < 170000; i++) parts.payments.push({ ...row, challan_serial: '00101', tds_amount: 100, payment_amount: 1000 });
    parts.challans[0]!.tds_amount = 17000000;
    parts.payments.push({ ...row, challan_serial: '00202', tds_amount: 21000, payment_amount: 210000 });
    const path = join(dir, 'large.json');
    writeFileSync(path, JSON.stringify(buildWorkbook(parts)));
    expect(readFileSync(path).length).to.be.greaterThan(20 * 1024 * 1024);
    const quote = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, '--conditions=satyapan-source', '--import', 'tsx', CLI, 'convert', path, ...STATEMENT, '--out', join(dir, 'large.txt')].map(quote).join(' ');
    // util-linux script(1) runs the command on a pseudo-terminal: its stderr is a TTY.
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'latin1' });
    expect(tty.status, tty.stdout).to.equal(0);
    expect(tty.stdout).to.match(/\[#*\.*\] +\d+%/);
    const plain = cli(['convert', path, ...STATEMENT, '--out', join(dir, 'large2.txt')]);
    expect(plain.status).to.equal(0);
    expect(plain.stderr).not.to.match(/\[#*\.*\]/);
  });

  it('--help and --version', () => {
    const help = cli(['--help']);
    expect(help.status).to.equal(0);
    expect(help.stdout).to.match(/^usage:/);
    const v = cli(['--version']);
    expect(v.status).to.equal(0);
    expect(v.stdout.trim()).to.match(/^\d+\.\d+\.\d+$/);
  });
});
