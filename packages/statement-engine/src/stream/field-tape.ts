// The FieldWriter calls of the DD records, carried from the thread that builds the deductees to the worker
// thread that writes and checks their bytes (deductee-worker.ts). A ring of float64 slots in shared memory:
// one slot names the call (its kind and field number), the next holds its value, so every number crosses
// exactly as it was written (NaN, -0 and all). A text crosses character by character (a slot each), unless it
// is the same as the last text of its field (the codes that repeat record after record), or as the text both
// sides keep in the field's table under the text's hash (the payees' names and PANs, a few section codes that
// take turns): then one call says so, and the worker writes the string it already has, without decoding one.
// The worker replays the calls, in order, on the real writer: it writes the same bytes and its self-check sees
// the same values as if the building thread had written them itself.

import type { CivilDate } from '../dates.js';
import type { FieldWriter } from '../records/field-writer.js';

/** Slots of the ring (a power of two): 2 MiB, a few thousand records ahead of the worker. */
export const TAPE_SLOTS = 1 << 18;
const MASK = TAPE_SLOTS - 1;

/** Int32 cells of the control block. */
export const HEAD = 0; // slots written (wrapping int32), set by the building thread
export const TAIL = 1; // slots replayed (wrapping int32), set by the worker
export const COMMAND = 2; // RUNNING, FINISH or ABORT, set by the building thread
export const FAILED = 3; // 1 once the worker has failed
export const WAKE = 4; // counts publications and commands: the worker sleeps on it
export const STARTED = 5; // 1 once the worker's reader exists
export const WAITING = 6; // 1 while the worker waits for a publication, set by the worker
export const CONTROL_CELLS = 7;

export const RUNNING = 0;
export const FINISH = 1;
export const ABORT = 2;

// Calls: a slot holds field * 16 + call.
const RECORD = 0;
const TEXT = 1;
const INT = 2;
const PAISE = 3;
const RATE = 4;
const DATE = 5;
const END = 6;
/** The text of field n is the same as its last one. */
const SAME = 7;
/** The first characters of a long text (value: their count, the characters follow); its TEXT call ends it. */
const PIECE = 8;
/** The text of field n is the one in its table under the value (a hash). */
const KEPT = 9;

/** Characters per call, so that a call always fits the ring whatever the length of a text. */
export const PIECE_CHARS = 1024;
/** Slots written before they are handed over, so the worker is woken a few hundred times, not per record. */
const PUBLISH_SLOTS = 1 << 16;
/** Fields whose last text both sides keep (the codes that repeat record after record). */
export const CACHED_FIELDS = 128;
/**
 * Entries of a field's table of texts (a power of two; a text goes in the entry of its hash, replacing the one
 * there). Some ten thousand payees in 65536 entries: few share one, so few names and PANs cross as characters.
 */
export const TABLE_ENTRIES = 1 << 16;
/** Longer texts (addresses, say) are not hashed nor kept: they seldom repeat. */
export const KEPT_MAX_CHARS = 64;
/** A TEXT call's value: its character count plus (the table entry to keep the text in + 1) times this. */
const ENTRY_UNIT = 2048;

/** The table entry of a text (FNV-1a, then the top bits of a multiplicative hash). */
export function entryOf(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return Math.imul(h, 0x9e3779b1) >>> 16;
}

/** The table entry a keyed text (a payee's name or PAN, keyed by the payee's number) is kept in. */
function keyEntry(key: number): number {
  return (key >>> 0) & (TABLE_ENTRIES - 1);
}

/** How long the building thread waits for the worker to free room before it gives up (the worker is stuck). */
const STALL_MS = 60_000;
/**
 * How long it waits for a worker that has not even started (its script missing from a broken install, say): a
 * thread starts in tens of milliseconds, and this thread, blocked in Atomics.wait, cannot hear its error event.
 */
export const START_MS = 10_000;

/** Atomics.waitAsync (Node 16 on): typed from ES2024, and this project compiles against ES2023. */
function waitAsync(cells: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string } {
  return (Atomics as unknown as { waitAsync: typeof waitAsync }).waitAsync(cells, index, value);
}

export interface TapeMemory {
  control: SharedArrayBuffer;
  slots: SharedArrayBuffer;
}

export function tapeMemory(): TapeMemory {
  return { control: new SharedArrayBuffer(CONTROL_CELLS * 4), slots: new SharedArrayBuffer(TAPE_SLOTS * 8) };
}

/** Thrown on the building thread when the worker has failed or stopped taking calls; its own error says why. */
export class TapeStopped extends Error {
  constructor(reason: string) {
    super(`the deductee record writer stopped: ${reason}`);
    this.name = 'TapeStopped';
  }
}

/** The building thread's side: a FieldWriter that records the calls on the tape. */
export class TapeWriter implements FieldWriter {
  private readonly control: Int32Array;
  private readonly slots: Float64Array;
  /** Slots written (absolute), and the first slot the worker has not replayed yet plus the ring size. */
  private pos = 0;
  private limit = TAPE_SLOTS;
  private published = 0;
  private readonly lastText: Array<string | undefined> = new Array<string | undefined>(CACHED_FIELDS).fill(undefined);
  /** Per field, made when its text first changes (a field whose text never does keeps none). */
  private readonly tables: Array<Array<string | undefined> | undefined> = new Array<Array<string | undefined> | undefined>(CACHED_FIELDS).fill(undefined);

  /** @param startMs how long to wait, once the ring is full, for a worker that has not started (START_MS) */
  constructor(memory: TapeMemory, private readonly startMs = START_MS) {
    this.control = new Int32Array(memory.control);
    this.slots = new Float64Array(memory.slots);
  }

  /** Starts the next record of a challan. */
  record(challanRecord: number): this {
    this.put(RECORD, challanRecord);
    return this;
  }

  // An empty value is no call at all: a FieldWriter leaves the field empty either way (the next field or end()
  // writes its caret and checks it as empty), so the worker's writer does exactly the same without it.
  // With a key (a payee's number), the text goes in the entry the key names: the same string object is found
  // there next time by identity, and its characters (in memory not touched since, for a random payee) are not
  // read. Its entry only decides where the text is kept: the comparison with the kept text is what counts.
  text(n: number, value: string, key?: number): void {
    // A keyed text in its entry is found by identity first: then not even its length is read (its string,
    // cold in memory for a random payee, stays untouched). It crosses as KEPT, which the worker also takes
    // for the field's last text: the same call whether or not it is the last text too.
    if (key !== undefined && n < CACHED_FIELDS) {
      const entry = keyEntry(key);
      if (this.tables[n]?.[entry] === value) {
        this.lastText[n] = value;
        return this.put(n * 16 + KEPT, entry);
      }
    }
    const length = value.length;
    if (length === 0) return;
    let entry = -1;
    if (n < CACHED_FIELDS) {
      const last = this.lastText[n];
      if (value === last) return this.put(n * 16 + SAME, 0);
      this.lastText[n] = value;
      if (last !== undefined && length <= KEPT_MAX_CHARS) {
        const table = this.tables[n] ?? this.table(n);
        entry = key === undefined ? entryOf(value) : keyEntry(key);
        if (table[entry] === value) return this.put(n * 16 + KEPT, entry);
        table[entry] = value;
      }
    }
    let at = 0;
    for (; length - at > PIECE_CHARS; at += PIECE_CHARS) this.chars(PIECE, value, at, PIECE_CHARS, PIECE_CHARS);
    this.chars(n * 16 + TEXT, value, at, length - at, length - at + (entry + 1) * ENTRY_UNIT);
  }

  private table(n: number): Array<string | undefined> {
    const table = new Array<string | undefined>(TABLE_ENTRIES).fill(undefined);
    this.tables[n] = table;
    return table;
  }

  int(n: number, value: number): void {
    this.put(n * 16 + INT, value);
  }

  paise(n: number, value: number | null): void {
    if (value !== null) this.put(n * 16 + PAISE, value);
  }

  rate(n: number, value: number): void {
    this.put(n * 16 + RATE, value);
  }

  date(n: number, value: CivilDate | null): void {
    if (value !== null && value !== 0) this.put(n * 16 + DATE, value);
  }

  end(): void {
    this.put(END, 0);
    if (this.pos - this.published >= PUBLISH_SLOTS) this.publish();
  }

  /** Hands every call written so far to the worker. */
  publish(): void {
    this.published = this.pos;
    Atomics.store(this.control, HEAD, this.pos | 0);
    // A busy worker finds the calls when it looks again: only one that waits is woken (a notification posts a
    // task to its thread, which costs this one more than everything else publish() does).
    if (Atomics.load(this.control, WAITING) !== 0) this.wake();
  }

  /** Tells the worker there are no more calls after the published ones (FINISH) or to stop at once (ABORT). */
  command(command: typeof FINISH | typeof ABORT): void {
    if (command === FINISH) this.publish();
    Atomics.store(this.control, COMMAND, command);
    this.wake();
  }

  private wake(): void {
    Atomics.add(this.control, WAKE, 1);
    Atomics.notify(this.control, WAKE);
  }

  private put(head: number, value: number): void {
    if (this.pos + 2 > this.limit) this.room(2);
    const slots = this.slots;
    slots[this.pos & MASK] = head;
    slots[(this.pos + 1) & MASK] = value;
    this.pos += 2;
  }

  /** A call with `count` characters of `value` from `from`; `said` is its value (the count, and more for TEXT). */
  private chars(head: number, value: string, from: number, count: number, said: number): void {
    if (this.pos + 2 + count > this.limit) this.room(2 + count);
    const slots = this.slots;
    const pos = this.pos;
    slots[pos & MASK] = head;
    slots[(pos + 1) & MASK] = said;
    for (let i = 0; i < count; i++) slots[(pos + 2 + i) & MASK] = value.charCodeAt(from + i);
    this.pos = pos + 2 + count;
  }

  /** Waits until the worker has replayed enough for `slots` more; throws TapeStopped when it never will. */
  private room(slots: number): void {
    this.publish();
    const control = this.control;
    let waited = 0;
    for (;;) {
      const tail = Atomics.load(control, TAIL);
      this.limit = this.pos - ((this.pos - tail) | 0) + TAPE_SLOTS;
      if (this.pos + slots <= this.limit) return;
      if (Atomics.load(control, FAILED) !== 0) throw new TapeStopped('it failed');
      if (waited >= STALL_MS) throw new TapeStopped(`it replayed nothing for ${STALL_MS / 1000} s`);
      if (waited >= this.startMs && Atomics.load(control, STARTED) === 0) throw new TapeStopped(`it did not start within ${this.startMs / 1000} s`);
      // The worker notifies TAIL when it frees room or fails.
      if (Atomics.wait(control, TAIL, tail, 100) === 'timed-out') waited += 100;
    }
  }
}

/** The worker's side: replays the recorded calls on the writers `record` gives. */
export class TapeReader {
  private readonly control: Int32Array;
  private readonly slots: Float64Array;
  private tail = 0;
  private readonly lastText: string[] = new Array<string>(CACHED_FIELDS).fill('');
  private readonly tables: Array<string[] | undefined> = new Array<string[] | undefined>(CACHED_FIELDS).fill(undefined);
  private pieces: string[] = [];
  private writer: FieldWriter | null = null;

  constructor(
    memory: TapeMemory,
    private readonly record: (challanRecord: number) => FieldWriter,
  ) {
    this.control = new Int32Array(memory.control);
    this.slots = new Float64Array(memory.slots);
    Atomics.store(this.control, STARTED, 1);
  }

  /** Replays every published call; false when there were none. */
  replay(): boolean {
    const head = Atomics.load(this.control, HEAD);
    const stop = this.tail + ((head - this.tail) | 0);
    if (stop === this.tail) return false;
    const slots = this.slots;
    let t = this.tail;
    while (t < stop) {
      const code = slots[t & MASK]!;
      const call = code & 15;
      const n = code >>> 4;
      const value = slots[(t + 1) & MASK]!;
      t += 2;
      switch (call) {
        case RECORD:
          this.writer = this.record(value);
          break;
        case TEXT: {
          const count = value % ENTRY_UNIT;
          this.writer!.text(n, this.text(n, t, count, (value - count) / ENTRY_UNIT - 1));
          t += count;
          break;
        }
        case SAME:
          this.writer!.text(n, this.lastText[n]!);
          break;
        case KEPT: {
          const kept = this.tables[n]![value]!;
          this.lastText[n] = kept;
          this.writer!.text(n, kept);
          break;
        }
        case PIECE:
          this.pieces.push(this.chars(t, value));
          t += value;
          break;
        case INT:
          this.writer!.int(n, value);
          break;
        case PAISE:
          this.writer!.paise(n, value);
          break;
        case RATE:
          this.writer!.rate(n, value);
          break;
        case DATE:
          this.writer!.date(n, value);
          break;
        case END:
          this.writer!.end();
          break;
        default:
          throw new Error(`unknown call ${call} on the deductee tape`);
      }
    }
    this.tail = t;
    Atomics.store(this.control, TAIL, t | 0);
    Atomics.notify(this.control, TAIL);
    return true;
  }

  /**
   * The text of a TEXT call whose `count` characters start at slot t (after the pieces before it, if any),
   * kept as its field's last text and, when `entry` is not -1, in that entry of the field's table.
   */
  private text(n: number, t: number, count: number, entry: number): string {
    let value = this.chars(t, count);
    if (this.pieces.length > 0) {
      this.pieces.push(value);
      value = this.pieces.join('');
      this.pieces = [];
    }
    if (n < CACHED_FIELDS) this.lastText[n] = value;
    if (entry >= 0) (this.tables[n] ??= new Array<string>(TABLE_ENTRIES).fill(''))[entry] = value;
    return value;
  }

  private chars(t: number, count: number): string {
    const start = t & MASK;
    if (start + count <= TAPE_SLOTS) return String.fromCharCode.apply(null, this.slots.subarray(start, start + count) as unknown as number[]);
    const codes = new Array<number>(count);
    for (let i = 0; i < count; i++) codes[i] = this.slots[(t + i) & MASK]!;
    return String.fromCharCode(...codes);
  }

  /** What the building thread asked for once the published calls are replayed. */
  command(): number {
    return Atomics.load(this.control, COMMAND);
  }

  /** Resolves when calls are published or a command is given (the thread's event loop runs meanwhile). */
  async published(): Promise<void> {
    // WAKE is read first: a publication or command after it changes it, so the wait cannot miss one.
    const wake = Atomics.load(this.control, WAKE);
    if (this.pending()) return;
    // WAITING is set before HEAD is read again: a publication either comes before that read (and is seen) or
    // sees WAITING after its own store of HEAD (and wakes this thread). All sequentially consistent.
    Atomics.store(this.control, WAITING, 1);
    try {
      if (this.pending()) return;
      const waiting = waitAsync(this.control, WAKE, wake);
      if (waiting.async) await waiting.value;
    } finally {
      Atomics.store(this.control, WAITING, 0);
    }
  }

  /** Calls published and not replayed, or a command. */
  private pending(): boolean {
    return Atomics.load(this.control, HEAD) !== (this.tail | 0) || this.command() !== RUNNING;
  }

  /** Marks the worker failed and wakes the building thread if it waits for room. */
  fail(): void {
    Atomics.store(this.control, FAILED, 1);
    Atomics.notify(this.control, TAIL);
  }
}
