// The bulk upload's line reader: the lines the whole-file split of the old reader gave (line numbers, BOM, CRLF,
// blank lines skipped), on any cut of the bytes into chunks, and with any number of lines skipped by a resumed job.
import { expect } from 'chai';
import fc from 'fast-check';
import { countCsvRows, csvLines, type CsvLine } from '@satyapan/bulk';

/** The old reader: the whole file decoded and split, blank lines dropped (packages/bulk/src/csv.ts before issue 22). */
function splitWhole(text: string): CsvLine[] {
  const lines: CsvLine[] = [];
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') lines.push({ line: i + 1, text: line });
  });
  return lines;
}

/** The bytes cut at `cuts`, as a stream of chunks. */
function chunked(bytes: Buffer, cuts: number[]): AsyncIterable<Buffer> {
  const points = [...new Set(cuts.map((cut) => Math.min(cut, bytes.length)))].sort((a, b) => a - b);
  const chunks = [0, ...points].map((from, i) => bytes.subarray(from, points[i] ?? bytes.length));
  return (async function* () { yield* chunks; })();
}

async function read(bytes: Buffer, cuts: number[], maxLineBytes: number, skip = 0): Promise<CsvLine[]> {
  const lines: CsvLine[] = [];
  for await (const line of csvLines(chunked(bytes, cuts), maxLineBytes, skip)) lines.push(line);
  return lines;
}

const LINE = fc.array(fc.constantFrom('a', '1', ',', '"', ' ', '\t', '\r', 'é', '\u00a0', '₹'), { maxLength: 12 }).map((chars) => chars.join(''));

describe('bulk: the upload\'s line reader', () => {
  it('gives the lines of the whole-file split, whatever the chunks, and skips the first n of them', async () => {
    await fc.assert(fc.asyncProperty(fc.boolean(), fc.array(LINE, { maxLength: 12 }), fc.array(fc.nat(120), { maxLength: 5 }), fc.nat(14), async (bom, lines, cuts, skip) => {
      const text = `${bom ? '\uFEFF' : ''}${lines.join('\n')}`;
      const expected = splitWhole(text);
      expect(await read(Buffer.from(text), cuts, 1_000)).to.deep.equal(expected);
      expect(await read(Buffer.from(text), cuts, 1_000, skip)).to.deep.equal(expected.slice(skip));
    }), { numRuns: 400 });
  });

  it('reports a line over the limit by its number only, and goes on with the next', async () => {
    const text = `h\n${'x'.repeat(50)}\r\n${'y'.repeat(20)}\r\nz`;
    expect(await read(Buffer.from(text), [7, 30], 20)).to.deep.equal([
      { line: 1, text: 'h' }, { line: 2, tooLong: true }, { line: 3, text: 'y'.repeat(20) }, { line: 4, text: 'z' },
    ]);
  });

  it('counts the rows csvLines gives after the header, whatever the chunks and the line limit, without decoding them', async () => {
    const SPACE_OR_NOT = fc.array(fc.constantFrom('a', ' ', '\t', '\r', '\u00a0', '\ufeff', '\u0001', 'é'), { maxLength: 30 }).map((chars) => chars.join(''));
    await fc.assert(fc.asyncProperty(fc.boolean(), fc.array(fc.oneof(LINE, SPACE_OR_NOT), { maxLength: 14 }), fc.array(fc.nat(200), { maxLength: 6 }), fc.integer({ min: 2, max: 40 }), async (bom, lines, cuts, maxLineBytes) => {
      const bytes = Buffer.from(`${bom ? '\uFEFF' : ''}${lines.join('\n')}`);
      const rows = (await read(bytes, cuts, maxLineBytes, 1)).length;
      expect(await countCsvRows(chunked(bytes, cuts), maxLineBytes)).to.equal(rows);
    }), { numRuns: 600 });
  });

  it('stops counting once past the limit it is given', async () => {
    let chunksRead = 0;
    const many = (async function* () {
      yield Buffer.from('ifsc\n');
      for (let i = 0; i < 1_000; i++) {
        chunksRead++;
        yield Buffer.from('HDFC0000001\n'.repeat(100));
      }
    })();
    expect(await countCsvRows(many, 100, 250)).to.equal(300);
    expect(chunksRead).to.equal(3);
  });
});
