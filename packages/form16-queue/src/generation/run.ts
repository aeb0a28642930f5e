import { Form16Error, loadWorkbook, makeForm16s } from '@satyapan/form16';
import { StatementEngineError } from '@satyapan/statement-engine';
import type { GenerationOutcome, GenerationRequest } from './types.js';

/**
 * One job's Form 16s (`makeForm16s`: Part B from the same records the 24Q TXT is written from, Part A merged,
 * signed), written into `outDir`. A wrong input comes back as `refused` with its code, so that its class survives
 * the trip from a child process; anything else rejects.
 */
export async function generateForm16s(request: GenerationRequest): Promise<GenerationOutcome> {
  try {
    const { workbook } = await loadWorkbook(request.workbookPath);
    const result = await makeForm16s({
      workbook, financialYear: request.financialYear, tan: request.tan, outDir: request.outDir, now: new Date(request.now),
      ...(request.partAPath ? { partA: request.partAPath } : {}),
      ...(request.certificate ? { certificate: request.certificate } : {}),
      ...(request.place ? { place: request.place } : {}),
    });
    return { kind: 'made', result };
  } catch (error) {
    if (error instanceof Form16Error || error instanceof StatementEngineError) return { kind: 'refused', code: error.code, message: error.message };
    throw error;
  }
}
