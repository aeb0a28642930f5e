// The zip container of an .xlsx, opened by its central directory (yauzl): every part can be read in any order,
// whatever order the writer put the entries in (exceljs puts workbook.xml, styles and shared strings after the
// worksheets), and each part is inflated as a stream, so a worksheet is never held whole. A stream of bytes
// (convertStream, job uploads) is first written to a temporary file: a zip is read from its end.

import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { StatementEngineError, inputUnreadable } from '../errors.js';
import { DEFAULT_INPUT_LIMITS, limitExceeded, type InputLimits } from '../limits.js';

const unreadable = (message: string) => new StatementEngineError('INVALID_XLSX', `The .xlsx workbook cannot be read: ${message}`);

/** yauzl's messages, first line, bounded (they never hold workbook data, only zip structure). */
const zipMessage = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200);

/** The limits the zip enforces as it inflates. */
export type ZipLimits = Pick<InputLimits, 'xlsxInflatedBytes' | 'xlsxInflateRatio' | 'xlsxRatioGraceBytes'>;

/**
 * Inflated bytes read ahead of the reader. The inflating is done by zlib in the thread pool; a stream only
 * asks for the next 16 KiB once the last one is taken, so the thread that parses waited for each in turn
 * (a sixth of a 200,000-row conversion idle). Taking the chunks as they come lets the part inflate while the
 * chunks before are parsed, on the other core.
 */
const READ_AHEAD_BYTES = 1 << 20;

/**
 * The inflater's output chunk. zlib's default (16 KiB, yauzl's) makes each chunk a round trip to the thread
 * pool: a 77 MB worksheet inflated in 231 ms that way, in 47 ms with 256 KiB chunks (bench/xlsx.ts's part).
 */
const INFLATE_CHUNK_BYTES = 256 << 10;
/** Compressed bytes read from the file at a time. */
const FILE_READ_BYTES = 1 << 20;

/**
 * The chunks of a stream, taken as soon as it has them, up to `ahead` bytes not yet used (then it waits);
 * its error is thrown once the chunks that came before it are used.
 */
async function* readAhead(stream: Readable, ahead: number): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  let queued = 0;
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  stream.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    queued += chunk.length;
    if (queued >= ahead) stream.pause();
    signal();
  });
  stream.once('end', () => {
    ended = true;
    signal();
  });
  stream.once('error', (error) => {
    failure ??= error;
    signal();
  });
  for (;;) {
    const chunk = queue.shift();
    if (chunk !== undefined) {
      queued -= chunk.length;
      if (stream.isPaused() && queued < ahead / 2) stream.resume();
      yield chunk;
    } else if (failure !== null) throw failure;
    else if (ended) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

export class XlsxZip {
  /** Bytes inflated so far, every part and every read of one: what xlsxInflatedBytes bounds. */
  private inflated = 0;
  /** Compressed bytes of the parts read to their end (progress). */
  private partsRead = 0;
  /** The part being read and how far (progress). */
  private reading: { entry: yauzl.Entry; bytes: number } | null = null;

  private constructor(
    /** The zip's file (a stream's temporary copy): its parts' data is read from it by path (openPart). */
    private readonly path: string,
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly cleanup: () => void,
    private readonly limits: ZipLimits,
  ) {}

  /** Opens an .xlsx file (path) or the bytes of one (stream); throws INVALID_XLSX when it is no complete zip. */
  static async open(input: string | Readable, tmpDir?: string, limits: ZipLimits = DEFAULT_INPUT_LIMITS): Promise<XlsxZip> {
    let path: string;
    let cleanup = () => {};
    if (typeof input === 'string') {
      path = input;
    } else {
      const dir = mkdtempSync(join(tmpDir ?? tmpdir(), 'satyapan-xlsx-'));
      cleanup = () => rmSync(dir, { recursive: true, force: true });
      path = join(dir, 'workbook.xlsx');
      try {
        await pipeline(input, createWriteStream(path));
      } catch (error) {
        cleanup();
        throw error;
      }
    }
    try {
      const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
      const entries = await new Promise<Map<string, yauzl.Entry>>((resolve, reject) => {
        const found = new Map<string, yauzl.Entry>();
        zip.on('entry', (entry: yauzl.Entry) => {
          found.set(entry.fileName.replace(/\\/g, '/').replace(/^\/+/, ''), entry);
          zip.readEntry();
        });
        zip.on('end', () => resolve(found));
        zip.on('error', reject);
        zip.readEntry();
      }).catch((error: unknown) => {
        zip.close();
        throw error;
      });
      return new XlsxZip(path, zip, entries, cleanup, limits);
    } catch (error) {
      cleanup();
      if ((error as NodeJS.ErrnoException).code && (error as NodeJS.ErrnoException).syscall) {
        throw inputUnreadable(path, error);
      }
      throw unreadable(`it is no complete zip file (${zipMessage(error)})`);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * The inflated bytes of one part, as they are read. The CRC-32 of the part is checked at its end (a corrupt
   * part is refused, never read as other values); zip structure errors become INVALID_XLSX naming the part.
   * The bytes are counted as they inflate: past xlsxInflatedBytes for the whole file, or a part inflating to
   * more than xlsxInflateRatio times its compressed size (once past xlsxRatioGraceBytes), the read stops with
   * CONVERSION_LIMIT. The sizes the zip declares are checked first, so a bomb that says what it is costs nothing.
   */
  async *read(name: string): AsyncGenerator<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw unreadable(`the part ${name} is missing`);
    if (entry.isEncrypted()) throw unreadable(`the part ${name} is encrypted (a password-protected workbook)`);
    this.checkInflated(name, entry, this.inflated + entry.uncompressedSize, entry.uncompressedSize);
    let stream: Readable;
    try {
      stream = await this.openPart(entry);
    } catch (error) {
      throw unreadable(`the part ${name} is corrupt (${zipMessage(error)})`);
    }
    let crc = 0;
    const part = { entry, bytes: 0 };
    try {
      this.reading = part;
      for await (const chunk of readAhead(stream, READ_AHEAD_BYTES)) {
        part.bytes += chunk.length;
        this.inflated += chunk.length;
        this.checkInflated(name, entry, this.inflated, part.bytes);
        if (part.bytes > entry.uncompressedSize) throw new Error(`too many bytes in the stream. expected ${entry.uncompressedSize}. got at least ${part.bytes}`);
        crc = crc32(chunk, crc);
        yield chunk;
      }
      if (part.bytes < entry.uncompressedSize) throw new Error(`not enough bytes in the stream. expected ${entry.uncompressedSize}. got only ${part.bytes}`);
      this.partsRead += entry.compressedSize;
    } catch (error) {
      if (error instanceof StatementEngineError) throw error;
      throw unreadable(`the part ${name} is corrupt (${zipMessage(error)})`);
    } finally {
      this.reading = null;
      stream.destroy();
    }
    if (crc >>> 0 !== entry.crc32 >>> 0) throw unreadable(`the part ${name} is corrupt (CRC-32 mismatch)`);
  }

  /**
   * The inflated bytes of a part. A stored or deflated part is read here rather than by yauzl (which finds
   * where its data starts): from the file in 1 MiB reads, inflated in INFLATE_CHUNK_BYTES chunks. yauzl's
   * stream read the data 16 KiB at a time through two more streams, and zlib wrote it out 16 KiB at a time;
   * the 77 MB worksheet of the bench took 134 ms to read and inflate that way (the reader's time: 850 ms
   * before, 490 ms with the rest of its speed-ups). The size the part declares is checked by read(), as
   * yauzl's validateEntrySizes would.
   */
  private async openPart(entry: yauzl.Entry): Promise<Readable> {
    // Another method: yauzl says which it is that it cannot read.
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) return this.zip.openReadStreamPromise(entry);
    const { fileDataStart } = await this.zip.readLocalFileHeaderPromise(entry, { minimal: true });
    if (entry.compressedSize === 0) return Readable.from([]);
    const raw = createReadStream(this.path, { start: fileDataStart, end: fileDataStart + entry.compressedSize - 1, highWaterMark: FILE_READ_BYTES });
    if (entry.compressionMethod === 0) return raw;
    const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES });
    // A read error of the file is the inflater's (the stream read() takes); destroying it stops the file read.
    raw.once('error', (error) => inflater.destroy(error));
    inflater.once('close', () => raw.destroy());
    return raw.pipe(inflater);
  }

  /** About how many of the file's bytes the parts read so far stand for (compressed bytes; progress reports). */
  get bytesRead(): number {
    const reading = this.reading;
    if (reading === null) return this.partsRead;
    return this.partsRead + Math.round((reading.entry.compressedSize * reading.bytes) / Math.max(reading.entry.uncompressedSize, 1));
  }

  /**
   * A read of a part given up after `bytes` to read the part again from its start (the worksheet reader's
   * fast tokenizer giving way to saxes): the bytes count once, for the read that goes to the end.
   */
  abandoned(bytes: number): void {
    this.inflated -= bytes;
  }

  /** Refuses a part whose inflated bytes (`partBytes`) or the file's (`total`) pass the limits. */
  private checkInflated(name: string, entry: yauzl.Entry, total: number, partBytes: number): void {
    const { xlsxInflatedBytes, xlsxInflateRatio, xlsxRatioGraceBytes } = this.limits;
    if (total > xlsxInflatedBytes) throw limitExceeded('xlsxInflatedBytes', xlsxInflatedBytes, `the .xlsx part ${name}`, `the workbook inflates to more than ${xlsxInflatedBytes} bytes`);
    // Apache POI's ZipSecureFile check (MIN_INFLATE_RATIO 0.01 = ratio 100, GRACE_ENTRY_SIZE 100 KiB), against
    // the part's whole compressed size: a lower bound of the ratio POI computes from the bytes read so far.
    if (partBytes > xlsxRatioGraceBytes && partBytes > xlsxInflateRatio * Math.max(entry.compressedSize, 1)) {
      throw limitExceeded('xlsxInflateRatio', xlsxInflateRatio, `the .xlsx part ${name}`, `the part inflates to more than ${xlsxInflateRatio} times its ${entry.compressedSize} compressed bytes`);
    }
  }

  close(): void {
    this.zip.close();
    this.cleanup();
  }
}
