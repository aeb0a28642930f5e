// An incremental JSON reader for Sheet JSON workbooks. It builds the small parts (names, headers, list items)
// as values and hands table rows over in batches: a run of complete rows is cut out of the input buffer and
// parsed with one native JSON.parse call, so the bulk of a big workbook is parsed at native speed and never
// held whole. Only the workbook -> sheets -> blocks -> rows path is special; any other shape is built as a
// plain value and reported through the handler, so the envelope check can describe it.

import { DEFAULT_INPUT_LIMITS, limitExceeded } from '../limits.js';

export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

export interface ScanHandler {
  /** A root key other than a sheets array, or a root that is not an object (key null). */
  rootValue(key: string | null, value: unknown): void;
  sheetStart(): void;
  sheetValue(key: string, value: unknown): void;
  sheetEnd(): void;
  /** An element of `sheets` that is not an object. */
  sheetOther(value: unknown): void;
  blockStart(): void;
  blockValue(key: string, value: unknown): void;
  blockEnd(): void;
  /** An element of `blocks` that is not an object. */
  blockOther(value: unknown): void;
  rowsStart(): void;
  rows(batch: unknown[]): void;
  rowsEnd(): void;
}

/** A handler that takes nothing (a scan for the syntax only; the .xlsx reader looking for one list item). */
export const IGNORE_ALL: ScanHandler = {
  rootValue() {},
  sheetStart() {},
  sheetValue() {},
  sheetEnd() {},
  sheetOther() {},
  blockStart() {},
  blockValue() {},
  blockEnd() {},
  blockOther() {},
  rowsStart() {},
  rows() {},
  rowsEnd() {},
};

const enum Role {
  Root,
  Sheets,
  Sheet,
  Blocks,
  Block,
  Rows,
  Generic,
}

const enum State {
  KeyOrEnd,
  Key,
  Colon,
  Value,
  CommaOrEnd,
  ValueOrEnd,
}

interface Frame {
  object: boolean;
  role: Role;
  state: State;
  key: string;
  /** The value under construction (generic frames only). */
  value: Record<string, unknown> | unknown[] | null;
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_ARRAY || c === CLOSE_OBJECT || isSpace(c);
}

const INCOMPLETE = -1;

/** The values of `[` + b[start, end) + `]`, or null when that is not valid JSON. */
function tryParseRows(b: Buffer, start: number, end: number): unknown[] | null {
  try {
    return JSON.parse(`[${b.toString('utf8', start, end)}]`) as unknown[];
  } catch {
    return null;
  }
}
/** Bytes of rows parsed per JSON.parse call. */
const BATCH_BYTES = 64 * 1024;
/** Smallest stretch of rows the fast path in scanRows() tries to parse in one go. */
const FAST_BATCH_MIN_BYTES = 4096;

const EMPTY = Buffer.alloc(0);

export class JsonScanner {
  private buf: Buffer = EMPTY;
  private pos = 0;
  /**
   * The scanner's own buffer: the bytes of the input not consumed yet (a row cut by the end of a chunk) wait
   * here, and the next chunk is copied in after them. Reused for the whole input, so the scanner allocates no
   * buffer per chunk, and never holds on to a chunk once push() returns (the caller may reuse it).
   */
  private own: Buffer = EMPTY;
  /** `buf` is a view of `own` (not a caller's chunk). */
  private inOwn = false;
  /** Absolute offset of buf[0] in the input. */
  private base = 0;
  private readonly stack: Frame[] = [];
  private done = false;
  private started = false;
  private final = false;
  /** Absolute offset of the last cut the fast path of scanRows() failed to parse at. */
  private failedCut = -1;

  /**
   * `maxDepth`: most arrays and objects open at once (limits.jsonDepth). Sheet JSON nests seven deep (workbook, sheets, sheet, blocks, block, rows, row); the frames
   * of a deeper document are refused as they open, before a megabyte of `[` holds a million of them.
   */
  constructor(private readonly handler: ScanHandler, private readonly maxDepth = DEFAULT_INPUT_LIMITS.jsonDepth) {}

  push(chunk: Buffer): void {
    if (!this.started && this.base === 0 && this.pos === 0 && this.buf.length === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
      // A UTF-8 byte-order mark, as Windows tools write it: not part of the JSON text.
      this.base = 3;
      chunk = chunk.subarray(3);
    }
    // The rest of the previous chunk is at the start of `own` (keepRest()).
    const rest = this.buf.length - this.pos;
    this.base += this.pos;
    this.pos = 0;
    this.buf = rest > 0 ? this.after(rest, chunk) : chunk;
    this.inOwn = rest > 0;
    this.run();
    this.keepRest();
  }

  /** `own` holding its first `rest` bytes followed by `chunk`. */
  private after(rest: number, chunk: Buffer): Buffer {
    const length = rest + chunk.length;
    if (length > this.own.length) {
      // A little more than needed: chunks of one size (a file's) then fit without growing again.
      const grown = Buffer.allocUnsafeSlow(length + (length >> 3));
      this.own.copy(grown, 0, 0, rest);
      this.own = grown;
    }
    this.own.set(chunk, rest);
    return this.own.subarray(0, length);
  }

  /** Moves the bytes not consumed to the start of `own`, so that the chunk they came in is free again. */
  private keepRest(): void {
    const rest = this.buf.length - this.pos;
    if (rest === 0) {
      this.buf = EMPTY;
    } else {
      // copyWithin() when they are in `own` already: the ranges may overlap.
      if (this.inOwn) this.own.copyWithin(0, this.pos, this.buf.length);
      else {
        if (rest > this.own.length) this.own = Buffer.allocUnsafeSlow(rest + (rest >> 3));
        this.own.set(this.buf.subarray(this.pos), 0);
      }
      this.buf = this.own.subarray(0, rest);
      this.inOwn = true;
    }
    this.base += this.pos;
    this.pos = 0;
  }

  end(): void {
    this.final = true;
    this.run();
    this.skipSpace();
    if (this.pos < this.buf.length) this.fail('Unexpected data after the JSON value');
    if (!this.done) this.fail(this.started ? 'Unexpected end of input' : 'Empty input');
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(this.base + this.pos, message);
  }

  private skipSpace(): void {
    const b = this.buf;
    let p = this.pos;
    while (p < b.length && isSpace(b[p]!)) p++;
    this.pos = p;
  }

  private run(): void {
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (top?.role === Role.Rows) {
        if (!this.scanRows()) return;
        continue;
      }
      this.skipSpace();
      if (this.pos >= this.buf.length) return;
      if (!this.step(top)) return;
    }
  }

  /** One token; false when more input is needed. */
  private step(top: Frame | undefined): boolean {
    const c = this.buf[this.pos]!;
    if (!top) {
      if (this.done) this.fail('Unexpected data after the JSON value');
      this.started = true;
      return this.value(undefined);
    }
    switch (top.state) {
      case State.KeyOrEnd:
        return c === CLOSE_OBJECT ? this.close() : this.key(top, c);
      case State.Key:
        return this.key(top, c);
      case State.Colon:
        if (c !== COLON) this.fail("Expected ':'");
        this.pos++;
        top.state = State.Value;
        return true;
      case State.CommaOrEnd:
        if (c === COMMA) {
          this.pos++;
          top.state = top.object ? State.Key : State.Value;
          return true;
        }
        if (c === (top.object ? CLOSE_OBJECT : CLOSE_ARRAY)) return this.close();
        return this.fail(`Expected ',' or '${top.object ? '}' : ']'}'`);
      case State.ValueOrEnd:
        if (c === CLOSE_ARRAY) return this.close();
        return this.value(top);
      case State.Value:
        return this.value(top);
    }
  }

  private key(top: Frame, c: number): boolean {
    if (c !== QUOTE) this.fail('Expected a property name');
    const key = this.string();
    if (key === undefined) return false;
    top.key = key;
    top.state = State.Colon;
    return true;
  }

  private childRole(parent: Frame | undefined, opening: number): Role {
    if (!parent) return opening === OPEN_OBJECT ? Role.Root : Role.Generic;
    const isObject = opening === OPEN_OBJECT;
    switch (parent.role) {
      case Role.Root:
        return parent.key === 'sheets' && !isObject ? Role.Sheets : Role.Generic;
      case Role.Sheets:
        return isObject ? Role.Sheet : Role.Generic;
      case Role.Sheet:
        return parent.key === 'blocks' && !isObject ? Role.Blocks : Role.Generic;
      case Role.Blocks:
        return isObject ? Role.Block : Role.Generic;
      case Role.Block:
        return parent.key === 'rows' && !isObject ? Role.Rows : Role.Generic;
      default:
        return Role.Generic;
    }
  }

  private value(parent: Frame | undefined): boolean {
    const c = this.buf[this.pos]!;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (this.stack.length >= this.maxDepth) {
        throw limitExceeded('jsonDepth', this.maxDepth, `the JSON workbook at byte ${this.base + this.pos}`, `arrays and objects nest more than ${this.maxDepth} deep`);
      }
      const role = this.childRole(parent, c);
      this.pos++;
      if (parent) parent.state = State.CommaOrEnd;
      const object = c === OPEN_OBJECT;
      const value = role === Role.Generic ? (object ? {} : []) : null;
      this.stack.push({ object, role, state: object ? State.KeyOrEnd : State.ValueOrEnd, key: '', value });
      if (role === Role.Sheet) this.handler.sheetStart();
      if (role === Role.Block) this.handler.blockStart();
      if (role === Role.Rows) this.handler.rowsStart();
      return true;
    }
    const v = c === QUOTE ? this.string() : this.literal();
    if (v === undefined) return false;
    if (parent) parent.state = State.CommaOrEnd;
    this.deliver(parent, v);
    return true;
  }

  /** A finished value goes to its parent frame (or the handler). */
  private deliver(parent: Frame | undefined, v: unknown): void {
    if (!parent) {
      this.done = true;
      this.handler.rootValue(null, v);
      return;
    }
    switch (parent.role) {
      case Role.Generic:
        if (parent.object) (parent.value as Record<string, unknown>)[parent.key] = v;
        else (parent.value as unknown[]).push(v);
        return;
      case Role.Root:
        return this.handler.rootValue(parent.key, v);
      case Role.Sheets:
        return this.handler.sheetOther(v);
      case Role.Sheet:
        return this.handler.sheetValue(parent.key, v);
      case Role.Blocks:
        return this.handler.blockOther(v);
      case Role.Block:
        return this.handler.blockValue(parent.key, v);
      default:
        return;
    }
  }

  private close(): boolean {
    this.pos++;
    const frame = this.stack.pop()!;
    const parent = this.stack[this.stack.length - 1];
    switch (frame.role) {
      case Role.Generic:
        this.deliver(parent, frame.value);
        break;
      case Role.Sheet:
        this.handler.sheetEnd();
        break;
      case Role.Block:
        this.handler.blockEnd();
        break;
      case Role.Rows:
        this.handler.rowsEnd();
        break;
      case Role.Root:
        this.done = true;
        break;
      default:
        break;
    }
    if (!parent) this.done = true;
    return true;
  }

  /** A string token at pos; undefined when it is not complete yet. */
  private string(): string | undefined {
    const b = this.buf;
    const start = this.pos;
    let simple = true;
    let ascii = true;
    let p = start + 1;
    for (;;) {
      if (p >= b.length) {
        if (this.final) this.fail('Unterminated string');
        return undefined;
      }
      const c = b[p]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        simple = false;
        p += 2;
        continue;
      }
      if (c < 0x20) {
        this.pos = p;
        this.fail('Control character in a string');
      }
      if (c >= 0x80) ascii = false;
      p++;
    }
    this.pos = p + 1;
    if (simple) return b.toString(ascii ? 'latin1' : 'utf8', start + 1, p);
    return this.parse(b.toString('utf8', start, p + 1), start) as string;
  }

  /** A number, true, false or null at pos; undefined when it may continue in the next chunk. */
  private literal(): unknown {
    const b = this.buf;
    const start = this.pos;
    let p = start;
    while (p < b.length && !isDelimiter(b[p]!)) p++;
    if (p >= b.length && !this.final) return undefined;
    this.pos = p;
    return this.parse(b.toString('latin1', start, p), start);
  }

  private parse(text: string, at: number): unknown {
    try {
      return JSON.parse(text);
    } catch {
      this.pos = at;
      return this.fail(`Invalid JSON value '${text.slice(0, 40)}'`);
    }
  }

  /** End offset (exclusive) of the value starting at p, or INCOMPLETE. */
  private valueEnd(p: number): number {
    const b = this.buf;
    const c = b[p]!;
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      let depth = 0;
      let inString = false;
      for (let i = p; i < b.length; i++) {
        const x = b[i]!;
        if (inString) {
          if (x === BACKSLASH) i++;
          else if (x === QUOTE) inString = false;
        } else if (x === QUOTE) {
          inString = true;
        } else if (x === OPEN_ARRAY || x === OPEN_OBJECT) {
          depth++;
        } else if (x === CLOSE_ARRAY || x === CLOSE_OBJECT) {
          depth--;
          if (depth === 0) return i + 1;
        }
      }
      return INCOMPLETE;
    }
    if (c === QUOTE) {
      for (let i = p + 1; i < b.length; i++) {
        const x = b[i]!;
        if (x === BACKSLASH) i++;
        else if (x === QUOTE) return i + 1;
      }
      return INCOMPLETE;
    }
    let i = p;
    while (i < b.length && !isDelimiter(b[i]!)) i++;
    return i < b.length || this.final ? i : INCOMPLETE;
  }

  /**
   * Inside `rows`: consumes complete rows from the buffer (up to BATCH_BYTES), parsing them as one batch.
   * Returns false when more input is needed, true when it can go on (the rows array closed or more rows are
   * buffered).
   */
  private scanRows(): boolean {
    const frame = this.stack[this.stack.length - 1]!;
    const b = this.buf;
    let p = this.pos;
    let batchStart = -1;
    let batchEnd = -1;
    let closed = false;
    let incomplete = false;
    let state = frame.state;
    for (;;) {
      while (p < b.length && isSpace(b[p]!)) p++;
      if (p >= b.length) break;
      const c = b[p]!;
      if (state === State.CommaOrEnd) {
        if (c === COMMA) {
          p++;
          state = State.Value;
          continue;
        }
        if (c !== CLOSE_ARRAY) {
          this.pos = p;
          this.fail("Expected ',' or ']' between rows");
        }
        closed = true;
        p++;
        break;
      }
      if (c === CLOSE_ARRAY && state === State.ValueOrEnd) {
        closed = true;
        p++;
        break;
      }
      if (c === CLOSE_ARRAY || c === COMMA || c === CLOSE_OBJECT || c === COLON) {
        this.pos = p;
        this.fail('Expected a row');
      }
      if (batchStart < 0) {
        // Fast path: cut the batch at the last ']' (or '}') within BATCH_BYTES and let JSON.parse judge it.
        // '[' + text + ']' parses only if the text is a sequence of complete values (a cut inside a string
        // leaves it unterminated, a cut inside a row leaves a bracket open, a cut past the end of the rows
        // closes the batch early), so a batch that parses is exactly the rows it holds. One that does not
        // (a string with a ']' at the cut, the end of the table, a partial row, bad JSON) is scanned value by
        // value below, as before. Tried only on a good stretch of input (a failed parse throws, which costs),
        // and never twice at the same cut (small chunks would retry it with every push).
        const cut = b.lastIndexOf(c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY, Math.min(p + BATCH_BYTES, b.length) - 1);
        if (cut - p >= FAST_BATCH_MIN_BYTES && this.base + cut > this.failedCut) {
          const rows = tryParseRows(b, p, cut + 1);
          if (rows === null) this.failedCut = this.base + cut;
          else {
            this.handler.rows(rows);
            p = cut + 1;
            state = State.CommaOrEnd;
            frame.state = state;
            this.pos = p;
            continue;
          }
        }
      }
      const end = this.valueEnd(p);
      if (end === INCOMPLETE) {
        incomplete = true;
        break;
      }
      if (batchStart < 0) batchStart = p;
      batchEnd = end;
      p = end;
      state = State.CommaOrEnd;
      // Small batches: their rows are processed before the next young-generation collection, so they die
      // young instead of being copied around by the garbage collector.
      if (batchEnd - batchStart >= BATCH_BYTES) break;
    }
    if (batchStart >= 0) {
      let batch: unknown[];
      try {
        batch = JSON.parse(`[${b.toString('utf8', batchStart, batchEnd)}]`) as unknown[];
      } catch {
        this.pos = batchStart;
        this.fail('Invalid JSON in a table row');
      }
      this.handler.rows(batch);
    }
    frame.state = state;
    this.pos = p;
    if (closed) {
      this.pos = p - 1;
      this.close();
      return true;
    }
    if (!incomplete && p < b.length) return true; // batch full: more rows are waiting in the buffer
    if (this.final) this.fail('Unexpected end of input inside rows');
    return false;
  }
}
