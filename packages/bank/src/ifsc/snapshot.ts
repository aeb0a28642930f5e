import { endianness } from 'node:os';
import { crc32, gunzipSync } from 'node:zlib';
import { FLAG_FIELDS, IFSC_LENGTH, STRING_FIELDS, type Branch, type StringField } from './branch.js';

/**
 * The directory snapshot: a compact binary file that loads in milliseconds because loading is only
 * checking a CRC and laying typed-array views over the bytes. No per-branch objects are built at load time;
 * lookups binary-search the sorted IFSC column and decode one row on demand.
 *
 * Layout (little-endian; every section starts on a 4-byte boundary):
 *   header (32 bytes): magic "SPIFSCDB", u32 version, u32 rows, u32 strings, u32 metadata bytes,
 *                      u32 string-blob bytes, u32 CRC-32 of everything after the header
 *   metadata           JSON (UTF-8)
 *   string offsets     u32 x (strings + 1), into the blob; string 0 is ""
 *   string blob        UTF-8 of every distinct value, once
 *   IFSC column        11 ASCII bytes per row, rows sorted by IFSC
 *   12 string columns  u32 string id per row, in STRING_FIELDS order
 *   flags              one byte per row, bit i = FLAG_FIELDS[i]
 * A gzip-compressed snapshot (e.g. the shipped sample) is recognised and inflated first.
 */
const MAGIC = Buffer.from('SPIFSCDB', 'ascii');
const VERSION = 1;
const HEADER_BYTES = 32;

export interface SnapshotMetadata {
  /** What the snapshot was built from, e.g. "by-bank-tar:razorpay-ifsc-api-2.0.57-by-bank.tar.gz". */
  source: string;
  /** Unix milliseconds. */
  created_at: number;
  branches: number;
  banks: number;
}

export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

/** The decoded sections, as views over the snapshot bytes. */
export interface SnapshotColumns {
  readonly metadata: SnapshotMetadata;
  readonly rows: number;
  readonly stringOffsets: Uint32Array;
  readonly blob: Buffer;
  readonly ifsc: Buffer;
  readonly columns: Readonly<Record<StringField, Uint32Array>>;
  readonly flags: Uint8Array;
}

const pad4 = (n: number): number => (n + 3) & ~3;

class StringTable {
  private readonly ids = new Map<string, number>([['', 0]]);
  private readonly parts: Buffer[] = [];
  private readonly offsets: number[] = [0, 0];
  private bytes = 0;

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(value, id);
      const encoded = Buffer.from(value, 'utf8');
      this.parts.push(encoded);
      this.bytes += encoded.length;
      this.offsets.push(this.bytes);
    }
    return id;
  }

  get count(): number {
    return this.ids.size;
  }

  offsetsBuffer(): Buffer {
    const out = Buffer.alloc(this.offsets.length * 4);
    this.offsets.forEach((offset, i) => out.writeUInt32LE(offset, i * 4));
    return out;
  }

  blob(): Buffer {
    return Buffer.concat(this.parts, this.bytes);
  }
}

function padded(section: Buffer): Buffer {
  const size = pad4(section.length);
  return size === section.length ? section : Buffer.concat([section, Buffer.alloc(size - section.length)]);
}

/** Encodes branches into a snapshot. Duplicate IFSCs keep the first occurrence (as Razorpay's build does). */
export function encodeSnapshot(branches: Iterable<Branch>, source: string, createdAt: number = Date.now()): Buffer {
  const unique = new Map<string, Branch>();
  for (const branch of branches) if (!unique.has(branch.IFSC)) unique.set(branch.IFSC, branch);
  const sorted = [...unique.values()].sort((a, b) => (a.IFSC < b.IFSC ? -1 : a.IFSC > b.IFSC ? 1 : 0));
  const rows = sorted.length;
  const strings = new StringTable();
  const ifsc = Buffer.alloc(pad4(rows * IFSC_LENGTH));
  const columns = STRING_FIELDS.map(() => Buffer.alloc(rows * 4));
  const flags = Buffer.alloc(pad4(rows));
  sorted.forEach((branch, row) => {
    if (!/^[A-Z0-9]{11}$/.test(branch.IFSC)) throw new SnapshotFormatError(`not an IFSC: ${branch.IFSC}`);
    ifsc.write(branch.IFSC, row * IFSC_LENGTH, 'ascii');
    STRING_FIELDS.forEach((field, c) => (columns[c] as Buffer).writeUInt32LE(strings.id(branch[field]), row * 4));
    flags[row] = FLAG_FIELDS.reduce((bits, field, bit) => bits | (branch[field] ? 1 << bit : 0), 0);
  });
  const metadata: SnapshotMetadata = {
    source,
    created_at: createdAt,
    branches: rows,
    banks: new Set(sorted.map((b) => b.BANKCODE)).size,
  };
  const metadataBytes = Buffer.from(JSON.stringify(metadata), 'utf8');
  const blob = strings.blob();
  const body = Buffer.concat([
    padded(metadataBytes), strings.offsetsBuffer(), padded(blob), ifsc, ...columns, flags,
  ]);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(VERSION, 8);
  header.writeUInt32LE(rows, 12);
  header.writeUInt32LE(strings.count, 16);
  header.writeUInt32LE(metadataBytes.length, 20);
  header.writeUInt32LE(blob.length, 24);
  header.writeUInt32LE(crc32(body), 28);
  return Buffer.concat([header, body]);
}

/** A u32 view at `offset`; copies (and byte-swaps) only on a big-endian host. */
function u32(bytes: Buffer, offset: number, count: number): Uint32Array {
  if (endianness() === 'LE') return new Uint32Array(bytes.buffer, bytes.byteOffset + offset, count);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = bytes.readUInt32LE(offset + i * 4);
  return out;
}

/** Typed-array views need 4-byte alignment of the underlying memory; a pooled Buffer may not have it. */
function aligned(bytes: Buffer): Buffer {
  if (bytes.byteOffset % 4 === 0) return bytes;
  const copy = Buffer.from(new ArrayBuffer(bytes.length));
  bytes.copy(copy);
  return copy;
}

export function isSnapshot(head: Buffer): boolean {
  return head.length >= MAGIC.length && head.subarray(0, MAGIC.length).equals(MAGIC);
}

function readHeader(bytes: Buffer): { rows: number; strings: number; metadataLength: number; blobLength: number } {
  if (bytes.length < HEADER_BYTES || !isSnapshot(bytes)) throw new SnapshotFormatError('not a Satyapan IFSC snapshot');
  const version = bytes.readUInt32LE(8);
  if (version !== VERSION) throw new SnapshotFormatError(`unsupported snapshot version ${version}`);
  if (crc32(bytes.subarray(HEADER_BYTES)) !== bytes.readUInt32LE(28)) {
    throw new SnapshotFormatError('snapshot checksum mismatch: the file is damaged or truncated');
  }
  return {
    rows: bytes.readUInt32LE(12),
    strings: bytes.readUInt32LE(16),
    metadataLength: bytes.readUInt32LE(20),
    blobLength: bytes.readUInt32LE(24),
  };
}

/** Validates a snapshot and returns views over its sections (no copies on little-endian hosts). */
export function decodeSnapshot(input: Buffer): SnapshotColumns {
  const bytes = aligned(input[0] === 0x1f && input[1] === 0x8b ? gunzipSync(input) : input);
  const { rows, strings, metadataLength, blobLength } = readHeader(bytes);
  let offset = HEADER_BYTES;
  const expected = offset + pad4(metadataLength) + (strings + 1) * 4 + pad4(blobLength)
    + pad4(rows * IFSC_LENGTH) + STRING_FIELDS.length * rows * 4 + pad4(rows);
  if (bytes.length !== expected) throw new SnapshotFormatError(`snapshot size ${bytes.length}, expected ${expected}`);
  const metadata = JSON.parse(bytes.toString('utf8', offset, offset + metadataLength)) as SnapshotMetadata;
  offset += pad4(metadataLength);
  const stringOffsets = u32(bytes, offset, strings + 1);
  offset += (strings + 1) * 4;
  const blob = bytes.subarray(offset, offset + blobLength);
  offset += pad4(blobLength);
  const ifsc = bytes.subarray(offset, offset + rows * IFSC_LENGTH);
  offset += pad4(rows * IFSC_LENGTH);
  const columns = {} as Record<StringField, Uint32Array>;
  for (const field of STRING_FIELDS) {
    columns[field] = u32(bytes, offset, rows);
    offset += rows * 4;
  }
  const flags = bytes.subarray(offset, offset + rows);
  return { metadata, rows, stringOffsets, blob, ifsc, columns, flags };
}
