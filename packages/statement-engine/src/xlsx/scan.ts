// The fast tokenizer of worksheet XML: it reads the inflated bytes of a worksheet part directly (no decoding
// to a string, no attribute objects) and drives the row builder (rows.ts) with what `<row>`, `<c r= t= s=>`,
// `<v>`, `<f>`, `<is><t>`, `<r>` and `<rPh>` say. It reads the XML that worksheets are made of: elements
// (any name, any prefix), attributes in any order and either quote, text with the five XML entities and
// numeric character references. Anything else (comments, CDATA, processing instructions, a DOCTYPE, a name
// or character it does not check the way saxes does) and anything that is refused (malformed XML, a limit
// passed) makes it give way: write() or end() returns false, and the part is read again by saxes from its
// start (worksheet.ts), which reads or refuses it as it always did, with the same message.
//
// What it checks is what saxes would refuse, as early: the chunk where saxes fails is at the latest the one
// where this tokenizer gives way, so it never hands over a row saxes would not have handed over first.

import { StatementEngineError } from '../errors.js';
import type { XmlLimits } from './parts.js';
import { columnOf, type RowBuilder } from './rows.js';

/** Give way: saxes reads the part. */
const GIVE_WAY = -1;
/** The construct goes on in the next chunk. */
const INCOMPLETE = -2;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const HASH = 0x23;
const AMP = 0x26;
const APOS = 0x27;
const SLASH = 0x2f;
const SEMICOLON = 0x3b;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;
const BRACKET = 0x5d;

/** Byte classes: a name's first byte, its other bytes (ASCII only: saxes checks the others), plain text. */
const NAME_START = new Uint8Array(256);
const NAME_CHAR = new Uint8Array(256);
/** Text bytes that need no look: printable ASCII but `<`, `&` and `>`, and tab and line feed. */
const PLAIN_TEXT = new Uint8Array(256);
/** Attribute value bytes that need no look: printable ASCII but `<`, `&` and the quotes (tab and line feed become spaces in saxes). */
const PLAIN_VALUE = new Uint8Array(256);
const ENTITY_CHAR = new Uint8Array(256);
for (let b = 0; b < 128; b++) {
  const c = String.fromCharCode(b);
  const letter = /[A-Za-z]/.test(c);
  NAME_START[b] = letter || c === '_' || c === ':' ? 1 : 0;
  NAME_CHAR[b] = NAME_START[b] || /[0-9.-]/.test(c) ? 1 : 0;
  PLAIN_TEXT[b] = (b >= SPACE && b !== LT && b !== AMP && b !== GT) || b === TAB || b === LF ? 1 : 0;
  PLAIN_VALUE[b] = b >= SPACE && b !== LT && b !== AMP && b !== QUOTE && b !== APOS ? 1 : 0;
  ENTITY_CHAR[b] = letter || /[0-9#]/.test(c) ? 1 : 0;
}

/** What a text or an attribute value holds beyond plain ASCII. */
const HAS_ENTITY = 1;
const HAS_NON_ASCII = 2;
const HAS_CR = 4;

/** Element kinds: what the row builder is told of. */
const enum Kind {
  Other,
  Row,
  Cell,
  Value,
  Formula,
  Run,
  Phonetic,
  Text,
}

const KIND_OF_LOCAL: Record<string, Kind> = { row: Kind.Row, c: Kind.Cell, v: Kind.Value, f: Kind.Formula, r: Kind.Run, rPh: Kind.Phonetic, t: Kind.Text };

/** The XML declarations read here (Excel's and the like); saxes reads any other. */
const XML_DECLARATION = /^<\?xml version=(["'])1\.0\1(?: encoding=(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?: standalone=(["'])(?:yes|no)\3)?\?>$/;

/** Distinct element names held at most (a part of endless names is saxes's to read). */
const MOST_NAMES = 1024;
/** Attributes of one element looked at, at most (for the duplicate check). */
const MOST_ATTRIBUTES = 32;
/** Bytes of an entity reference read here, at most (`&#x10FFFF;` is 10). */
const MOST_ENTITY_BYTES = 12;

/** An XML 1.0 character (the Char production), as saxes checks a character reference. */
const isXmlChar = (c: number) => c === TAB || c === LF || c === CR || (c >= SPACE && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The character of an entity reference's name (`amp`, `#65`, `#x41`), or null when saxes refuses it. */
function entityValue(name: string): string | null {
  if (name.charCodeAt(0) !== HASH) return PREDEFINED[name] ?? null;
  let code = NaN;
  if (/^#x[0-9a-f]+$/i.test(name) && name[1] === 'x') code = parseInt(name.slice(2), 16);
  else if (/^#[0-9]+$/.test(name)) code = parseInt(name.slice(1), 10);
  return isXmlChar(code) ? String.fromCodePoint(code) : null;
}

/** U+FFFE and U+FFFF (EF BF BE, EF BF BF) are no XML characters: saxes refuses them. */
const isNonCharacter = (buf: Buffer, at: number) => buf[at] === 0xef && buf[at + 1] === 0xbf && (buf[at + 2] === 0xbe || buf[at + 2] === 0xbf);

/** Whether buf[a..aEnd) and buf[b..bEnd) are the same bytes (attribute names: a byte or a few). */
function sameBytes(buf: Buffer, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let i = 0; i < aEnd - a; i++) if (buf[a + i] !== buf[b + i]) return false;
  return true;
}

/** Element names met, each with an id (the stack holds ids) and the kind of its local name. */
class ElementNames {
  private readonly bytes: Buffer[] = [];
  readonly kinds: Kind[] = [];
  /** One-byte names (`c`, `v`, `f`, `t`, `r`) by their byte: their id, or -1. */
  private readonly single = new Int32Array(256).fill(-1);

  /** The id of the name at buf[start..end), added when new; GIVE_WAY past MOST_NAMES. */
  idOf(buf: Buffer, start: number, end: number): number {
    if (end - start === 1) {
      const id = this.single[buf[start]!]!;
      if (id >= 0) return id;
    } else {
      for (let id = 0; id < this.bytes.length; id++) if (this.matches(id, buf, start, end)) return id;
    }
    if (this.bytes.length >= MOST_NAMES) return GIVE_WAY;
    const name = Buffer.from(buf.subarray(start, end));
    const text = name.toString('latin1');
    const colon = text.indexOf(':');
    this.bytes.push(name);
    this.kinds.push(KIND_OF_LOCAL[colon < 0 ? text : text.slice(colon + 1)] ?? Kind.Other);
    const id = this.bytes.length - 1;
    if (name.length === 1) this.single[name[0]!] = id;
    return id;
  }

  matches(id: number, buf: Buffer, start: number, end: number): boolean {
    const name = this.bytes[id]!;
    if (name.length !== end - start) return false;
    for (let i = 0; i < name.length; i++) if (name[i] !== buf[start + i]) return false;
    return true;
  }
}

/** Where one attribute's value is in the tag being read, and what it holds (HAS_*); start -1: absent. */
class ValueSpan {
  start = -1;
  end = -1;
  flags = 0;
}

export class SheetScanner {
  /** The bytes of a construct the last chunk ended in, read again with the next one. */
  private pending: Buffer | null = null;
  private started = false;
  private rootSeen = false;
  private readonly stack: number[] = [];
  private readonly names = new ElementNames();
  /** Bytes a construct may take across chunks: no more than saxes may hold without refusing it. */
  private readonly most: number;
  // The tag being read: its attributes' names (for the duplicate check) and the values the builder reads.
  private readonly attributeStarts = new Int32Array(MOST_ATTRIBUTES);
  private readonly attributeEnds = new Int32Array(MOST_ATTRIBUTES);
  private readonly r = new ValueSpan();
  private readonly t = new ValueSpan();
  private readonly s = new ValueSpan();

  constructor(
    private readonly builder: RowBuilder,
    private readonly limits: XmlLimits,
  ) {
    this.most = Math.min(limits.cellChars, limits.attributeChars);
  }

  /** Reads one chunk of the part; false: give way to saxes (the builder's rows of this chunk are not to be used). */
  write(chunk: Buffer): boolean {
    const buf = this.pending === null ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = null;
    let at: number;
    try {
      at = this.scan(buf);
    } catch (error) {
      // A refusal of the builder (a limit, a missing shared string): saxes makes it, at its place in the part.
      if (error instanceof StatementEngineError) return false;
      throw error;
    }
    if (at === GIVE_WAY) return false;
    if (at < buf.length) {
      if (buf.length - at > this.most) return false;
      // A copy: the chunk is the inflater's buffer, not ours to keep.
      this.pending = Buffer.from(buf.subarray(at));
    }
    return true;
  }

  /** The part has ended: false unless it was a whole document (saxes says what is wrong with it). */
  end(): boolean {
    return this.pending === null && this.rootSeen && this.stack.length === 0;
  }

  /** Reads buf from its start: where the construct it ends in starts (buf.length: none), or GIVE_WAY. */
  private scan(buf: Buffer): number {
    const n = buf.length;
    let i = 0;
    if (!this.started) {
      i = this.prolog(buf);
      if (i === INCOMPLETE) return 0;
      if (i === GIVE_WAY) return GIVE_WAY;
    }
    while (i < n) {
      if (buf[i] !== LT) {
        // Most texts are a value's few plain bytes: read here, without a call per text (indexOf is one).
        let lt = i;
        while (lt < n && PLAIN_TEXT[buf[lt]!]) lt++;
        if (lt < n && buf[lt] === LT && this.stack.length > 0) {
          if (this.builder.wantsText) this.deliver(buf, i, lt, 0);
        } else {
          if (lt < n && buf[lt] !== LT) lt = buf.indexOf(LT, lt);
          if (lt < 0 || lt >= n) return this.checkText(buf, i, n, true) === GIVE_WAY ? GIVE_WAY : i;
          if (!this.text(buf, i, lt)) return GIVE_WAY;
        }
        i = lt;
      }
      if (i + 1 >= n) return i;
      const next = buf[i + 1]!;
      // `<!` (comments, CDATA, DOCTYPE), `<?` (processing instructions) and the like: saxes reads them.
      const end = next === SLASH ? this.endTag(buf, i) : NAME_START[next] ? this.startTag(buf, i) : GIVE_WAY;
      if (end === GIVE_WAY) return GIVE_WAY;
      if (end === INCOMPLETE) return i;
      i = end;
    }
    return n;
  }

  /** The part's start: a byte order mark, the XML declaration (only the plain ones are read here). */
  private prolog(buf: Buffer): number {
    let i = 0;
    if (buf[0] === 0xef) {
      if (buf.length < 3) return INCOMPLETE;
      if (buf[1] !== 0xbb || buf[2] !== 0xbf) return GIVE_WAY;
      i = 3;
    }
    if (buf.length < i + 2) return INCOMPLETE;
    if (buf[i] === LT && buf[i + 1] === QUESTION) {
      const close = buf.indexOf('?>', i);
      if (close < 0) return buf.length - i > 200 ? GIVE_WAY : INCOMPLETE;
      if (!XML_DECLARATION.test(buf.toString('latin1', i, close + 2))) return GIVE_WAY;
      i = close + 2;
    }
    this.started = true;
    return i;
  }

  /**
   * Checks the text buf[start..end) as saxes does; `partial`: it goes on in the next chunk (an entity may be
   * cut short; a CR at its end may be half of a CR LF that saxes, reading chunk by chunk, would not join).
   * HAS_* flags of what it holds, or GIVE_WAY.
   */
  private checkText(buf: Buffer, start: number, end: number, partial: boolean): number {
    if (this.stack.length === 0) return this.checkOutsideRoot(buf, start, end);
    let flags = 0;
    for (let j = start; j < end; j++) {
      const b = buf[j]!;
      if (PLAIN_TEXT[b]) continue;
      if (b === AMP) {
        const after = this.entityEnd(buf, j, end);
        if (after === GIVE_WAY) return GIVE_WAY;
        if (after === INCOMPLETE) return partial ? flags : GIVE_WAY;
        flags |= HAS_ENTITY;
        j = after - 1;
      } else if (b === GT) {
        // `]]>` is not allowed in text.
        if (j - start >= 2 && buf[j - 1] === BRACKET && buf[j - 2] === BRACKET) return GIVE_WAY;
      } else if (b >= 0x80) {
        if (isNonCharacter(buf, j)) return GIVE_WAY;
        flags |= HAS_NON_ASCII;
      } else if (b === CR) {
        if (partial && j === end - 1) return GIVE_WAY;
        flags |= HAS_CR;
      } else return GIVE_WAY;
    }
    return flags;
  }

  /** Before and after the root element only white space (saxes refuses any other text there). */
  private checkOutsideRoot(buf: Buffer, start: number, end: number): number {
    for (let j = start; j < end; j++) {
      const b = buf[j];
      if (b !== SPACE && b !== LF && b !== TAB && b !== CR) return GIVE_WAY;
    }
    return 0;
  }

  /** A whole text (a `<` follows): checked, and given to the builder when it keeps text. */
  private text(buf: Buffer, start: number, end: number): boolean {
    const flags = this.checkText(buf, start, end, false);
    if (flags === GIVE_WAY) return false;
    return !this.builder.wantsText || this.deliver(buf, start, end, flags);
  }

  /** A text the builder keeps (checked already, `flags` what it holds); false when it cannot be read here. */
  private deliver(buf: Buffer, start: number, end: number, flags: number): boolean {
    if (flags !== 0) {
      const text = this.decode(buf, start, end, flags);
      if (text === null) return false;
      this.builder.text(text);
      return true;
    }
    const digits = end - start;
    // A whole number without leading zeros, as most values are: no string made.
    if (digits > 0 && digits <= 15 && (buf[start] !== 0x30 || digits === 1)) {
      let number = 0;
      let j = start;
      for (; j < end; j++) {
        const d = buf[j]! - 0x30;
        if (d < 0 || d > 9) break;
        number = number * 10 + d;
      }
      if (j === end) {
        this.builder.number(number, digits);
        return true;
      }
    }
    this.builder.text(buf.toString('latin1', start, end));
    return true;
  }

  /**
   * The text of buf[start..end) (checked already): entities replaced, UTF-8 decoded, CR LF and CR made LF
   * (XML end-of-line handling; a CR from `&#13;` stays). Null when it holds a U+FFFD: bytes that are no UTF-8,
   * which saxes reads through its own decoder, so it reads them.
   */
  private decode(buf: Buffer, start: number, end: number, flags: number): string | null {
    const encoding = flags & HAS_NON_ASCII ? 'utf8' : 'latin1';
    const piece = (from: number, to: number) => {
      const text = buf.toString(encoding, from, to);
      return flags & HAS_CR ? text.replace(/\r\n?/g, '\n') : text;
    };
    let text = '';
    let from = start;
    if (flags & HAS_ENTITY) {
      for (let j = buf.indexOf(AMP, start); j >= 0 && j < end; j = buf.indexOf(AMP, from)) {
        const semicolon = buf.indexOf(SEMICOLON, j);
        text += piece(from, j) + entityValue(buf.toString('latin1', j + 1, semicolon))!;
        from = semicolon + 1;
      }
    }
    text += piece(from, end);
    return flags & HAS_NON_ASCII && text.includes('\ufffd') ? null : text;
  }

  /** The end of the entity reference at buf[at] (`&`): after its `;`, INCOMPLETE, or GIVE_WAY when saxes refuses it. */
  private entityEnd(buf: Buffer, at: number, end: number): number {
    let j = at + 1;
    for (; j < end && buf[j] !== SEMICOLON; j++) {
      if (!ENTITY_CHAR[buf[j]!] || j - at > MOST_ENTITY_BYTES) return GIVE_WAY;
    }
    if (j >= end) return INCOMPLETE;
    return entityValue(buf.toString('latin1', at + 1, j)) === null ? GIVE_WAY : j + 1;
  }

  /** `<name attributes>` or `<name attributes/>` at buf[lt]: where it ends, INCOMPLETE or GIVE_WAY. */
  private startTag(buf: Buffer, lt: number): number {
    const n = buf.length;
    let j = lt + 1;
    while (j < n && NAME_CHAR[buf[j]!]) j++;
    if (j >= n) return INCOMPLETE;
    const nameEnd = j;
    if (nameEnd - lt - 1 > this.limits.attributeChars) return GIVE_WAY;
    this.r.start = this.t.start = this.s.start = -1;
    let count = 0;
    let selfClosing = false;
    for (;;) {
      if (j >= n) return INCOMPLETE;
      let b = buf[j]!;
      const spaced = b === SPACE || b === LF || b === TAB;
      while (b === SPACE || b === LF || b === TAB) {
        if (++j >= n) return INCOMPLETE;
        b = buf[j]!;
      }
      if (b === GT) {
        j++;
        break;
      }
      if (b === SLASH) {
        if (j + 1 >= n) return INCOMPLETE;
        if (buf[j + 1] !== GT) return GIVE_WAY;
        selfClosing = true;
        j += 2;
        break;
      }
      // An attribute: after white space (saxes refuses `a="1"b="2"`), at a name.
      if (!spaced || !NAME_START[b] || count === MOST_ATTRIBUTES) return GIVE_WAY;
      j = this.attribute(buf, j, count++);
      if (j < 0) return j;
    }
    return this.opened(buf, lt + 1, nameEnd, selfClosing) ? j : GIVE_WAY;
  }

  /** The attribute at buf[at] (its name), the `count`th of its tag: where it ends, INCOMPLETE or GIVE_WAY. */
  private attribute(buf: Buffer, at: number, count: number): number {
    const n = buf.length;
    let j = at;
    while (j < n && NAME_CHAR[buf[j]!]) j++;
    const nameEnd = j;
    while (j < n && (buf[j] === SPACE || buf[j] === LF || buf[j] === TAB)) j++;
    if (j >= n) return INCOMPLETE;
    if (buf[j] !== EQUALS || nameEnd - at > this.limits.attributeChars) return GIVE_WAY;
    j++;
    while (j < n && (buf[j] === SPACE || buf[j] === LF || buf[j] === TAB)) j++;
    if (j >= n) return INCOMPLETE;
    const quote = buf[j];
    if (quote !== QUOTE && quote !== APOS) return GIVE_WAY;
    const start = ++j;
    let flags = 0;
    for (; j < n && buf[j] !== quote; j++) {
      const b = buf[j]!;
      if (PLAIN_VALUE[b] || b === QUOTE || b === APOS) continue;
      if (b === AMP) {
        const after = this.entityEnd(buf, j, n);
        if (after < 0) return after;
        flags |= HAS_ENTITY;
        j = after - 1;
      } else if (b >= 0x80) {
        if (isNonCharacter(buf, j)) return GIVE_WAY;
        flags |= HAS_NON_ASCII;
      } else return GIVE_WAY;
    }
    if (j >= n) return INCOMPLETE;
    if (j - start > this.limits.attributeChars) return GIVE_WAY;
    // A name given twice: saxes refuses the tag.
    for (let k = 0; k < count; k++) if (sameBytes(buf, this.attributeStarts[k]!, this.attributeEnds[k]!, at, nameEnd)) return GIVE_WAY;
    this.attributeStarts[count] = at;
    this.attributeEnds[count] = nameEnd;
    if (nameEnd - at === 1) {
      const b = buf[at];
      const span = b === 0x72 ? this.r : b === 0x74 ? this.t : b === 0x73 ? this.s : null;
      if (span) {
        span.start = start;
        span.end = j;
        span.flags = flags;
      }
    }
    return j + 1;
  }

  /** An element has opened (and closed, when self-closing): the stack, the root and the builder. */
  private opened(buf: Buffer, start: number, end: number, selfClosing: boolean): boolean {
    const id = this.names.idOf(buf, start, end);
    if (id === GIVE_WAY || this.stack.length + 1 > this.limits.xmlDepth) return false;
    if (this.stack.length === 0) {
      // One root element: saxes refuses a second.
      if (this.rootSeen) return false;
      this.rootSeen = true;
    }
    const kind = this.names.kinds[id]!;
    if (kind !== Kind.Other && !this.open(buf, kind)) return false;
    if (selfClosing) this.close(kind);
    else this.stack.push(id);
    return true;
  }

  /** `</name>` at buf[lt]: where it ends, INCOMPLETE or GIVE_WAY (saxes refuses a name that is not the open element's). */
  private endTag(buf: Buffer, lt: number): number {
    const n = buf.length;
    let j = lt + 2;
    if (j >= n) return INCOMPLETE;
    if (!NAME_START[buf[j]!]) return GIVE_WAY;
    while (j < n && NAME_CHAR[buf[j]!]) j++;
    const nameEnd = j;
    while (j < n && (buf[j] === SPACE || buf[j] === LF || buf[j] === TAB)) j++;
    if (j >= n) return INCOMPLETE;
    if (buf[j] !== GT || this.stack.length === 0) return GIVE_WAY;
    const id = this.stack[this.stack.length - 1]!;
    if (!this.names.matches(id, buf, lt + 2, nameEnd)) return GIVE_WAY;
    this.stack.pop();
    const kind = this.names.kinds[id]!;
    if (kind !== Kind.Other) this.close(kind);
    return j + 1;
  }

  /** The builder told of an element that opened; false when an attribute it reads cannot be read here. */
  private open(buf: Buffer, kind: Kind): boolean {
    const { builder } = this;
    switch (kind) {
      case Kind.Row:
        builder.openRow(this.integer(buf, this.r, NaN));
        return true;
      case Kind.Cell: {
        const type = this.type(buf);
        if (type === null) return false;
        builder.openCell(this.column(buf), undefined, this.integer(buf, this.s, 0), type);
        return true;
      }
      case Kind.Value:
        builder.openValue();
        return true;
      case Kind.Formula: {
        const t = this.t.start < 0 ? undefined : this.valueText(buf, this.t);
        if (t === null) return false;
        builder.openFormula(t === 'shared');
        return true;
      }
      case Kind.Run:
        builder.openRun();
        return true;
      case Kind.Phonetic:
        builder.openPhonetic();
        return true;
      case Kind.Text:
        builder.openText();
        return true;
      default:
        return true;
    }
  }

  private close(kind: Kind): void {
    const { builder } = this;
    switch (kind) {
      case Kind.Row:
        builder.closeRow();
        return;
      case Kind.Cell:
        builder.closeCell();
        return;
      case Kind.Value:
      case Kind.Text:
        builder.closeValue();
        return;
      case Kind.Formula:
        builder.closeFormula();
        return;
      case Kind.Run:
        builder.closeRun();
        return;
      case Kind.Phonetic:
        builder.closePhonetic();
        return;
      default:
    }
  }

  /** An attribute's text (entities replaced); null when it holds bytes that are no UTF-8. */
  private valueText(buf: Buffer, span: ValueSpan): string | null {
    return span.flags === 0 ? buf.toString('latin1', span.start, span.end) : this.decode(buf, span.start, span.end, span.flags);
  }

  /** parseInt(value, 10) of an attribute (`r` of a row, `s`), `absent` when it is not there; NaN when it cannot be read here. */
  private integer(buf: Buffer, span: ValueSpan, absent: number): number {
    if (span.start < 0) return absent;
    const length = span.end - span.start;
    if (span.flags === 0 && length > 0 && length <= 15) {
      let number = 0;
      let j = span.start;
      for (; j < span.end; j++) {
        const d = buf[j]! - 0x30;
        if (d < 0 || d > 9) break;
        number = number * 10 + d;
      }
      if (j === span.end) return number;
    }
    return parseInt(this.valueText(buf, span) ?? '', 10);
  }

  /** columnOf() of the cell's `r` (0 when it has none). */
  private column(buf: Buffer): number {
    const { r } = this;
    if (r.start < 0) return 0;
    if (r.flags !== 0) return columnOf(this.valueText(buf, r) ?? '');
    let n = 0;
    for (let j = r.start; j < r.end; j++) {
      const code = buf[j]!;
      if (code >= 65 && code <= 90) n = n * 26 + (code - 64);
      else if (code >= 97 && code <= 122) n = n * 26 + (code - 96);
      else break;
    }
    return n;
  }

  /** The cell's `t` (`n` when it has none); null when it cannot be read here. */
  private type(buf: Buffer): string | null {
    const { t } = this;
    if (t.start < 0) return 'n';
    if (t.flags === 0 && t.end - t.start === 1) {
      switch (buf[t.start]) {
        case 0x73:
          return 's';
        case 0x6e:
          return 'n';
        case 0x62:
          return 'b';
        default:
      }
    }
    return this.valueText(buf, t);
  }
}
