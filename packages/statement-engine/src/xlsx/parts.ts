// The SpreadsheetML parts an .xlsx workbook is read from, each parsed as a stream of SAX events (saxes):
// the workbook part and its relationships (worksheet names -> parts, the 1904 date system), the styles (which
// style ids are date or percent formats), the shared strings (held: cells refer to them by index), and the worksheets,
// row by row, never held whole. Cell values come out as exceljs's whole-file reader gave them (FORMAT_NOTES §14).

import { posix } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { StatementEngineError } from '../errors.js';
import { limitExceeded, type InputLimits } from '../limits.js';
import { columnLetters, EXCEL_EPOCH_SERIAL, excelDateToEpoch } from './layout.js';
import type { XlsxZip } from './zip.js';

export type CellValue = string | number | boolean | null;

export interface Row {
  /** Excel row number (1-based). */
  number: number;
  /** Cells 1..n (index 0 = column A), trailing empty cells dropped. */
  cells: CellValue[];
  /** Columns (1 = A) of formulas with no cached result (their cells are null): a writer that does not calculate. */
  uncalculated: number[];
}

export interface WorksheetPart {
  name: string;
  part: string;
}

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

interface SaxHandlers {
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
function partParser(part: string, handlers: SaxHandlers, limits: XmlLimits): { write(chunk: Buffer): void; end(): void } {
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

/** How a style's number format changes a number as it is read: a date serial, a percentage (0.1 shown as 10%), or neither. */
export type StyleKind = 'date' | 'percent' | null;

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

/** `_x000D_` escapes of a text element (`<t>`), as Excel writes characters XML cannot hold. */
const unescapeText = (text: string) => text.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

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

/** XML entities left in a `str` formula result, decoded as exceljs did. */
const xmlDecode = (text: string) =>
  text.replace(/&([a-z]*);/g, (c) => ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&apos;': "'", '&quot;': '"' })[c] ?? c);

/** `F12` -> 6 (column F); 0 when the reference has no letters. */
function columnOf(reference: string): number {
  let n = 0;
  for (let i = 0; i < reference.length; i++) {
    const code = reference.charCodeAt(i);
    if (code >= 65 && code <= 90) n = n * 26 + (code - 64);
    else if (code >= 97 && code <= 122) n = n * 26 + (code - 96);
    else break;
  }
  return n;
}

const DAY_MS = 86_400_000;

/** 0.1 -> 10: the decimal point moved two places in the number's shortest text, so no 10.000000000000002. */
function percentOf(fraction: number): number {
  const [mantissa, exponent = '0'] = String(fraction).split('e');
  return Number(`${mantissa}e${Number(exponent) + 2}`);
}

interface CellState {
  column: number;
  type: string;
  style: StyleKind;
  formula: boolean;
  /** The `<v>` text, or the inline string's text. */
  value: string | null;
  rich: boolean;
}

export interface WorksheetContext {
  sharedStrings: string[];
  styleKinds: StyleKind[];
  date1904: boolean;
  limits: InputLimits;
  /** Rows with a value read from all worksheets so far (limits.workbookRows). */
  rowsRead: number;
}

/**
 * The rows of one worksheet part that hold any value, with their Excel row numbers, as they are inflated and
 * parsed: memory stays that of one chunk of the part, whatever the worksheet's size. Rows past
 * limits.sheetRows (by number or by count), cells past limits.sheetColumns or longer than limits.cellChars,
 * a row of more text than limits.rowChars, and more rows with a value than limits.workbookRows in all
 * worksheets are refused as they are read.
 */
export async function* worksheetRows(zip: XlsxZip, sheet: WorksheetPart, ctx: WorksheetContext): AsyncGenerator<Row> {
  const { limits } = ctx;
  const where = `worksheet ${sheet.name} (${sheet.part})`;
  const ready: Row[] = [];
  let rowNumber = 0;
  let rowElements = 0;
  /** Characters of the row's text cells so far (shared strings too: the row is written out as JSON text). */
  let rowChars = 0;
  let cells: CellValue[] = [];
  let uncalculated: number[] = [];
  let hasValue = false;
  let lastColumn = 0;
  let cell: CellState | null = null;
  /** Where text goes: the `<v>` / inline `<t>` of the cell, the `<f>` of a formula, or nowhere. */
  let into: 'value' | 'formula' | null = null;
  let inRun = false;
  let runText: string[] = [];
  let phonetic = 0;
  /** Characters of the cell's value (all its runs) so far. */
  let valueChars = 0;
  let hasFormulaText = false;
  const cellTooLong = () => limitExceeded('cellChars', limits.cellChars, `${sheet.name}!${columnLetters(cell!.column)}${rowNumber} (${sheet.part})`, `the cell's text is longer than ${limits.cellChars} characters`);

  const toDate = (serial: number): CellValue => {
    const ms = Math.round((serial - EXCEL_EPOCH_SERIAL + (ctx.date1904 ? 1462 : 0)) * DAY_MS);
    const epoch = excelDateToEpoch(new Date(ms));
    return Number.isFinite(epoch) ? epoch : null;
  };

  /** A number as its format shows it: a date serial as its date, a percent-formatted 0.1 as 10. */
  const styledNumber = (c: CellState, number: number): CellValue => {
    if (c.style === 'date') return toDate(number);
    return c.style === 'percent' ? percentOf(number) : number;
  };

  const finishCell = (c: CellState): CellValue => {
    if (c.formula) {
      // A formula gives its cached result (none: an empty cell, noted as not calculated).
      if (!c.value) {
        uncalculated.push(c.column);
        return null;
      }
      let result: CellValue;
      if (c.type === 'str') result = xmlDecode(c.value);
      else if (c.type === 'b') result = parseInt(c.value, 10) !== 0;
      else if (c.type === 'e') result = c.value;
      else result = parseFloat(c.value);
      if (typeof result !== 'number') return result;
      return Number.isFinite(result) ? styledNumber(c, result) : null;
    }
    if (c.value === null) return null;
    switch (c.type) {
      case 's': {
        const index = parseInt(c.value, 10);
        const text = ctx.sharedStrings[index];
        if (text === undefined) throw unreadable(`${sheet.name}!${columnLetters(c.column)}${rowNumber} refers to shared string ${c.value}, which ${sheet.part.replace(/worksheets\/.*/, 'sharedStrings.xml')} does not have`);
        return text;
      }
      case 'str':
        return xmlDecode(c.value);
      case 'inlineStr':
        return c.value;
      case 'b':
        return parseInt(c.value, 10) !== 0;
      case 'e':
        return c.value;
      case 'd': {
        // An ISO 8601 date cell (strict files): its wall-clock time, like an Excel date.
        const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?/.exec(c.value);
        if (!m) return null;
        const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), Math.round(Number(`0.${m[7] ?? '0'}`) * 1000));
        return excelDateToEpoch(new Date(ms));
      }
      default: {
        const number = parseFloat(c.value);
        return Number.isFinite(number) ? styledNumber(c, number) : null;
      }
    }
  };

  const parser = partParser(sheet.part, {
    open(name, a) {
      switch (name) {
        case 'row': {
          const stated = a.r === undefined ? NaN : parseInt(a.r, 10);
          rowNumber = Number.isFinite(stated) && stated > 0 ? stated : rowNumber + 1;
          // By number and by count: rows repeating one number are as costly as rows of their own.
          if (rowNumber > limits.sheetRows || ++rowElements > limits.sheetRows) throw limitExceeded('sheetRows', limits.sheetRows, where, `a row past row ${limits.sheetRows}`);
          cells = [];
          uncalculated = [];
          hasValue = false;
          lastColumn = 0;
          rowChars = 0;
          return;
        }
        case 'c': {
          const stated = a.r === undefined ? 0 : columnOf(a.r);
          const column = stated > 0 ? stated : lastColumn + 1;
          if (column > limits.sheetColumns) throw limitExceeded('sheetColumns', limits.sheetColumns, where, `a cell beyond column ${columnLetters(limits.sheetColumns)} (${(a.r ?? '').slice(0, 20)})`);
          lastColumn = column;
          const style = a.s === undefined ? 0 : parseInt(a.s, 10);
          cell = { column, type: a.t ?? 'n', style: ctx.styleKinds[style] ?? null, formula: false, value: null, rich: false };
          valueChars = 0;
          hasFormulaText = false;
          return;
        }
        case 'v':
          if (cell) into = 'value';
          return;
        case 'f':
          if (cell) {
            into = 'formula';
            if (a.t === 'shared') cell.formula = true;
          }
          return;
        case 'r':
          if (cell) {
            inRun = true;
            runText = [];
          }
          return;
        case 'rPh':
          phonetic++;
          return;
        case 't':
          if (cell && phonetic === 0) into = 'value';
          return;
        default:
      }
    },
    text(text) {
      if (into === 'value' && cell) {
        valueChars += text.length;
        if (valueChars > limits.cellChars) throw cellTooLong();
        if (inRun) runText.push(text);
        else cell.value = cell.value === null ? text : cell.value + text;
      } else if (into === 'formula' && text !== '') hasFormulaText = true;
    },
    close(name) {
      switch (name) {
        case 'v':
        case 't':
          into = null;
          return;
        case 'f':
          into = null;
          if (cell && hasFormulaText) cell.formula = true;
          return;
        case 'r':
          if (cell && inRun) {
            // A rich-text run's text, `_xHHHH_` escapes decoded (exceljs's run reader did).
            const run = unescapeText(runText.join(''));
            if (run !== '') cell.value = (cell.value ?? '') + run;
            inRun = false;
          }
          return;
        case 'rPh':
          phonetic--;
          return;
        case 'c':
          if (cell) {
            const value = finishCell(cell);
            if (typeof value === 'string' && (rowChars += value.length) > limits.rowChars) {
              throw limitExceeded('rowChars', limits.rowChars, where, `row ${rowNumber} holds more than ${limits.rowChars} characters of text`);
            }
            if (value !== null) {
              hasValue = true;
              while (cells.length < cell.column - 1) cells.push(null);
              cells[cell.column - 1] = value;
            }
            cell = null;
          }
          return;
        case 'row':
          if ((hasValue || uncalculated.length > 0) && rowNumber > 0) {
            if (++ctx.rowsRead > limits.workbookRows) throw limitExceeded('workbookRows', limits.workbookRows, where, `more than ${limits.workbookRows} rows with a value in the workbook`);
            while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
            ready.push({ number: rowNumber, cells, uncalculated });
          }
          cells = [];
          uncalculated = [];
          hasValue = false;
          return;
        default:
      }
    },
  }, limits);

  for await (const chunk of zip.read(sheet.part)) {
    parser.write(chunk);
    if (ready.length > 0) {
      yield* ready;
      ready.length = 0;
    }
  }
  parser.end();
  yield* ready;
}
