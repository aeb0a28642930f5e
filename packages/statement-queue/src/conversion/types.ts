// What the worker asks of a conversion and what it gets back. Shapes match the engine's ValidationReport.

import type { InputLimits } from '@satyapan/statement-engine';

export interface ReportProblem {
  sheet: string | null;
  row: number | null;
  column: string | null;
  /** For an .xlsx workbook: the Excel cell (`payment_sheet!F12`). */
  cell?: string;
  code: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface ConversionReport {
  valid: boolean;
  errorCount: number;
  warningCount: number;
  problems: ReportProblem[];
}

export interface ConversionOptions {
  form: string;
  quarter: 'Q1' | 'Q2' | 'Q3' | 'Q4';
  financialYear: string;
  tan: string;
  previousReceiptNumber?: string;
  /** A correction statement: its tokens and allowed types (the conso file is `consoPath`). */
  correction?: { originalReceiptNumber?: string; lastCorrectionReceiptNumber?: string; types?: string[] };
  /** File creation date written into the TXT, Unix ms (the worker's clock, so a retry writes the same file). */
  createdAt: number;
}

/**
 * Files, not bytes: the workbook is streamed from a local copy and the TXT written to a local file, so neither
 * is ever held whole in memory (a 50 MB workbook, a million rows).
 */
export interface ConversionRequest {
  /** The uploaded workbook as a local file: a scratch copy, or FsStorage's own file of the frozen copy (read only). */
  inputPath: string;
  /** Where to write the TXT if there is one. */
  outputPath: string;
  /** The uploaded CSI file as a local file, for a job that takes one. */
  csiPath?: string;
  /** The TRACES conso file as a local file, for a correction job. */
  consoPath?: string;
  /** The job's scratch folder, for the engine's spill files; the input's folder when absent. */
  scratchDir?: string;
  options: ConversionOptions;
  /** The engine's input limits over its defaults (the worker's `inputLimits`). */
  limits?: Partial<InputLimits>;
}

/**
 * `converted`: the engine read the workbook; `txtPath` is null when the report has errors.
 * `invalid-workbook`: the upload is not a workbook at all (not JSON, not a Sheet JSON object of the form).
 * The .xlsx report (what `validation_report_url` serves) exists for jobs that fail and for converted ones with
 * warnings: building it costs more than the conversion of a small workbook, so a clean one gets none.
 */
export type ConversionOutcome =
  | { kind: 'converted'; txtPath: string; report: ConversionReport; reportXlsx: Uint8Array | null }
  | { kind: 'converted'; txtPath: null; report: ConversionReport; reportXlsx: Uint8Array }
  | { kind: 'invalid-workbook'; report: ConversionReport; reportXlsx: Uint8Array };

export interface Converter {
  /** Rejects only for infrastructure failures (a crashed thread, an abort); workbook problems are outcomes. */
  convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome>;
  /** The .xlsx form of a report the worker wrote itself (e.g. an upload over the size limit). */
  reportXlsx(report: ConversionReport): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function singleProblemReport(code: string, message: string): ConversionReport {
  return {
    valid: false,
    errorCount: 1,
    warningCount: 0,
    problems: [{ sheet: null, row: null, column: null, code, message, severity: 'error' }],
  };
}
