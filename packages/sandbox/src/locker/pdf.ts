/**
 * A one-page PDF with a title and lines of text: enough for the simulated company documents to open in any
 * viewer. Objects are numbered 1..5 and the cross-reference table is computed from the real byte offsets.
 */

const PAGE_WIDTH = 595; // A4 in points
const PAGE_HEIGHT = 842;
const MARGIN = 56;
const LINE_HEIGHT = 16;

export function renderPdf(title: string, lines: readonly string[]): Buffer {
  const stream = contentStream(title, lines);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] `
      + '/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let body = '%PDF-1.4\n%\xE2\xE3\xCF\xD3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function contentStream(title: string, lines: readonly string[]): string {
  const top = PAGE_HEIGHT - MARGIN;
  const parts = [`BT /F2 16 Tf ${MARGIN} ${top} Td (${escapeText(title)}) Tj ET`];
  lines.forEach((line, index) => {
    const y = top - 2 * LINE_HEIGHT - index * LINE_HEIGHT;
    parts.push(`BT /F1 11 Tf ${MARGIN} ${y} Td (${escapeText(line)}) Tj ET`);
  });
  return parts.join('\n');
}

/** PDF literal strings need their delimiters escaped; characters outside Latin-1 become '?'. */
function escapeText(text: string): string {
  return text.replace(/[^\x20-\xFF]/g, '?').replace(/([\\()])/g, '\\$1');
}
