// Text of a PDF as a person reads it, through PDF.js (Mozilla's reader, independent of pdf-lib that wrote it):
// per page, lines top to bottom, each line's cells left to right.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** PDF.js's metrics of the 14 standard fonts the Part B uses (Helvetica), from its own package. */
const STANDARD_FONTS = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

export type Line = string[];

export async function pdfLines(bytes: Uint8Array): Promise<Line[][]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl: STANDARD_FONTS }).promise;
  const pages: Line[][] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    const byY = new Map<number, Array<{ x: number; s: string }>>();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const y = Math.round(item.transform[5] as number);
      let cells = byY.get(y);
      if (!cells) byY.set(y, (cells = []));
      cells.push({ x: item.transform[4] as number, s: item.str });
    }
    pages.push([...byY.entries()].sort((a, b) => b[0] - a[0]).map(([, cells]) => cells.sort((a, b) => a.x - b.x).map((c) => c.s)));
  }
  await doc.destroy();
  return pages;
}

/** All lines of all pages, in reading order. */
export async function allLines(bytes: Uint8Array): Promise<Line[]> {
  return (await pdfLines(bytes)).flat();
}

const AMOUNT = /^-?[0-9]+\.[0-9]{2}$/;

/** The amounts on the line of annexure item `item` ('1(a)', '19'), in column order. */
export function amountsOf(lines: readonly Line[], item: string): string[] {
  const line = lines.find((l) => l[0] === item);
  if (!line) throw new Error(`no line for item ${item}`);
  return line.filter((c) => AMOUNT.test(c));
}

/** The amounts on the line whose label starts with `label` (lines without an item number). */
export function amountsOfLabel(lines: readonly Line[], label: string): string[] {
  const line = lines.find((l) => l.some((c) => c.startsWith(label)));
  if (!line) throw new Error(`no line labelled ${label}`);
  return line.filter((c) => AMOUNT.test(c));
}
