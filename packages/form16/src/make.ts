// makeForm16s(): a 24Q Q4 workbook in, a folder of Form 16 PDFs out (one per employee with an SD record), with
// index.csv (one line per PDF) and, when Part A files are given, part-a-mismatches.csv. The PDFs are made from
// salaryAnnexure(): the records the statement's TXT is written from, in the same conversion.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPaise, salaryAnnexure, type AnnexureEmployee, type ConvertOptions, type SalaryAnnexure, type ValidationReport } from '@satyapan/statement-engine';
import { form16Pdf } from './document.js';
import { Form16Error } from './errors.js';
import { matchPartA, openPartA, type PartAMismatch, type PartASource } from './part-a.js';
import { openCertificate, type SigningCertificate } from './sign.js';

export interface Form16Options {
  /** The parsed workbook (loadWorkbook() reads a file). */
  workbook: unknown;
  /** 'FY 2025-26': the financial year of the 24Q Q4 statement. */
  financialYear: string;
  tan: string;
  outDir: string;
  /** A folder or zip of TRACES Part A PDFs. */
  partA?: string;
  certificate?: { path: string; password: string };
  /** Verification place; default the employer's town (its address's last line). */
  place?: string;
  /** Issue and signing time; default now. */
  now?: Date;
  /** Called after each PDF is written (progress). */
  onPdf?: (done: number, total: number) => void;
}

export interface IndexLine {
  pan: string;
  name: string;
  file: string;
  partA: string;
  signed: boolean;
  netTaxPayable: string;
}

export interface Form16Result {
  /** The statement's validation report: with an error, no PDF is made. */
  report: ValidationReport;
  lines: IndexLine[];
  /** Part A files not merged, and why. */
  partAMismatches: PartAMismatch[];
  /** Employees with an SD record and no Part A among the files given (empty when no Part A was given). */
  withoutPartA: Array<{ pan: string; name: string }>;
  /** Records no PDF is made for: s.194P specified senior citizens (94P records). */
  notMade: Array<{ pan: string; name: string; reason: string }>;
}

/** `ABCPE1234F_Form16_AY2026-27.pdf`; a placeholder PAN adds the employee's reference number. */
export function pdfName(e: AnnexureEmployee, assessmentYear: string): string {
  const who = e.detail.placeholderPan ? `${e.detail.pan}_${e.detail.referenceNumber}` : e.detail.pan;
  return `${who}_Form16_AY${assessmentYear}.pdf`;
}

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function indexCsv(lines: readonly IndexLine[]): string {
  const rows = lines.map((l) => [l.pan, l.name, l.file, l.partA, l.signed ? 'yes' : 'no', l.netTaxPayable].map(csvCell).join(','));
  return ['pan,name,file,part_a,signed,net_tax_payable', ...rows].join('\n') + '\n';
}

function writeOut(path: string, bytes: Uint8Array | string): void {
  try {
    writeFileSync(path, bytes);
  } catch (error) {
    throw new Form16Error('OUT_DIR_UNWRITABLE', `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

async function partAFor(source: PartASource | null, byPan: Map<string, string>, pan: string): Promise<{ name: string; bytes: Uint8Array } | null> {
  const name = byPan.get(pan);
  return source && name ? { name, bytes: await source.read(name) } : null;
}

export async function makeForm16s(options: Form16Options): Promise<Form16Result> {
  const convert: ConvertOptions = { form: '24Q', quarter: 'Q4', financialYear: options.financialYear, tan: options.tan, ...(options.now ? { now: () => options.now! } : {}) };
  const annexure: SalaryAnnexure = salaryAnnexure(options.workbook, convert);
  const result: Form16Result = { report: annexure.report, lines: [], partAMismatches: [], withoutPartA: [], notMade: [] };
  if (!annexure.txt) return result;
  const at = options.now ?? new Date();
  const certificate: SigningCertificate | null = options.certificate ? openCertificate(options.certificate.path, options.certificate.password, at) : null;
  try {
    mkdirSync(options.outDir, { recursive: true });
  } catch (error) {
    throw new Form16Error('OUT_DIR_UNWRITABLE', `cannot make ${options.outDir}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const source = options.partA ? await openPartA(options.partA) : null;
  try {
    const match = matchPartA(source?.names ?? [], new Set(annexure.employees.map((e) => e.detail.pan)), annexure.period.assessmentYear);
    result.partAMismatches = match.mismatches;
    const place = options.place ?? (annexure.deductor.address[4].trim() || annexure.deductor.name);
    let done = 0;
    for (const employee of annexure.employees) {
      const s = employee.detail;
      const partA = await partAFor(source, match.byPan, s.pan);
      if (source && !partA) result.withoutPartA.push({ pan: s.pan, name: s.name });
      const file = pdfName(employee, annexure.period.assessmentYear);
      writeOut(join(options.outDir, file), await form16Pdf({ annexure, employee, partA, certificate, place, at }));
      result.lines.push({ pan: s.pan, name: s.name, file, partA: partA?.name ?? (source ? 'missing' : 'not given'), signed: certificate !== null, netTaxPayable: formatPaise(employee.figures.netTax) });
      options.onPdf?.(++done, annexure.employees.length);
    }
  } finally {
    source?.close();
  }
  result.notMade = annexure.seniorCitizens.map((c) => ({ pan: c.detail.pan, name: c.detail.name, reason: 'specified senior citizen (s.194P, 94P record): its Form 16 is not made yet' }));
  writeOut(join(options.outDir, 'index.csv'), indexCsv(result.lines));
  if (source) writeOut(join(options.outDir, 'part-a-mismatches.csv'), ['file,reason', ...result.partAMismatches.map((m) => `${csvCell(m.file)},${csvCell(m.reason)}`)].join('\n') + '\n');
  return result;
}
