// The input limits of a conversion: what any one file a caller sends may make the engine read, hold or parse.
// Each is counted as the input is read (bytes as they inflate, elements as they open, characters as they
// arrive), never after the whole input is held, so a file past a limit is refused before it costs more than
// the limit. Defaults are Excel's own where Excel has one (support.microsoft.com, "Excel specifications and
// limits"); README "Limits" gives the reason for each of the others.

import { StatementEngineError } from './errors.js';

export interface InputLimits {
  /** Bytes inflated from one .xlsx, all parts and every read of a part together. */
  xlsxInflatedBytes: number;
  /** Most inflated bytes per compressed byte of one .xlsx part, checked once the part has inflated past xlsxRatioGraceBytes. */
  xlsxInflateRatio: number;
  /** Inflated bytes of a part before its ratio is checked (a small part compresses well and says nothing). */
  xlsxRatioGraceBytes: number;
  /** Worksheet parts listed in workbook.xml, each unique part once (a part listed again is read once). */
  sheetEntries: number;
  /** Rows of one worksheet (Excel: 1,048,576). */
  sheetRows: number;
  /** Columns of one worksheet (Excel: 16,384, XFD). */
  sheetColumns: number;
  /** Cell formats (styles.xml cellXfs) and custom number formats (Excel: 64,000 cell formats). */
  cellStyles: number;
  /** Shared strings (sharedStrings.xml items), held while the worksheets are read. */
  sharedStrings: number;
  /** Characters of all shared strings together. */
  sharedStringChars: number;
  /** Characters of one cell's text, and of any XML text node (Excel: 32,767 per cell). */
  cellChars: number;
  /** Characters of the text cells of one worksheet row together (a row is held whole, then written as JSON). */
  rowChars: number;
  /** Characters of one XML attribute value or element name. */
  attributeChars: number;
  /** Nesting depth of XML elements in any .xlsx part. */
  xmlDepth: number;
  /** Nesting depth of arrays and objects in a Sheet JSON workbook. */
  jsonDepth: number;
  /** Rows read from a whole workbook: every .xlsx row with a value, and every table row of Sheet JSON. */
  workbookRows: number;
  /** Bytes of one line of a conso or CSI file (its line end not counted). */
  lineBytes: number;
  /** Lines of a conso file (its records: a header, challans and deductee rows). */
  consoLines: number;
  /** Lines of a CSI file (a header and one line per challan). */
  csiLines: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<InputLimits> = Object.freeze({
  xlsxInflatedBytes: 1024 * 1024 * 1024,
  xlsxInflateRatio: 100,
  xlsxRatioGraceBytes: 100 * 1024,
  sheetEntries: 256,
  sheetRows: 1_048_576,
  sheetColumns: 16_384,
  cellStyles: 64_000,
  sharedStrings: 4_000_000,
  sharedStringChars: 100_000_000,
  cellChars: 32_767,
  rowChars: 1_048_576,
  attributeChars: 65_536,
  xmlDepth: 256,
  jsonDepth: 256,
  workbookRows: 1_048_576,
  lineBytes: 64 * 1024,
  consoLines: 2_097_152,
  csiLines: 200_000,
});

export type InputLimitName = keyof InputLimits;

/**
 * One limit as a person writes it on a command line or in an environment variable: `name=value`, a whole number
 * (`_` may group its digits), spaces around either allowed; null when the text is not that shape. The name and
 * the value are checked by resolveLimits().
 */
export function parseLimitPair(text: string): [name: string, value: number] | null {
  const match = /^\s*([A-Za-z]+)\s*=\s*([0-9][0-9_]*)\s*$/.exec(text);
  return match ? [match[1]!, Number(match[2]!.replace(/_/g, ''))] : null;
}

/** The limits of a conversion: the defaults with the caller's values over them (each a positive integer). */
export function resolveLimits(given: unknown): InputLimits {
  if (given === undefined || given === null) return DEFAULT_INPUT_LIMITS;
  if (typeof given !== 'object' || Array.isArray(given)) throw new StatementEngineError('INVALID_OPTIONS', 'The limits option must be an object of limit names and numbers');
  const limits: InputLimits = { ...DEFAULT_INPUT_LIMITS };
  for (const [name, value] of Object.entries(given)) {
    if (!(name in DEFAULT_INPUT_LIMITS)) throw new StatementEngineError('INVALID_OPTIONS', `Unknown limit '${name.slice(0, 40)}' (the limits are ${Object.keys(DEFAULT_INPUT_LIMITS).join(', ')})`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw new StatementEngineError('INVALID_OPTIONS', `The limit ${name} must be a positive whole number`);
    limits[name as InputLimitName] = value;
  }
  return limits;
}

/** The refusal of an input past one of its limits: the limit's option name, its value and where it was passed. */
export function limitExceeded(name: InputLimitName, value: number, where: string, what: string): StatementEngineError {
  return new StatementEngineError('CONVERSION_LIMIT', `${where}: ${what}, past the limit ${name} = ${value.toLocaleString('en-US')}`);
}
