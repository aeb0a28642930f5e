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

function* consume(state: CsvState, chunk: string): Generator<string[]> {
  for (let i = 0; i < chunk.length; i++) {
    const ch = chunk[i] as string;
    if (state.pendingQuote) {
      state.pendingQuote = false;
      if (ch === '"') {
        state.cell += '"';
        continue;
      }
      state.inQuotes = false;
    }
    if (state.inQuotes) {
      if (ch === '"') state.pendingQuote = true;
      else {
        if (ch === '\n') state.line++;
        state.cell += ch;
      }
      continue;
    }
    if (ch === '"') {
      if (state.cell.length > 0) throw new CsvFormatError(`line ${state.line}: quote inside an unquoted cell`);
      state.inQuotes = true;
    } else if (ch === ',') {
      state.row.push(state.cell);
      state.cell = '';
    } else if (ch === '\n') {
      state.row.push(state.cell.endsWith('\r') ? state.cell.slice(0, -1) : state.cell);
      state.cell = '';
      state.line++;
      const row = state.row;
      state.row = [];
      if (row.length > 1 || row[0] !== '') yield row;
    } else {
      state.cell += ch;
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
