// TRACES Part A merged before Part B, matched by the PAN and assessment year in the file name; every file not
// used and every employee without a Part A is listed. The Part A PDFs are made here with pdf-lib (a page that
// says what a TRACES Part A says first), in a folder and in a zip.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { zipParts } from '../../statement-engine/test/support/mini-xlsx.js';
import { makeForm16s, matchPartA } from '../src/index.js';
import { pdfLines } from './support/pdf-text.js';
import { FINANCIAL_YEAR, form16Workbook, NOW, TAN } from './support/workbook.js';

async function partAPdf(pan: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('FORM NO. 16 PART A (TRACES)', { x: 40, y: 780, size: 14, font });
  page.drawText(`PAN of the Employee ${pan}`, { x: 40, y: 750, size: 10, font });
  return doc.save();
}

const FILES: Array<[string, string | null]> = [
  ['ABCPM1234A_N060_PartA_2026-27.pdf', 'ABCPM1234A'],
  ['BCDPS2345B_N060_PartA_2025-26.pdf', 'BCDPS2345B'],
  ['ZZZPZ9999Z_N060_PartA_2026-27.pdf', 'ZZZPZ9999Z'],
  ['ABCPM1234A_copy_PartA_2026-27.pdf', 'ABCPM1234A'],
  ['readme.txt', null],
];
const EXPECTED_MISMATCHES = [
  { file: 'ABCPM1234A_copy_PartA_2026-27.pdf', reason: 'a second Part A for PAN ABCPM1234A (ABCPM1234A_N060_PartA_2026-27.pdf is used)' },
  { file: 'BCDPS2345B_N060_PartA_2025-26.pdf', reason: 'assessment year 2025-26, not 2026-27' },
  { file: 'ZZZPZ9999Z_N060_PartA_2026-27.pdf', reason: 'no employee with PAN ZZZPZ9999Z in the statement' },
  { file: 'readme.txt', reason: 'not a .pdf file' },
];

describe('Form 16 with TRACES Part A', function () {
  let root: string;
  const parts: Array<{ name: string; data: Buffer }> = [];

  before(async function () {
    root = mkdtempSync(join(tmpdir(), 'form16-part-a-'));
    mkdirSync(join(root, 'part-a'));
    for (const [name, pan] of FILES) {
      const data = pan ? Buffer.from(await partAPdf(pan)) : Buffer.from('not a Part A');
      writeFileSync(join(root, 'part-a', name), data);
      parts.push({ name, data });
    }
    writeFileSync(join(root, 'part-a.zip'), zipParts(parts));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('reads PAN and assessment year from the file name and says why a file does not match', function () {
    const pans = new Set(['ABCPM1234A', 'BCDPS2345B', 'DEFPK4567C']);
    const match = matchPartA(FILES.map(([n]) => n).sort(), pans, '2026-27');
    expect([...match.byPan]).to.deep.equal([['ABCPM1234A', 'ABCPM1234A_N060_PartA_2026-27.pdf']]);
    expect(match.mismatches).to.deep.equal(EXPECTED_MISMATCHES);
    expect(matchPartA(['Form16_2026-27.pdf', 'ABCPM1234A.pdf', 'ABCPM1234A_2026-27_2025-26.pdf'], pans, '2026-27').mismatches.map((m) => m.reason)).to.deep.equal([
      'no PAN in the file name',
      'no assessment year (YYYY-YY) in the file name',
      'more than one year in the file name (2026-27, 2025-26)',
    ]);
  });

  for (const source of ['folder', 'zip'] as const) {
    it(`puts the matching Part A (from a ${source}) before Part B and lists the rest`, async function () {
      const out = join(root, `out-${source}`);
      const result = await makeForm16s({ workbook: form16Workbook(), financialYear: FINANCIAL_YEAR, tan: TAN, outDir: out, now: NOW, partA: join(root, source === 'zip' ? 'part-a.zip' : 'part-a') });
      expect(result.lines.map((l) => [l.pan, l.partA])).to.deep.equal([
        ['ABCPM1234A', 'ABCPM1234A_N060_PartA_2026-27.pdf'],
        ['BCDPS2345B', 'missing'],
        ['DEFPK4567C', 'missing'],
      ]);
      expect(result.partAMismatches).to.deep.equal(EXPECTED_MISMATCHES);
      expect(result.withoutPartA.map((w) => w.pan)).to.deep.equal(['BCDPS2345B', 'DEFPK4567C']);
      const pages = await pdfLines(readFileSync(join(out, 'ABCPM1234A_Form16_AY2026-27.pdf')));
      expect(pages[0]!.map((l) => l.join(' '))).to.include('FORM NO. 16 PART A (TRACES)');
      expect(pages[0]!.map((l) => l.join(' '))).to.include('PAN of the Employee ABCPM1234A');
      expect(pages[1]!.map((l) => l.join(' '))).to.include('PART B (Annexure)');
      const alone = await pdfLines(readFileSync(join(out, 'BCDPS2345B_Form16_AY2026-27.pdf')));
      expect(alone[0]!.map((l) => l.join(' '))).to.include('PART B (Annexure)');
      expect(readFileSync(join(out, 'index.csv'), 'utf8').split('\n')[1]).to.equal('ABCPM1234A,Meera Menon,ABCPM1234A_Form16_AY2026-27.pdf,ABCPM1234A_N060_PartA_2026-27.pdf,no,83200.00');
      expect(readFileSync(join(out, 'part-a-mismatches.csv'), 'utf8')).to.contain('ZZZPZ9999Z_N060_PartA_2026-27.pdf,no employee with PAN ZZZPZ9999Z in the statement');
    });
  }
});
