// The .xlsx reader tells the streaming conversion what a workbook holds directly (readXlsxInto), as the JSON
// scanner tells it reading the workbook's Sheet JSON text; the worker thread and readXlsxWorkbook() write
// that text (SheetJsonWriter). Both must tell the same: the events of the reader and the events of the
// scanner over the writer's text are compared here, on workbooks with every kind of block, blank rows,
// a table without its header row, an empty worksheet and dates.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSheetJsonXlsx } from '../src/index.js';
import { JsonScanner, type ScanHandler } from '../src/stream/json-scanner.js';
import { CellMap, readXlsxInto } from '../src/xlsx/read.js';
import { SheetJsonWriter } from '../src/xlsx/sheet-json-writer.js';
import { baseline, BASELINE_NAMES } from './support/baselines.js';
import { miniXlsx } from './support/mini-xlsx.js';
import { buildWorkbook } from './support/sheet-json.js';

type Event = [string, ...unknown[]];

/** Every event, a table's rows one by one (how they are batched is not what the reader tells). */
class Recorder implements ScanHandler {
  readonly events: Event[] = [];
  rootValue(key: string | null, value: unknown) { this.events.push(['rootValue', key, value]); }
  sheetStart() { this.events.push(['sheetStart']); }
  sheetValue(key: string, value: unknown) { this.events.push(['sheetValue', key, value]); }
  sheetEnd() { this.events.push(['sheetEnd']); }
  sheetOther(value: unknown) { this.events.push(['sheetOther', value]); }
  blockStart() { this.events.push(['blockStart']); }
  blockValue(key: string, value: unknown) { this.events.push(['blockValue', key, value]); }
  blockEnd() { this.events.push(['blockEnd']); }
  blockOther(value: unknown) { this.events.push(['blockOther', value]); }
  rowsStart() { this.events.push(['rowsStart']); }
  rows(batch: unknown[]) { for (const row of batch) this.events.push(['row', row]); }
  rowsEnd() { this.events.push(['rowsEnd']); }
}

/** Both handlers told by one read: the recorder directly, the writer for its text. */
function both(recorder: Recorder, writer: SheetJsonWriter): ScanHandler {
  const handler = {} as Record<string, (...args: unknown[]) => void>;
  for (const name of Object.getOwnPropertyNames(Recorder.prototype)) {
    if (name === 'constructor') continue;
    handler[name] = (...args: unknown[]) => {
      (recorder as unknown as Record<string, (...a: unknown[]) => void>)[name]!(...args);
      (writer as unknown as Record<string, (...a: unknown[]) => void>)[name]!(...args);
    };
  }
  return handler as unknown as ScanHandler;
}

async function compare(path: string): Promise<Event[]> {
  const direct = new Recorder();
  const writer = new SheetJsonWriter();
  let text = '';
  for await (const _bytesRead of readXlsxInto(path, both(direct, writer), new CellMap())) text += writer.take();
  writer.end();
  text += writer.take();
  const scanned = new Recorder();
  const scanner = new JsonScanner(scanned);
  // In pieces, as the worker hands the text over.
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += 4096) scanner.push(bytes.subarray(at, at + 4096));
  scanner.end();
  expect(scanned.events).to.deep.equal(direct.events);
  return direct.events;
}

describe('Excel workbooks: the reader and the text it writes tell the same', function () {
  this.timeout(60000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'engine-xlsx-events-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("every form's baseline workbook (lists, tables, dates as Excel dates)", async () => {
    for (const name of BASELINE_NAMES) {
      const path = join(dir, `baseline-${name}.xlsx`);
      await writeSheetJsonXlsx(buildWorkbook(baseline(name).parts), path);
      const events = await compare(path);
      expect(events.filter(([kind]) => kind === 'row').length, name).to.be.greaterThan(0);
      expect(events.at(-1), name).to.deep.equal(['rootValue', 'name', (buildWorkbook(baseline(name).parts) as { name: string }).name]);
    }
  });

  it('blank rows inside blocks, a table without its header row, an empty worksheet, numbers that JSON cannot write as they are', async () => {
    const path = join(dir, 'shapes.xlsx');
    writeFileSync(
      path,
      miniXlsx(
        [
          ['workbook', [['name', 'shapes']]],
          [
            'blocks_sheet',
            [
              ['first_table', 'table'],
              ['n', 'text', 'when_epoch'],
              [1, 'one', 45931],
              [],
              [{ raw: '<v>-0</v>' }, 'two "quoted" \\ é', null],
              [],
              ['other_list', 'list'],
              ['key', 'value'],
              [],
              ['more', 2],
              [],
              ['headless_table', 'table'],
            ],
          ],
          ['empty_sheet', []],
        ],
        { order: 'metadata-first', strings: 'shared' },
      ),
    );
    const events = await compare(path);
    expect(events).to.deep.include(['row', [0, 'two "quoted" \\ é', null]]);
    expect(events).to.deep.include(['blockValue', 'header', []]);
    expect(events).to.deep.include(['blockValue', 'items', [['key', 'value'], ['more', 2]]]);
    // The empty worksheet: its name, and no block.
    const empty = events.findIndex((e) => e[0] === 'sheetValue' && e[2] === 'empty_sheet');
    expect(events.slice(empty + 1, empty + 3)).to.deep.equal([['sheetValue', '@entity', 'sheet'], ['sheetEnd']]);
  });
});
