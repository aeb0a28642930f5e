// The worker thread of xlsxAsSheetJsonInWorker (in-worker.ts): reads the .xlsx (inflating, tokenizing, the
// rows made Sheet JSON text) and posts the text, as UTF-8 bytes, piece by piece to the thread that converts
// it, each part of a piece after the reader's own problems that come before it in the workbook (so they keep
// their order among the conversion's problems); at most READ_AHEAD_PIECES pieces ahead of what that thread
// has taken, so memory stays that of a few pieces. At the end it posts where the blocks of each worksheet are
// (to name the cells of problems); when told to stop, it closes the file and ends.

import { parentPort, workerData } from 'node:worker_threads';
import type { InputLimits } from '../limits.js';
import { errorData, type ErrorData } from '../stream/thread-errors.js';
import { PostCredit } from '../stream/worker-threads.js';
import { CellMap, readXlsxInto, type ReaderProblem, type SheetPositions } from './read.js';
import { SheetJsonWriter } from './sheet-json-writer.js';

export interface ReaderWorkerData {
  path: string;
  limits: InputLimits;
}

/** Text of the workbook, after the reader's problems that come before it. */
export interface TextPart {
  notes: ReaderProblem[];
  bytes: Uint8Array;
}

export type ReaderWorkerMessage =
  | { type: 'text'; parts: TextPart[] }
  | { type: 'done'; sheets: Array<[string, SheetPositions]> }
  | { type: 'failed'; error: ErrorData };

/** Pieces posted and not yet taken, at most. */
export const READ_AHEAD_PIECES = 8;
/** Characters of text gathered before a piece is posted. */
const PIECE_CHARS = 1 << 16;

const port = parentPort!;
const { path, limits } = workerData as ReaderWorkerData;
const credit = new PostCredit(port, READ_AHEAD_PIECES);

/** The text and problems of the piece being gathered. */
class Piece {
  // Its own memory (not Buffer's shared pool), so it can be handed over rather than copied.
  private readonly encoder = new TextEncoder();
  private parts: TextPart[] = [];
  private chars = 0;
  notes: ReaderProblem[] = [];

  constructor(private readonly writer: SheetJsonWriter) {}

  get length(): number {
    return this.chars + this.writer.length;
  }

  /** A problem of the reader: after the text written so far. */
  note(problem: ReaderProblem): void {
    this.endPart();
    this.notes.push(problem);
  }

  /** The piece's parts, handed over; a new piece starts. */
  take(): TextPart[] {
    this.endPart();
    const parts = this.parts;
    this.parts = [];
    this.chars = 0;
    return parts;
  }

  private endPart(): void {
    const text = this.writer.take();
    if (text.length === 0 && this.notes.length === 0) return;
    this.chars += text.length;
    this.parts.push({ notes: this.notes, bytes: this.encoder.encode(text) });
    this.notes = [];
  }
}

async function run(): Promise<void> {
  const cells = new CellMap();
  const writer = new SheetJsonWriter();
  const piece = new Piece(writer);
  cells.reportTo({ add: (code, place, message) => piece.note({ code, place: place as ReaderProblem['place'], message }) });
  for await (const _bytesRead of readXlsxInto(path, writer, cells, { limits })) {
    if (piece.length < PIECE_CHARS) continue;
    // Told to stop: leaving the loop ends the reading, and the zip is closed.
    if (!(await credit.take())) return;
    postText(piece.take());
  }
  writer.end();
  // The workbook's end is text of its own: the last piece is not counted against the credit.
  postText(piece.take());
  post({ type: 'done', sheets: [...cells.sheets] });
}

function postText(parts: TextPart[]): void {
  post({ type: 'text', parts }, parts.map((part) => part.bytes.buffer as ArrayBuffer));
}

function post(message: ReaderWorkerMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

try {
  await run();
} catch (error) {
  post({ type: 'failed', error: errorData(error) });
} finally {
  port.close();
}
