// Draws one employee's Form No. 16 Part B (Annexure) into a pdf-lib document: the parties and period, the lines
// of rows.ts, the verification by the person responsible for deduction, and the signature block. The block is
// where the visible signature goes (sign.ts puts the signature widget over it); unsigned, it says so.

import { StandardFonts, type PDFDocument } from 'pdf-lib';
import { stateName, type AnnexureEmployee, type Contact, type SalaryAnnexure } from '@satyapan/statement-engine';
import { MARGIN, PageWriter, printable, wrap, type Fonts } from './page-writer.js';
import { partBRows, type PartBRow } from './rows.js';

export interface PartBInput {
  annexure: Pick<SalaryAnnexure, 'deductor' | 'responsible' | 'period'>;
  employee: AnnexureEmployee;
  /** Verification place and date (DD/MM/YYYY). */
  place: string;
  date: string;
  /** Who signs (the certificate's subject), or null: the PDF then says it is not digitally signed. */
  signer: string | null;
}

/** Where the signature block was drawn: page index and [x1, y1, x2, y2], for the signature widget. */
export interface SignatureBlock {
  pageIndex: number;
  rect: [number, number, number, number];
}

const SIZE = 7.5;
const LINE = SIZE + 3;
// Column positions from the left margin: item, label, then amounts right-aligned at these x.
const ITEM_W = 34;
const AMOUNT_RIGHT = { gross: 383, qualifying: 453, deductible: 523, amount: 523 };
const LABEL_W = { single: 400, chapter6A: 270 };

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  return { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
}

function addressOf(c: Contact): string {
  const state = stateName(c.state) ?? '';
  return [...c.address, state, c.pin].map((p) => p.trim()).filter((p) => p !== '').join(', ');
}

/** The header's label column: wide enough for its longest label, the regime row, in bold. */
const HEADER_LABEL_W = 200;

function header(w: PageWriter, input: PartBInput): void {
  const { deductor, period } = input.annexure;
  const s = input.employee.detail;
  w.paragraph('FORM NO. 16', 12, 0, w.width, true);
  w.paragraph('[See rule 31(1)(a)]', SIZE);
  w.paragraph('PART B (Annexure)', 10, 0, w.width, true);
  w.paragraph('Details of Salary Paid and any other income and tax deducted', SIZE, 0, w.width, true);
  w.rule(6);
  const fields: Array<[string, string]> = [
    ['Name and address of the Employer', `${printable(deductor.name, 'employer name')}, ${printable(addressOf(deductor), 'employer address')}`],
    ['Name of the Employee', printable(s.name, `employee ${s.pan} name`)],
    ['PAN of the Deductor', deductor.pan],
    ['TAN of the Deductor', deductor.tan],
    ['PAN of the Employee', s.placeholderPan ? `${s.pan} (employee reference number ${s.referenceNumber})` : s.pan],
    ['Assessment Year', period.assessmentYear],
    ['Period with the Employer', `From ${formatDate(s.from)} To ${formatDate(s.to)}`],
    ['Whether opting out of taxation u/s 115BAC(1A)?', s.newRegime ? 'No' : 'Yes'],
  ];
  for (const [label, value] of fields) {
    w.need(LINE);
    w.text(label, 0, SIZE, true);
    w.paragraph(value, SIZE, HEADER_LABEL_W, w.width - HEADER_LABEL_W);
  }
  w.rule(6);
}

/** DD/MM/YYYY of a civil date (yyyymmdd as a number, the engine's CivilDate). */
function formatDate(date: number): string {
  const y = Math.floor(date / 10000);
  const m = Math.floor(date / 100) % 100;
  const d = date % 100;
  return `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`;
}

function columnHeads(w: PageWriter, chapter6A: boolean): void {
  w.need(LINE * 2); // the heads and the first row under them: never heads alone at the foot of a page
  if (chapter6A) {
    w.text('Gross amount', AMOUNT_RIGHT.gross, SIZE, true, true);
    w.text('Qualifying amount', AMOUNT_RIGHT.qualifying, SIZE, true, true);
    w.text('Deductible amount', AMOUNT_RIGHT.deductible, SIZE, true, true);
  } else {
    w.text('Rs.', AMOUNT_RIGHT.amount, SIZE, true, true);
  }
  w.y -= LINE;
}

function row(w: PageWriter, r: PartBRow): void {
  const chapter6A = r.gross !== undefined || r.note !== undefined;
  const heading = r.amount === undefined && !chapter6A && !r.notAllowed && r.note === undefined;
  const lines = wrap(r.label, heading ? w.fonts.bold : w.fonts.regular, SIZE, chapter6A ? LABEL_W.chapter6A : LABEL_W.single);
  w.need(lines.length * LINE);
  w.text(r.item, 0, SIZE, true);
  if (r.notAllowed) w.text('Not allowed (s.115BAC)', AMOUNT_RIGHT.amount, SIZE, false, true);
  if (r.note !== undefined) w.text(r.note, AMOUNT_RIGHT.amount, SIZE, false, true);
  if (r.amount !== undefined) w.text(r.amount, AMOUNT_RIGHT.amount, SIZE, false, true);
  if (r.gross !== undefined) w.text(r.gross, AMOUNT_RIGHT.gross, SIZE, false, true);
  if (r.qualifying !== undefined) w.text(r.qualifying, AMOUNT_RIGHT.qualifying, SIZE, false, true);
  if (r.deductible !== undefined) w.text(r.deductible, AMOUNT_RIGHT.deductible, SIZE, false, true);
  for (const line of lines) {
    w.text(line, r.item === '' ? ITEM_W + 10 : ITEM_W, SIZE, heading);
    w.y -= LINE;
  }
}

function verification(w: PageWriter, input: PartBInput): void {
  const r = input.annexure.responsible;
  w.rule(8);
  w.paragraph('Verification', 9, 0, w.width, true);
  w.paragraph(
    `I, ${printable(r.name, 'responsible person name')}, working in the capacity of ${printable(r.designation, 'responsible person designation')}, do hereby certify that the information given above is true, complete and correct and is based on the books of account, documents, TDS statements, and other available records.`,
    SIZE,
  );
  w.y -= 4;
  w.need(LINE * 2);
  w.text(`Place: ${printable(input.place, 'place')}`, 0, SIZE);
  w.y -= LINE;
  w.text(`Date: ${input.date}`, 0, SIZE);
  w.y -= LINE;
  w.text(`Full Name: ${r.name}    Designation: ${r.designation}`, 0, SIZE);
  w.y -= LINE + 4;
}

/** The signature block, bottom right of the verification: the signer's name, or the notice that it is unsigned. */
function signatureBlock(w: PageWriter, input: PartBInput, pageIndex: () => number): SignatureBlock {
  const width = 230;
  const height = 48;
  w.need(height + 4);
  const x = w.width - width;
  w.box(x, height, width);
  const top = w.y;
  w.y -= 4;
  if (input.signer) {
    w.text(`Digitally signed by ${printable(input.signer, 'certificate subject')}`, x + 6, SIZE, true);
    w.y -= LINE;
    w.text(`Date: ${input.date}  Place: ${input.place}`, x + 6, SIZE);
    w.y -= LINE;
    w.text('Signature of the person responsible for deduction of tax', x + 6, SIZE);
  } else {
    w.text('NOT DIGITALLY SIGNED', x + 6, SIZE, true);
    w.y -= LINE;
    w.text('This copy carries no digital signature.', x + 6, SIZE);
    w.y -= LINE;
    w.text('Signature of the person responsible for deduction of tax', x + 6, SIZE);
  }
  const rect: [number, number, number, number] = [MARGIN + x, top - height, MARGIN + x + width, top];
  w.y = top - height - 4;
  return { pageIndex: pageIndex(), rect };
}

/** Draws the employee's Part B on new pages at the end of `doc`. */
export function renderPartB(doc: PDFDocument, fonts: Fonts, input: PartBInput): SignatureBlock {
  const s = input.employee.detail;
  const w = new PageWriter(doc, fonts, `Form No. 16 Part B, ${s.pan}, AY ${input.annexure.period.assessmentYear}`);
  header(w, input);
  let chapter6A = true; // the first row sets the column heads
  for (const r of partBRows(input.employee)) {
    const isChapter6A = r.gross !== undefined || r.item.startsWith('10');
    if (isChapter6A !== chapter6A) {
      chapter6A = isChapter6A;
      columnHeads(w, chapter6A);
    }
    row(w, r);
  }
  verification(w, input);
  return signatureBlock(w, input, () => doc.getPages().indexOf(w.page));
}
