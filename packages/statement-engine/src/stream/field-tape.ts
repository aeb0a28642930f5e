// The FieldWriter calls of the DD records, carried from the thread that builds the deductees to the worker
// thread that writes and checks their bytes (deductee-worker.ts). A ring of float64 slots in shared memory:
// one slot names the call (its kind and field number), the next holds its value, so every number crosses
// exactly as it was written (NaN, -0 and all). Texts cross as numbers of a string table both sides keep: each
// new text is sent once, character by character; the table starts over when it is full, so memory stays bounded
// whatever the workbook. The worker replays the calls, in order, on the real writer: it writes the same bytes
// and its self-check sees the same values as if the building thread had written them itself.

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
export const CONTROL_CELLS = 5;

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
/** Characters of a new string (the field part is their count); more pieces of it follow. */
const PIECE = 7;
/** The last piece of a new string: the string gets the next number of the table. */
const LAST_PIECE = 8;
/** The string table starts over (only '' is left, as number 0). */
const FORGET = 9;

/** Characters per piece, so that a piece always fits the ring whatever the length of a string. */
const PIECE_CHARS = 1024;
/** Strings the table holds (and characters in them) before it starts over. */
export const TABLE_STRINGS = 1 << 16;
const TABLE_CHARS = 4 << 20;
/** Slots written before they are handed over, so the worker is woken a few hundred times, not per record. */
const PUBLISH_SLOTS = 1 << 16;
/** Fields with a one-entry cache of their last text (the codes that repeat record after record). */
const CACHED_FIELDS = 128;
/** How long the building thread waits for the worker to free room before it gives up (the worker is stuck). */
const STALL_MS = 60_000;

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
  private readonly strings = new Map<string, number>([['', 0]]);
  private tableChars = 0;
  private readonly lastText: Array<string | undefined> = new Array<string | undefined>(CACHED_FIELDS).fill(undefined);
  private readonly lastId = new Float64Array(CACHED_FIELDS);

  constructor(memory: TapeMemory) {
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
  text(n: number, value: string): void {
    if (value.length === 0) return;
    if (n < CACHED_FIELDS && value === this.lastText[n]) return this.put(n * 16 + TEXT, this.lastId[n]!);
    const id = this.strings.get(value) ?? this.define(value);
    if (n < CACHED_FIELDS) {
      this.lastText[n] = value;
      this.lastId[n] = id;
    }
    this.put(n * 16 + TEXT, id);
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
    this.wake();
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

  /** Sends a new string (in pieces that fit the ring) and gives it the table's next number. */
  private define(value: string): number {
    if (this.strings.size >= TABLE_STRINGS || this.tableChars + value.length > TABLE_CHARS) this.forget();
    let at = 0;
    do {
      const count = Math.min(PIECE_CHARS, value.length - at);
      if (this.pos + 1 + count > this.limit) this.room(1 + count);
      const slots = this.slots;
      slots[this.pos & MASK] = count * 16 + (at + count === value.length ? LAST_PIECE : PIECE);
      for (let i = 0; i < count; i++) slots[(this.pos + 1 + i) & MASK] = value.charCodeAt(at + i);
      this.pos += 1 + count;
      at += count;
    } while (at < value.length);
    const id = this.strings.size;
    this.strings.set(value, id);
    this.tableChars += value.length;
    return id;
  }

  private forget(): void {
    this.strings.clear();
    this.strings.set('', 0);
    this.tableChars = 0;
    this.lastText.fill(undefined);
    this.put(FORGET, 0);
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
  private strings: string[] = [''];
  private pieces: string[] = [];
  private writer: FieldWriter | null = null;

  constructor(
    memory: TapeMemory,
    private readonly record: (challanRecord: number) => FieldWriter,
  ) {
    this.control = new Int32Array(memory.control);
    this.slots = new Float64Array(memory.slots);
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
        case TEXT:
          this.writer!.text(n, this.strings[value]!);
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
        case FORGET:
          this.strings = [''];
          break;
        default:
          t = this.piece(t - 2, call, n);
      }
    }
    this.tail = t;
    Atomics.store(this.control, TAIL, t | 0);
    Atomics.notify(this.control, TAIL);
    return true;
  }

  /** A piece of a new string at slot t; returns the slot after it. */
  private piece(t: number, call: number, count: number): number {
    if (call !== PIECE && call !== LAST_PIECE) throw new Error(`unknown call ${call} on the deductee tape`);
    const codes = new Array<number>(count);
    for (let i = 0; i < count; i++) codes[i] = this.slots[(t + 1 + i) & MASK]!;
    this.pieces.push(String.fromCharCode(...codes));
    if (call === LAST_PIECE) {
      this.strings.push(this.pieces.join(''));
      this.pieces = [];
    }
    return t + 1 + count;
  }

  /** What the building thread asked for once the published calls are replayed. */
  command(): number {
    return Atomics.load(this.control, COMMAND);
  }

  /** Resolves when calls are published or a command is given (the thread's event loop runs meanwhile). */
  async published(): Promise<void> {
    // WAKE is read first: a publication or command after it changes it, so the wait cannot miss one.
    const wake = Atomics.load(this.control, WAKE);
    if (Atomics.load(this.control, HEAD) !== (this.tail | 0) || this.command() !== RUNNING) return;
    const waiting = waitAsync(this.control, WAKE, wake);
    if (waiting.async) await waiting.value;
  }

  /** Marks the worker failed and wakes the building thread if it waits for room. */
  fail(): void {
    Atomics.store(this.control, FAILED, 1);
    Atomics.notify(this.control, TAIL);
  }
}
