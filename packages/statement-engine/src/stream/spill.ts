// Temporary files for records that wait until the file can be written, so memory does not grow with the
// number of rows. Writes are buffered and synchronous (the stores' interfaces are synchronous); each store
// keeps one file descriptor.

import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeducteeStore, LateRows, SalaryStore } from '../build/stores.js';
import type { TableLayout, TableRow } from '../workbook/records.js';

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
    this.fd ??= openSync(this.path, 'w+');
    const data = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < data.length) written += writeSync(this.fd, data, written, data.length - written, this.size + written);
    const segment = { offset: this.size, length: data.length };
    this.size += data.length;
    return segment;
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
export const DEFAULT_MEMORY_BUDGET = 8 * 1024 * 1024;

/**
 * DD records grouped by challan. Each challan collects its records in memory; when all buffers together pass
 * the budget, every buffer is written as a segment of the shared file. Reading a challan replays its
 * segments in order, then what is still in memory.
 */
export class SpilledDeducteeStore implements DeducteeStore {
  private readonly file: SegmentFile;
  private readonly buffers = new Map<number, string[]>();
  private readonly segments = new Map<number, Segment[]>();
  private buffered = 0;

  constructor(
    dir: SpillDirectory,
    private readonly budget = DEFAULT_MEMORY_BUDGET,
  ) {
    this.file = new SegmentFile(dir.file('deductees.txt'));
  }

  append(challanRecord: number, recordBody: string): void {
    let list = this.buffers.get(challanRecord);
    if (!list) {
      list = [];
      this.buffers.set(challanRecord, list);
    }
    list.push(recordBody);
    this.buffered += recordBody.length + 1;
    if (this.buffered > this.budget) this.flush();
  }

  private flush(): void {
    for (const [record, list] of this.buffers) {
      if (list.length === 0) continue;
      const segment = this.file.write(list.join('\n') + '\n');
      let segs = this.segments.get(record);
      if (!segs) {
        segs = [];
        this.segments.set(record, segs);
      }
      segs.push(segment);
      list.length = 0;
    }
    this.buffered = 0;
  }

  *bodies(challanRecord: number): Generator<string> {
    for (const segment of this.segments.get(challanRecord) ?? []) {
      for (const l of this.file.lines(segment)) if (l !== '') yield l;
    }
    yield* this.buffers.get(challanRecord) ?? [];
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
