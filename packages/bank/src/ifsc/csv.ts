/**
 * A small RFC 4180 reader for Razorpay's IFSC.csv: comma-separated, optional double quotes, "" inside quotes
 * for a quote, CRLF or LF line ends, and line breaks allowed inside quoted cells (addresses have them).
 * Streaming over chunks keeps memory flat for the full 37 MB file.
 */
export class CsvFormatError extends Error {
  override readonly name = 'CsvFormatError';
}

class CsvState {
  row: string[] = [];
  cell = '';
  inQuotes = false;
  /** A quote seen inside a quoted cell: either the cell's end or the first half of an escaped quote. */
  pendingQuote = false;
  line = 1;
}

/** The characters that end a run of plain text outside quotes. */
const UNQUOTED_STOP = /[",\n]/g;

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/**
 * The rows completed by `chunk`. Runs of plain text are taken as slices between the characters that matter
 * (quotes, commas, line ends), found with indexOf and a regex, never a character at a time: a 45 MB cell is a
 * few hundred slices, not 45 million string appends.
 */
function* consume(state: CsvState, chunk: string): Generator<string[]> {
  let i = 0;
  while (i < chunk.length) {
    if (state.pendingQuote) {
      state.pendingQuote = false;
      if (chunk[i] === '"') {
        state.cell += '"';
        i++;
        continue;
      }
      state.inQuotes = false;
    }
    if (state.inQuotes) {
      const quote = chunk.indexOf('"', i);
      const piece = chunk.slice(i, quote === -1 ? chunk.length : quote);
      state.line += countNewlines(piece);
      state.cell += piece;
      if (quote === -1) return;
      state.pendingQuote = true;
      i = quote + 1;
      continue;
    }
    UNQUOTED_STOP.lastIndex = i;
    const stop = UNQUOTED_STOP.exec(chunk);
    const end = stop ? stop.index : chunk.length;
    if (end > i) state.cell += chunk.slice(i, end);
    if (!stop) return;
    i = end + 1;
    const ch = stop[0];
    if (ch === '"') {
      if (state.cell.length > 0) throw new CsvFormatError(`line ${state.line}: quote inside an unquoted cell`);
      state.inQuotes = true;
    } else if (ch === ',') {
      state.row.push(state.cell);
      state.cell = '';
    } else {
      state.row.push(state.cell.endsWith('\r') ? state.cell.slice(0, -1) : state.cell);
      state.cell = '';
      state.line++;
      const row = state.row;
      state.row = [];
      if (row.length > 1 || row[0] !== '') yield row;
    }
  }
}

/** Rows of a CSV text stream, each as its cells. Blank lines are skipped. */
export async function* readCsvRows(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<string[]> {
  const state = new CsvState();
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    yield* consume(state, typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  }
  yield* consume(state, decoder.decode());
  if (state.pendingQuote) {
    state.pendingQuote = false;
    state.inQuotes = false;
  }
  if (state.inQuotes) throw new CsvFormatError(`line ${state.line}: unterminated quoted cell`);
  if (state.cell !== '' || state.row.length > 0) {
    state.row.push(state.cell.endsWith('\r') ? state.cell.slice(0, -1) : state.cell);
    yield state.row;
  }
}

/** Rows as records keyed by the header row's names (a leading byte-order mark is dropped). */
export async function* readCsvRecords(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<Record<string, string>> {
  let header: string[] | undefined;
  for await (const row of readCsvRows(chunks)) {
    if (!header) {
      header = row.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name).trim());
      continue;
    }
    const record: Record<string, string> = {};
    header.forEach((name, i) => {
      record[name] = row[i] ?? '';
    });
    yield record;
  }
}
