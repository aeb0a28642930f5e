import { readFile } from 'node:fs/promises';
import { FLAG_FIELDS, IFSC_LENGTH, STRING_FIELDS, canonicalIfsc, type Branch, type StringField } from './branch.js';
import { BranchSearch, type BranchPage, type BranchQuery } from './search.js';
import { decodeSnapshot, encodeSnapshot, type SnapshotColumns, type SnapshotMetadata } from './snapshot.js';

/** What the router and services need from a directory; the hot-swappable holder implements it too. */
export interface BranchDirectory {
  readonly size: number;
  readonly metadata: SnapshotMetadata;
  /** Case-insensitive; undefined when the IFSC is not in the directory. */
  lookup(ifsc: string): Branch | undefined;
  search(query: BranchQuery): BranchPage;
}

/**
 * An immutable IFSC directory over one snapshot. Strings are decoded lazily and memoised, so the memory a
 * process spends grows with the branches it is asked for, not with the dataset.
 */
export class IfscDirectory implements BranchDirectory {
  private readonly decoded: (string | undefined)[];
  private searcher: BranchSearch | undefined;
  private ifscCodes: string[] | undefined;

  private constructor(private readonly data: SnapshotColumns, readonly snapshot: Buffer) {
    this.decoded = new Array<string | undefined>(data.stringOffsets.length - 1);
  }

  /** From snapshot bytes (raw or gzip-compressed). Throws SnapshotFormatError on a damaged file. */
  static fromSnapshot(bytes: Buffer): IfscDirectory {
    return new IfscDirectory(decodeSnapshot(bytes), bytes);
  }

  static async load(path: string): Promise<IfscDirectory> {
    return IfscDirectory.fromSnapshot(await readFile(path));
  }

  static fromBranches(branches: Iterable<Branch>, source = 'memory'): IfscDirectory {
    return IfscDirectory.fromSnapshot(encodeSnapshot(branches, source));
  }

  get size(): number {
    return this.data.rows;
  }

  get metadata(): SnapshotMetadata {
    return this.data.metadata;
  }

  lookup(ifsc: string): Branch | undefined {
    const row = this.rowOf(canonicalIfsc(ifsc));
    return row === -1 ? undefined : this.branchAt(row);
  }

  search(query: BranchQuery): BranchPage {
    this.searcher ??= new BranchSearch(this.data, (id) => this.text(id));
    const firstRow = query.after === undefined ? 0 : this.rowAfter(canonicalIfsc(query.after));
    const { rows, total, more } = this.searcher.run(query, firstRow);
    return { items: rows.map((row) => this.branchAt(row)), total, limit: query.limit, offset: query.offset, hasNext: more };
  }

  /** Every branch, in IFSC order. */
  *branches(): Generator<Branch> {
    for (let row = 0; row < this.data.rows; row++) yield this.branchAt(row);
  }

  /** Row of an upper-case IFSC by binary search over the sorted IFSC column, or -1. */
  private rowOf(ifsc: string): number {
    if (ifsc.length !== IFSC_LENGTH) return -1;
    const codes = this.codes();
    const row = firstRowFrom(codes, ifsc, false);
    return codes[row] === ifsc ? row : -1;
  }

  /** The first row whose IFSC sorts after `ifsc` (which need not be in the directory), or the row count. */
  private rowAfter(ifsc: string): number {
    return firstRowFrom(this.codes(), ifsc, true);
  }

  /**
   * The IFSC column as strings, made on the first lookup rather than at load: one decode of the column, then
   * slices of it (cheap in V8), so comparisons during the binary search stay in JavaScript.
   */
  private codes(): string[] {
    if (!this.ifscCodes) {
      const column = this.data.ifsc.toString('latin1');
      this.ifscCodes = Array.from({ length: this.data.rows }, (_, row) => column.slice(row * IFSC_LENGTH, (row + 1) * IFSC_LENGTH));
    }
    return this.ifscCodes;
  }

  private text(id: number): string {
    let value = this.decoded[id];
    if (value === undefined) {
      const { stringOffsets, blob } = this.data;
      value = blob.toString('utf8', stringOffsets[id] as number, stringOffsets[id + 1] as number);
      this.decoded[id] = value;
    }
    return value;
  }

  private branchAt(row: number): Branch {
    const { columns, flags } = this.data;
    const bits = flags[row] as number;
    const out: Record<string, string | boolean> = {};
    for (const [key, kind] of KEY_PLAN) {
      if (kind === 'ifsc') out[key] = this.codes()[row] as string;
      else if (typeof kind === 'number') out[key] = (bits & kind) !== 0;
      else out[key] = this.text(columns[kind][row] as number);
    }
    return out as unknown as Branch;
  }
}

/** Binary search of sorted `codes`: the first index whose code is >= `ifsc` (> when `after`), or codes.length. */
function firstRowFrom(codes: readonly string[], ifsc: string, after: boolean): number {
  let low = 0;
  let high = codes.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const code = codes[mid] as string;
    if (code < ifsc || (after && code === ifsc)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * How to fill each key, in alphabetical key order (as Razorpay's API returns them): a string column, the IFSC
 * column, or a flag's bit mask. Worked out once, so decoding a row is one pass without lookups.
 */
const KEY_PLAN: readonly (readonly [string, StringField | 'ifsc' | number])[] = [
  ...STRING_FIELDS.map((field) => [field, field] as const),
  ['IFSC', 'ifsc'] as const,
  ...FLAG_FIELDS.map((field, bit) => [field, 1 << bit] as const),
].sort((a, b) => (a[0] < b[0] ? -1 : 1));
