// Temporary files for records that wait until the file can be written, so memory does not grow with the
// number of rows. Writes are buffered and synchronous (the stores' interfaces are synchronous); each store
// keeps one file descriptor.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeducteeStore, LateRows, SalaryStore } from '../build/stores.js';
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
}

interface Segment {
  offset: number;
  length: number;
}

/** One file of line-separated text; readers get the lines of given segments back. */
class SegmentFile {
  private fd: number | null = null;
  private size = 0;

  constructor(private readonly path: string) {}

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

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Default budget for record text held in memory before it is flushed to the file. */
export const DEFAULT_MEMORY_BUDGET = 4 * 1024 * 1024;

/**
 * DD records grouped by challan, with bounded memory whatever the number of challans. Records are written
 * as bytes straight into one buffer in arrival order (no string per record), each tagged with its challan.
 * When the buffer is full it is sorted by challan (a counting sort, stable) into a second buffer and written
 * with one call; each challan then owns one segment of that write. Reading a challan replays its segments
 * in order, then its records still in the buffer.
 */
export class SpilledDeducteeStore implements DeducteeStore {
  private readonly file: SegmentFile;
  private buffer: Buffer;
  private sorted: Buffer;
  private used = 0;
  /** Per buffered record: its challan and where it starts. */
  private challanOf = new Int32Array(1024);
  private startOf = new Int32Array(1024);
  private count = 0;
  private readonly segments = new Map<number, Segment[]>();
  private readonly writer: ByteFieldWriter;

  /**
   * @param fieldCount fields of a DD record in the statement's family
   * @param budget bytes of records held before they are sorted and written (two buffers of half each)
   * @param check the layout self-check of each record as it is written
   */
  constructor(
    dir: SpillDirectory,
    private readonly fieldCount: number,
    budget = DEFAULT_MEMORY_BUDGET,
    private readonly check: RecordFieldCheck | null = null,
  ) {
    this.writer = new ByteFieldWriter((end) => (this.used = end), check);
    this.file = new SegmentFile(dir.file('deductees.txt'));
    const size = Math.max(2 * MAX_RECORD_BYTES, Math.floor(budget / 2));
    this.buffer = Buffer.allocUnsafe(size);
    this.sorted = Buffer.allocUnsafe(size);
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

  /** Sorts the buffered records by challan into `sorted`, writes it, and records each challan's segment. */
  private flush(): void {
    if (this.count === 0) return;
    const bytesOf = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const end = i + 1 < this.count ? this.startOf[i + 1]! : this.used;
      const c = this.challanOf[i]!;
      bytesOf.set(c, (bytesOf.get(c) ?? 0) + end - this.startOf[i]!);
    }
    const next = new Map<number, number>();
    let offset = 0;
    for (const [c, bytes] of bytesOf) {
      next.set(c, offset);
      offset += bytes;
    }
    const first = new Map(next);
    for (let i = 0; i < this.count; i++) {
      const start = this.startOf[i]!;
      const end = i + 1 < this.count ? this.startOf[i + 1]! : this.used;
      const c = this.challanOf[i]!;
      const at = next.get(c)!;
      this.buffer.copy(this.sorted, at, start, end);
      next.set(c, at + end - start);
    }
    const written = this.file.writeBytes(this.sorted.subarray(0, this.used));
    for (const [c, bytes] of bytesOf) {
      let segs = this.segments.get(c);
      if (!segs) {
        segs = [];
        this.segments.set(c, segs);
      }
      segs.push({ offset: written.offset + first.get(c)!, length: bytes });
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

  /** The challan's records as newline-terminated byte chunks. */
  *raw(challanRecord: number): Generator<Buffer> {
    for (const segment of this.segments.get(challanRecord) ?? []) yield* this.file.chunks(segment);
    const rest = this.buffered(challanRecord);
    if (rest) yield rest;
  }

  *bodies(challanRecord: number): Generator<string> {
    for (const chunk of this.raw(challanRecord)) {
      const text = chunk.toString('latin1');
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (nl > start) yield text.slice(start, nl);
        start = nl + 1;
      }
    }
  }

  close(): void {
    this.file.close();
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
