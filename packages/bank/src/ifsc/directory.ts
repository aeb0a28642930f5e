import { readFile } from 'node:fs/promises';
import { FLAG_FIELDS, IFSC_LENGTH, STRING_FIELDS, canonicalIfsc, type Branch, type FlagField, type StringField } from './branch.js';
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
    const { rows, total } = this.searcher.run(query);
    return {
      items: rows.map((row) => this.branchAt(row)),
      total,
      limit: query.limit,
      offset: query.offset,
      hasNext: query.offset + rows.length < total,
    };
  }

  /** Every branch, in IFSC order. */
  *branches(): Generator<Branch> {
    for (let row = 0; row < this.data.rows; row++) yield this.branchAt(row);
  }

  /** Row of an upper-case IFSC by binary search over the sorted IFSC column, or -1. */
  private rowOf(ifsc: string): number {
    if (ifsc.length !== IFSC_LENGTH || !/^[A-Z0-9]+$/.test(ifsc)) return -1;
    const key = Buffer.from(ifsc, 'ascii');
    let low = 0;
    let high = this.data.rows - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const order = this.data.ifsc.compare(key, 0, IFSC_LENGTH, mid * IFSC_LENGTH, (mid + 1) * IFSC_LENGTH);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
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
    const { columns, flags, ifsc } = this.data;
    const bits = flags[row] as number;
    const out: Record<string, string | boolean> = {};
    for (const key of KEY_ORDER) {
      if (key === 'IFSC') out[key] = ifsc.toString('ascii', row * IFSC_LENGTH, (row + 1) * IFSC_LENGTH);
      else if (isFlag(key)) out[key] = (bits & (1 << FLAG_FIELDS.indexOf(key))) !== 0;
      else out[key] = this.text(columns[key][row] as number);
    }
    return out as unknown as Branch;
  }
}

/** Keys in alphabetical order, as Razorpay's API returns them. */
const KEY_ORDER: readonly (StringField | FlagField | 'IFSC')[] = [...STRING_FIELDS, 'IFSC' as const, ...FLAG_FIELDS].sort();

function isFlag(key: string): key is FlagField {
  return (FLAG_FIELDS as readonly string[]).includes(key);
}
