// One employee's Form 16 PDF: the TRACES Part A pages (when given) followed by Part B, signed when a certificate
// is given. pdf-lib builds and merges; sign.ts signs.

import { PDFDocument } from 'pdf-lib';
import type { AnnexureEmployee, SalaryAnnexure } from '@satyapan/statement-engine';
import { Form16Error } from './errors.js';
import { embedFonts, renderPartB } from './part-b/render.js';
import { addSignatureField, signBytes, type SigningCertificate } from './sign.js';

export interface DocumentInput {
  annexure: Pick<SalaryAnnexure, 'deductor' | 'responsible' | 'period'>;
  employee: AnnexureEmployee;
  /** The employee's TRACES Part A PDF, or null. */
  partA: { name: string; bytes: Uint8Array } | null;
  certificate: SigningCertificate | null;
  place: string;
  /** Issue and signing time; its date (India time) is the verification's date. */
  at: Date;
}

/** DD/MM/YYYY of `at` in India time (the date a person in India reads on the certificate). */
export function indiaDate(at: Date): string {
  const ist = new Date(at.getTime() + 330 * 60_000);
  return `${String(ist.getUTCDate()).padStart(2, '0')}/${String(ist.getUTCMonth() + 1).padStart(2, '0')}/${ist.getUTCFullYear()}`;
}

async function addPartA(doc: PDFDocument, partA: { name: string; bytes: Uint8Array }): Promise<void> {
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(partA.bytes, { ignoreEncryption: true });
  } catch (error) {
    throw new Form16Error('PART_A_UNREADABLE', `the Part A ${partA.name} is not a readable PDF: ${(error as Error).message.split('\n')[0]}`);
  }
  for (const page of await doc.copyPages(source, source.getPageIndices())) doc.addPage(page);
}

export async function form16Pdf(input: DocumentInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const s = input.employee.detail;
  doc.setTitle(`Form No. 16, ${s.pan}, AY ${input.annexure.period.assessmentYear}`);
  doc.setSubject(`Certificate under section 203 for tax deducted at source on salary: ${input.partA ? 'Part A (TRACES) and Part B' : 'Part B'}`);
  doc.setAuthor(input.annexure.deductor.name);
  doc.setCreator('Satyapan @satyapan/form16');
  doc.setCreationDate(input.at);
  doc.setModificationDate(input.at);
  if (input.partA) await addPartA(doc, input.partA);
  const fonts = await embedFonts(doc);
  const date = indiaDate(input.at);
  const block = renderPartB(doc, fonts, { annexure: input.annexure, employee: input.employee, place: input.place, date, signer: input.certificate?.signer ?? null });
  if (!input.certificate) return doc.save();
  addSignatureField(doc, block, input.certificate, {
    reason: `Form No. 16 for AY ${input.annexure.period.assessmentYear}, issued under section 203`,
    location: input.place,
    contactInfo: input.annexure.deductor.email,
    signingTime: input.at,
  });
  // signpdf finds the byte range in the file's text: object streams would hide it.
  return signBytes(await doc.save({ useObjectStreams: false }), input.certificate, input.at);
}
