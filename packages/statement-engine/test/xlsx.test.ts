// Excel workbooks in: the .xlsx form of a Sheet JSON workbook (README "Excel workbooks") converts to the same
// TXT, byte for byte, and the same report, with each problem's Excel cell. The vendor's samples and generated
// workbooks (fast-check) go through `sheetJsonToXlsx` (what `to-xlsx` writes) and back through the engine.

import { expect } from 'chai';
import fc from 'fast-check';
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convert, convertFile, convertStream, peekWorkbook, readXlsxWorkbook, StatementEngineError, writeSheetJsonXlsx, type ConvertOptions, type FormName, type Problem, type Quarter } from '../src/index.js';
import { txtOf } from './support/streaming.js';
import { baseline, BASELINE_NAMES } from './support/baselines.js';
import { buildWorkbook, ist } from './support/sheet-json.js';

const SAMPLES_DIR = fileURLToPath(new URL('./fixtures/vendor-samples/', import.meta.url));
const NOW = new Date('2026-11-20T10:00:00+05:30');
// The same samples and periods as vendor-samples.test.ts.
const SAMPLES: Array<[string, FormName, Quarter, string]> = [
  ['form24q_workbook.data.json', '24Q', 'Q4', 'FY 2023-24'],
  ['form24q_workbook_q4.data.json', '24Q', 'Q4', 'FY 2023-24'],
  ['form26q_workbook.data.json', '26Q', 'Q3', 'FY 2023-24'],
  ['form27q_workbook.data.json', '27Q', 'Q3', 'FY 2023-24'],
  ['form27eq_workbook.data.json', '27EQ', 'Q3', 'FY 2023-24'],
  ['form138_workbook.data.json', '138', 'Q1', 'TY 2026-27'],
  ['form140_workbook.data.json', '140', 'Q1', 'TY 2026-27'],
  ['form144_workbook.data.json', '144', 'Q1', 'TY 2026-27'],
];

/**
 * The .xlsx report is the JSON one where each problem with a place in the workbook has its Excel cell and, as
 * its row, the Excel row of that cell: checked here, then both compared without the row of those problems.
 */
function expectJsonReport(fromXlsx: Problem[], fromJson: Problem[]): void {
  expect(fromXlsx).to.have.length(fromJson.length);
  const located = fromXlsx.map((p) => p.cell !== undefined);
  for (const p of fromXlsx.filter((q) => q.cell !== undefined)) expect(`${p.cell}`, p.code).to.match(new RegExp(`^${p.sheet}![A-Z]+${p.row}$`));
  const placeless = (problems: Problem[]) => problems.map(({ cell: _cell, ...rest }, i) => (located[i] ? { ...rest, row: null } : rest));
  expect(placeless(fromXlsx)).to.deep.equal(placeless(fromJson));
}


describe('Excel workbooks in', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-xlsx-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [file, form, quarter, year] of SAMPLES) {
    it(`the vendor's ${file}: the .xlsx gives the JSON's TXT byte for byte and the same report`, async () => {
      const jsonPath = join(SAMPLES_DIR, file);
      const xlsxPath = join(dir, file.replace(/\.json$/, '.xlsx'));
      await writeSheetJsonXlsx(JSON.parse(readFileSync(jsonPath, 'utf8')), xlsxPath);
      const { tan } = await peekWorkbook(jsonPath);
      const options: ConvertOptions = { form, quarter, financialYear: year, tan: tan!, now: () => NOW };
      const fromJson = await txtOf(jsonPath, options);
      const fromXlsx = await txtOf(xlsxPath, options);
      expect(fromXlsx.txt).to.equal(fromJson.txt);
      expectJsonReport(fromXlsx.problems, fromJson.problems);
    });
  }

  it('property: any baseline with generated payment rows converts to the same TXT from .xlsx as from JSON', async () => {
    const amount = fc.integer({ min: 1, max: 5_000_000 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BASELINE_NAMES), fc.array(fc.record({ copyOf: fc.nat(), amount, text: fc.string({ minLength: 1, maxLength: 12 }) }), { maxLength: 6 }), async (name, extra) => {
        const { parts, options } = baseline(name);
        // Extra payment rows copied from the baseline's own, with a changed amount and a changed free-text cell
        // where the row has one: valid or not, both inputs must give the same result.
        for (const e of extra) {
          const row = { ...parts.payments[e.copyOf % parts.payments.length]! };
          if (typeof row.payment_amount === 'number') row.payment_amount = e.amount;
          if ('certificate_number' in row) row.certificate_number = e.text;
          parts.payments.push(row);
        }
        const workbook = buildWorkbook(parts, extra.length % 2 === 0 ? 'object' : 'pair');
        const path = join(dir, `property-${name}.xlsx`);
        await writeSheetJsonXlsx(workbook, path);
        const fromJson = convert(workbook, options);
        const fromXlsx = await txtOf(path, options);
        expect(fromXlsx.txt).to.equal(fromJson.txt);
        expectJsonReport(fromXlsx.problems, fromJson.report.problems);
      }),
      { numRuns: 40 },
    );
  });

  it('names the Excel cell of each problem (payment_sheet!F12 style), for tables and lists', async () => {
    const { parts, options } = baseline('26Q');
    parts.payments[1]!.payment_amount = 'forty thousand';
    parts.payer.state = 'Atlantis';
    const path = join(dir, 'cells.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const { problems } = await txtOf(path, options);
    const cellOf = (code: string) => problems.find((p) => p.code === code)?.cell;
    // payment_sheet: row 1 title, row 2 header, data from row 3; payment_amount is the 5th column (E).
    const column = String.fromCharCode(65 + parts.paymentHeader.indexOf('payment_amount'));
    expect(cellOf('CELL_TYPE')).to.equal(`payment_sheet!${column}4`);
    const stateRow = 1 + 1 + Object.keys(parts.payer).indexOf('state');
    expect(problems.filter((p) => p.sheet === 'payer_sheet').map((p) => p.cell)).to.include(`payer_sheet!B${stateRow}`);
  });

  it('reads Excel dates (read as IST calendar days) and epoch numbers alike; text cells keep leading zeros', async () => {
    const { parts, options } = baseline('26Q');
    const fromJson = convert(buildWorkbook(parts), options);
    const path = join(dir, 'dates.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    const sheet = book.getWorksheet('challan_sheet')!;
    const dateColumn = parts.challanHeader.indexOf('paid_date_epoch') + 1;
    // The writer made the IST midnights Excel dates; make one an epoch number again: the same TXT.
    expect(sheet.getRow(3).getCell(dateColumn).value).to.be.instanceOf(Date);
    const cell = sheet.getRow(3).getCell(dateColumn);
    cell.value = ist('2025-11-07');
    cell.numFmt = '0';
    expect(sheet.getRow(3).getCell(parts.challanHeader.indexOf('bsr_code') + 1).value).to.equal('0510308');
    await book.xlsx.writeFile(path);
    expect((await txtOf(path, options)).txt).to.equal(fromJson.txt);
    const { workbook } = await readXlsxWorkbook(path);
    expect(convert(workbook, options).txt).to.equal(fromJson.txt);
  });

  it('convertStream recognises .xlsx bytes by their zip signature (as job uploads are)', async () => {
    const { parts, options } = baseline('140');
    const path = join(dir, 'stream.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const bytes = readFileSync(path);
    const conversion = await convertStream((async function* () { yield bytes.subarray(0, 10); yield bytes.subarray(10); })(), options);
    let txt = '';
    for await (const line of conversion.lines!) txt += line;
    expect(txt).to.equal(convert(buildWorkbook(parts), options).txt);
  });

  it('a file with the zip signature that is no .xlsx is refused (INVALID_XLSX)', async () => {
    const path = join(dir, 'broken.xlsx');
    writeFileSync(path, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    const error = await convertFile(path, baseline('26Q').options).then(() => null, (e: unknown) => e);
    expect(error).to.be.instanceOf(StatementEngineError);
    expect((error as StatementEngineError).code).to.equal('INVALID_XLSX');
  });
});

describe('Excel workbooks: command line', function () {
  this.timeout(60000);
  const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
  const STATEMENT = ['--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--now', '2026-05-10T11:00:00+05:30'];
  const cli = (args: string[]) => spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', CLI, ...args], { encoding: 'latin1' });
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-xlsx-cli-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('to-xlsx, then convert the .xlsx (TAN from its payer list): the TXT of the JSON workbook, byte for byte', () => {
    const { parts, options } = baseline('26Q');
    const json = join(dir, 'wb.json');
    const xlsx = join(dir, 'wb.xlsx');
    writeFileSync(json, JSON.stringify(buildWorkbook(parts)));
    const made = cli(['to-xlsx', json, '--out', xlsx]);
    expect(made.status, made.stderr).to.equal(0);
    const r = cli(['convert', xlsx, ...STATEMENT]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(convert(buildWorkbook(parts), { ...options, now: () => new Date('2026-05-10T11:00:00+05:30') }).txt);
  });

  it('validate an .xlsx with an error: exit 1, the problem in the report with its Excel cell', () => {
    const { parts } = baseline('26Q');
    parts.payees[1]!.pan = 'BAD';
    const json = join(dir, 'bad.json');
    const xlsx = join(dir, 'bad.xlsx');
    const report = join(dir, 'bad-report.json');
    writeFileSync(json, JSON.stringify(buildWorkbook(parts)));
    expect(cli(['to-xlsx', json, '--out', xlsx]).status).to.equal(0);
    const r = cli(['validate', xlsx, ...STATEMENT, '--report', report]);
    expect(r.status).to.equal(1);
    const problems = (JSON.parse(readFileSync(report, 'utf8')) as { problems: Problem[] }).problems;
    const column = String.fromCharCode(65 + parts.payeeHeader.indexOf('pan'));
    expect(problems.filter((p) => p.sheet === 'payee_sheet').map((p) => p.cell)).to.include(`payee_sheet!${column}4`);
  });

  it('template --xlsx writes the empty workbook with drop-down lists on the enum columns', async () => {
    const out = join(dir, 'template-140.xlsx');
    const r = cli(['template', '--form', '140', '--xlsx', '--out', out]);
    expect(r.status, r.stderr).to.equal(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    expect(book.worksheets.map((w) => w.name)).to.include.members(['workbook', 'payer_sheet', 'payee_sheet', 'challan_sheet', 'payment_sheet', 'lists']);
    expect(book.getWorksheet('lists')!.state).to.equal('hidden');
    const payments = book.getWorksheet('payment_sheet')!;
    const header = (payments.getRow(2).values as unknown[]).slice(1);
    const column = header.indexOf('nature_of_payment') + 1;
    const validation = payments.getCell(3, column).dataValidation;
    expect(validation).to.include({ type: 'list' });
    expect(String(validation.formulae![0])).to.match(/^lists!\$[A-Z]+\$2:\$[A-Z]+\$\d+$/);
    const challanHeader = (book.getWorksheet('challan_sheet')!.getRow(2).values as unknown[]).slice(1);
    expect(book.getWorksheet('challan_sheet')!.getCell(3, challanHeader.indexOf('minor_head') + 1).dataValidation).to.include({ type: 'list' });
    // The empty template reads like the empty JSON template: the same problems (no unknown `lists` sheet).
    const jsonTemplate = join(dir, 'template-140.json');
    expect(cli(['template', '--form', '140', '--out', jsonTemplate]).status).to.equal(0);
    const statement = ['--form', '140', '--quarter', 'Q1', '--year', 'TY 2026-27', '--tan', 'MUMA12345E', '--now', '2026-11-20T10:00:00+05:30'];
    const fromXlsx = cli(['validate', out, ...statement]);
    const fromJson = cli(['validate', jsonTemplate, ...statement]);
    // Line by line the same level, code and message; the place is the Excel cell for the .xlsx.
    const columns = (table: string) => table.split('\n').map((line) => line.split(/ {2,}/)).map(([level, code, _where, ...message]) => [level, code, message.join('  ')]);
    expect(columns(fromXlsx.stdout)).to.deep.equal(columns(fromJson.stdout));
    expect(fromXlsx.stdout).to.match(/VALUE_REQUIRED +payer_sheet!B2 \/ payer_list\.tan /);
  });

  it('usage errors: to-xlsx without --out, a broken .xlsx (exit 1, one line)', () => {
    const json = join(dir, 'wb.json');
    expect(cli(['to-xlsx', json]).stderr).to.match(/--out <file\.xlsx> is required/);
    const broken = join(dir, 'broken.xlsx');
    writeFileSync(broken, 'not a zip at all');
    const r = cli(['convert', broken, ...STATEMENT, '--tan', 'MUMA12345E']);
    expect(r.status).to.equal(1);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
  });
});
