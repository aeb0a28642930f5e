// The input limits (src/limits.ts, README "Limits"), each tried with the attack it stops, generated here
// (test/support/bombs.ts): an .xlsx that inflates 700 times its size, 150M cell formats, 40M shared strings, a
// 600M-character cell, 10M nested elements, a worksheet listed 40 times, rows and columns past Excel's, a
// conso file of one endless line, a CSI file past its size. Each is refused with CONVERSION_LIMIT naming the
// limit and where, while this process's RSS grows by less than RSS_BOUND. Then a property: any bytes given
// as an .xlsx, JSON, conso or CSI file end in a report or a StatementEngineError, never another exception.

import { expect } from 'chai';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { convert, convertFile, correctFile, DEFAULT_INPUT_LIMITS, parseConso, parseCsi, StatementEngineError, type ConvertOptions, type InputLimitName, type InputLimits } from '../src/index.js';
import {
  bombXlsx, endlessLine, repeatedPart, rssGrowth, STRINGS_HEAD, STRINGS_TAIL, STYLES_HEAD, STYLES_TAIL, unitOf, worksheet, WORKSHEET_HEAD, WORKSHEET_TAIL,
} from './support/bombs.js';
import { writeConso } from './support/conso.js';
import { csiFor } from './support/csi.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { miniXlsx, packPart, zipPacked } from './support/mini-xlsx.js';
import { buildWorkbook } from './support/sheet-json.js';

/** What one refused conversion may add to this process's RSS: the limits keep it far below (a bomb unchecked took 1.9-3 GB). */
const RSS_BOUND = 300 * 1024 * 1024;
/** The ratio check lifted, to reach the limit of each class behind it (the attacks as found all inflate > 100x). */
const NO_RATIO: Partial<InputLimits> = { xlsxInflateRatio: 1e9 };

function expectLimit(error: unknown, name: InputLimitName, where?: RegExp): StatementEngineError {
  expect(error, `refused by ${name}`).to.be.instanceOf(StatementEngineError);
  const e = error as StatementEngineError;
  expect(e.code, e.message).to.equal('CONVERSION_LIMIT');
  expect(e.message).to.contain(`past the limit ${name} = `);
  if (where) expect(e.message).to.match(where);
  return e;
}

const A_NAME = worksheet('<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>');

describe('input limits: each attack refused with CONVERSION_LIMIT, naming the limit, in bounded memory', function () {
  this.timeout(60_000);
  let dir: string;
  let file = 0;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'satyapan-limits-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const OPTIONS: ConvertOptions = { ...OPTIONS_26Q };

  function written(bytes: Buffer | string, extension: string): string {
    const path = join(dir, `input-${file++}${extension}`);
    writeFileSync(path, bytes);
    return path;
  }

  /** Converts the .xlsx; the limit it is refused by, and what the conversion added to RSS. */
  async function refused(xlsx: Buffer, name: InputLimitName, limits: Partial<InputLimits> = {}, where?: RegExp): Promise<StatementEngineError> {
    const path = written(xlsx, '.xlsx');
    const { error, growth } = await rssGrowth(async () => (await convertFile(path, { ...OPTIONS, limits })).dispose());
    const e = expectLimit(error, name, where);
    expect(growth, `RSS grew ${Math.round(growth / 2 ** 20)} MiB`).to.be.below(RSS_BOUND);
    return e;
  }

  it("defaults to Excel's own limits; a limit is changed per conversion, and an unknown or invalid one is an option error", () => {
    expect(DEFAULT_INPUT_LIMITS).to.include({ sheetRows: 1_048_576, sheetColumns: 16_384, cellStyles: 64_000, cellChars: 32_767, xlsxInflateRatio: 100 });
    expect(DEFAULT_INPUT_LIMITS.workbookRows, 'the 1M-row bench workbook (1,011,000 table rows) still converts').to.be.at.least(1_011_000);
    expect(() => convert({}, { ...OPTIONS, limits: { sheetRowz: 5 } as Partial<InputLimits> })).to.throw(StatementEngineError, /Unknown limit 'sheetRowz'/);
    expect(() => convert({}, { ...OPTIONS, limits: { sheetRows: -1 } })).to.throw(StatementEngineError, /sheetRows must be a positive whole number/);
    expect(convert({}, { ...OPTIONS, limits: { sheetRows: 10 } }).report.valid).to.equal(false);
  });

  it('JSON: 1M nested arrays (a 2 MB upload, once 400 MB of open frames) stop at jsonDepth as they open; Sheet JSON itself nests seven deep', async () => {
    const nested = written(`${'['.repeat(1 << 20)}${']'.repeat(1 << 20)}`, 'json');
    const { error, growth } = await rssGrowth(async () => (await convertFile(nested, OPTIONS)).dispose());
    expectLimit(error, 'jsonDepth', /^the JSON workbook at byte 256: arrays and objects nest more than 256 deep/);
    expect(growth, `RSS grew ${Math.round(growth / 2 ** 20)} MiB`).to.be.below(RSS_BOUND);
    const workbook = JSON.stringify(buildWorkbook(form26qParts()));
    const deepKey = written(`{"deep":${'['.repeat(300)}${']'.repeat(300)},${workbook.slice(1)}`, 'json');
    expectLimit(await convertFile(deepKey, OPTIONS).then((c) => c.dispose(), (e: unknown) => e), 'jsonDepth');
    const conversion = await convertFile(written(workbook, 'json'), { ...OPTIONS, limits: { jsonDepth: 7 } });
    expect(conversion.report.valid, 'a real workbook within 7 levels').to.equal(true);
    await conversion.dispose();
  });

  it('styles: 150M cell formats in a 1.1 MB .xlsx (once a V8 fatal error) stop at the inflate ratio, and at cellStyles behind it', async () => {
    const styles = repeatedPart('styles', STYLES_HEAD, unitOf('<xf/>'), 750, STYLES_TAIL);
    const xlsx = bombXlsx({ sheets: [['workbook', A_NAME]], styles });
    expect(xlsx.length).to.be.below(1.3e6);
    await refused(xlsx, 'xlsxInflateRatio', {}, /^the \.xlsx part xl\/styles\.xml: /);
    await refused(xlsx, 'cellStyles', NO_RATIO, /more than 64000 cell formats/);
    // Formats that do not compress well pass the ratio and are counted all the same; custom number formats too.
    const varied = Array.from({ length: 70_000 }, (_, i) => `<xf numFmtId="${(i * 7919) % 163}" xfId="${i}"/>`).join('');
    await refused(bombXlsx({ sheets: [['workbook', A_NAME]], styles: packPart({ name: 's', data: `${STYLES_HEAD}${varied}${STYLES_TAIL}` }) }), 'cellStyles');
    const formats = Array.from({ length: 1_001 }, (_, i) => `<numFmt numFmtId="${164 + i}" formatCode="0.${'0'.repeat(i % 9)}"/>`).join('');
    const numFmts = packPart({ name: 's', data: STYLES_HEAD.replace('<cellXfs>', `<numFmts>${formats}</numFmts><cellXfs>`) + STYLES_TAIL });
    await refused(bombXlsx({ sheets: [['workbook', A_NAME]], styles: numFmts }), 'cellStyles', { cellStyles: 1_000 }, /number formats/);
  });

  it('shared strings: 40M of them stop at the inflate ratio; behind it their count, their characters and one string\'s length are limits', async () => {
    const many = repeatedPart('strings', STRINGS_HEAD, unitOf('<si><t>a</t></si>'), 700, STRINGS_TAIL);
    const xlsx = bombXlsx({ sheets: [['workbook', A_NAME]], sharedStrings: many });
    await refused(xlsx, 'xlsxInflateRatio', {}, /xl\/sharedStrings\.xml/);
    // The default count (4,000,000) takes some seconds to reach on a busy machine; the same check at 200,000.
    await refused(xlsx, 'sharedStrings', { ...NO_RATIO, sharedStrings: 200_000 }, /more than 200000 shared strings/);
    const long = repeatedPart('strings', STRINGS_HEAD, `<si><t>${'b'.repeat(20_000)}</t></si>`, 2_000, STRINGS_TAIL);
    await refused(bombXlsx({ sheets: [['workbook', A_NAME]], sharedStrings: long }), 'sharedStringChars', { ...NO_RATIO, sharedStringChars: 5_000_000 });
    const huge = repeatedPart('strings', `${STRINGS_HEAD}<si><t>`, unitOf('c'), 600, `</t></si>${STRINGS_TAIL}`);
    await refused(bombXlsx({ sheets: [['workbook', A_NAME]], sharedStrings: huge }), 'cellChars', NO_RATIO);
    // Text split by comments arrives in pieces: the pieces are counted together.
    const pieces = `<si><t>${`${'d'.repeat(20_000)}<!---->`.repeat(2)}</t></si>`;
    await refused(bombXlsx({ sheets: [['workbook', A_NAME]], sharedStrings: packPart({ name: 's', data: `${STRINGS_HEAD}${pieces}${STRINGS_TAIL}` }) }), 'cellChars', {}, /shared string 0 is longer/);
  });

  it('a 600M-character cell stops at the inflate ratio, and at cellChars behind it (inline, in pieces, as a value); a long attribute at attributeChars', async () => {
    const cell = repeatedPart('sheet', `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>`, unitOf('a'), 600, `</t></is></c></row>${WORKSHEET_TAIL}`);
    await refused(bombXlsx({ sheets: [['workbook', cell]] }), 'xlsxInflateRatio');
    await refused(bombXlsx({ sheets: [['workbook', cell]] }), 'cellChars', NO_RATIO, /xl\/worksheets\/sheet1\.xml/);
    const runs = worksheet(`<row r="3"><c r="B3" t="inlineStr"><is>${`<r><t>${'e'.repeat(20_000)}</t></r>`.repeat(2)}</is></c></row>`);
    await refused(bombXlsx({ sheets: [['workbook', runs]] }), 'cellChars', {}, /^workbook!B3 /);
    const value = worksheet(`<row r="1"><c r="A1"><v>${'7'.repeat(40_000)}</v></c></row>`);
    await refused(bombXlsx({ sheets: [['workbook', value]] }), 'cellChars');
    const attribute = repeatedPart('sheet', `${WORKSHEET_HEAD}<row r="1"><c r="A1" s="`, unitOf('9'), 300, `"/></row>${WORKSHEET_TAIL}`);
    await refused(bombXlsx({ sheets: [['workbook', attribute]] }), 'attributeChars', NO_RATIO);
    const short = worksheet(`<row r="1"><c r="A1" s="${'9'.repeat(70_000)}"/></row>`);
    await refused(bombXlsx({ sheets: [['workbook', short]] }), 'attributeChars');
  });

  it('10M nested elements (3 GB of saxes tag stack once) stop at the inflate ratio, and at xmlDepth as they open', async () => {
    const deep = repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<a>'), 30, WORKSHEET_TAIL);
    await refused(bombXlsx({ sheets: [['workbook', deep]] }), 'xlsxInflateRatio');
    await refused(bombXlsx({ sheets: [['workbook', deep]] }), 'xmlDepth', NO_RATIO, /elements nest more than 256 deep/);
    // Self-closing elements do not nest: a sheet of them is no deeper.
    const flat = worksheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>${'<row/>'.repeat(1000)}`);
    const path = written(bombXlsx({ sheets: [['workbook', flat]] }), '.xlsx');
    await (await convertFile(path, { ...OPTIONS, limits: { xmlDepth: 8 } })).dispose();
  });

  it('a worksheet listed 40 times is read once; more worksheets than sheetEntries, or relationships past 4 per entry, are refused', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${(i * 2654435761) % 1e9}</v></c><c r="B${i + 1}"><v>${i}</v></c></row>`).join('');
    const sheet = worksheet(rows);
    const sheets = Array.from({ length: 40 }, (_, i) => `<sheet name="s${i}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
    const relationships = Array.from({ length: 40 }, (_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>`).join('');
    const listed = written(bombXlsx({ sheets: [['s0', sheet]], entries: { sheets, relationships } }), '.xlsx');
    // Read 40 times it would inflate 40 times its size; read once it fits in twice its size.
    const conversion = await convertFile(listed, { ...OPTIONS, limits: { xlsxInflatedBytes: 2 * sheet.size + 100_000 } });
    await conversion.dispose();
    expect(conversion.report.valid).to.equal(false);
    const tiny = Array.from({ length: 257 }, (_, i): [string, ReturnType<typeof worksheet>] => [`s${i}`, A_NAME]);
    await refused(bombXlsx({ sheets: tiny }), 'sheetEntries', {}, /xl\/workbook\.xml: more than 256 worksheets/);
    const rels = Array.from({ length: 1_100 }, (_, i) => `<Relationship Id="r${i}" Type="x" Target="t${i}.xml"/>`).join('');
    await refused(bombXlsx({ sheets: [], entries: { sheets: '', relationships: rels } }), 'sheetEntries', {}, /workbook\.xml\.rels: more than 1024 relationships/);
  });

  it('inflated bytes: a part past 100x its compressed size (POI ZipSecureFile) and a workbook past xlsxInflatedBytes are refused on the sizes the zip declares, before inflating', async () => {
    const blank = repeatedPart('sheet', WORKSHEET_HEAD, unitOf(' '), 200, WORKSHEET_TAIL);
    await refused(bombXlsx({ sheets: [['workbook', blank]] }), 'xlsxInflateRatio', {}, /sheet1\.xml: the part inflates to more than 100 times its \d+ compressed bytes/);
    const rows = (k: number) => Array.from({ length: 20_000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${(i * 2654435761 + k) % 1e9}</v></c></row>`).join('');
    const sheets = [0, 1, 2].map((k): [string, ReturnType<typeof worksheet>] => [`s${k}`, worksheet(rows(k))]);
    const limit = sheets[0]![1].size * 2.5;
    await refused(bombXlsx({ sheets }), 'xlsxInflatedBytes', { xlsxInflatedBytes: Math.round(limit) }, /^the \.xlsx part xl\/worksheets\/sheet3\.xml: /);
  });

  it("rows and columns past Excel's (by number and by count), and rows past workbookRows in .xlsx and in JSON", async () => {
    await refused(bombXlsx({ sheets: [['workbook', worksheet('<row r="1048577"><c r="A1048577"><v>1</v></c></row>')]] }), 'sheetRows', {}, /^worksheet workbook \(xl\/worksheets\/sheet1\.xml\)/);
    // 1,114,112 rows without numbers (or all numbered 1) count by themselves.
    const unnumbered = repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<row/>', 6 * 65_536), 17, WORKSHEET_TAIL);
    await refused(bombXlsx({ sheets: [['workbook', unnumbered]] }), 'sheetRows', NO_RATIO);
    const repeated = repeatedPart('sheet', WORKSHEET_HEAD, unitOf('<row r="1"/>'), 2, WORKSHEET_TAIL);
    await refused(bombXlsx({ sheets: [['workbook', repeated]] }), 'sheetRows', { ...NO_RATIO, sheetRows: 100_000 });
    await refused(bombXlsx({ sheets: [['workbook', worksheet('<row r="1"><c r="XFE1"><v>1</v></c></row>')]] }), 'sheetColumns', {}, /beyond column XFD \(XFE1\)/);
    const wide = worksheet(`<row r="1">${'<c><v>1</v></c>'.repeat(16_385)}</row>`);
    await refused(bombXlsx({ sheets: [['workbook', wide]] }), 'sheetColumns', NO_RATIO);
    // One 30,000-character shared string in every column: 491M characters for one row, once its JSON text.
    const strings = packPart({ name: 's', data: `${STRINGS_HEAD}<si><t>${'f'.repeat(30_000)}</t></si>${STRINGS_TAIL}` });
    const heavy = worksheet(`<row r="1">${'<c t="s"><v>0</v></c>'.repeat(16_384)}</row>`);
    await refused(bombXlsx({ sheets: [['workbook', heavy]], sharedStrings: strings }), 'rowChars', NO_RATIO, /row 1 holds more than 1048576 characters of text/);
    const payments = form26qParts();
    const workbook = buildWorkbook(payments);
    const count = (workbook.sheets as Array<{ blocks: Array<{ rows?: unknown[] }> }>).flatMap((s) => s.blocks).reduce((n, b) => n + (b.rows?.length ?? 0), 0);
    const json = written(JSON.stringify(workbook), '.json');
    const { error } = await rssGrowth(async () => (await convertFile(json, { ...OPTIONS, limits: { workbookRows: count - 1 } })).dispose());
    expectLimit(error, 'workbookRows', /table rows in the workbook/);
    await (await convertFile(json, { ...OPTIONS, limits: { workbookRows: count } })).dispose();
    const rows = Array.from({ length: 30 }, (_, r) => [`k${r}`, r]);
    await refused(miniXlsx([['a', rows], ['b', rows]], { order: 'metadata-first', strings: 'inline' }), 'workbookRows', { workbookRows: 50 }, /^worksheet b /);
  });

  it('conso: one endless line is refused at lineBytes as it streams, a long line in a string too, and more lines than consoLines', async () => {
    const options = { ...OPTIONS_26Q };
    const workbook = written(JSON.stringify(buildWorkbook(form26qParts())), '.json');
    const { error, growth } = await rssGrowth(() => correctFile(workbook, Readable.from(endlessLine('1^FH^', 'x', 200 << 20)), options));
    expectLimit(error, 'lineBytes', /^conso file line 1: the line is longer than 65536 bytes/);
    expect(growth).to.be.below(RSS_BOUND);
    const expectation = { tan: 'MUMA12345E', form: '26Q' as const, yearCode: '202526', quarter: 'Q3' };
    expectLimit(catching(() => parseConso(`1^FH^${'y'.repeat(70_000)}\r\n`, expectation)), 'lineBytes');
    const conso = writeConso(convert(buildWorkbook(form26qParts()), OPTIONS_26Q).txt!);
    const lines = conso.split('\r\n').filter(Boolean).length;
    expectLimit(catching(() => parseConso(conso, expectation, { ...DEFAULT_INPUT_LIMITS, consoLines: lines - 1 })), 'consoLines', new RegExp(`^conso file line ${lines}: `));
    expect(parseConso(conso, expectation, { ...DEFAULT_INPUT_LIMITS, consoLines: lines }).lines).to.equal(lines);
    const streamed = await correctFile(workbook, Readable.from([Buffer.from(conso, 'latin1')]), { ...options, limits: { consoLines: 2 } }).catch((e: unknown) => e);
    expectLimit(streamed, 'consoLines');
  });

  it('CSI: a 64 MB file of one line is refused at lineBytes without decoding it, more lines than csiLines too', async () => {
    const big = Buffer.alloc(64 << 20, 0x41);
    const { error, growth } = await rssGrowth(async () => convert({}, { ...OPTIONS, csi: big }));
    expectLimit(error, 'lineBytes', /^CSI file line 1: /);
    expect(growth).to.be.below(RSS_BOUND);
    const parts = form26qParts();
    const csi = csiFor(parts, OPTIONS_26Q.tan);
    const lines = csi.split('\n').filter((l) => l.trim() !== '').length;
    expectLimit(catching(() => parseCsi(Buffer.from(csi), { ...DEFAULT_INPUT_LIMITS, csiLines: lines - 1 })), 'csiLines', new RegExp(`^CSI file line ${lines}: `));
    expect(parseCsi(Buffer.from(csi), { ...DEFAULT_INPUT_LIMITS, csiLines: lines }).count).to.equal(lines - 1);
    expectLimit(catching(() => convert(buildWorkbook(parts), { ...OPTIONS_26Q, csi, limits: { csiLines: 1 } })), 'csiLines');
  });

  it('the command line: a limit is refused in one line, exit 1, and --limit changes one', () => {
    const cliPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');
    const cli = (args: string[]) => spawnSync(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', cliPath, ...args], { encoding: 'utf8' });
    const statement = ['--form', '26Q', '--quarter', 'Q3', '--year', 'FY 2025-26', '--tan', 'MUMA12345E', '--now', '2026-05-10T11:00:00+05:30'];
    const deep = written(bombXlsx({ sheets: [['workbook', worksheet(`<row r="1"><c r="A1"><v>1</v></c></row>${'<a>'.repeat(300)}`)]] }), '.xlsx');
    const r = cli(['convert', deep, ...statement]);
    expect(r.status, r.stderr).to.equal(1);
    expect(r.stderr).to.match(/^satyapan-statement: the \.xlsx part xl\/worksheets\/sheet1\.xml: elements nest more than 256 deep, past the limit xmlDepth = 256\n$/);
    const lowered = cli(['validate', written(JSON.stringify(buildWorkbook(form26qParts())), '.json'), ...statement, '--limit', 'workbookRows=2']);
    expect(lowered.status, lowered.stderr).to.equal(1);
    expect(lowered.stderr).to.contain('past the limit workbookRows = 2');
  });
});

function catching(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
}

describe('input limits: any bytes as an .xlsx, JSON, conso or CSI file end in a report or a StatementEngineError', function () {
  this.timeout(60_000);
  let dir: string;
  let workbookPath: string;
  let n = 0;
  const small = miniXlsx(
    [
      ['workbook', [['name', 'x']]],
      ['payer_sheet', [['payer_list', 'list'], ['tan', 'MUMA12345E'], ['name', 'A & B']]],
    ],
    { order: 'metadata-first', strings: 'shared' },
  );
  const smallParts = [
    ['[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
    ['_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'],
    ['xl/workbook.xml', '<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr date1904="0"/><sheets><sheet name="workbook" sheetId="1" r:id="rId1"/></sheets></workbook>'],
    ['xl/_rels/workbook.xml.rels', '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x/styles" Target="styles.xml"/><Relationship Id="rId3" Type="x/sharedStrings" Target="sharedStrings.xml"/></Relationships>'],
    ['xl/styles.xml', '<styleSheet><numFmts><numFmt numFmtId="164" formatCode="dd-mm-yyyy"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>'],
    ['xl/sharedStrings.xml', '<sst><si><t>name</t></si><si><r><t>x</t></r><rPh><t>y</t></rPh></si></sst>'],
    ['xl/worksheets/sheet1.xml', '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" s="1"><v>45000</v></c><c r="D1" t="b"><v>1</v></c><c r="E1" t="str"><f>A1</f><v>q</v></c></row></sheetData></worksheet>'],
  ] as const;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'satyapan-fuzz-'));
    workbookPath = join(dir, 'workbook.json');
    writeFileSync(workbookPath, JSON.stringify(buildWorkbook(form26qParts())));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs one conversion; a resolved report or a StatementEngineError passes, anything else fails the property. */
  async function settles(run: () => Promise<unknown>): Promise<void> {
    try {
      await run();
    } catch (error) {
      if (!(error instanceof StatementEngineError)) throw error;
    }
  }

  async function convertBytes(bytes: Uint8Array, extension: string): Promise<void> {
    const path = join(dir, `fuzz-${n++}${extension}`);
    writeFileSync(path, bytes);
    await settles(async () => (await convertFile(path, OPTIONS_26Q)).dispose());
    rmSync(path, { force: true });
  }

  const bytes = fc.uint8Array({ maxLength: 2048 });
  const LIMITS: Partial<InputLimits> = { xmlDepth: 6, cellChars: 64, attributeChars: 64, sheetRows: 4, sheetColumns: 8, cellStyles: 3, sharedStrings: 3 };

  it('random bytes as .xlsx, as JSON, as conso and as CSI', async () => {
    await fc.assert(fc.asyncProperty(bytes, (b) => convertBytes(b, '.xlsx')), { numRuns: 200 });
    await fc.assert(fc.asyncProperty(bytes, (b) => convertBytes(b, '.json')), { numRuns: 200 });
    await fc.assert(fc.asyncProperty(bytes, (b) => settles(() => correctFile(workbookPath, Readable.from([Buffer.from(b)]), OPTIONS_26Q))), { numRuns: 200 });
    await fc.assert(fc.asyncProperty(bytes, (b) => settles(async () => convert({}, { ...OPTIONS_26Q, csi: b }))), { numRuns: 200 });
  });

  it('a valid small .xlsx with its bytes changed, or its XML changed and zipped again (with low limits too)', async () => {
    const mutation = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(mutation, async (changes) => {
        const copy = Buffer.from(small);
        for (const [at, value] of changes) copy[at % copy.length] = value;
        await convertBytes(copy, '.xlsx');
      }),
      { numRuns: 200 },
    );
    const xmlChange = fc.tuple(fc.nat(smallParts.length - 1), fc.nat(), fc.nat(20), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('<', '>', '</row>', '<c r="ZZZZ9">', '<row r="0">', '<v>', '&amp;', ']]>', '<![CDATA[', '"', 't="s"', '<!--', 's="99"')));
    await fc.assert(
      fc.asyncProperty(fc.array(xmlChange, { minLength: 1, maxLength: 4 }), fc.boolean(), async (changes, low) => {
        const texts: string[] = smallParts.map(([, text]) => text);
        for (const [part, at, cut, insert] of changes) {
          const text = texts[part]!;
          const i = at % (text.length + 1);
          texts[part] = text.slice(0, i) + insert + text.slice(i + cut);
        }
        const xlsx = zipPacked(smallParts.map(([name], i) => packPart({ name, data: texts[i]! })));
        const path = join(dir, `fuzz-${n++}.xlsx`);
        writeFileSync(path, xlsx);
        await settles(async () => (await convertFile(path, { ...OPTIONS_26Q, ...(low ? { limits: LIMITS } : {}) })).dispose());
        rmSync(path, { force: true });
      }),
      { numRuns: 200 },
    );
    // The unchanged parts read (the property is not vacuous: most runs get past the zip).
    const path = join(dir, 'unchanged.xlsx');
    writeFileSync(path, zipPacked(smallParts.map(([name, data]) => packPart({ name, data }))));
    const conversion = await convertFile(path, OPTIONS_26Q);
    await conversion.dispose();
    expect(conversion.report.valid).to.equal(false);
    expect(readFileSync(path).length).to.be.above(0);
  });
});
