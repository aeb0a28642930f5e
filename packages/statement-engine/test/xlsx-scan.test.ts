// The fast tokenizer of worksheet XML (src/xlsx/scan.ts) against saxes (the tokenizer it gives way to) on the
// same bytes: the same rows, or the same refusal with the same message, however the part is cut into
// chunks. Each case also says whether the fast tokenizer read the part itself or gave way: entities, self-closing
// cells, inline strings, attributes in any order and quote, cells without `r` and prefixed names are read
// by it; CDATA, comments and anything malformed go to saxes. Then a property over mutated worksheets.

import { expect } from 'chai';
import fc from 'fast-check';
import { DEFAULT_INPUT_LIMITS, StatementEngineError, type InputLimits } from '../src/index.js';
import { rowsOf, type PartSource } from '../src/xlsx/worksheet.js';
import type { Row, StyleKind, WorksheetContext } from '../src/xlsx/rows.js';

const SHEET = { name: 'payment_sheet', part: 'xl/worksheets/sheet2.xml' };
const STRINGS = ['name', 'pan', 'A & B <c>', 'नाम'];
/** Style 1 a date format, 2 a percent format. */
const STYLES: StyleKind[] = [null, 'date', 'percent'];
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const TAIL = '</sheetData></worksheet>';

type Outcome = { rows: Row[] } | { refused: string };

interface Read {
  outcome: Outcome;
  /** Whether the fast tokenizer gave way to saxes. */
  gaveWay: boolean;
  /** Bytes the source still counts as read once the reading is done (a read given up is not counted). */
  counted: number;
}

/** The part's bytes in chunks of `size` (the last one shorter), as often as they are read. */
function source(xml: string | Buffer, size: number): PartSource & { counted: number } {
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  const src = {
    counted: 0,
    async *read() {
      for (let at = 0; at < bytes.length; at += size) {
        const chunk = Buffer.from(bytes.subarray(at, at + size));
        src.counted += chunk.length;
        yield chunk;
      }
    },
    abandon(count: number) {
      src.counted -= count;
    },
  };
  return src;
}

async function read(xml: string | Buffer, tokenizer: 'fast' | 'saxes', size = 1 << 14, limits: Partial<InputLimits> = {}): Promise<Read> {
  const ctx: WorksheetContext = { sharedStrings: STRINGS, styleKinds: STYLES, date1904: false, limits: { ...DEFAULT_INPUT_LIMITS, ...limits }, rowsRead: 0, tokenizer };
  const src = source(xml, size);
  const rows: Row[] = [];
  let outcome: Outcome;
  try {
    for await (const row of rowsOf(src, SHEET, ctx)) rows.push(row);
    outcome = { rows };
  } catch (error) {
    if (!(error instanceof StatementEngineError)) throw error;
    outcome = { refused: `${error.code}: ${error.message}` };
  }
  return { outcome, gaveWay: (ctx.fallbacks ?? 0) > 0, counted: src.counted };
}

/**
 * Both tokenizers on the worksheet, in chunks of each size (saxes's refusals may name other things as the
 * chunks end elsewhere: each size is compared with saxes in the same chunks): the same outcome. The outcome
 * and whether the fast tokenizer gave way are those of the last size (the whole part in one chunk).
 */
async function compare(xml: string | Buffer, limits: Partial<InputLimits> = {}, sizes = [1, 2, 3, 5, 17, 64, 1 << 16]): Promise<{ outcome: Outcome; gaveWay: boolean }> {
  let last: Read | null = null;
  for (const size of sizes) {
    const expected = (await read(xml, 'saxes', size, limits)).outcome;
    last = await read(xml, 'fast', size, limits);
    expect(last.outcome, `chunks of ${size}`).to.deep.equal(expected);
    if (!('refused' in last.outcome)) expect(last.counted, `bytes counted once (chunks of ${size})`).to.equal(Buffer.byteLength(xml));
  }
  return { outcome: last!.outcome, gaveWay: last!.gaveWay };
}

const sheet = (rows: string) => `${HEAD}${rows}${TAIL}`;
const cellsOf = (outcome: Outcome) => ('rows' in outcome ? outcome.rows.map((r) => [r.number, ...r.cells]) : outcome.refused);

describe('Excel workbooks in: the fast worksheet tokenizer reads as saxes does', function () {
  this.timeout(60_000);

  it('numbers, shared strings, dates, percentages, booleans, errors and formulas, without giving way', async () => {
    const { outcome, gaveWay } = await compare(
      sheet(
        '<row r="1" spans="1:9"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>27</v></c><c r="C1" s="1"><v>45931</v></c><c r="D1" s="2"><v>0.125</v></c>' +
          '<c r="E1" t="b"><v>1</v></c><c r="F1" t="e"><v>#N/A</v></c><c r="G1"><f>1+1</f><v>2</v></c><c r="H1"><f>NOW()</f></c><c r="I1"><v>-0.5</v></c><c r="J1"><v>007</v></c></row>',
      ),
    );
    expect(gaveWay).to.equal(false);
    expect(cellsOf(outcome)).to.deep.equal([[1, 'name', 27, 1759257000000, 12.5, true, '#N/A', 2, null, -0.5, 7]]);
    expect('rows' in outcome && outcome.rows[0]!.uncalculated).to.deep.equal([8]);
  });

  it('the five XML entities and numeric character references, in text and in attributes', async () => {
    const { outcome, gaveWay } = await compare(
      sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#65;&#x42;&#x1F600;</t></is></c>' +
          '<c r="&#66;1" t="str"><f>A1</f><v>x&amp;amp;y</v></c><c r="C1" t="&#115;"><v>1</v></c></row>',
      ),
    );
    expect(gaveWay).to.equal(false);
    expect(cellsOf(outcome)).to.deep.equal([[1, 'a <b> & "c" \'d\' AB😀', 'x&y', 'pan']]);
  });

  it('self-closing cells, rows and values; cells and rows without r; attributes in any order and quote', async () => {
    const { outcome, gaveWay } = await compare(
      sheet(
        `<row r='1'><c t='s' s="0" r='A1'><v>1</v></c><c r="B1"/><c s='0' r="C1" t="n"><v>3</v></c><c r="D1"><v/></c></row>` +
          '<row/><row><c><v>1</v></c><c/><c><v>3</v></c></row><row r="7" ><c  r = "B7"  ><v >5</v ></c ></row >',
      ),
    );
    expect(gaveWay).to.equal(false);
    expect(cellsOf(outcome)).to.deep.equal([
      [1, 'pan', null, 3],
      [3, 1, null, 3],
      [7, null, 5],
    ]);
  });

  it('inline strings, rich-text runs (phonetic runs left out, _x000D_ decoded), non-ASCII text and line ends', async () => {
    const { outcome, gaveWay } = await compare(
      sheet(
        '<row r="1">\r\n  <c r="A1" t="inlineStr"><is><r><rPr><b/></rPr><t>Ri</t></r><r><t xml:space="preserve">ch_x000D_</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></is></c>\r\n' +
          '  <c r="B1" t="inlineStr"><is><t>नाम — ünïcödé</t></is></c><c r="C1" t="inlineStr"><is><t>two\r\nlines\rand&#13;</t></is></c><c r="D1" t="s"><v>3</v></c>\n</row>',
      ),
    );
    expect(gaveWay).to.equal(false);
    expect(cellsOf(outcome)).to.deep.equal([[1, 'Rich\r', 'नाम — ünïcödé', 'two\nlines\nand\r', 'नाम']]);
  });

  it('prefixed names (x:row, x:c) and a byte order mark, without giving way', async () => {
    const xml = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="2"><x:c r="A2" t="s"><x:v>1</x:v></x:c><x:c r="B2" t="inlineStr"><x:is><x:t>q</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>'),
    ]);
    const { outcome, gaveWay } = await compare(xml);
    expect(gaveWay).to.equal(false);
    expect(cellsOf(outcome)).to.deep.equal([[2, 'pan', 'q']]);
  });

  it('CDATA, comments, processing instructions and a DOCTYPE are read by saxes', async () => {
    for (const [rows, cells] of [
      ['<row r="1"><c r="A1" t="inlineStr"><is><t><![CDATA[a<b]]></t></is></c></row>', [[1, 'a<b']]],
      ['<row r="1"><!-- a comment --><c r="A1"><v>1</v></c></row>', [[1, 1]]],
      ['<row r="1"><?pi x?><c r="A1"><v>1</v></c></row>', [[1, 1]]],
    ] as const) {
      const { outcome, gaveWay } = await compare(sheet(rows));
      expect(gaveWay, rows).to.equal(true);
      expect(cellsOf(outcome), rows).to.deep.equal(cells);
    }
    const { gaveWay } = await compare(`<!DOCTYPE worksheet>${sheet('')}`);
    expect(gaveWay).to.equal(true);
  });

  it('malformed XML is refused with saxes\'s message, wherever the chunks end', async () => {
    for (const rows of [
      '<row r="1"><c r="A1"><v>1</c></row>',
      '<row r="1"><c r="A1" r="B1"><v>1</v></c></row>',
      '<row r="1"><c r="A1"t="s"><v>1</v></c></row>',
      '<row r="1"><c r="A1"><v>1 &bogus; </v></c></row>',
      '<row r="1"><c r="A1"><v>1 &#0; </v></c></row>',
      '<row r="1"><c r="A1"><v>a ]]> b</v></c></row>',
      '<row r="1"><c r=A1><v>1</v></c></row>',
      '<row r="1"><c r="A<1"><v>1</v></c></row>',
      '<row r="1"><c r="A1"><v>\u0001</v></c></row>',
      '<row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet><worksheet/>',
      '<row r="1"><c r="A1"><v>1</v></c></row></sheetData>',
    ]) {
      const { outcome, gaveWay } = await compare(sheet(rows).replace(`${TAIL}${TAIL}`, TAIL));
      expect(outcome, rows).to.have.property('refused').that.matches(/^INVALID_XLSX: The \.xlsx workbook cannot be read: xl\/worksheets\/sheet2\.xml is not well-formed XML \(\d+:\d+: /);
      expect(gaveWay, rows).to.equal(true);
    }
  });

  it('limits: refused with the message saxes gives (cell text, attributes, depth, rows, columns, a missing shared string)', async () => {
    const long = 'x'.repeat(70);
    const cases: Array<[string, Partial<InputLimits>, RegExp]> = [
      [`<row r="1"><c r="A1" t="inlineStr"><is><t>${long}</t></is></c></row>`, { cellChars: 64 }, /cellChars/],
      [`<row r="1"><c r="A1" t="inlineStr"><is><r><t>${long.slice(0, 40)}</t></r><r><t>${long.slice(0, 40)}</t></r></is></c></row>`, { cellChars: 64 }, /^CONVERSION_LIMIT: payment_sheet!A1 /],
      [`<row r="1" x="${long}"><c r="A1"><v>1</v></c></row>`, { attributeChars: 64 }, /attributeChars/],
      ['<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row><row r="3"><c r="A3"><v>1</v></c></row>', { sheetRows: 2 }, /sheetRows/],
      ['<row r="1"><c r="I1"><v>1</v></c></row>', { sheetColumns: 8 }, /beyond column H \(I1\)/],
      ['<row r="1"><c r="A1"><is><a><b><c><d/></c></b></a></is></c></row>', { xmlDepth: 7 }, /xmlDepth/],
      ['<row r="1"><c r="A1" t="s"><v>9</v></c></row>', {}, /refers to shared string 9, which xl\/sharedStrings\.xml does not have/],
      ['<row r="1"><c r="A1" t="s"><v>2</v></c><c r="B1" t="s"><v>2</v></c></row>', { rowChars: 12 }, /rowChars/],
    ];
    for (const [rows, limits, message] of cases) {
      const { outcome, gaveWay } = await compare(sheet(rows), limits);
      expect(outcome, rows).to.have.property('refused').that.matches(message);
      expect(gaveWay, rows).to.equal(true);
    }
  });

  it('a worksheet the fast tokenizer gives way in late: the rows it handed over are not handed over twice, its bytes counted once', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join('');
    const xml = sheet(`${rows}<row r="201"><c r="A201" t="inlineStr"><is><t><![CDATA[late]]></t></is></c></row>`);
    const { outcome, gaveWay } = await compare(xml, {}, [64, 1000]);
    expect(gaveWay).to.equal(true);
    expect(cellsOf(outcome)).to.have.length(201);
  });

  it('property: a worksheet with bytes inserted, removed or replaced reads (or is refused) the same, in any chunks', async () => {
    const base = sheet(
      '<row r="1" spans="1:4"><c r="A1" t="s"><v>1</v></c><c r="B1" s="1"><v>45000</v></c><c r="C1" t="inlineStr"><is><t>a &amp; b</t></is></c><c r="D1" t="str"><f>A1</f><v>q</v></c></row>' +
        '<row r="3"><c r="A3" s="2"><v>0.5</v></c><c r="B3" t="b"><v>0</v></c><c t="e"><v>#DIV/0!</v></c><c r="E3"/></row>',
    );
    const inserts = fc.constantFrom('<', '>', '</row>', '<c r="ZZZZ9">', '<row r="0">', '<v>', '</v>', '&amp;', '&bogus;', '&#0;', ']]>', '<![CDATA[x]]>', '"', "'", ' ', '\r', '\n', 'é', '\u0001', '<x:row>', '<c/>', 't="s"', 's="2"', 'r="B2"', '<f t="shared"/>', '<!--c-->');
    // Bytes anywhere (mostly malformed), or whole elements and texts between two tags (mostly well-formed).
    const boundaries = [...base.matchAll(/>/g)].map((m) => m.index + 1);
    const fragments = fc.constantFrom('<c r="B2"/>', '<row/>', '<c><v>12</v></c>', '<v>3</v>', ' ', '\r\n', '7', '&amp;', '&#x41;', 'é', '<x:c r="C9" t="s"><x:v>0</x:v></x:c>', '<c t="inlineStr"><is><t>t</t></is></c>', '<f>1</f>', '<rPh><t>p</t></rPh>');
    const change = fc.oneof(fc.tuple(fc.nat(base.length), fc.nat(6), inserts), fc.tuple(fc.constantFrom(...boundaries), fc.constant(0), fragments));
    const limits = fc.constantFrom<Partial<InputLimits>>({}, { cellChars: 6, attributeChars: 8, xmlDepth: 5, sheetRows: 2, sheetColumns: 3, rowChars: 10 });
    let readFast = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 80 }), limits, async (changes, size, chosen) => {
        let xml = base;
        for (const [at, cut, insert] of changes) xml = xml.slice(0, at % (xml.length + 1)) + insert + xml.slice((at % (xml.length + 1)) + cut);
        const saxes = await read(xml, 'saxes', size, chosen);
        const fast = await read(xml, 'fast', size, chosen);
        expect(fast.outcome).to.deep.equal(saxes.outcome);
        if (!fast.gaveWay) readFast++;
      }),
      { numRuns: 400 },
    );
    // Not vacuous: many of the changed worksheets are read by the fast tokenizer itself.
    expect(readFast).to.be.above(10);
  });
});
