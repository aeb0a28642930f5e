/**
 * The engine's thrown errors, one registry: options it cannot work with, input it cannot read, misuse of a
 * streaming conversion, and the self-check of its own output. Workbook problems are never thrown: they go into
 * the ValidationReport with a rule code (rules.ts).
 */
export const ENGINE_ERRORS = {
  INVALID_OPTIONS: 'The options are not an object.',
  INVALID_FORM: 'Unknown form (expected 24Q/138, 26Q/140, 27Q/144 or 27EQ/143).',
  INVALID_QUARTER: 'The quarter is not Q1, Q2, Q3 or Q4.',
  INVALID_FINANCIAL_YEAR: 'The financial / tax year is not one the engine writes.',
  INVALID_TAN: 'The TAN is not a city code the FVU knows, a letter, 5 digits and their check letter (FVU T-FV-1010).',
  INVALID_CSI: 'The CSI (Challan Status Inquiry) file is malformed (the message names the line), or the csi option is not its content.',
  INVALID_CONSO: 'The TRACES consolidated (conso) file is malformed: the message names the line and what is wrong.',
  CONSO_TRUNCATED: 'The conso file ends before the records its headers count (cut short in download or copy); the message names the line.',
  CONSO_OTHER_TAN: 'The conso file is for another TAN than the correction statement.',
  CONSO_OTHER_PERIOD: 'The conso file is for another form, financial year or quarter than the correction statement.',
  INPUT_UNREADABLE: 'The workbook file cannot be read.',
  INVALID_XLSX: 'The .xlsx workbook is not a readable Excel file.',
  CONVERSION_LIMIT: 'The input is past one of the conversion limits (README "Limits"): the message names the limit, its value and where in the file.',
  ALREADY_CONSUMED: 'The TXT of a streaming conversion can be read once.',
  NO_TXT: 'The workbook has errors; there is no TXT to write.',
  NO_SALARY_ANNEXURE: 'Only the legacy 24Q Q4 statement has the salary annexure (SD / 94P records): salaryAnnexure() was asked for another form or quarter.',
  TXT_LAYOUT_MISMATCH: 'A bug: the TXT the engine wrote does not match the published record layout (line, record type and field named); no TXT is given.',
} as const;

export type EngineErrorCode = keyof typeof ENGINE_ERRORS;

export class StatementEngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string) {
    super(message);
    this.name = 'StatementEngineError';
    this.code = code;
  }
}

/** INPUT_UNREADABLE for a workbook file that cannot be opened, stat'ed or read: its path and the system's code. */
export function inputUnreadable(path: string, error: unknown): StatementEngineError {
  return new StatementEngineError('INPUT_UNREADABLE', `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
}

export type ConsoErrorCode = 'INVALID_CONSO' | 'CONSO_TRUNCATED' | 'CONSO_OTHER_TAN' | 'CONSO_OTHER_PERIOD';

/** A conso file refused: the code, and the line of the file (1-based) the refusal is about. */
export class ConsoFileError extends StatementEngineError {
  readonly line: number;

  constructor(code: ConsoErrorCode, line: number, message: string) {
    super(code, `conso file line ${line}: ${message}`);
    this.name = 'ConsoFileError';
    this.line = line;
  }
}

export interface LayoutMismatch {
  /** Line of the TXT (1-based). */
  line: number;
  /** FH, BH, CD, DD, ... or null when the record type itself could not be read. */
  recordType: string | null;
  /** Field number as the layout numbers it (1-based). */
  field: number;
  fieldName: string;
  reason: string;
  /** The family and version of the layout checked against. */
  layout: string;
}

/** The self-check found a line that does not match the layout: a bug in the engine, never a workbook problem. */
export class TxtLayoutError extends StatementEngineError {
  readonly mismatch: LayoutMismatch;

  constructor(mismatch: LayoutMismatch) {
    const where = mismatch.recordType ? `${mismatch.recordType} field ${mismatch.field} (${mismatch.fieldName})` : `field ${mismatch.field}`;
    super('TXT_LAYOUT_MISMATCH', `Self-check failed at line ${mismatch.line}, ${where}: ${mismatch.reason}. The engine wrote a record that does not match the ${mismatch.layout} layout; this is a bug, and no TXT is given.`);
    this.name = 'TxtLayoutError';
    this.mismatch = mismatch;
  }
}
