// @satyapan/statement-engine: Sheet JSON workbook -> FVU TXT for TDS/TCS statements, with validation report.

export type { ConversionResult, ConvertOptions, FormName, Problem, Quarter, Severity, ValidationReport } from './types.js';
export { ConsoFileError, ENGINE_ERRORS, StatementEngineError, TxtLayoutError, type ConsoErrorCode, type EngineErrorCode, type LayoutMismatch } from './errors.js';
export { checkTxt, LAYOUT_VERSIONS, type FieldSpec, type LayoutVersion, type RecordLayout } from './layouts/index.js';
export { convert, validate } from './convert.js';
export { convertFile, convertStream, validateFile, type StreamConversion, type StreamHooks, type StreamProgress, type WriteSummary } from './stream/convert-stream.js';
export { peekWorkbook, type WorkbookPeek } from './stream/peek.js';
export { workbookTemplate, type WorkbookTemplate } from './template.js';
export { parseCsi, type CsiFile } from './csi/parse.js';
export { readXlsxWorkbook, type CellMap } from './xlsx/read.js';
export { sheetJsonToXlsx, writeSheetJsonXlsx } from './xlsx/write.js';
export { writeReportXlsx } from './report-xlsx.js';
export { RULES, STRUCTURAL_CODES, type RuleCode, type RuleInfo } from './rules.js';
export { resolveStartYear } from './options.js';
export { FIRST_TAX_YEAR } from './period.js';
export { correct, correctFile, correctFileTo, CORRECTION_TYPES, type CorrectionBatch, type CorrectionFileResult, type CorrectionResult, type CorrectionType, type CorrectOptions } from './correction/correct.js';
export { DEFAULT_INPUT_LIMITS, parseLimitPair, resolveLimits, type InputLimitName, type InputLimits } from './limits.js';
export { CONSO_LAYOUT, ConsoReader, parseConso, readConso, type ConsoChallan, type ConsoDeductee, type ConsoExpectation, type ConsoStatement } from './correction/conso.js';
export { salaryAnnexure, type AnnexureEmployee, type AnnexureSeniorCitizen, type SalaryAnnexure, type SalaryFigures, type SeniorCitizenFigures } from './salary-annexure.js';
export type { Chapter6AEntry, SalaryDetail, SalaryParty, SeniorCitizenDetail } from './records/salary.js';
export type { Address, Contact, Deductor, ResponsiblePerson } from './assembly/models.js';
export { formatPaise } from './money.js';
export { stateName } from './codes/states.js';
export { xlsxTan as peekXlsxTan } from './cli/xlsx-commands.js';
