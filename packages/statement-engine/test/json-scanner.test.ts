// The scanner hands table rows over in batches cut out of the input. A batch is cut at the last ']' within
// its size and kept only if JSON.parse accepts it; these rows are made to put a ']' (or '}') everywhere a
// wrong cut could land: inside strings, inside nested cells, at the end of the table. Whatever the chunking,
// the rows handed over are exactly the document's.

import { expect } from 'chai';
import { JsonScanner, JsonSyntaxError, type ScanHandler } from '../src/stream/json-scanner.js';

class Recorder implements ScanHandler {
  tables: unknown[][] = [];
  private current: unknown[] | null = null;
  batches = 0;
  rootValue(): void {}
  sheetStart(): void {}
  sheetValue(): void {}
  sheetEnd(): void {}
  sheetOther(): void {}
  blockStart(): void {}
  blockValue(_key: string, _value: unknown): void {}
  blockEnd(): void {}
  blockOther(): void {}
  rowsStart(): void {
    this.current = [];
  }
  rows(batch: unknown[]): void {
    this.batches++;
    this.current!.push(...batch);
  }
  rowsEnd(): void {
    this.tables.push(this.current!);
    this.current = null;
  }
}

/** Also keeps the blocks' other values (names, headers). */
class ValueRecorder extends Recorder {
  values: unknown[] = [];
  override blockValue(key: string, value: unknown): void {
    this.values.push([key, value]);
  }
}

function scan(text: string, chunkSize: number): ValueRecorder {
  const recorder = new ValueRecorder();
  const scanner = new JsonScanner(recorder);
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += chunkSize) scanner.push(bytes.subarray(i, i + chunkSize));
  scanner.end();
  return recorder;
}

function workbook(tables: unknown[][], space?: number): string {
  return JSON.stringify(
    { name: 'w', '@entity': 'workbook', sheets: [{ name: 's', '@entity': 'sheet', blocks: tables.map((rows, i) => ({ name: `t${i}`, '@entity': 'table', header: ['a', 'b'], rows })) }] },
    null,
    space,
  );
}

/** Rows whose strings and cells hold the bytes a batch may be cut at. */
function trickyRows(count: number): unknown[] {
  const rows: unknown[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 8) {
      case 0:
        rows.push([i, `name ${i}`, 'x'.repeat(i % 50)]);
        break;
      case 1:
        rows.push([i, 'ends with a bracket]']);
        break;
      case 2:
        rows.push([i, '],[', '"]', '\\]', ']]]}']);
        break;
      case 3:
        rows.push([i, [1, [2, ']'], 3], { k: ']' }]); // nested cells (the reader refuses them, the scanner keeps them)
        break;
      case 4:
        rows.push({ a: i, b: '}' }); // a row that is an object
        break;
      case 5:
        rows.push([i, 'ü ∑ 😀]', null, true, -1.5e3]);
        break;
      case 6:
        rows.push(i); // a scalar row
        break;
      default:
        rows.push([]);
    }
  }
  return rows;
}

describe('JSON scanner: batches of rows', () => {
  // More than one 64 KiB batch per table, so that cuts land inside rows.
  const tables = [trickyRows(6000), trickyRows(7), [], trickyRows(4000)];

  for (const space of [undefined, 1]) {
    for (const chunkSize of [1, 7, 1000, 65536, 1 << 20]) {
      it(`hands over exactly the document's rows (${space ? 'indented' : 'compact'}, ${chunkSize}-byte chunks)`, function () {
        if (chunkSize === 1 && space) this.timeout(60000);
        const text = workbook(tables, space);
        const seen = scan(text, chunkSize);
        expect(seen.tables).to.deep.equal(tables);
      });
    }
  }

  it('keeps no chunk once push() returns: a caller that refills one buffer for every chunk gets the same rows and values', () => {
    const text = workbook(tables, 1);
    const bytes = Buffer.from(text, 'utf8');
    for (const chunkSize of [1, 7, 1000, 65536, 1 << 20]) {
      const recorder = new ValueRecorder();
      const scanner = new JsonScanner(recorder);
      const reused = Buffer.alloc(chunkSize);
      for (let i = 0; i < bytes.length; i += chunkSize) {
        const n = bytes.copy(reused, 0, i, i + chunkSize);
        scanner.push(reused.subarray(0, n));
        // Bytes that would break any row or string still read from this chunk.
        reused.fill(0x5d);
      }
      scanner.end();
      expect(recorder.tables, `chunks of ${chunkSize}`).to.deep.equal(tables);
      expect(recorder.values, `chunks of ${chunkSize}`).to.deep.equal(scan(text, 1 << 30).values);
    }
  });

  it('cuts big tables into several batches', () => {
    const seen = scan(workbook([trickyRows(20000)]), 1 << 20);
    expect(seen.batches).to.be.greaterThan(5);
    expect(seen.tables[0]).to.have.length(20000);
  });

  for (const [what, bad] of [
    ['a trailing comma', '[1, 2,]'],
    ['an unterminated string', '[1, "unterminated ]'],
    ['a bare word', '[1, nope]'],
  ] as const) {
    it(`a row with ${what} is a syntax error, wherever the batch is cut`, () => {
      const rows = trickyRows(3000).map((r) => JSON.stringify(r));
      rows[2500] = bad;
      const text = `{"name":"w","sheets":[{"name":"s","blocks":[{"name":"t","header":["a"],"rows":[${rows.join(',')}]}]}]}`;
      const at = Buffer.from(text, 'utf8').indexOf(bad); // a byte offset, like the error's
      for (const chunkSize of [5, 4096, 1 << 20]) {
        let error: unknown = null;
        try {
          scan(text, chunkSize);
        } catch (e) {
          error = e;
        }
        expect(error, `chunks of ${chunkSize}`).to.be.instanceOf(JsonSyntaxError);
        // Reported at the start of the batch that holds the bad row, or (a string that swallows the bytes
        // after it) where the scanner finds the rows broken: never in the rows before the batch.
        expect((error as JsonSyntaxError).offset).to.be.greaterThan(at - 70000);
        if (bad !== '[1, "unterminated ]') expect((error as JsonSyntaxError).offset).to.be.at.most(at);
      }
    });
  }
});
