import type { Branch, StringField } from './branch.js';
import type { SnapshotColumns } from './snapshot.js';

/** Filters of `GET /bank/search`. Every filter is optional; the ones given must all match. */
export interface BranchQuery {
  /** A bank code (BANKCODE, sublet-aware) or a bank name, case-insensitive. */
  bank?: string;
  /** A state name or its ISO 3166-2 code (`IN-KA`), case-insensitive. */
  state?: string;
  /** CITY or CENTRE (RBI's lists swap the two), case-insensitive. */
  city?: string;
  district?: string;
  /** Free text found anywhere in BRANCH or ADDRESS, case-insensitive. */
  q?: string;
  limit: number;
  /** Matches skipped before the page starts (after `after`, when given). */
  offset: number;
  /** Keyset paging: only branches whose IFSC sorts after this one (upper case), so swaps never shift pages. */
  after?: string;
}

export interface BranchPage<T = Branch> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  /** Whether a match follows the last item (from where the page started, so true means another page exists). */
  hasNext: boolean;
}

/** What one pass over the rows found: the page's rows, every match's count, and whether matches follow the page. */
export interface ScanResult {
  rows: number[];
  total: number;
  more: boolean;
}

type Facet = 'bank' | 'state' | 'city' | 'district';

const FACET_COLUMNS: Record<Facet, readonly StringField[]> = {
  bank: ['BANKCODE', 'BANK'],
  state: ['STATE', 'ISO3166'],
  city: ['CITY', 'CENTRE'],
  district: ['DISTRICT'],
};

const TEXT_COLUMNS: readonly StringField[] = ['BRANCH', 'ADDRESS'];

function facetKey(value: string): string {
  return value.replace(/\s+/g, ' ').trim().toUpperCase();
}

/** ASCII upper-casing of UTF-8 bytes: multi-byte sequences are left alone, so offsets stay valid. */
function asciiUpper(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) {
    const b = out[i] as number;
    if (b >= 0x61 && b <= 0x7a) out[i] = b - 0x20;
  }
  return out;
}

/** A row predicate: the row matches when one of `columns` holds a string id marked in `accepted`. */
interface RowTest {
  columns: Uint32Array[];
  accepted: Uint8Array;
}

/**
 * Search over a snapshot without per-branch objects: each filter becomes a bitmap over the string table
 * (which distinct values it accepts), and one pass over the rows tests column ids against the bitmaps.
 * Indexes are built lazily, on the first search that needs them, so loading a directory stays instant.
 */
export class BranchSearch {
  private readonly facetIndex = new Map<Facet, Map<string, number[]>>();
  private upperBlob: Buffer | undefined;

  constructor(private readonly data: SnapshotColumns, private readonly text: (id: number) => string) {}

  /** The page of `query` among rows from `firstRow` on (rows are in IFSC order); `total` counts every match. */
  run(query: BranchQuery, firstRow = 0): ScanResult {
    const tests: RowTest[] = [];
    for (const facet of Object.keys(FACET_COLUMNS) as Facet[]) {
      const value = query[facet];
      if (value !== undefined && value.trim() !== '') tests.push(this.facetTest(facet, value));
    }
    if (query.q !== undefined && query.q.trim() !== '') tests.push(this.textTest(query.q));
    return this.scan(tests, firstRow, query.offset, query.limit);
  }

  private scan(tests: readonly RowTest[], firstRow: number, offset: number, limit: number): ScanResult {
    const rows: number[] = [];
    let total = 0;
    let fromFirst = 0;
    for (let row = 0; row < this.data.rows; row++) {
      if (!tests.every((test) => test.columns.some((column) => test.accepted[column[row] as number] === 1))) continue;
      total++;
      if (row < firstRow) continue;
      if (fromFirst >= offset && rows.length < limit) rows.push(row);
      fromFirst++;
    }
    return { rows, total, more: offset + rows.length < fromFirst };
  }

  private bitmap(): Uint8Array {
    return new Uint8Array(this.data.stringOffsets.length - 1);
  }

  private facetTest(facet: Facet, value: string): RowTest {
    const columns = FACET_COLUMNS[facet].map((field) => this.data.columns[field]);
    const accepted = this.bitmap();
    for (const id of this.facetValues(facet).get(facetKey(value)) ?? []) accepted[id] = 1;
    return { columns, accepted };
  }

  /** Normalised value -> the string ids that spell it, over the facet's columns. */
  private facetValues(facet: Facet): Map<string, number[]> {
    let index = this.facetIndex.get(facet);
    if (index) return index;
    index = new Map();
    const seen = this.bitmap();
    for (const field of FACET_COLUMNS[facet]) {
      for (const id of this.data.columns[field]) {
        if (seen[id] === 1) continue;
        seen[id] = 1;
        const key = facetKey(this.text(id));
        index.set(key, [...(index.get(key) ?? []), id]);
      }
    }
    this.facetIndex.set(facet, index);
    return index;
  }

  /** Marks every string containing `q` by scanning the upper-cased string blob once with indexOf. */
  private textTest(q: string): RowTest {
    this.upperBlob ??= asciiUpper(this.data.blob);
    const needle = asciiUpper(Buffer.from(q.trim(), 'utf8'));
    const accepted = this.bitmap();
    const offsets = this.data.stringOffsets;
    for (let at = this.upperBlob.indexOf(needle); at !== -1; at = this.upperBlob.indexOf(needle, at + 1)) {
      const id = stringAt(offsets, at);
      if (at + needle.length <= (offsets[id + 1] as number)) accepted[id] = 1;
    }
    return { columns: TEXT_COLUMNS.map((field) => this.data.columns[field]), accepted };
  }
}

/** The id of the string whose bytes contain blob position `at` (largest i with offsets[i] <= at). */
function stringAt(offsets: Uint32Array, at: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if ((offsets[mid] as number) <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
