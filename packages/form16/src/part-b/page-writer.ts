// A top-down writer over pdf-lib pages: a cursor, wrapped text in columns, a new page when the next line would
// not fit. Only what the Part B layout needs; pdf-lib draws, this decides where.

import { rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { Form16Error } from '../errors.js';

export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 36;
const GREY = rgb(0.55, 0.55, 0.55);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** The font's standard encoding (WinAnsi) prints Latin text; anything else is refused naming the field. */
export function printable(text: string, field: string): string {
  if (!/^[\x20-\x7E\u00A0-\u00FF]*$/.test(text)) throw new Form16Error('TEXT_NOT_PRINTABLE', `${field} has characters the PDF font cannot print: ${JSON.stringify(text.slice(0, 60))}`);
  return text;
}

/** Words of `text` in lines no wider than `width` at `size`; a word wider than the line stands alone. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

export class PageWriter {
  page: PDFPage;
  y: number;
  readonly width = A4[0] - 2 * MARGIN;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
    private readonly footer: string,
  ) {
    this.page = this.newPage();
    this.y = A4[1] - MARGIN;
  }

  /** Makes room for `height` points, starting a page when the cursor is too low. */
  need(height: number): void {
    if (this.y - height >= MARGIN + 14) return;
    this.page = this.newPage();
    this.y = A4[1] - MARGIN;
  }

  /** Text at `x` (from the left margin) on the cursor's baseline; right-aligned to `x` when `right`. */
  text(text: string, x: number, size: number, bold = false, right = false): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const at = right ? MARGIN + x - font.widthOfTextAtSize(text, size) : MARGIN + x;
    this.page.drawText(text, { x: at, y: this.y - size, size, font });
  }

  /** A paragraph across `width` from `x`; moves the cursor below it. */
  paragraph(text: string, size: number, x = 0, width = this.width, bold = false): void {
    const lines = wrap(text, bold ? this.fonts.bold : this.fonts.regular, size, width);
    for (const line of lines) {
      this.need(size + 3);
      this.text(line, x, size, bold);
      this.y -= size + 3;
    }
  }

  rule(gap = 4): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y - gap / 2 }, end: { x: MARGIN + this.width, y: this.y - gap / 2 }, thickness: 0.5, color: GREY });
    this.y -= gap;
  }

  box(x: number, height: number, width: number): void {
    this.page.drawRectangle({ x: MARGIN + x, y: this.y - height, width, height, borderColor: GREY, borderWidth: 0.75 });
  }

  private newPage(): PDFPage {
    const page = this.doc.addPage(A4);
    const n = this.doc.getPageCount();
    page.drawText(`${this.footer} - page ${n}`, { x: MARGIN, y: MARGIN - 12, size: 7, font: this.fonts.regular, color: GREY });
    return page;
  }
}
