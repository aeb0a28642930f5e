// Deductee records written in a worker thread (hooks.parallel, the default for big inputs): the same TXT,
// report and self-check as in one thread; the calls cross the shared tape exactly; and a conversion that
// fails or breaks off leaves no thread, descriptor or file behind.

import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, convertFile, convertStream, type ConvertOptions } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { deducteeCheckFor, deducteeLayoutKey } from '../src/layouts/field-check.js';
import { deducteeFieldCount } from '../src/records/deductee.js';
import type { FieldWriter } from '../src/records/field-writer.js';
import { CACHED_FIELDS, KEPT_MAX_CHARS, PIECE_CHARS, TABLE_ENTRIES, TAPE_SLOTS, TapeReader, TapeStopped, TapeWriter, WAITING, WAKE, entryOf, tapeMemory } from '../src/stream/field-tape.js';
import { SpillDirectory, SpilledDeducteeStore } from '../src/stream/spill.js';
import { WorkerDeducteeStore } from '../src/stream/worker-deductees.js';
import { baseline, BASELINE_NAMES } from './support/baselines.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook } from './support/sheet-json.js';
import { chunks, readAll, written } from './support/streaming.js';

// Linux: what the process holds open, and its threads.
const openFds = () => readdirSync('/proc/self/fd').length;
const threads = () => readdirSync('/proc/self/task').length;

/** A workbook of `rows` payment rows (all under the fixture's challans, so the totals stay right). */
function bigWorkbookText(rows: number): string {
  const parts = form26qParts();
  for (let i = 0; i < rows; i++) parts.payments.push({ ...parts.payments[1]!, payment_amount: 1000 + i, tds_amount: 0, payee_sr_no: 1 + (i % 2) * 3 });
  return JSON.stringify(buildWorkbook(parts));
}

/** Every call a writer receives, values as given (so that NaN, -0 and the like can be compared). */
class CallLog implements FieldWriter {
  readonly calls: unknown[][] = [];
  text(n: number, value: string): void {
    this.calls.push(['text', n, value]);
  }
  int(n: number, value: number): void {
    this.calls.push(['int', n, value]);
  }
  paise(n: number, value: number | null): void {
    this.calls.push(['paise', n, value]);
  }
  rate(n: number, value: number): void {
    this.calls.push(['rate', n, value]);
  }
  date(n: number, value: number | null): void {
    this.calls.push(['date', n, value]);
  }
  end(): void {
    this.calls.push(['end']);
  }
}

describe('deductee records written in a worker thread', () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-parallel-test-'));
    // libuv starts its whole thread pool at the process's first asynchronous file operation: have that happen
    // now, so that the thread counts below see only the conversion's own worker come and go.
    await stat(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of BASELINE_NAMES) {
    const { title, parts, options } = baseline(name);
    it(`${title}: the same report, lines and written TXT as convert()`, async () => {
      const workbook = buildWorkbook(parts);
      const path = join(dir, `${title.replace(/\s/g, '')}.json`);
      writeFileSync(path, JSON.stringify(workbook));
      const expected = convert(workbook, options);
      const conversion = await convertFile(path, options, { parallel: true });
      expect(conversion.report).to.deep.equal(expected.report);
      expect(await readAll(conversion)).to.equal(expected.txt);
      if (expected.txt) expect(await written(await convertFile(path, options, { parallel: true, memoryBudget: 300 }))).to.equal(expected.txt);
    });
  }

  it('many rows through a small budget: the same TXT as in one thread, and the thread is gone afterwards', async () => {
    const text = bigWorkbookText(20000);
    const alone = await written(await convertStream(chunks(text, 65536), OPTIONS_26Q, { parallel: false }));
    const before = threads();
    const conversion = await convertStream(chunks(text, 65536), OPTIONS_26Q, { parallel: true, memoryBudget: 50000 });
    expect(threads()).to.equal(before);
    expect(await written(conversion)).to.equal(alone);
  });

  it('the tape carries every call exactly: long and non-ASCII texts, repeated texts, odd numbers, round the ring', () => {
    const memory = tapeMemory();
    const tape = new TapeWriter(memory);
    const log = new CallLog();
    const reader = new TapeReader(memory, (challan) => {
      log.calls.push(['record', challan]);
      return log;
    });
    const expected: unknown[][] = [];
    // Longer than two calls' worth of characters, with a character beyond Latin-1 and a lone surrogate.
    const long = `${'é'.repeat(PIECE_CHARS + 500)}\u{1F600}\ud800x${'a'.repeat(PIECE_CHARS + 200)}`;
    const texts = ['DD', long, '', 'O'];
    const numbers = [0, -0, Number.NaN, Infinity, -1.5, 2 ** 53 + 2, 1e300];
    // Field 2 changes text every record, field 9 every third (else the same again); field 13 and a field beyond
    // those whose last text is kept take a new text every record.
    let slots = 0;
    for (let r = 0; slots < 4 * TAPE_SLOTS; r++) {
      tape.record(r % 7);
      expected.push(['record', r % 7]);
      const unique = `payee ${r}`;
      for (const [n, value] of [[2, texts[r % 4]!], [9, texts[Math.floor(r / 3) % 4]!], [13, unique], [CACHED_FIELDS + 5, unique]] as const) {
        tape.text(n, value);
        if (value !== '') expected.push(['text', n, value]);
      }
      const x = numbers[r % numbers.length]!;
      tape.int(4, x);
      tape.paise(14, r % 3 === 0 ? null : x);
      tape.rate(26, x);
      tape.date(23, r % 5 === 0 ? null : x);
      expected.push(['int', 4, x]);
      if (r % 3 !== 0) expected.push(['paise', 14, x]);
      expected.push(['rate', 26, x]);
      // An empty value is no call: the writers leave the field empty either way.
      if (r % 5 !== 0 && x !== 0) expected.push(['date', 23, x]);
      tape.end();
      expected.push(['end']);
      slots += 50;
      // One thread here: replay before the ring can fill (the writer would wait for a worker).
      if (r % 20 === 19) {
        tape.publish();
        reader.replay();
      }
    }
    tape.publish();
    reader.replay();
    expect(log.calls.length).to.equal(expected.length);
    // deep.equal tells -0 from 0 and takes NaN as NaN.
    expect(log.calls).to.deep.equal(expected);
  });

  it('a publication wakes the worker only while it waits for one, and the one it waits for does wake it', async () => {
    const memory = tapeMemory();
    const control = new Int32Array(memory.control);
    const tape = new TapeWriter(memory);
    const log = new CallLog();
    const reader = new TapeReader(memory, () => log);
    const publishRecord = () => {
      tape.record(1).text(2, 'DD');
      tape.end();
      tape.publish();
    };
    // A busy worker (not waiting) is not notified: it finds the calls when it looks again.
    publishRecord();
    expect(Atomics.load(control, WAKE)).to.equal(0);
    expect(reader.replay()).to.equal(true);
    // A waiting one says so, and the next publication wakes it.
    const woken = reader.published();
    expect(Atomics.load(control, WAITING)).to.equal(1);
    publishRecord();
    expect(Atomics.load(control, WAKE)).to.equal(1);
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([woken.then(() => 'woken'), new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting'), 2000)))]);
    clearTimeout(timer);
    expect(outcome).to.equal('woken');
    expect(Atomics.load(control, WAITING)).to.equal(0);
    expect(reader.replay()).to.equal(true);
    // Calls published before it looks: it does not wait at all.
    publishRecord();
    await reader.published();
    expect(Atomics.load(control, WAITING)).to.equal(0);
    expect(reader.replay()).to.equal(true);
    expect(log.calls).to.deep.equal([0, 1, 2].flatMap(() => [['text', 2, 'DD'], ['end']]));
  });

  it('a worker that never started is given up on within its start time, once the ring is full: TapeStopped, not a minute of waiting', () => {
    const tape = new TapeWriter(tapeMemory(), 300);
    const started = Date.now();
    let error: unknown = null;
    try {
      // Distinct texts, a character per slot: the 2 MiB ring fills after some thousands of records.
      for (let r = 0; r < TAPE_SLOTS; r++) tape.record(1).text(100 + (r % 20), `${r}`.padStart(40, 'x'));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).to.be.instanceOf(TapeStopped);
    expect((error as Error).message).to.equal('the deductee record writer stopped: it did not start within 0.3 s');
    expect(Date.now() - started).to.be.below(5_000);
  });

  it('texts kept in the tables cross exactly: texts taking turns, texts of the same entry or key replacing each other, a text just too long to keep', () => {
    const memory = tapeMemory();
    const tape = new TapeWriter(memory);
    const log = new CallLog();
    const reader = new TapeReader(memory, () => log);
    // Two texts of the same table entry, found the way the tape finds it.
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i++) {
      const text = `P${i}`;
      const other = seen.get(entryOf(text));
      if (other !== undefined) pair = [other, text];
      else seen.set(entryOf(text), text);
    }
    const long = 'x'.repeat(KEPT_MAX_CHARS + 1);
    const turns = ['AAAPA1234A', 'BBBPB1234B', pair[0], pair[1], pair[0], long, 'AAAPA1234A', long.slice(1), long, 'BBBPB1234B'];
    const expected: unknown[][] = [];
    for (let r = 0; r < 3000; r++) {
      tape.record(1);
      for (const n of [10, 13, 33]) {
        const value = turns[(r * (n === 10 ? 1 : 3)) % turns.length]!;
        // Field 33 with a key: one that takes turns with the texts, one shared by every text, odd numbers.
        if (n !== 33) tape.text(n, value);
        else tape.text(n, value, [r % 7, 5, -1, 2.5, Number.NaN, 2 ** 40, TABLE_ENTRIES + (r % 3)][r % 7]);
        expected.push(['text', n, value]);
      }
      tape.end();
      expected.push(['end']);
    }
    tape.publish();
    reader.replay();
    expect(log.calls).to.deep.equal(expected);
  });

  it('writeTo() removes the temporary files before it resolves, whether it writes a file, a stream, or fails', async () => {
    const text = bigWorkbookText(3000);
    const input = join(dir, 'cleanup.json');
    writeFileSync(input, text);
    const expected = await written(await convertFile(input, OPTIONS_26Q, { parallel: false }));
    for (const parallel of [false, true]) {
      const tmpDir = mkdtempSync(join(dir, 'tmp-'));
      const output = join(dir, `cleanup-${parallel}.txt`);
      await (await convertFile(input, OPTIONS_26Q, { parallel, tmpDir })).writeTo(output);
      expect(readdirSync(tmpDir), 'after writing a file').to.deep.equal([]);
      expect(readFileSync(output, 'latin1')).to.equal(expected);
      const conversion = await convertFile(input, OPTIONS_26Q, { parallel, tmpDir });
      expect(await written(conversion)).to.equal(expected);
      expect(readdirSync(tmpDir), 'after writing a stream').to.deep.equal([]);
      await conversion.dispose();
      const failing = await convertFile(input, OPTIONS_26Q, { parallel, tmpDir });
      let error: unknown = null;
      await failing.writeTo(join(dir, 'no-such-directory', 'out.txt')).catch((e: unknown) => (error = e));
      expect(error).to.be.instanceOf(Error);
      expect(readdirSync(tmpDir), 'after a failed write').to.deep.equal([]);
    }
  });

  it("a mismatch the worker's self-check finds is raised by this thread as in one thread", async () => {
    const resolved = resolveOptions(OPTIONS_26Q);
    const count = deducteeFieldCount(resolved.form.family);
    const raised: string[] = [];
    for (const parallel of [false, true]) {
      const spill = new SpillDirectory(dir);
      const check = deducteeCheckFor(resolved);
      const store = parallel ? new WorkerDeducteeStore(spill, count, undefined, deducteeLayoutKey(resolved), check) : new SpilledDeducteeStore(spill, count, undefined, check);
      const w = store.record(1);
      w.text(2, 'DD');
      w.text(3, '1');
      w.int(4, 1);
      w.int(5, 7); // the running number is 1
      w.end();
      store.seal();
      await store.settled();
      expect([...store.raw(1)].map((b) => b.toString('latin1'))).to.deep.equal(['DD^1^1^7'.padEnd(8 + count - 5, '^') + '\n']);
      try {
        check.raise([{ record: 1, deductees: 1 }]);
      } catch (error) {
        raised.push((error as Error).message);
      }
      store.close();
      spill.dispose();
    }
    expect(raised).to.have.length(2);
    expect(raised[0]).to.match(/running number 7, expected 1/);
    expect(raised[1]).to.equal(raised[0]);
  });

  it('a worker that fails (its spill directory gone): the same error as in one thread, and no thread, descriptor or file left', async () => {
    const text = bigWorkbookText(40000);
    // The payment rows start after the payee and challan tables: the spill directory goes just before them.
    const cut = text.indexOf('"payment_sheet"');
    const outcomes: Array<{ code: unknown; syscall: unknown }> = [];
    await convertStream(chunks(text, 65536), OPTIONS_26Q, { parallel: true }).then((c) => c.dispose()); // the thread pool, started
    const fds = openFds();
    const before = threads();
    for (const parallel of [false, true]) {
      const tmp = join(dir, `gone-${parallel}`);
      mkdirSync(tmp);
      async function* input(): AsyncGenerator<Buffer> {
        yield Buffer.from(text.slice(0, cut));
        for (const d of readdirSync(tmp)) rmSync(join(tmp, d), { recursive: true });
        yield* chunks(text.slice(cut), 65536);
      }
      const options: ConvertOptions = OPTIONS_26Q;
      const error = await convertStream(input(), options, { parallel, memoryBudget: 20000, tmpDir: tmp }).then(
        () => null,
        (e: NodeJS.ErrnoException) => e,
      );
      expect(error, `parallel ${parallel}`).to.be.instanceOf(Error);
      outcomes.push({ code: error!.code, syscall: error!.syscall });
      expect(readdirSync(tmp)).to.deep.equal([]);
    }
    expect(outcomes[0]).to.deep.equal({ code: 'ENOENT', syscall: 'open' });
    expect(outcomes[1]).to.deep.equal(outcomes[0]);
    expect(threads()).to.equal(before);
    for (let i = 0; i < 50 && openFds() > fds; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openFds()).to.equal(fds);
  });

  it('a conversion that breaks off mid-file stops the worker: INVALID_JSON, and no thread, descriptor or file left', async () => {
    const text = bigWorkbookText(20000);
    const tmp = join(dir, 'broken');
    mkdirSync(tmp);
    const fds = openFds();
    const before = threads();
    const conversion = await convertStream(chunks(`${text.slice(0, text.length - 300)}}}}`, 8192), OPTIONS_26Q, { parallel: true, memoryBudget: 20000, tmpDir: tmp });
    expect(conversion.report.problems.map((p) => p.code)).to.deep.equal(['INVALID_JSON']);
    expect(threads()).to.equal(before);
    expect(readdirSync(tmp)).to.deep.equal([]);
    for (let i = 0; i < 50 && openFds() > fds; i++) await new Promise((r) => setTimeout(r, 10));
    expect(openFds()).to.equal(fds);
  });
});
