// The streaming .xlsx reader (src/xlsx/zip.ts, parts.ts; FORMAT_NOTES §14): the zip is opened by its central
// directory, so the order of its entries does not matter; workbooks from another writer (test/support/mini-xlsx.ts:
// inline strings, prefixed elements, rows without references, the 1904 date system) give the JSON's TXT; every
// kind of cell reads as exceljs's whole-file reader read it; a truncated or corrupt file is refused with
// INVALID_XLSX, never a crash.

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';
import { convert, convertFile, convertStream, readXlsxWorkbook, StatementEngineError, writeSheetJsonXlsx, type ConvertOptions, type Problem } from '../src/index.js';
import { readAll, txtOf } from './support/streaming.js';
import { baseline, BASELINE_NAMES } from './support/baselines.js';
import { miniXlsx, packPart, serialOf, sheetJsonAsMiniXlsx, zipPacked, zipParts, type MiniOptions } from './support/mini-xlsx.js';
import { buildWorkbook, ist } from './support/sheet-json.js';

const withoutCell = (problems: Problem[]) => problems.map(({ cell: _cell, ...rest }) => rest);


async function entryOrder(path: string): Promise<string[]> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true });
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  zip.close();
  return names;
}

async function refusal(run: () => Promise<unknown>): Promise<StatementEngineError> {
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'refused').to.be.instanceOf(StatementEngineError);
  expect((error as StatementEngineError).code).to.equal('INVALID_XLSX');
  expect((error as Error).message).to.match(/^The \.xlsx workbook cannot be read: /);
  return error as StatementEngineError;
}

const VARIANTS: Array<[string, MiniOptions]> = [
  ['workbook/styles/sharedStrings before the worksheets, shared strings', { order: 'metadata-first', strings: 'shared' }],
  ['workbook/styles/sharedStrings after the worksheets, inline strings', { order: 'metadata-last', strings: 'inline' }],
  ['x: prefixed elements, rows and cells without r, 1904 dates, inline strings', { order: 'metadata-last', strings: 'inline', prefixed: true, withoutReferences: true, date1904: true }],
];

describe('Excel workbooks in: the streaming reader', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-xlsx-reader-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exceljs writes workbook.xml, styles and sharedStrings after the worksheets; names and dates are still read', async () => {
    const { parts, options } = baseline('26Q');
    const path = join(dir, 'exceljs-order.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const order = await entryOrder(path);
    const at = (name: string) => order.indexOf(name);
    expect(at('xl/worksheets/sheet2.xml')).to.be.greaterThan(-1);
    for (const part of ['xl/workbook.xml', 'xl/styles.xml', 'xl/sharedStrings.xml']) expect(at(part), part).to.be.greaterThan(at('xl/worksheets/sheet2.xml'));
    const { workbook } = await readXlsxWorkbook(path);
    expect(workbook).to.deep.equal(JSON.parse(JSON.stringify(buildWorkbook(parts, 'pair'))));
    expect((await txtOf(path, options)).txt).to.equal(convert(buildWorkbook(parts), options).txt);
  });

  for (const [title, variant] of VARIANTS) {
    it(`another writer, ${title}: every baseline gives the JSON's TXT and report`, async () => {
      for (const name of BASELINE_NAMES) {
        const { parts, options } = baseline(name);
        const workbook = buildWorkbook(parts, name.length % 2 === 0 ? 'object' : 'pair');
        const path = join(dir, `mini-${name}.xlsx`);
        writeFileSync(path, sheetJsonAsMiniXlsx(workbook as Record<string, unknown>, variant));
        const fromJson = convert(workbook, options);
        const fromXlsx = await txtOf(path, options);
        expect(fromXlsx.txt, name).to.equal(fromJson.txt);
        expect(withoutCell(fromXlsx.problems), name).to.deep.equal(fromJson.report.problems);
      }
    });
  }

  it('reads each kind of cell: shared/inline/rich strings, numbers, booleans, errors, formulas, date formats, sparse rows', async () => {
    const day = ist('2025-11-07');
    const serial = serialOf(day);
    const rich = '<is><r><rPr><b/></rPr><t>Ri</t></r><r><t xml:space="preserve">ch_x000D_</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></is>';
    const path = join(dir, 'kinds.xlsx');
    const sheet = [
      ['kinds_table', 'table'],
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
      [
        { raw: rich, t: 'inlineStr' },
        { raw: `<v>${serial}</v>`, s: 1 }, // built-in date format 14
        { raw: `<v>${serial}</v>`, s: 2 }, // custom dd-mm-yyyy
        { raw: '<v>1234.5</v>', s: 3 }, // custom number format, not a date
        { raw: '<v>TRUE</v>', t: 'b' },
        { raw: '<v>#N/A</v>', t: 'e' },
        { raw: '<f>A1&amp;"x"</f><v>a&amp;amp;b</v>', t: 'str' },
        { raw: '<f>1-1</f><v>0</v>' },
        { raw: '<f>1=2</f><v>0</v>', t: 'b' },
        { raw: '<v>2025-11-07T00:00:00</v>', t: 'd' },
      ],
      // Sparse: only C and E hold values; a formula without a cached result is empty, and an error at its cell.
      [null, null, 'only C', null, 7, { raw: '<f>NOW()</f>' }],
    ];
    writeFileSync(path, miniXlsx([['workbook', [['name', 'kinds']]], ['kinds_sheet', sheet]], { order: 'metadata-last', strings: 'shared' }));
    const { workbook, cells } = await readXlsxWorkbook(path);
    expect(workbook).to.deep.equal({
      '@entity': 'workbook',
      name: 'kinds',
      sheets: [
        {
          name: 'kinds_sheet',
          '@entity': 'sheet',
          blocks: [
            {
              name: 'kinds_table',
              '@entity': 'table',
              header: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
              rows: [
                ['Rich\r', day, day, 1234.5, true, '#N/A', 'a&b', 0, false, day],
                [null, null, 'only C', null, 7, null, null, null, null, null],
              ],
            },
          ],
        },
      ],
    });
    expect(cells.cellOf({ sheet: 'kinds_sheet', row: 3, column: 'e' })).to.equal('kinds_sheet!E4');
    expect(cells.problems.map((p) => [p.code, p.cell, p.column])).to.deep.equal([['XLSX_FORMULA_NOT_CALCULATED', 'kinds_sheet!F4', 'f']]);
  });

  it('a worksheet larger than one read chunk streams row by row (the rows and their Excel numbers are all there)', async () => {
    const rows: Array<Array<string | number>> = [['big_table', 'table'], ['n', 'text']];
    for (let i = 0; i < 20000; i++) rows.push([i, `row ${i} ${'é'.repeat(i % 7)}`]);
    const path = join(dir, 'big.xlsx');
    writeFileSync(path, miniXlsx([['big_sheet', rows]], { order: 'metadata-last', strings: 'inline' }));
    const { workbook, cells } = await readXlsxWorkbook(path);
    const table = (workbook as { sheets: Array<{ blocks: Array<{ rows: unknown[][] }> }> }).sheets[0]!.blocks[0]!;
    expect(table.rows).to.have.length(20000);
    expect(table.rows[19999]).to.deep.equal([19999, `row 19999 ${'é'.repeat(19999 % 7)}`]);
    expect(cells.cellOf({ sheet: 'big_sheet', row: 20001, column: 'text' })).to.equal('big_sheet!B20002');
  });

  it('a truncated or corrupt .xlsx is refused with INVALID_XLSX (file, stream and readXlsxWorkbook), never a crash', async () => {
    const { parts, options } = baseline('26Q');
    const good = join(dir, 'good.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), good);
    const bytes = readFileSync(good);
    const cases: Array<[string, Buffer]> = [
      ['cut in half', bytes.subarray(0, bytes.length >> 1)],
      ['end record cut', bytes.subarray(0, bytes.length - 10)],
      ['only the first entry', bytes.subarray(0, 200)],
    ];
    // Bytes changed inside a worksheet's compressed data: an inflate error or a CRC-32 mismatch.
    const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
    const sheet = await new Promise<yauzl.Entry>((resolve) => {
      zip.on('entry', (entry: yauzl.Entry) => (entry.fileName === 'xl/worksheets/sheet5.xml' ? resolve(entry) : zip.readEntry()));
      zip.readEntry();
    });
    zip.close();
    for (const [at, label] of [[0.3, 'early'], [0.8, 'late']] as const) {
      const corrupt = Buffer.from(bytes);
      const start = sheet.relativeOffsetOfLocalHeader + 30 + sheet.fileNameLength + Math.floor(sheet.compressedSize * at);
      for (let i = 0; i < 8; i++) corrupt[start + i] = corrupt[start + i]! ^ 0x5a;
      cases.push([`worksheet data changed (${label})`, corrupt]);
    }
    for (const [label, data] of cases) {
      const path = join(dir, `bad-${label.replace(/\W+/g, '-')}.xlsx`);
      writeFileSync(path, data);
      const fromFile = await refusal(() => txtOf(path, options));
      expect(fromFile.message, label).to.not.match(/\n/);
      await refusal(() => readXlsxWorkbook(path));
      await refusal(() => convertStream(Readable.from([data]), options).then((c) => c.dispose()));
    }
  });

  it('refuses a zip that is no workbook, malformed XML and a shared string that is not there, naming the part', async () => {
    const { options } = baseline('26Q');
    const noWorkbook = join(dir, 'plain.xlsx');
    writeFileSync(noWorkbook, zipParts([{ name: 'readme.txt', data: 'hello' }]));
    expect((await refusal(() => txtOf(noWorkbook, options))).message).to.include('xl/workbook.xml');

    const malformed = join(dir, 'malformed.xlsx');
    const good = miniXlsx([['payer_sheet', [['payer_list', 'list'], ['tan', 'MUMA12345E']]]], { order: 'metadata-first', strings: 'inline' });
    writeFileSync(malformed, rewrite(good, 'xl/worksheets/sheet1.xml', (xml) => xml.replace('</sheetData>', '<row></sheetData>')));
    expect((await refusal(() => txtOf(malformed, options))).message).to.include('xl/worksheets/sheet1.xml is not well-formed XML');

    // A stored (uncompressed) part with one digit changed in place reads as XML fine: only its CRC-32 tells.
    const stored = zipParts(unzipParts(good), true);
    const at = stored.indexOf('MUMA12345E');
    expect(at).to.be.greaterThan(0);
    stored[at + 8] = '6'.charCodeAt(0);
    const crcPath = join(dir, 'crc.xlsx');
    writeFileSync(crcPath, stored);
    expect((await refusal(() => txtOf(crcPath, options))).message).to.include('the part xl/worksheets/sheet1.xml is corrupt (CRC-32 mismatch)');

    const missing = join(dir, 'missing-string.xlsx');
    writeFileSync(missing, miniXlsx([['payer_sheet', [['payer_list', 'list'], ['tan', { raw: '<v>99</v>', t: 's' }]]]], { order: 'metadata-first', strings: 'shared' }));
    expect((await refusal(() => txtOf(missing, options))).message).to.include('payer_sheet!B2 refers to shared string 99');
  });

  it('refuses a part that inflates to more or fewer bytes than the zip declares, as it inflates (the size check yauzl made before the reader inflated parts itself)', async () => {
    const { options } = baseline('26Q');
    const good = miniXlsx([['payer_sheet', [['payer_list', 'list'], ['tan', 'MUMA12345E']]]], { order: 'metadata-first', strings: 'inline' });
    const sheet = 'xl/worksheets/sheet1.xml';
    const declaring = (delta: number) => zipPacked(unzipParts(good).map((part) => {
      const packed = packPart(part);
      return part.name === sheet ? { ...packed, size: packed.size + delta } : packed;
    }));
    const cases: Array<[number, RegExp]> = [
      [-1, /the part xl\/worksheets\/sheet1\.xml is corrupt \(too many bytes in the stream\. expected \d+\. got at least \d+\)/],
      [1, /the part xl\/worksheets\/sheet1\.xml is corrupt \(not enough bytes in the stream\. expected \d+\. got only \d+\)/],
    ];
    for (const [delta, message] of cases) {
      const path = join(dir, `declared-${delta}.xlsx`);
      writeFileSync(path, declaring(delta));
      const refused = await refusal(() => txtOf(path, options));
      expect(refused.code, String(delta)).to.equal('INVALID_XLSX');
      expect(refused.message, String(delta)).to.match(message);
      expect((await refusal(() => readXlsxWorkbook(path))).message).to.match(message);
    }
  });

  it('a workbook given as a stream is spilled to a temporary file that is removed, read or refused', async () => {
    const { parts } = baseline('140');
    const path = join(dir, 'spill.xlsx');
    await writeSheetJsonXlsx(buildWorkbook(parts), path);
    const spill = join(dir, 'spill-dir');
    mkdirSync(spill);
    const bytes = readFileSync(path);
    const { workbook } = await readXlsxWorkbook(Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]), { tmpDir: spill });
    expect(workbook).to.deep.equal(JSON.parse(JSON.stringify(buildWorkbook(parts, 'pair'))));
    expect(readdirSync(spill)).to.deep.equal([]);
    await refusal(() => readXlsxWorkbook(Readable.from([bytes.subarray(0, bytes.length - 40)]), { tmpDir: spill }));
    expect(readdirSync(spill)).to.deep.equal([]);
  });

  it('read in a worker thread (hooks.parallel; opt-in): the same TXT, problems in the same order with their cells, the same refusals; no thread or descriptor left', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = { threads: threads(), fds: fds() };
    const both = async (path: string, options: ConvertOptions) => {
      const outcome = async (parallel: boolean) => {
        try {
          const conversion = await convertFile(path, options, { parallel });
          const txt = conversion.lines ? (await readAll(conversion)) : (await conversion.dispose(), null);
          return { txt, problems: conversion.report.problems };
        } catch (error) {
          return { refused: `${(error as StatementEngineError).code}: ${(error as Error).message}` };
        }
      };
      const inThread = await outcome(false);
      expect(await outcome(true), path).to.deep.equal(inThread);
      return inThread;
    };
    for (const name of BASELINE_NAMES) {
      const { parts, options } = baseline(name);
      const path = join(dir, `worker-${name}.xlsx`);
      await writeSheetJsonXlsx(buildWorkbook(parts), path);
      expect((await both(path, options)).txt, name).to.be.a('string');
    }
    // Blank rows inside the table (XLSX_BLANK_ROW), a formula without its value and a wrong cell: the
    // reader's problems among the conversion's, each at its cell.
    const { parts, options } = baseline('26Q');
    const workbook = buildWorkbook(parts, 'pair') as { sheets: Array<{ name: string; blocks: Array<{ rows?: unknown[][] }> }> };
    const payments = workbook.sheets.find((sheet) => sheet.name === 'payment_sheet')!.blocks[0]!.rows!;
    payments.splice(1, 0, payments[0]!.map(() => null), payments[0]!.map(() => null));
    payments[0]![4] = 'forty';
    const problems = join(dir, 'worker-problems.xlsx');
    writeFileSync(problems, sheetJsonAsMiniXlsx(workbook as Record<string, unknown>, { order: 'metadata-first', strings: 'shared' }));
    const read = await both(problems, options);
    expect(read.problems!.map((p) => p.code)).to.include.members(['XLSX_BLANK_ROW', 'CELL_TYPE']);
    expect(read.problems!.every((p) => p.sheet === null || p.cell !== undefined)).to.equal(true);
    const malformed = join(dir, 'worker-malformed.xlsx');
    const good = miniXlsx([['payer_sheet', [['payer_list', 'list'], ['tan', 'MUMA12345E']]]], { order: 'metadata-first', strings: 'inline' });
    writeFileSync(malformed, rewrite(good, 'xl/worksheets/sheet1.xml', (xml) => xml.replace('</sheetData>', '<row></sheetData>')));
    expect((await both(malformed, options)).refused).to.match(/^INVALID_XLSX: .*sheet1\.xml is not well-formed XML/);
    expect((await both(join(dir, 'no-such.xlsx'), options)).refused).to.match(/^INPUT_UNREADABLE: /);
    expect(threads()).to.equal(before.threads);
    expect(fds()).to.be.at.most(before.fds);
  });

  it('command line: a truncated .xlsx is refused in one line, exit 1', () => {
    const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
    const good = miniXlsx([['payer_sheet', [['payer_list', 'list'], ['tan', 'MUMA12345E']]]], { order: 'metadata-first', strings: 'inline' });
    const path = join(dir, 'truncated-cli.xlsx');
    writeFileSync(path, good.subarray(0, good.length - 30));
    // Without --tan the command line first looks for the payer TAN in the workbook: refused there too.
    const r = spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', CLI, 'convert', path, '--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26'], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr.trim().split('\n')).to.have.length(1);
    expect(r.stderr).to.match(/\.xlsx workbook cannot be read: it is no complete zip file/);
    expect(r.stderr).to.not.match(/at .*\.ts:\d+/);
  });
});

/** The parts of a zip written by the test writer (local headers back to back, no data descriptors). */
function unzipParts(zip: Buffer): Array<{ name: string; data: Buffer }> {
  const parts: Array<{ name: string; data: Buffer }> = [];
  let offset = 0;
  while (zip.readUInt32LE(offset) === 0x04034b50) {
    const method = zip.readUInt16LE(offset + 8);
    const size = zip.readUInt32LE(offset + 18);
    const nameLength = zip.readUInt16LE(offset + 26);
    const name = zip.subarray(offset + 30, offset + 30 + nameLength).toString('utf8');
    const raw = zip.subarray(offset + 30 + nameLength, offset + 30 + nameLength + size);
    parts.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    offset += 30 + nameLength + size;
  }
  return parts;
}

/** The zip with one part's text changed (the other parts as they were). */
function rewrite(zip: Buffer, part: string, change: (xml: string) => string): Buffer {
  return zipParts(unzipParts(zip).map((p) => (p.name === part ? { name: p.name, data: change(p.data.toString('utf8')) } : p)));
}
