import { STRUCTURAL_CODES, StatementEngineError, convertFile, correctFileTo, type ConvertOptions, type FormName, type StreamConversion } from '@satyapan/statement-engine';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { reportToXlsx } from './report-xlsx.js';
import { singleProblemReport, type ConversionOutcome, type ConversionReport, type ConversionRequest } from './types.js';

/**
 * One conversion with the engine's streaming form: workbook file in, TXT file and reports out. Runs in a worker
 * thread (or inline when the host asks for it); everything it needs travels in the request.
 */
export async function runConversion(request: ConversionRequest): Promise<ConversionOutcome> {
  if (request.consoPath !== undefined) return runCorrection(request, request.consoPath);
  let conversion: StreamConversion;
  try {
    // The engine's spill files go into the job's scratch folder, which is removed with everything in it.
    const csi = request.csiPath !== undefined ? await readFile(request.csiPath) : undefined;
    conversion = await convertFile(request.inputPath, { ...engineOptions(request), ...(csi ? { csi } : {}) }, { tmpDir: request.scratchDir ?? dirname(request.inputPath) });
  } catch (error) {
    // Options the engine will not work with (checked at submit too, so rare): the job fails with the reason.
    if (!(error instanceof StatementEngineError) || error.code === 'INPUT_UNREADABLE') throw error;
    const report = singleProblemReport(error.code, error.message);
    return { kind: 'converted', txtPath: null, report, reportXlsx: await reportToXlsx(report) };
  }
  try {
    const { report } = conversion;
    if (isStructural(report)) return { kind: 'invalid-workbook', report, reportXlsx: await reportToXlsx(report) };
    if (!conversion.lines) return { kind: 'converted', txtPath: null, report, reportXlsx: await reportToXlsx(report) };
    await conversion.writeTo(request.outputPath);
    return { kind: 'converted', txtPath: request.outputPath, report, reportXlsx: report.warningCount > 0 ? await reportToXlsx(report) : null };
  } finally {
    await conversion.dispose();
  }
}

/**
 * A correction job: the corrected workbook against the TRACES conso file (the engine's correctFile). A conso file
 * the engine refuses (malformed, cut short, another TAN or period) fails the job with that one problem, naming
 * the line.
 */
async function runCorrection(request: ConversionRequest, consoPath: string): Promise<ConversionOutcome> {
  const { previousReceiptNumber: _regularOnly, ...base } = engineOptions(request);
  const correction = request.options.correction ?? {};
  let result;
  try {
    const csi = request.csiPath !== undefined ? await readFile(request.csiPath) : undefined;
    // The correction's TXT goes to the output file as it is made, never held whole.
    result = await correctFileTo(request.inputPath, consoPath, request.outputPath, { ...base, ...correction, ...(csi ? { csi } : {}) }, { tmpDir: request.scratchDir ?? dirname(request.inputPath) });
  } catch (error) {
    if (!(error instanceof StatementEngineError) || error.code === 'INPUT_UNREADABLE') throw error;
    const report = singleProblemReport(error.code, error.message);
    return { kind: 'converted', txtPath: null, report, reportXlsx: await reportToXlsx(report) };
  }
  const { report } = result;
  if (isStructural(report)) return { kind: 'invalid-workbook', report, reportXlsx: await reportToXlsx(report) };
  if (result.txtPath === null) return { kind: 'converted', txtPath: null, report, reportXlsx: await reportToXlsx(report) };
  return { kind: 'converted', txtPath: request.outputPath, report, reportXlsx: report.warningCount > 0 ? await reportToXlsx(report) : null };
}

/** Problems that say the upload is not a workbook of this form at all: the job's message is `Invalid Workbook`. */
function isStructural(report: ConversionReport): boolean {
  return report.problems.some((problem) => problem.severity === 'error' && STRUCTURAL_CODES.has(problem.code));
}

function engineOptions(request: ConversionRequest): ConvertOptions {
  const { options } = request;
  return {
    form: options.form as FormName,
    quarter: options.quarter,
    financialYear: options.financialYear,
    tan: options.tan,
    ...(options.previousReceiptNumber !== undefined ? { previousReceiptNumber: options.previousReceiptNumber } : {}),
    ...(request.limits ? { limits: request.limits } : {}),
    // The job's creation time, not the clock at conversion: a retried or repeated conversion writes the same file.
    now: () => new Date(options.createdAt),
  };
}
