// The SpreadsheetML parts an .xlsx workbook is read from, each parsed as a stream of SAX events (saxes):
// the workbook part and its relationships (worksheet names -> parts, the 1904 date system), the styles (which
// style ids are date or percent formats) and the shared strings (held: cells refer to them by index). The
// worksheets are read by worksheet.ts, with this module's parser where its fast tokenizer gives way.

import { posix } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { StatementEngineError } from '../errors.js';
import { limitExceeded, type InputLimits } from '../limits.js';
import { unescapeText, type StyleKind, type WorksheetPart } from './rows.js';
import type { XlsxZip } from './zip.js';

export interface WorkbookParts {
  worksheets: WorksheetPart[];
  date1904: boolean;
  sharedStrings: string | null;
  styles: string | null;
}

const unreadable = (message: string) => new StatementEngineError('INVALID_XLSX', `The .xlsx workbook cannot be read: ${message}`);

/** `x:c` -> `c`: some writers prefix the SpreadsheetML namespace. */
const local = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

export interface SaxHandlers {
  open(name: string, attributes: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** The limits every part's parser enforces. */
export type XmlLimits = Pick<InputLimits, 'xmlDepth' | 'cellChars' | 'attributeChars'>;

/**
 * What saxes holds until it ends: the text node, attribute value, comment or PI being read (`text`), and the
 * element or attribute name (`name`). saxes has no event before they end, so their lengths are read after
 * each chunk: with the limit checked there, a value that never ends costs at most the limit and one chunk.
 */
interface SaxesPending {
  text: string;
  name: string;
}

/**
 * A SAX parser over one part; `write` returns once the chunk's events are handled; errors name the part and
 * line. The XML limits are checked as the part is read: the depth as each element opens (saxes keeps the
 * stack of open elements), attribute values as each element opens, and what saxes holds after each chunk.
 */
export function partParser(part: string, handlers: SaxHandlers, limits: XmlLimits): { write(chunk: Buffer): void; end(): void } {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let failure: Error | null = null;
  let depth = 0;
  /** Between an element's name and the end of its start tag: what saxes holds is an attribute value. */
  let inTag = false;
  /** Where the start tag being read began: no attribute of a start tag shorter than the limit can pass it. */
  let tagStart = 0;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentagstart', () => {
    inTag = true;
    tagStart = parser.position;
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    inTag = false;
    if (++depth > limits.xmlDepth) throw limitExceeded('xmlDepth', limits.xmlDepth, `the .xlsx part ${part}`, `elements nest more than ${limits.xmlDepth} deep`);
    const attributes = tag.attributes as Record<string, string>;
    // Each attribute is looked at only in a long start tag: a loop over every element's attributes cost the
    // 200,000-row bench workbook's conversion about 12% more CPU.
    if (parser.position - tagStart > limits.attributeChars) {
      for (const key in attributes) if (attributes[key]!.length > limits.attributeChars) throw attributeTooLong(part, limits);
    }
    handlers.open(local(tag.name), attributes);
  });
  if (handlers.text) {
    const text = handlers.text;
    parser.on('text', text);
    parser.on('cdata', text);
  }
  const close = handlers.close;
  parser.on('closetag', (tag) => {
    depth--;
    close?.(local(tag.name));
  });
  const pending = parser as unknown as SaxesPending;
  const decoder = new StringDecoder('utf8');
  let first = true;
  const check = () => {
    if (failure) throw unreadable(`${part} is not well-formed XML (${failure.message.split('\n')[0]!.slice(0, 160)})`);
    if (pending.name.length > limits.attributeChars || (inTag && pending.text.length > limits.attributeChars)) throw attributeTooLong(part, limits);
    if (!inTag && pending.text.length > limits.cellChars) throw limitExceeded('cellChars', limits.cellChars, `the .xlsx part ${part}`, `a text is longer than ${limits.cellChars} characters`);
  };
  return {
    write(chunk) {
      let text = decoder.write(chunk);
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      parser.write(text);
      check();
    },
    end() {
      parser.write(decoder.end());
      parser.close();
      check();
    },
  };
}

const attributeTooLong = (part: string, limits: XmlLimits) =>
  limitExceeded('attributeChars', limits.attributeChars, `the .xlsx part ${part}`, `an attribute value or name is longer than ${limits.attributeChars} characters`);

/** Parses a (small) part whole, by its events. */
async function parsePart(zip: XlsxZip, part: string, handlers: SaxHandlers, limits: XmlLimits): Promise<void> {
  const parser = partParser(part, handlers, limits);
  for await (const chunk of zip.read(part)) parser.write(chunk);
  parser.end();
}

/** A relationship target resolved against the folder of the part that holds it (`/xl/x.xml` is absolute). */
function resolveTarget(baseFolder: string, target: string): string {
  const trimmed = target.trim();
  const joined = trimmed.startsWith('/') ? trimmed.slice(1) : posix.join(baseFolder, trimmed);
  return posix.normalize(joined).replace(/^\/+/, '');
}

/** Relationships a .rels part may hold per sheet entry allowed (a workbook's also name its styles, theme, ...). */
const RELATIONSHIPS_PER_SHEET_ENTRY = 4;

async function relationships(zip: XlsxZip, part: string, limits: InputLimits): Promise<Map<string, { type: string; target: string }>> {
  const rels = new Map<string, { type: string; target: string }>();
  const relsPart = posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
  if (!zip.has(relsPart)) return rels;
  const folder = posix.dirname(part);
  const most = limits.sheetEntries * RELATIONSHIPS_PER_SHEET_ENTRY;
  await parsePart(
    zip,
    relsPart,
    {
      open(name, a) {
        if (name === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External') {
          rels.set(a.Id, { type: a.Type ?? '', target: resolveTarget(folder, a.Target) });
          if (rels.size > most) throw limitExceeded('sheetEntries', limits.sheetEntries, `the .xlsx part ${relsPart}`, `more than ${most} relationships (${RELATIONSHIPS_PER_SHEET_ENTRY} per sheet entry)`);
        }
      },
    },
    limits,
  );
  return rels;
}

/**
 * The workbook part, its worksheets in their order (tab order), and where the shared strings and styles are.
 * A worksheet part listed again (under another name) is read once, for its first listing: a workbook listing
 * one large worksheet many times costs one read of it. At most limits.sheetEntries different parts.
 */
export async function workbookParts(zip: XlsxZip, limits: InputLimits): Promise<WorkbookParts> {
  let workbookPart = 'xl/workbook.xml';
  for (const rel of (await relationships(zip, '', limits)).values()) {
    if (rel.type.endsWith('/officeDocument')) workbookPart = rel.target;
  }
  if (!zip.has(workbookPart)) throw unreadable(`it has no ${workbookPart} (not an Excel workbook)`);
  // The relationships first: each sheet entry is resolved to its part as it is read, so repeats cost nothing.
  const rels = await relationships(zip, workbookPart, limits);
  const worksheets: WorksheetPart[] = [];
  const listed = new Set<string>();
  let date1904 = false;
  await parsePart(
    zip,
    workbookPart,
    {
      open(name, a) {
        if (name === 'sheet') {
          const id = Object.entries(a).find(([key]) => local(key) === 'id' && key !== 'sheetId')?.[1];
          const rel = id === undefined ? undefined : rels.get(id);
          // Chart sheets and sheets whose part is missing have no cells (exceljs skipped them too).
          if (!rel || !rel.type.endsWith('/worksheet') || !zip.has(rel.target) || listed.has(rel.target)) return;
          listed.add(rel.target);
          if (listed.size > limits.sheetEntries) throw limitExceeded('sheetEntries', limits.sheetEntries, `the .xlsx part ${workbookPart}`, `more than ${limits.sheetEntries} worksheets`);
          worksheets.push({ name: a.name ?? '', part: rel.target });
        } else if (name === 'workbookPr') {
          date1904 = a.date1904 === '1' || a.date1904 === 'true';
        }
      },
    },
    limits,
  );
  const folder = posix.dirname(workbookPart);
  const ofType = (type: string, fallback: string) => {
    for (const rel of rels.values()) if (rel.type.endsWith(`/${type}`) && zip.has(rel.target)) return rel.target;
    const path = posix.join(folder, fallback);
    return zip.has(path) ? path : null;
  };
  return { worksheets, date1904, sharedStrings: ofType('sharedStrings', 'sharedStrings.xml'), styles: ofType('styles', 'styles.xml') };
}

// The built-in number formats (ECMA-376 18.8.30) that have a fixed code, as exceljs knew them.
const BUILT_IN_FORMATS: Record<number, string> = {
  0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 12: '# ?/?',
  13: '# ??/??', 14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM',
  20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy "h":mm', 37: '#,##0 ;(#,##0)', 38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00 ;(#,##0.00)', 40: '#,##0.00 ;[Red](#,##0.00)', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0',
  48: '##0.0E+0', 49: '@',
};

/** A format code that shows a date or time: a date letter outside quotes and brackets (exceljs's test). */
export function isDateFormat(code: string | undefined): boolean {
  if (!code) return false;
  return /[ymdhMsb]+/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** A format code that shows a percentage: a `%` outside quotes and brackets (`0%`, `0.00%`, built-in 9 and 10). */
export function isPercentFormat(code: string | undefined): boolean {
  if (!code) return false;
  return code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '').replace(/\\./g, '').includes('%');
}

function styleKind(code: string | undefined): StyleKind {
  if (isDateFormat(code)) return 'date';
  return isPercentFormat(code) ? 'percent' : null;
}

/**
 * For each style id (a cell's `s`), whether its number format is a date or a percent format. At most
 * limits.cellStyles cell formats and as many custom number formats are held.
 */
export async function styleKinds(zip: XlsxZip, part: string | null, limits: InputLimits): Promise<StyleKind[]> {
  if (part === null) return [];
  const custom = new Map<number, string>();
  const formatIds: number[] = [];
  const tooMany = (what: string) => limitExceeded('cellStyles', limits.cellStyles, `the .xlsx part ${part}`, `more than ${limits.cellStyles} ${what}`);
  // Only the numFmts list and the cell formats count (cellStyleXfs and the dxfs of conditional formats do not).
  let within: 'numFmts' | 'cellXfs' | null = null;
  await parsePart(
    zip,
    part,
    {
      open(name, a) {
        if (name === 'numFmts' || name === 'cellXfs') within = name;
        else if (name === 'numFmt' && within === 'numFmts' && a.numFmtId !== undefined) {
          custom.set(Number(a.numFmtId), a.formatCode ?? '');
          if (custom.size > limits.cellStyles) throw tooMany('number formats');
        } else if (name === 'xf' && within === 'cellXfs') {
          if (formatIds.length >= limits.cellStyles) throw tooMany('cell formats');
          formatIds.push(Number(a.numFmtId ?? 0));
        }
      },
      close(name) {
        if (name === 'numFmts' || name === 'cellXfs') within = null;
      },
    },
    limits,
  );
  return formatIds.map((id) => (id === 0 ? null : styleKind(custom.get(id) ?? BUILT_IN_FORMATS[id])));
}

/**
 * The shared strings, in order: the text of each `<si>` (its `<t>`, or its rich-text runs joined; phonetic runs
 * left out). Counted as they are read: at most limits.sharedStrings items, limits.cellChars characters in one,
 * limits.sharedStringChars in all.
 */
export async function sharedStrings(zip: XlsxZip, part: string | null, limits: InputLimits): Promise<string[]> {
  if (part === null) return [];
  const strings: string[] = [];
  let item: string[] | null = null;
  let text: string[] | null = null;
  let phonetic = 0;
  let itemChars = 0;
  let allChars = 0;
  const where = `the .xlsx part ${part}`;
  await parsePart(
    zip,
    part,
    {
      open(name) {
        if (name === 'si') {
          if (strings.length >= limits.sharedStrings) throw limitExceeded('sharedStrings', limits.sharedStrings, where, `more than ${limits.sharedStrings} shared strings`);
          item = [];
          itemChars = 0;
        } else if (name === 'rPh') phonetic++;
        else if (name === 't' && item !== null && phonetic === 0) text = [];
      },
      text(value) {
        if (text === null) return;
        itemChars += value.length;
        allChars += value.length;
        if (itemChars > limits.cellChars) throw limitExceeded('cellChars', limits.cellChars, where, `shared string ${strings.length} is longer than ${limits.cellChars} characters`);
        if (allChars > limits.sharedStringChars) throw limitExceeded('sharedStringChars', limits.sharedStringChars, where, `the shared strings hold more than ${limits.sharedStringChars} characters`);
        text.push(value);
      },
      close(name) {
        if (name === 't' && text !== null) {
          item!.push(unescapeText(text.join('')));
          text = null;
        } else if (name === 'rPh') phonetic--;
        else if (name === 'si' && item !== null) {
          strings.push(item.join(''));
          item = null;
        }
      },
    },
    limits,
  );
  return strings;
}
