// The attacks on the input limits (README "Limits"), generated as the tests run: .xlsx decompression bombs and
// oversized parts, long-lined conso and CSI files. A part made of one piece repeated N times is deflated once
// per distinct piece, each ending on a sync flush so the raw deflate streams concatenate (RFC 1951 §3.2.3: a
// non-final block may be followed by any block), and the compressed bytes of the repeated piece are repeated:
// a part of 750 MB costs 1 MB of memory and one deflate of 1 MB to make.

import { constants, crc32, deflateRawSync } from 'node:zlib';
import { packPart, zipPacked, type PackedPart } from './mini-xlsx.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A part: `head`, then `unit` `times` times, then `tail`; its content is never held whole. */
export function repeatedPart(name: string, head: string, unit: string, times: number, tail: string): PackedPart {
  const headBytes = Buffer.from(head, 'utf8');
  const unitBytes = Buffer.from(unit, 'utf8');
  const tailBytes = Buffer.from(tail, 'utf8');
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
  const unitDeflated = flushed(unitBytes);
  let crc = crc32(headBytes);
  for (let i = 0; i < times; i++) crc = crc32(unitBytes, crc);
  crc = crc32(tailBytes, crc);
  const pieces = [flushed(headBytes), ...Array.from({ length: times }, () => unitDeflated), deflateRawSync(tailBytes)];
  return { name, pieces, crc: crc >>> 0, size: headBytes.length + unitBytes.length * times + tailBytes.length, store: false };
}

/** `text` repeated to about `bytes` bytes: a unit for repeatedPart() of a size that deflates well. */
export const unitOf = (text: string, bytes = 1 << 20) => text.repeat(Math.max(1, Math.floor(bytes / text.length)));

export const WORKSHEET_HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`;
export const WORKSHEET_TAIL = '</sheetData></worksheet>';
export const STYLES_HEAD = `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${MAIN}"><cellXfs>`;
export const STYLES_TAIL = '</cellXfs></styleSheet>';
export const STRINGS_HEAD = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">`;
export const STRINGS_TAIL = '</sst>';

/** A worksheet of the rows given as XML (`<row>...</row>...`), deflated whole. */
export const worksheet = (rows: string): PackedPart => packPart({ name: 'sheet', data: `${WORKSHEET_HEAD}${rows}${WORKSHEET_TAIL}` });

export interface BombWorkbook {
  /** Worksheets in tab order, each its own part (xl/worksheets/sheetN.xml). */
  sheets: Array<[string, PackedPart]>;
  styles?: PackedPart;
  sharedStrings?: PackedPart;
  /** The `<sheet>` entries of workbook.xml and the relationships of its .rels, instead of one per worksheet. */
  entries?: { sheets: string; relationships: string };
}

/** An .xlsx of the parts given, with the package parts any workbook has. */
export function bombXlsx(book: BombWorkbook): Buffer {
  const sheets = book.sheets.map(([, part], i) => ({ ...part, name: `xl/worksheets/sheet${i + 1}.xml` }));
  const entries = book.entries ?? {
    sheets: book.sheets.map(([name], i) => `<sheet name="${name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join(''),
    relationships: book.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join(''),
  };
  const rels = `${entries.relationships}<Relationship Id="rIdS" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rIdT" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`;
  const parts: PackedPart[] = [
    packPart({ name: '[Content_Types].xml', data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' }),
    packPart({ name: '_rels/.rels', data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>` }),
    packPart({ name: 'xl/workbook.xml', data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${entries.sheets}</sheets></workbook>` }),
    packPart({ name: 'xl/_rels/workbook.xml.rels', data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>` }),
    ...(book.styles ? [{ ...book.styles, name: 'xl/styles.xml' }] : []),
    ...(book.sharedStrings ? [{ ...book.sharedStrings, name: 'xl/sharedStrings.xml' }] : []),
    ...sheets,
  ];
  return zipPacked(parts);
}

/** Pieces of `bytes` bytes of `text` repeated, without a line end: a file of one endless line, as a stream. */
export async function* endlessLine(head: string, text: string, bytes: number): AsyncGenerator<Buffer> {
  yield Buffer.from(head, 'latin1');
  const piece = Buffer.from(unitOf(text, 1 << 16), 'latin1');
  for (let sent = 0; sent < bytes; sent += piece.length) yield piece;
}

/** Samples this process's RSS while `run` runs: the most it grew over what it was before, in bytes. */
export async function rssGrowth<T>(run: () => Promise<T>): Promise<{ result: T | undefined; error: unknown; growth: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await run();
    return { result, error: undefined, growth: Math.max(peak, process.memoryUsage.rss()) - before };
  } catch (error) {
    return { result: undefined, error, growth: Math.max(peak, process.memoryUsage.rss()) - before };
  } finally {
    clearInterval(sample);
  }
}
