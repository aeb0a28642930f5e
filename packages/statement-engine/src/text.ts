// Text that goes into a caret-delimited ASCII record: no caret, no line breaks, no characters outside
// printable ASCII. Accented Latin letters are folded (é -> e); anything else is left for a problem.

const CLEAN = /^[\x20-\x5d\x5f-\x7e]*$/;

export interface CleanedText {
  text: string;
  /** Carets, tabs or line breaks were replaced by spaces. */
  replaced: boolean;
  /** Characters outside printable ASCII remain (the caller reports them; the text keeps them out). */
  nonAscii: boolean;
}

export function cleanText(raw: string): CleanedText {
  if (CLEAN.test(raw)) return { text: raw.trim(), replaced: false, nonAscii: false };
  let replaced = false;
  const folded = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\^\t\r\n\u0000-\u001f\u007f]/g, () => {
      replaced = true;
      return ' ';
    });
  const nonAscii = /[^\x20-\x7e]/.test(folded);
  const text = folded.replace(/[^\x20-\x7e]/g, '').replace(/ {2,}/g, ' ').trim();
  return { text, replaced, nonAscii };
}

/** FVU: a name may not be blank, only dots, or only special characters. */
export function isMeaningfulName(text: string): boolean {
  return /[A-Za-z0-9]/.test(text);
}

/**
 * Splits an address part longer than `width` over up to `lines` fields at word boundaries. Returns null when
 * it cannot fit.
 */
export function wrapWords(text: string, width: number, lines: number): string[] | null {
  if (text.length <= width) return [text];
  const out: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (word.length > width) return null;
    const next = current === '' ? word : `${current} ${word}`;
    if (next.length <= width) {
      current = next;
    } else {
      out.push(current);
      current = word;
    }
  }
  if (current !== '') out.push(current);
  return out.length <= lines ? out : null;
}
