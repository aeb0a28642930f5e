// Excel without silent loss (issue 23): a blank row inside a table is skipped with a warning naming its cell,
// never the end of the table; a formula without a calculated value is an error at its cell; a percent-formatted
// number is read as a percentage; every problem of an .xlsx names its Excel cell (CLI, report .xlsx, JSON) and
// BLOCK_UNKNOWN the cell of the block's title. Each case builds the .xlsx that shows it (exceljs, miniXlsx).

import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, convertFile, readXlsxWorkbook, writeReportXlsx, writeSheetJsonXlsx } from '../src/index.js';
import { reportTable } from '../src/cli/table.js';
import { txtOf } from './support/streaming.js';
import { baseline } from './support/baselines.js';
import { miniXlsx } from './support/mini-xlsx.js';
import { buildWorkbook } from './support/sheet-json.js';


/** Opens an .xlsx with exceljs, lets `change` edit it, and saves it back. */
async function edit(path: string, change: (book: ExcelJS.Workbook) => void): Promise<void> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  change(book);
  await book.xlsx.writeFile(path);
}

const columnOf = (header: string[], key: string) => String.fromCharCode(65 + header.indexOf(key));

describe('Excel without silent loss', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-xlsx-loss-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('blank rows inside a table are skipped with one XLSX_BLANK_ROW per run at its cell: every row after them is read', async () => {
    const { parts, options } = baseline('26Q');
    const fromJson = convert(buildWorkbook(parts), options);
    expect(fromJson.txt).to.be.a('string');
    const path = join(dir, 'blank-rows.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    // payment_sheet: title row 1, header row 2, payments from row 3. One blank row whose cells hold empty text
    // at row 4, then two rows with no cells at all (a gap) before the fourth payment.
    await edit(path, (book) => {
      const sheet = book.getWorksheet('payment_sheet')!;
      sheet.spliceRows(4, 0, ['', ' ']);
      sheet.spliceRows(7, 0, [], []);
    });
    const { txt, problems } = await txtOf(path, options);
    expect(txt).to.equal(fromJson.txt);
    const blank = problems.filter((p) => p.code === 'XLSX_BLANK_ROW');
    expect(blank.map((p) => [p.cell, p.row, p.severity])).to.deep.equal([
      ['payment_sheet!A4', 4, 'warning'],
      ['payment_sheet!A7', 7, 'warning'],
    ]);
    expect(blank[1]!.message).to.match(/^Rows 7-8 are blank inside table payment_table; skipped, the table goes on at row 9/);

    // A problem in a row after the blank rows names its own cell: the fourth payment sits at row 9.
    await edit(path, (book) => {
      book.getWorksheet('payment_sheet')!.getCell(`${columnOf(parts.paymentHeader, 'payment_amount')}9`).value = 'forty thousand';
    });
    const after = await txtOf(path, options);
    expect(after.txt).to.equal(null);
    const wrong = after.problems.find((p) => p.code === 'CELL_TYPE')!;
    expect([wrong.cell, wrong.row, wrong.column]).to.deep.equal([`payment_sheet!${columnOf(parts.paymentHeader, 'payment_amount')}9`, 9, 'payment_amount']);
  });

  it("a table or list ends at the next block's title after blank rows (B says list or table, or A alone is a block name), or at the sheet's end", async () => {
    const sheet = [
      ['first_table', 'table'],
      ['n', 'text'],
      [1, 'one'],
      [],
      [2, 'two'],
      [],
      ['other_list', 'list'],
      ['key', 'value'],
      [],
      ['more', 2],
      [],
      ['notes_list'],
      ['k', 3],
      [],
      [],
    ];
    const path = join(dir, 'blocks.xlsx');
    writeFileSync(path, miniXlsx([['blocks_sheet', sheet]], { order: 'metadata-first', strings: 'shared' }));
    const { workbook, cells } = await readXlsxWorkbook(path);
    expect((workbook as { sheets: Array<{ blocks: unknown[] }> }).sheets[0]!.blocks).to.deep.equal([
      { name: 'first_table', '@entity': 'table', header: ['n', 'text'], rows: [[1, 'one'], [2, 'two']] },
      { name: 'other_list', '@entity': 'list', items: [['key', 'value'], ['more', 2]] },
      { name: 'notes_list', '@entity': 'list', items: [['k', 3]] },
    ]);
    expect(cells.problems.map((p) => [p.code, p.cell])).to.deep.equal([
      ['XLSX_BLANK_ROW', 'blocks_sheet!A4'],
      ['XLSX_BLANK_ROW', 'blocks_sheet!A9'],
    ]);
    expect(cells.problems[1]!.message).to.equal('Row 9 is blank inside list other_list; skipped, the list goes on at row 10 (blank rows end a block only before the next block\'s title row)');
    expect(cells.cellOf({ sheet: 'blocks_sheet', row: 2, column: 'other_list.more' })).to.equal('blocks_sheet!B10');
    // rows[1] of first_table (Problem.row 3) is Excel row 5, after the skipped row.
    expect(cells.cellOf({ sheet: 'blocks_sheet', row: 3, column: 'text' })).to.equal('blocks_sheet!B5');
  });

  it('a formula without a calculated value is XLSX_FORMULA_NOT_CALCULATED at its cell, telling to open and save the file', async () => {
    const { parts, options } = baseline('26Q');
    const path = join(dir, 'formula.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const amount = columnOf(parts.paymentHeader, 'payment_amount');
    const tds = columnOf(parts.paymentHeader, 'tds_amount');
    // exceljs writes a formula without a result as <f> alone, as openpyxl does.
    await edit(path, (book) => {
      book.getWorksheet('payment_sheet')!.getCell(`${tds}3`).value = { formula: `${amount}3*2%` } as ExcelJS.CellFormulaValue;
    });
    const { txt, problems } = await txtOf(path, options);
    expect(txt).to.equal(null);
    const formula = problems.filter((p) => p.code === 'XLSX_FORMULA_NOT_CALCULATED');
    expect(formula.map((p) => [p.cell, p.row, p.column, p.severity])).to.deep.equal([[`payment_sheet!${tds}3`, 3, 'tds_amount', 'error']]);
    expect(formula[0]!.message).to.include('open the file in Excel or LibreOffice and save it');
    // A formula with its cached value is read as that value.
    await edit(path, (book) => {
      book.getWorksheet('payment_sheet')!.getCell(`${tds}3`).value = { formula: `${amount}3*2%`, result: parts.payments[0]!.tds_amount } as ExcelJS.CellFormulaValue;
    });
    expect((await txtOf(path, options)).txt).to.equal(convert(buildWorkbook(parts), options).txt);
  });

  it('a percent-formatted number is read as a percentage (0.1 shown as 10% is 10; 0.00% too, and custom % formats)', async () => {
    const { parts, options } = baseline('26Q');
    parts.paymentHeader.push('rate_of_deduction');
    const rates = [2, 10, 20, 2, 0];
    parts.payments.forEach((p, i) => (p.rate_of_deduction = rates[i]!));
    const fromJson = convert(buildWorkbook(parts), options);
    expect(fromJson.txt).to.be.a('string');
    expect(fromJson.txt).to.include('10.0000');
    const path = join(dir, 'percent.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const rate = columnOf(parts.paymentHeader, 'rate_of_deduction');
    const formats = ['0%', '0.00%', '0.0%;[Red]-0.0%', '0%', '0%'];
    await edit(path, (book) => {
      const sheet = book.getWorksheet('payment_sheet')!;
      rates.forEach((r, i) => {
        const cell = sheet.getCell(`${rate}${3 + i}`);
        cell.value = r / 100;
        cell.numFmt = formats[i]!;
      });
    });
    const { txt, problems } = await txtOf(path, options);
    expect(problems.filter((p) => p.severity === 'error')).to.deep.equal([]);
    expect(txt).to.equal(fromJson.txt);
  });

  it('every problem of an .xlsx names its cell in the CLI table and the report .xlsx; BLOCK_UNKNOWN the title cell of the block', async () => {
    const { parts, options } = baseline('26Q');
    parts.payments[1]!.payment_amount = 'forty thousand';
    const workbook = buildWorkbook(parts) as { sheets: Array<{ name: string; blocks: unknown[] }> };
    workbook.sheets.find((s) => s.name === 'payer_sheet')!.blocks.push({ name: 'notes_list', '@entity': 'list', items: [['note', 'x']] });
    const path = join(dir, 'places.xlsx');
    await writeSheetJsonXlsx(workbook, path);
    const conversion = await convertFile(path, options);
    const report = conversion.report;
    await conversion.dispose();
    const unknown = report.problems.find((p) => p.code === 'BLOCK_UNKNOWN')!;
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(path);
    const titleRow = book.getWorksheet('payer_sheet')!.getColumn(1).values.indexOf('notes_list');
    expect(titleRow).to.be.greaterThan(1);
    expect([unknown.cell, unknown.row]).to.deep.equal([`payer_sheet!A${titleRow}`, titleRow]);
    const amountCell = `payment_sheet!${columnOf(parts.paymentHeader, 'payment_amount')}4`;
    expect(reportTable(report)).to.match(new RegExp(`CELL_TYPE +${amountCell.replace('!', '\\!')} / payment_amount `));
    expect(reportTable(report)).to.include(`payer_sheet!A${titleRow}`);
    const reportPath = join(dir, 'places-report.xlsx');
    await writeReportXlsx(report, reportPath);
    const reportBook = new ExcelJS.Workbook();
    await reportBook.xlsx.readFile(reportPath);
    const sheet = reportBook.getWorksheet('Problems')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cellColumn = header.indexOf('Cell') + 1;
    expect(cellColumn).to.be.greaterThan(0);
    expect(sheet.getColumn(cellColumn).values).to.include(amountCell);
    // The same workbook as JSON keeps its Sheet JSON places: no cell, the table row counted from the header.
    const json = convert(workbook, options).report.problems.find((p) => p.code === 'CELL_TYPE')!;
    expect([json.cell, json.row]).to.deep.equal([undefined, 3]);
  });
});
