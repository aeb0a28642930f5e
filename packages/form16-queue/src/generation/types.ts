import type { Form16Result } from '@satyapan/form16';

/**
 * One job's Form 16s, asked of a generation process over its IPC channel (the certificate's password too: never
 * its arguments, environment or a file). Paths are in the job's scratch folder.
 */
export interface GenerationRequest {
  /** The workbook (`.xlsx` or `.json`). */
  workbookPath: string;
  financialYear: string;
  tan: string;
  /** Where the PDFs, index.csv and part-a-mismatches.csv are written. */
  outDir: string;
  /** The date printed on each certificate, Unix ms (the worker's clock). */
  now: number;
  partAPath?: string;
  certificate?: { path: string; password: string };
  place?: string;
}

/**
 * `made`: the library ran (a workbook with errors too: its report says so). `refused`: the library or the engine
 * refused an input (a Form16Error or StatementEngineError, by code and message): the job fails with that reason.
 */
export type GenerationOutcome =
  | { kind: 'made'; result: Form16Result }
  | { kind: 'refused'; code: string; message: string };
