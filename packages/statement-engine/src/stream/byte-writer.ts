// Writes the TXT as bytes for writeTo(): spilled records are copied from the temporary files into the
// output buffer with their line numbers, never decoded into strings and encoded again. Produces exactly the
// bytes statementLines() would (the test suite compares them).

import type { Statement } from '../assembly/assembler.js';
import type { CivilDate } from '../dates.js';
import type { TxtSelfCheck } from '../layouts/check.js';
import type { RecordFieldCheck } from '../layouts/field-check.js';
import { selfCheckFor } from '../layouts/index.js';
import type { ResolvedOptions } from '../options.js';
import { challanRecord } from '../records/challan.js';
import { fileHeader, statementBatchHeader } from '../records/header.js';
import { writeDigits } from '../records/field-writer.js';

const OUT_SIZE = 1 << 20;
const CARET = 0x5e;
const NEWLINE = 0x0a;

export interface RawRecords {
  /** Newline-terminated record bodies as byte chunks, or single bodies as strings. */
  deductees(challanRecord: number): Iterable<Buffer | string>;
  salary(): Iterable<Buffer | string>;
  /** The check that saw the deductee records' fields as they were written; without it they are checked here. */
  checked?: RecordFieldCheck;
}

/**
 * Takes the TXT chunk by chunk. `release`, when the sink calls it, says the sink holds the chunk no longer: its
 * buffer is filled again (fresh memory costs page faults, a recycled buffer none). A sink that may keep chunks
 * (a stream that passes them on) never calls it.
 */
export type ChunkSink = (chunk: Buffer, release: () => void) => Promise<void>;

export class ByteWriter {
  private out: Buffer = Buffer.allocUnsafe(OUT_SIZE);
  private used = 0;
  private line = 0;
  bytes = 0;
  /** Output buffers the sink has released. */
  private readonly spare: Buffer[] = [];

  /** @param check sees every line (with its CRLF) once it is in the buffer and before the buffer is emitted */
  constructor(
    private readonly emit: ChunkSink,
    private readonly check: TxtSelfCheck,
  ) {}

  get lines(): number {
    return this.line;
  }

  private full(needed: number): boolean {
    return this.used + needed > this.out.length;
  }

  /** Makes room for `needed` bytes (after a flush, in a bigger buffer if one line is larger). */
  private async makeRoom(needed: number): Promise<void> {
    await this.flush();
    if (needed > this.out.length) this.out = Buffer.allocUnsafe(needed);
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const full = this.out;
    const chunk = full.subarray(0, this.used);
    this.bytes += this.used;
    // The sink may keep the chunk until it is written, so the next lines go to another buffer.
    this.out = this.spare.pop() ?? Buffer.allocUnsafe(OUT_SIZE);
    this.used = 0;
    // (A buffer grown for one long line is not kept.)
    await this.emit(chunk, () => {
      if (full.length === OUT_SIZE) this.spare.push(full);
    });
  }

  /** Line number and caret, written as ASCII digits. */
  private number(): void {
    this.used = writeDigits(this.out, this.used, ++this.line);
    this.out[this.used++] = CARET;
  }

  async text(body: string): Promise<void> {
    if (this.full(body.length + 16)) await this.makeRoom(body.length + 16);
    const start = this.used;
    this.number();
    this.used += this.out.write(body, this.used, 'latin1');
    this.out[this.used++] = 0x0d;
    this.out[this.used++] = NEWLINE;
    this.check.bytes(this.out, start, this.used);
  }

  /**
   * Newline-terminated bodies: each becomes a numbered CRLF line. Awaits only when the buffer is full.
   * `placed`: the records' fields were checked as they were written; only their place in the file is checked.
   */
  async chunk(bytes: Buffer, placed = false): Promise<void> {
    let start = 0;
    while (start < bytes.length) {
      let end = bytes.indexOf(NEWLINE, start);
      if (end < 0) end = bytes.length;
      const length = end - start;
      if (length > 0) {
        if (this.full(length + 16)) await this.makeRoom(length + 16);
        const lineStart = this.used;
        this.number();
        // set() of a view: measurably cheaper per line than Buffer.copy, which validates and wraps its arguments.
        this.out.set(bytes.subarray(start, end), this.used);
        this.used += length;
        this.out[this.used++] = 0x0d;
        this.out[this.used++] = NEWLINE;
        if (placed) this.check.placed(this.out, lineStart, this.used);
        else this.check.bytes(this.out, lineStart, this.used);
      }
      start = end + 1;
    }
  }

  async records(items: Iterable<Buffer | string>, placed = false): Promise<void> {
    for (const item of items) {
      if (typeof item === 'string') await this.text(item);
      else await this.chunk(item, placed);
    }
  }
}

export async function writeStatementBytes(statement: Statement, options: ResolvedOptions, created: CivilDate, records: RawRecords, emit: ChunkSink): Promise<{ bytes: number; lines: number }> {
  const { form, tan } = options;
  const check = selfCheckFor(options);
  records.checked?.raise(statement.challans);
  const w = new ByteWriter(emit, check);
  await w.text(fileHeader(form, tan, created));
  await w.text(statementBatchHeader(statement, options));
  for (const c of statement.challans) {
    await w.text(challanRecord(form.family, c));
    await w.records(records.deductees(c.record), records.checked !== undefined);
  }
  await w.records(records.salary());
  check.finish();
  await w.flush();
  return { bytes: w.bytes, lines: w.lines };
}
