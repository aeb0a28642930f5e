// Temporary files for records that wait until the file can be written, so memory does not grow with the
// number of rows. Writes are buffered and synchronous (the stores' interfaces are synchronous); each store
// keeps one file descriptor.

import { close as closeAsync, closeSync, mkdtempSync, openSync, readSync, rmSync, write as writeAsync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeducteeStore, LateRows, SalaryStore } from '../assembly/stores.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import type { RecordFieldCheck } from '../layouts/field-check.js';
import { ByteFieldWriter, MAX_RECORD_BYTES, type FieldWriter } from '../records/field-writer.js';

/** A private temporary directory, removed by dispose(). */
export class SpillDirectory {
  readonly path: string;
  private disposed = false;

  constructor(parent: string = tmpdir()) {
    this.path = mkdtempSync(join(parent, 'satyapan-statement-'));
  }

  file(name: string): string {
    return join(this.path, name);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    rmSync(this.path, { recursive: true, force: true });
  }

  /** dispose() off this thread (freeing the blocks of big files takes a while): resolves once the directory is gone. */
  async disposeInBackground(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await rm(this.path, { recursive: true, force: true });
  }
}

export interface Segment {
  offset: number;
  length: number;
}

/** One file of line-separated text; readers get the lines of given segments back. */
class SegmentFile {
  private fd: number | null = null;
  private size = 0;
  /** Asynchronous writes not finished yet; the descriptor is closed only when there are none. */
  private writing = 0;
  private closing = false;
  private failure: Error | null = null;
  private idle: Array<() => void> = [];

  constructor(private readonly path: string) {}

  /** A file written elsewhere (a worker thread's store), opened to read its segments back. */
  static reading(path: string): SegmentFile {
    const file = new SegmentFile(path);
    file.fd = openSync(path, 'r');
    return file;
  }

  /**
   * Writes `data` at the end of the file in the background (the thread pool does the copy while the rows
   * are read on); `done` is called once it is written, even when the write failed (settled() then throws).
   * The caller leaves `data` alone until then.
   */
  writeInBackground(data: Buffer, done: () => void): Segment {
    this.fd ??= openSync(this.path, 'w+');
    const fd = this.fd;
    const segment = { offset: this.size, length: data.length };
    this.size += data.length;
    this.writing++;
    const step = (written: number): void => {
      writeAsync(fd, data, written, data.length - written, segment.offset + written, (error, n) => {
        if (!error && written + n < data.length) return step(written + n);
        if (error) this.failure ??= error;
        this.writing--;
        done();
        if (this.writing === 0) this.wentIdle();
      });
    };
    step(0);
    return segment;
  }

  /** Resolves once the background writes are done; rejects with the first one that failed. */
  settled(): Promise<void> {
    if (this.writing === 0) return this.failure ? Promise.reject(this.failure) : Promise.resolve();
    return new Promise((resolve, reject) => this.idle.push(() => (this.failure ? reject(this.failure) : resolve())));
  }

  private wentIdle(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const w of waiting) w();
    if (this.closing && this.fd !== null) {
      closeAsync(this.fd, () => undefined);
      this.fd = null;
    }
  }

  write(text: string): Segment {
    return this.writeBytes(Buffer.from(text, 'utf8'));
  }

  writeBytes(data: Buffer): Segment {
    this.fd ??= openSync(this.path, 'w+');
    let written = 0;
    while (written < data.length) written += writeSync(this.fd, data, written, data.length - written, this.size + written);
    const segment = { offset: this.size, length: data.length };
    this.size += data.length;
    return segment;
  }

  /** Reads up to `length` bytes at file offset `position` into the start of `buffer`; returns how many. */
  readInto(buffer: Buffer, length: number, position: number): number {
    if (this.fd === null) return 0;
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buffer, got, length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    return got;
  }

  /** The raw bytes of a segment, in chunks that end at a newline ('\n'-terminated lines). */
  *chunks(segment: Segment, chunkSize = 1 << 20): Generator<Buffer> {
    if (this.fd === null || segment.length === 0) return;
    let done = 0;
    let pending: Buffer | null = null;
    while (done < segment.length) {
      const size = Math.min(chunkSize, segment.length - done);
      const buffer = Buffer.allocUnsafe(size);
      const got = readSync(this.fd, buffer, 0, size, segment.offset + done);
      if (got === 0) break;
      done += got;
      const bytes: Buffer = pending ? Buffer.concat([pending, buffer.subarray(0, got)]) : buffer.subarray(0, got);
      const lastNewline = bytes.lastIndexOf(10);
      if (lastNewline < 0) {
        pending = bytes;
        continue;
      }
      yield bytes.subarray(0, lastNewline + 1);
      pending = lastNewline + 1 < bytes.length ? bytes.subarray(lastNewline + 1) : null;
    }
    if (pending) yield pending;
  }

  /** Lines of a segment (each line was written with a trailing '\n'). */
  *lines(segment: Segment, chunkSize = 1 << 20): Generator<string> {
    if (this.fd === null || segment.length === 0) return;
    const buffer = Buffer.allocUnsafe(Math.min(chunkSize, segment.length));
    let pending: Buffer = Buffer.alloc(0);
    let done = 0;
    while (done < segment.length) {
      const got = readSync(this.fd, buffer, 0, Math.min(buffer.length, segment.length - done), segment.offset + done);
      if (got === 0) break;
      done += got;
      // Decode only up to the last newline, so a multi-byte character is never cut in two.
      const bytes = pending.length > 0 ? Buffer.concat([pending, buffer.subarray(0, got)]) : buffer.subarray(0, got);
      const lastNewline = bytes.lastIndexOf(10);
      if (lastNewline < 0) {
        pending = Buffer.from(bytes);
        continue;
      }
      const text = bytes.toString('utf8', 0, lastNewline);
      pending = Buffer.from(bytes.subarray(lastNewline + 1));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        yield text.slice(start, nl);
        start = nl + 1;
      }
      yield text.slice(start);
    }
    if (pending.length > 0) yield pending.toString('utf8');
  }

  /** Closes the descriptor, once the background writes are done (its number must not be reused before). */
  close(): void {
    if (this.writing > 0) {
      this.closing = true;
      return;
    }
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The file of a SpilledDeducteeStore in its directory. */
export const DEDUCTEE_SPILL_FILE = 'deductees.txt';

/** Where the DD records wait, grouped by challan, until the TXT is written: in this thread or in a worker. */
export interface DeducteeSpill extends DeducteeStore {
  /** No more records: the last ones are written out too. */
  seal(): void;
  /** Resolves once every record is in the file (after seal(), before reading); rejects if writing failed. */
  settled(): Promise<void>;
  raw(challanRecord: number): Iterable<Buffer>;
  bodies(challanRecord: number): Iterable<string>;
  close(): void;
  /**
   * A conversion that breaks off: stops writing; resolves once no thread of its own is left, with the error
   * writing failed with, if any (the reason a conversion broke off may be that failure).
   */
  abandon(): Promise<Error | null>;
}

/** Default budget for record text held in memory before it is flushed to the file. */
export const DEFAULT_MEMORY_BUDGET = 4 * 1024 * 1024;
/** Sorted blocks of DD records being written in the background at most (each the size of the record buffer). */
const MAX_SORT_BUFFERS = 2;

/**
 * DD records grouped by challan, with bounded memory whatever the number of challans. Records are written
 * as bytes straight into one buffer in arrival order (no string per record), each tagged with its challan.
 * When the buffer is full it is sorted by challan (a counting sort, stable) into a second buffer and written
 * in the background as one block of the file (up to two blocks in flight, so memory holds at most three
 * buffers of half the budget); each challan then owns one segment of that block. Reading a challan
 * replays its segments in order, then its records still in the buffer.
 *
 * Reading: challans are read one after the other, and within a block their segments follow each other, so
 * each block has a read-ahead window: reading the challans in order reads every block front to back in a
 * few large reads, not one small read per challan and block.
 */
export class SpilledDeducteeStore implements DeducteeSpill {
  private readonly file: SegmentFile;
  /**
   * One allocation: the record buffer first, then MAX_SORT_BUFFERS sort areas of the same size, so that
   * sorting is copyWithin() inside it (one builtin call per record, no view object per copy).
   */
  private readonly arena: Buffer;
  private readonly buffer: Buffer;
  /** Sort areas (1..MAX_SORT_BUFFERS) not being written; a flush takes one. */
  private readonly spare: number[] = [];
  private used = 0;
  /** Per buffered record: its challan and where it starts. */
  private challanOf = new Int32Array(1024);
  private startOf = new Int32Array(1024);
  private count = 0;
  /** Per challan: its segments (block index, offset in the file, length), three numbers each. */
  private readonly segments = new Map<number, number[]>();
  /** The blocks written by flush(): where each starts and ends in the file. */
  private readonly blocks: Segment[] = [];
  /** Reads the records back once they are all written. */
  private reader: DeducteeSpillReader | null = null;
  /** Per challan, reused by each flush: bytes buffered, then where its records go in the sorted buffer. */
  private bytesOf = new Int32Array(1024);
  private nextOf = new Int32Array(1024);
  private readonly writer: ByteFieldWriter;

  /**
   * @param fieldCount fields of a DD record in the statement's family
   * @param budget twice the bytes of records held before they are sorted and written (see above); the
   *   read-ahead windows share the same budget when the records are read back
   * @param check the layout self-check of each record as it is written
   */
  constructor(
    dir: Pick<SpillDirectory, 'file'>,
    private readonly fieldCount: number,
    private readonly budget = DEFAULT_MEMORY_BUDGET,
    private readonly check: RecordFieldCheck | null = null,
  ) {
    this.writer = new ByteFieldWriter((end) => (this.used = end), check);
    this.file = new SegmentFile(dir.file(DEDUCTEE_SPILL_FILE));
    const size = Math.max(2 * MAX_RECORD_BYTES, Math.floor(budget / 2));
    this.arena = Buffer.allocUnsafeSlow(size * (1 + MAX_SORT_BUFFERS));
    this.buffer = this.arena.subarray(0, size);
    for (let area = MAX_SORT_BUFFERS; area >= 1; area--) this.spare.push(area);
  }

  record(challanRecord: number): FieldWriter {
    if (this.used + MAX_RECORD_BYTES > this.buffer.length) this.flush();
    if (this.count === this.challanOf.length) this.grow();
    this.challanOf[this.count] = challanRecord;
    this.startOf[this.count] = this.used;
    this.count++;
    this.check?.start(challanRecord);
    return this.writer.start(this.buffer, this.used, this.fieldCount);
  }

  private grow(): void {
    const challans = new Int32Array(this.challanOf.length * 2);
    challans.set(this.challanOf);
    const starts = new Int32Array(this.startOf.length * 2);
    starts.set(this.startOf);
    this.challanOf = challans;
    this.startOf = starts;
  }

  /**
   * Sorts the buffered records by challan into `sorted` (challan record numbers are small whole numbers,
   * dense from 1: the counts are arrays indexed by them), writes it as one block, and records each
   * challan's segment.
   */
  private flush(): void {
    const count = this.count;
    if (count === 0) return;
    const challanOf = this.challanOf;
    const startOf = this.startOf;
    let highest = 0;
    for (let i = 0; i < count; i++) if (challanOf[i]! > highest) highest = challanOf[i]!;
    if (highest >= this.bytesOf.length) {
      this.bytesOf = new Int32Array(Math.max(highest + 1, this.bytesOf.length * 2));
      this.nextOf = new Int32Array(this.bytesOf.length);
    }
    const bytesOf = this.bytesOf;
    const nextOf = this.nextOf;
    bytesOf.fill(0, 0, highest + 1);
    for (let i = 0; i < count; i++) {
      const end = i + 1 < count ? startOf[i + 1]! : this.used;
      const c = challanOf[i]!;
      bytesOf[c] = bytesOf[c]! + end - startOf[i]!;
    }
    let offset = 0;
    for (let c = 0; c <= highest; c++) {
      nextOf[c] = offset;
      offset += bytesOf[c]!;
    }
    // The sorted block is written in the background; its area comes back to `spare` when that is done. With
    // every area in flight (the disk is slower than the rows), the block is sorted into a temporary buffer and
    // written at once instead.
    const area = this.spare.pop();
    let bytes: Buffer;
    if (area !== undefined) {
      const arena = this.arena;
      const base = area * this.buffer.length;
      for (let i = 0; i < count; i++) {
        const start = startOf[i]!;
        const end = i + 1 < count ? startOf[i + 1]! : this.used;
        const c = challanOf[i]!;
        arena.copyWithin(base + nextOf[c]!, start, end);
        nextOf[c] = nextOf[c]! + end - start;
      }
      bytes = arena.subarray(base, base + this.used);
    } else {
      bytes = Buffer.allocUnsafe(this.used);
      for (let i = 0; i < count; i++) {
        const start = startOf[i]!;
        const end = i + 1 < count ? startOf[i + 1]! : this.used;
        const c = challanOf[i]!;
        this.buffer.copy(bytes, nextOf[c]!, start, end);
        nextOf[c] = nextOf[c]! + end - start;
      }
    }
    const written = area !== undefined ? this.file.writeInBackground(bytes, () => this.spare.push(area)) : this.file.writeBytes(bytes);
    const block = this.blocks.push(written) - 1;
    for (let c = 0; c <= highest; c++) {
      const length = bytesOf[c]!;
      if (length === 0) continue;
      let segs = this.segments.get(c);
      if (!segs) {
        segs = [];
        this.segments.set(c, segs);
      }
      // nextOf[c] is now the end of the challan's records in the block.
      segs.push(block, written.offset + nextOf[c]! - length, length);
    }
    this.used = 0;
    this.count = 0;
  }

  /** Records of one challan still in the buffer, as one newline-terminated chunk (a copy). */
  private buffered(challanRecord: number): Buffer | null {
    const parts: Buffer[] = [];
    for (let i = 0; i < this.count; i++) {
      if (this.challanOf[i] !== challanRecord) continue;
      const end = i + 1 < this.count ? this.startOf[i + 1]! : this.used;
      parts.push(this.buffer.subarray(this.startOf[i]!, end));
    }
    return parts.length > 0 ? Buffer.concat(parts) : null;
  }

  /**
   * Ends the writing phase: the buffered records are sorted and written too, so that reading a challan is
   * one pass over its segments.
   */
  seal(): void {
    this.flush();
  }

  /** Resolves once every record is in the file (call after seal(), before reading); rejects if a write failed. */
  settled(): Promise<void> {
    return this.file.settled();
  }

  /** Where each challan's records are in the file (after seal()): enough for another thread to read them back. */
  index(): DeducteeSpillIndex {
    return { segments: [...this.segments], blocks: this.blocks };
  }

  /**
   * The challan's records as newline-terminated byte chunks. A chunk is valid until the next one is asked
   * for (it may be a view of a read-ahead window).
   */
  *raw(challanRecord: number): Generator<Buffer> {
    this.reader ??= new DeducteeSpillReader(this.file, { segments: this.segments, blocks: this.blocks }, this.budget);
    yield* this.reader.raw(challanRecord);
    const rest = this.buffered(challanRecord);
    if (rest) yield rest;
  }

  bodies(challanRecord: number): Generator<string> {
    return bodiesOf(this.raw(challanRecord));
  }

  close(): void {
    this.file.close();
    this.reader = null;
  }

  async abandon(): Promise<Error | null> {
    this.close();
    return null;
  }
}

/** A DeducteeSpill's layout: each challan's segments (block, offset, length; three numbers each) and the blocks. */
export interface DeducteeSpillIndex {
  segments: Iterable<[number, number[]]>;
  blocks: Segment[];
}

/**
 * Record bodies (without their newline) of newline-terminated chunks, each decoded on its own: a flat string,
 * not a slice of the chunk's (a correction reads every body character by character, a slice at about 1.1x the
 * cost, and a slice keeps the whole chunk's string alive).
 */
function* bodiesOf(chunks: Iterable<Buffer>): Generator<string> {
  for (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      if (nl > start) yield chunk.toString('latin1', start, nl);
      start = nl + 1;
    }
  }
}

/**
 * Reads the DD records of a sealed store back, challan by challan (see SpilledDeducteeStore): from the store
 * itself, or from the file a worker thread's store wrote (deductee-worker.ts), given its index.
 */
export class DeducteeSpillReader {
  private readonly segments: ReadonlyMap<number, number[]>;
  private readonly blocks: Segment[];
  /** Per block: the read-ahead window (created when the records are first read). */
  private windows: ReadWindow[] | null = null;

  constructor(
    private readonly file: SegmentFile,
    index: DeducteeSpillIndex,
    private readonly budget = DEFAULT_MEMORY_BUDGET,
  ) {
    this.segments = index.segments instanceof Map ? index.segments : new Map(index.segments);
    this.blocks = index.blocks;
  }

  /** Opens the spill file at `path` (written and closed by another thread's store) to read it back. */
  static open(path: string, index: DeducteeSpillIndex, budget?: number): DeducteeSpillReader {
    // A store that never wrote a block never made its file.
    return new DeducteeSpillReader(index.blocks.length > 0 ? SegmentFile.reading(path) : new SegmentFile(path), index, budget);
  }

  /** The challan's records as newline-terminated byte chunks, each valid until the next one is asked for. */
  *raw(challanRecord: number): Generator<Buffer> {
    const segs = this.segments.get(challanRecord);
    if (!segs) return;
    // (The store's blocks array is shared: a block flushed since the last read gets its window too.)
    if (this.windows?.length !== this.blocks.length) this.windows = this.openWindows();
    for (let k = 0; k < segs.length; k += 3) yield* this.windows[segs[k]!]!.read(segs[k + 1]!, segs[k + 2]!);
  }

  bodies(challanRecord: number): Generator<string> {
    return bodiesOf(this.raw(challanRecord));
  }

  /** One read-ahead window per block, the memory budget shared between them (4 KiB to 1 MiB each). */
  private openWindows(): ReadWindow[] {
    const size = Math.min(1 << 20, Math.max(4096, Math.floor(this.budget / Math.max(1, this.blocks.length))));
    return this.blocks.map((b) => new ReadWindow(this.file, b, size));
  }

  close(): void {
    this.file.close();
    this.windows = null;
  }
}

/**
 * Reads segments of one block of a SegmentFile through a window: a segment that starts where the previous
 * one ended (the usual case) is served from the window, refilled with one read of the block's following
 * bytes when it runs out. Chunks end at a newline; a line longer than the window makes the window grow.
 */
class ReadWindow {
  private buffer: Buffer | null = null;
  /** File offsets of the bytes the window holds. */
  private start = 0;
  private end = 0;

  constructor(
    private readonly file: SegmentFile,
    private readonly block: Segment,
    private size: number,
  ) {}

  /** The bytes [offset, offset + length) of the file (whole lines), in chunks that end at a newline. */
  *read(offset: number, length: number): Generator<Buffer> {
    const stop = offset + length;
    let at = offset;
    while (at < stop) {
      if (at < this.start || at >= this.end) this.fill(at);
      let to = Math.min(stop, this.end);
      if (to < stop) {
        // The window ends inside the segment: whole lines only, the rest comes with the next fill.
        const lastNewline = this.buffer!.lastIndexOf(0x0a, to - this.start - 1);
        if (lastNewline < at - this.start) {
          if (this.start === at) this.size *= 2; // one line longer than the window
          this.fill(at);
          continue;
        }
        to = this.start + lastNewline + 1;
      }
      yield this.buffer!.subarray(at - this.start, to - this.start);
      at = to;
    }
  }

  /** Fills the window from file offset `at` up to the block's end. */
  private fill(at: number): void {
    if (!this.buffer || this.buffer.length < this.size) this.buffer = Buffer.allocUnsafe(this.size);
    const length = Math.min(this.size, this.block.offset + this.block.length - at);
    const got = this.file.readInto(this.buffer, length, at);
    if (got < length) throw new Error(`the spill file ends at offset ${at + got}, inside a block that ends at ${this.block.offset + this.block.length}`);
    this.start = at;
    this.end = at + got;
  }
}

/** Lines in arrival order (salary groups, early rows). */
export class SequentialSpill {
  private readonly file: SegmentFile;
  private readonly buffer: string[] = [];
  private readonly segments: Segment[] = [];
  private buffered = 0;
  private count = 0;

  constructor(
    dir: SpillDirectory,
    name: string,
    private readonly budget = DEFAULT_MEMORY_BUDGET,
  ) {
    this.file = new SegmentFile(dir.file(name));
  }

  get length(): number {
    return this.count;
  }

  push(lineText: string): void {
    this.buffer.push(lineText);
    this.count++;
    this.buffered += lineText.length + 1;
    if (this.buffered > this.budget) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.segments.push(this.file.write(this.buffer.join('\n') + '\n'));
    this.buffer.length = 0;
    this.buffered = 0;
  }

  *lines(): Generator<string> {
    for (const segment of this.segments) for (const l of this.file.lines(segment)) if (l !== '') yield l;
    yield* this.buffer;
  }

  /** Newline-terminated byte chunks (spilled) followed by single lines (in memory). */
  *raw(): Generator<Buffer | string> {
    for (const segment of this.segments) yield* this.file.chunks(segment);
    yield* this.buffer;
  }

  close(): void {
    this.file.close();
  }
}

export class SpilledSalaryStore implements SalaryStore {
  private readonly spill: SequentialSpill;

  constructor(dir: SpillDirectory, budget?: number) {
    this.spill = new SequentialSpill(dir, 'salary.txt', budget);
  }

  append(group: readonly string[]): void {
    for (const b of group) this.spill.push(b);
  }

  *groups(): Generator<readonly string[]> {
    for (const l of this.spill.lines()) yield [l];
  }

  raw(): Generator<Buffer | string> {
    return this.spill.raw();
  }

  close(): void {
    this.spill.close();
  }
}

/** Rows that came before the tables they refer to: kept as JSON lines with the index of their table. */
export class SpilledLateRows implements LateRows {
  private readonly spill: SequentialSpill;
  private readonly layouts: TableLayout[] = [];

  constructor(dir: SpillDirectory, budget?: number) {
    this.spill = new SequentialSpill(dir, 'late-rows.jsonl', budget);
  }

  push(layout: TableLayout, row: TableRow): void {
    let i = this.layouts.indexOf(layout);
    if (i < 0) i = this.layouts.push(layout) - 1;
    this.spill.push(JSON.stringify([i, row.number, row.damaged, row.cells]));
  }

  drain(handle: (layout: TableLayout, row: TableRow) => void): void {
    for (const l of this.spill.lines()) {
      const [i, number, damaged, cells] = JSON.parse(l) as [number, number, boolean, unknown[]];
      handle(this.layouts[i]!, { number, damaged, cells });
    }
  }

  close(): void {
    this.spill.close();
  }
}
