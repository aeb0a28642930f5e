// @satyapan/form16: Form 16 for every employee from a 24Q Q4 workbook: Part B from the statement's salary
// records, TRACES Part A merged where given, signed with a PKCS#12 certificate where given.

export { FORM16_ERRORS, Form16Error, type Form16ErrorCode } from './errors.js';
export { makeForm16s, indexCsv, pdfName, type Form16Options, type Form16Result, type IndexLine } from './make.js';
export { form16Pdf, indiaDate, type DocumentInput } from './document.js';
export { partBRows, type PartBRow } from './part-b/rows.js';
export { matchPartA, openPartA, type PartAMatch, type PartAMismatch, type PartASource } from './part-a.js';
export { openCertificate, type SigningCertificate } from './sign.js';
export { loadWorkbook, type LoadedWorkbook } from './workbook.js';
export { runForm16Command, FORM16_USAGE } from './cli.js';
