/**
 * A minimal streaming reader of tar archives (POSIX ustar, with pax `path` records and GNU long names), enough
 * for Razorpay's by-bank.tar.gz. Written here rather than taken from npm because the job is ~100 lines and the
 * archive is trusted input we only read; gzip is node:zlib's.
 */
const BLOCK = 512;

export interface TarEntry {
  path: string;
  /** '0' regular file, '5' directory, ... (ustar type flags; '\0' is normalised to '0'). */
  type: string;
  data: Buffer;
}

export class TarFormatError extends Error {
  override readonly name = 'TarFormatError';
}

/** Collects stream chunks and hands out exact byte counts. */
class ByteQueue {
  private chunks: Buffer[] = [];
  private length = 0;
  private done = false;

  constructor(private readonly source: AsyncIterator<Buffer | string>) {}

  /** Exactly `n` bytes, or undefined at a clean end of input. */
  async take(n: number): Promise<Buffer | undefined> {
    while (this.length < n && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else {
        const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        this.chunks.push(chunk);
        this.length += chunk.length;
      }
    }
    if (this.length < n) {
      if (this.length === 0) return undefined;
      throw new TarFormatError(`truncated archive: wanted ${n} bytes, ${this.length} left`);
    }
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.length);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return out;
  }
}

function cString(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if (((field[0] ?? 0) & 0x80) !== 0) {
    // GNU base-256 for sizes beyond 8 GiB: big-endian, the top bit of the first byte is the marker.
    let value = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const digits = cString(block, start, length).trim();
  if (digits === '') return 0;
  if (!/^[0-7]+$/.test(digits)) throw new TarFormatError(`bad octal field "${digits}"`);
  return parseInt(digits, 8);
}

function checksumMatches(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  return sum === octal(header, 148, 8);
}

/** `path` from a pax extended header body ("<len> key=value\n" records). */
function paxPath(body: Buffer): string | undefined {
  let offset = 0;
  let path: string | undefined;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    if (space === -1) break;
    const length = parseInt(body.subarray(offset, space).toString('ascii'), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = body.subarray(space + 1, offset + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    offset += length;
  }
  return path;
}

async function* toAsync(input: AsyncIterable<Buffer | string> | Iterable<Buffer>): AsyncGenerator<Buffer | string> {
  yield* input;
}

/** Entries of an uncompressed tar stream, in archive order. Metadata entries (pax, GNU long name) are applied, not yielded. */
export async function* readTarEntries(input: AsyncIterable<Buffer | string> | Iterable<Buffer>): AsyncGenerator<TarEntry> {
  const queue = new ByteQueue(toAsync(input)[Symbol.asyncIterator]());
  let longPath: string | undefined;
  for (;;) {
    const header = await queue.take(BLOCK);
    if (!header || header.every((b) => b === 0)) return;
    if (!checksumMatches(header)) throw new TarFormatError('header checksum mismatch: not a tar archive?');
    const size = octal(header, 124, 12);
    const type = cString(header, 156, 1) || '0';
    const body = size > 0 ? await queue.take(Math.ceil(size / BLOCK) * BLOCK) : Buffer.alloc(0);
    if (size > 0 && !body) throw new TarFormatError('truncated archive: entry body missing');
    const data = (body ?? Buffer.alloc(0)).subarray(0, size);
    if (type === 'x') {
      longPath = paxPath(data) ?? longPath;
      continue;
    }
    if (type === 'L') {
      longPath = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    if (type === 'g') continue;
    const prefix = cString(header, 345, 155);
    const name = cString(header, 0, 100);
    const path = longPath ?? (prefix && header.subarray(257, 262).toString('ascii') === 'ustar' ? `${prefix}/${name}` : name);
    longPath = undefined;
    yield { path, type, data };
  }
}
