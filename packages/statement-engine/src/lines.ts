// The lines of a conso or CSI file, cut as its bytes come: a line is decoded once its end is seen, and the
// bytes of a line still open are counted, so a file of one endless line is refused at the lineBytes limit
// instead of being held whole (readline and split() hold a line, or the file, whole before anything is checked).

import { limitExceeded, type InputLimits } from './limits.js';

/** The files read line by line, with the limit of each one's line count. */
const FILES = { conso: { name: 'conso file', lines: 'consoLines' }, csi: { name: 'CSI file', lines: 'csiLines' } } as const;

export type LineFile = keyof typeof FILES;

/** The limits a file read line by line is held to. */
export type LineLimits = Pick<InputLimits, 'lineBytes' | 'consoLines' | 'csiLines'>;

const LF = 10;
const CR = 13;

export class LineCutter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private count = 0;

  private readonly file: string;
  private readonly linesLimit: 'consoLines' | 'csiLines';
  private readonly maxLines: number;

  constructor(
    private readonly limits: LineLimits,
    kind: LineFile,
    private readonly encoding: BufferEncoding,
  ) {
    this.file = FILES[kind].name;
    this.linesLimit = FILES[kind].lines;
    this.maxLines = limits[this.linesLimit];
  }

  /** The lines a chunk completes, without their line end (`\n` or `\r\n`). */
  *push(chunk: Uint8Array): Generator<string> {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = bytes.indexOf(LF, start); end >= 0; end = bytes.indexOf(LF, start)) {
      yield this.line(bytes.subarray(start, end));
      start = end + 1;
    }
    if (start < bytes.length) this.hold(bytes.subarray(start));
  }

  /** The last line, when the file does not end with a line end. */
  *end(): Generator<string> {
    if (this.pendingBytes > 0) yield this.line(Buffer.alloc(0));
  }

  /** The lines of a whole file given at once, as text or as bytes. */
  *all(content: string | Uint8Array): Generator<string> {
    if (typeof content === 'string') {
      yield* this.text(content);
      return;
    }
    yield* this.push(content);
    yield* this.end();
  }

  /** The lines of a file given as text (its length in characters counts as bytes). */
  *text(text: string): Generator<string> {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      this.check(end - start);
      yield stripCr(text.slice(start, end));
      start = end + 1;
    }
  }

  private hold(bytes: Buffer): void {
    this.pendingBytes += bytes.length;
    this.checkLength(this.pendingBytes);
    // Copied: a stream may hand the same buffer over again.
    this.pending.push(Buffer.from(bytes));
  }

  private line(last: Buffer): string {
    this.check(this.pendingBytes + last.length);
    const bytes = this.pending.length === 0 ? last : Buffer.concat([...this.pending, last]);
    this.pending = [];
    this.pendingBytes = 0;
    // The CR is cut from the bytes, not the text: slicing the text would make a sliced string, whose characters
    // cost more to read than a flat string's (the conso reader compares every row in place).
    const cr = bytes.length > 0 && bytes[bytes.length - 1] === CR ? 1 : 0;
    return bytes.toString(this.encoding, 0, bytes.length - cr);
  }

  /** One more line, of `bytes` bytes (a `\r` before its `\n` included). */
  private check(bytes: number): void {
    this.checkLength(bytes);
    this.count++;
    if (this.count > this.maxLines) throw limitExceeded(this.linesLimit, this.maxLines, `${this.file} line ${this.count}`, `the file has more than ${this.maxLines} lines`);
  }

  private checkLength(bytes: number): void {
    // The `\r` of a CRLF line end is not the line's.
    if (bytes > this.limits.lineBytes + 1) throw limitExceeded('lineBytes', this.limits.lineBytes, `${this.file} line ${this.count + 1}`, `the line is longer than ${this.limits.lineBytes} bytes`);
  }
}

const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
