// A second .xlsx writer for the tests, independent of exceljs: the smallest SpreadsheetML package (ECMA-376
// Part 1 §18; parts and relationships as Excel itself names them) in a zip written here byte by byte
// (PKWARE APPNOTE 4.3: local headers, central directory, end record). It lets a test choose what exceljs never
// writes: the order of the zip entries, inline strings instead of shared strings, prefixed element names,
// rows and cells without `r`, the 1904 date system.

import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data: string | Buffer;
}

/** A part as it goes into the zip: its compressed bytes (in pieces), and the CRC-32 and size of its content. */
export interface PackedPart {
  name: string;
  /** The bytes stored, in pieces (a piece may repeat: test/support/bombs.ts). */
  pieces: Buffer[];
  crc: number;
  size: number;
  store: boolean;
}

/** A part deflated (or stored) whole. */
export function packPart(part: ZipPart, store = false): PackedPart {
  const raw = typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data;
  return { name: part.name, pieces: [store ? raw : deflateRawSync(raw)], crc: crc32(raw) >>> 0, size: raw.length, store };
}

/** A zip of the parts, in the given order (deflated; `store` keeps them uncompressed). */
export function zipParts(parts: ZipPart[], store = false): Buffer {
  return zipPacked(parts.map((part) => packPart(part, store)));
}

/** The zip of parts already packed: local headers, the central directory and its end record. */
export function zipPacked(parts: PackedPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const compressed = part.pieces.reduce((sum, piece) => sum + piece.length, 0);
    const method = part.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(compressed, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(compressed, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, ...part.pieces);
    centrals.push(central, name);
    offset += local.length + name.length + compressed;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const column = (n: number) => {
  let text = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) text = String.fromCharCode(65 + ((k - 1) % 26)) + text;
  return text;
};

/** A cell as the test writes it: a value, or a raw `<c>` (attributes and content) for cases of its own. */
export type MiniCell = string | number | boolean | null | { date: number } | { raw: string; t?: string; s?: number };

export interface MiniOptions {
  /** Where workbook.xml, its rels, styles and sharedStrings go: before the worksheets or after them. */
  order: 'metadata-first' | 'metadata-last';
  strings: 'inline' | 'shared';
  /** Element names with an `x:` prefix (as some SDK writers do). */
  prefixed?: boolean;
  /** Rows and cells without their `r` attribute (allowed: position follows the previous one). */
  withoutReferences?: boolean;
  date1904?: boolean;
}

const IST_MS = 5.5 * 3600 * 1000;

/** Excel serial of an epoch (ms), its wall-clock time in IST. */
export const serialOf = (epoch: number, date1904 = false) => (epoch + IST_MS) / 86_400_000 + 25569 - (date1904 ? 1462 : 0);

/** Worksheets (name -> rows of cells; null rows are left out, so they are empty rows) as an .xlsx. */
export function miniXlsx(worksheets: Array<[string, MiniCell[][]]>, options: MiniOptions): Buffer {
  const p = options.prefixed ? 'x:' : '';
  const ns = options.prefixed ? 'xmlns:x' : 'xmlns';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const shared: string[] = [];
  const sharedIndex = new Map<string, number>();
  const text = (value: string, ref: string) => {
    if (options.strings === 'shared') {
      let i = sharedIndex.get(value);
      if (i === undefined) {
        i = shared.length;
        shared.push(value);
        sharedIndex.set(value, i);
      }
      return `<${p}c${ref} t="s"><${p}v>${i}</${p}v></${p}c>`;
    }
    return `<${p}c${ref} t="inlineStr"><${p}is><${p}t xml:space="preserve">${escape(value)}</${p}t></${p}is></${p}c>`;
  };
  const sheetXml = (rows: MiniCell[][]) => {
    const body = rows
      .map((cells, r) => {
        if (cells.length === 0) return options.withoutReferences ? `<${p}row/>` : '';
        const rowRef = options.withoutReferences ? '' : ` r="${r + 1}"`;
        const xml = cells
          .map((cell, c) => {
            // Without references every cell is written (an empty one as <c/>) so positions stay right.
            const ref = options.withoutReferences ? '' : ` r="${column(c + 1)}${r + 1}"`;
            if (cell === null) return options.withoutReferences ? `<${p}c/>` : '';
            if (typeof cell === 'string') return text(cell, ref);
            if (typeof cell === 'number') return `<${p}c${ref}><${p}v>${cell}</${p}v></${p}c>`;
            if (typeof cell === 'boolean') return `<${p}c${ref} t="b"><${p}v>${cell ? 1 : 0}</${p}v></${p}c>`;
            if ('date' in cell) return `<${p}c${ref} s="1"><${p}v>${serialOf(cell.date, options.date1904)}</${p}v></${p}c>`;
            return `<${p}c${ref}${cell.t ? ` t="${cell.t}"` : ''}${cell.s !== undefined ? ` s="${cell.s}"` : ''}>${cell.raw}</${p}c>`;
          })
          .join('');
        return `<${p}row${rowRef}>${xml}</${p}row>`;
      })
      .join('');
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}worksheet ${ns}="${main}" xmlns:r="${rel}"><${p}sheetData>${body}</${p}sheetData></${p}worksheet>`;
  };
  const sheetParts: ZipPart[] = worksheets.map(([, rows], i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: sheetXml(rows) }));
  const workbook = `<?xml version="1.0" encoding="UTF-8"?><${p}workbook ${ns}="${main}" xmlns:r="${rel}">${options.date1904 ? `<${p}workbookPr date1904="1"/>` : ''}<${p}sheets>${worksheets
    .map(([name], i) => `<${p}sheet name="${escape(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('')}</${p}sheets></${p}workbook>`;
  const n = worksheets.length;
  const workbookRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${worksheets
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${rel}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
    .join('')}<Relationship Id="rId${n + 1}" Type="${rel}/styles" Target="styles.xml"/><Relationship Id="rId${n + 2}" Type="${rel}/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>`;
  // Style 1: the built-in date format 14; style 2: a custom date format; style 3: a custom number format.
  const styles = `<?xml version="1.0" encoding="UTF-8"?><${p}styleSheet ${ns}="${main}"><${p}numFmts count="2"><${p}numFmt numFmtId="164" formatCode="dd\\-mm\\-yyyy"/><${p}numFmt numFmtId="165" formatCode="&quot;Rs&quot;\\ #,##0.00"/></${p}numFmts><${p}cellXfs count="4"><${p}xf numFmtId="0"/><${p}xf numFmtId="14" applyNumberFormat="1"/><${p}xf numFmtId="164" applyNumberFormat="1"/><${p}xf numFmtId="165" applyNumberFormat="1"/></${p}cellXfs></${p}styleSheet>`;
  const metadata: ZipPart[] = [
    { name: 'xl/workbook.xml', data: workbook },
    { name: 'xl/_rels/workbook.xml.rels', data: workbookRels },
    { name: 'xl/styles.xml', data: styles },
  ];
  // Shared strings are known once the worksheets are written.
  const sharedXml = () =>
    `<?xml version="1.0" encoding="UTF-8"?><${p}sst ${ns}="${main}" count="${shared.length}" uniqueCount="${shared.length}">${shared
      .map((s) => `<${p}si><${p}t xml:space="preserve">${escape(s)}</${p}t></${p}si>`)
      .join('')}</${p}sst>`;
  const contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`;
  const rootRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const head: ZipPart[] = [{ name: '[Content_Types].xml', data: contentTypes }, { name: '_rels/.rels', data: rootRels }];
  const strings = { name: 'xl/sharedStrings.xml', data: sharedXml() };
  const parts = options.order === 'metadata-first' ? [...head, ...metadata, strings, ...sheetParts] : [...head, ...sheetParts, strings, ...metadata];
  return zipParts(parts);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Sheet JSON workbook in the layout of README "Excel workbooks", written by this writer (IST midnights as dates). */
export function sheetJsonAsMiniXlsx(workbook: Json, options: MiniOptions): Buffer {
  const asCell = (key: string, value: unknown): MiniCell => {
    if (value === null || value === undefined) return null;
    if (key.endsWith('_epoch') && typeof value === 'number' && Number.isSafeInteger(value) && (value + IST_MS) % 86_400_000 === 0) return { date: value };
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    return JSON.stringify(value);
  };
  const worksheets: Array<[string, MiniCell[][]]> = [['workbook', [['name', String(workbook.name ?? '')]]]];
  for (const sheet of (workbook.sheets as unknown[]) ?? []) {
    if (!isObject(sheet)) continue;
    const rows: MiniCell[][] = [];
    ((sheet.blocks as unknown[]) ?? []).forEach((block, i) => {
      if (!isObject(block)) return;
      if (i > 0) rows.push([]);
      const kind = block['@entity'] === 'table' ? 'table' : 'list';
      rows.push([String(block.name ?? ''), kind]);
      if (kind === 'list') {
        for (const item of (block.items as unknown[]) ?? []) {
          const [key, value] = Array.isArray(item) ? [String(item[0]), item[1]] : isObject(item) ? (Object.entries(item)[0] ?? ['', null]) : [String(item), null];
          rows.push([key, asCell(key, value)]);
        }
        return;
      }
      const header = ((block.header as unknown[]) ?? []).map(String);
      rows.push(header);
      for (const cells of (block.rows as unknown[][]) ?? []) rows.push((Array.isArray(cells) ? cells : []).map((v, c) => asCell(header[c] ?? '', v)));
    });
    worksheets.push([String(sheet.name ?? ''), rows]);
  }
  return miniXlsx(worksheets, options);
}
