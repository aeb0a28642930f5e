// Public types of the engine. Kept stable: the queue worker and the golden tests code against them.

import type { InputLimits } from './limits.js';

/** Either name of a form; the period decides which file format family is written. */
export type FormName = '24Q' | '138' | '26Q' | '140' | '27Q' | '144' | '27EQ' | '143';

export type Quarter = 'Q1' | 'Q2' | 'Q3' | 'Q4';

export interface ConvertOptions {
  form: FormName;
  quarter: Quarter;
  /** 'FY 2025-26' (legacy family up to FY 2025-26), 'TY 2026-27' (new family); 'FY 2026-27' means TY 2026-27. */
  financialYear: string;
  tan: string;
  /** Token (receipt) number of the previous regular statement of this form, 15 digits: written in BH 9 with
   *  BH 52 = `Y`. Absent: BH 52 = `N` (no regular statement filed for an earlier period). The statement is
   *  still a regular one: a correction statement is its own request (correct()), never made by this option. */
  previousReceiptNumber?: string;
  /** File creation date (and "today" for future-date checks). Defaults to the system clock. */
  now?: () => Date;
  /** Most problems kept in the report (counts stay exact). Default 10,000. */
  maxProblems?: number;
  /** Content of the Challan Status Inquiry (.csi) file: its TAN, TAN name and challan count are checked against the
   *  statement (README, "CSI check"). A malformed file throws StatementEngineError INVALID_CSI naming its line. */
  csi?: string | Uint8Array;
  /** Input limits to use instead of the defaults (DEFAULT_INPUT_LIMITS, README "Limits"): an input past one
   *  throws StatementEngineError CONVERSION_LIMIT naming the limit. */
  limits?: Partial<InputLimits>;
}

export type Severity = 'error' | 'warning';

export interface Problem {
  /** Sheet name as written in the workbook, or null for problems about the options or the whole file. */
  sheet: string | null;
  /** Row a person sees: in a table the header is row 1 and rows[i] is row i + 2; in a list items[i] is row i + 1.
   *  For an .xlsx workbook, a problem with a `cell` has the Excel row of that cell. */
  row: number | null;
  /** Table column header, or `<list block>.<key>` for list items. */
  column: string | null;
  /** For a workbook read from .xlsx: the Excel cell (`payment_sheet!F12`), the row's first cell when the
   *  problem names no column, the title cell of a block (BLOCK_UNKNOWN). Absent for Sheet JSON input. */
  cell?: string;
  code: string;
  message: string;
  severity: Severity;
}

export interface ValidationReport {
  valid: boolean;
  errorCount: number;
  warningCount: number;
  problems: Problem[];
}

export interface ConversionResult {
  /** The FVU input file (CRLF line ends), or null when the report has any error. */
  txt: string | null;
  report: ValidationReport;
}
