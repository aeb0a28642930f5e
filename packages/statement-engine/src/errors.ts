/** Thrown for options the engine cannot work with at all (bad form, quarter, year, TAN). Workbook problems are
 *  never thrown: they go into the ValidationReport. */
export class StatementEngineError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'StatementEngineError';
    this.code = code;
  }
}
