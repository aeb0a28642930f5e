// Reads a TXT back into records for assertions: fields are addressed by the layout's 1-based numbers.

export interface TxtRecord {
  /** fields[0] is unused so fields[n] is field n. */
  fields: string[];
  type: string;
  raw: string;
}

export function records(txt: string): TxtRecord[] {
  if (!txt.endsWith('\r\n')) throw new Error('the file must end with CRLF');
  const lines = txt.slice(0, -2).split('\r\n');
  return lines.map((raw) => {
    if (raw.includes('\n') || raw.includes('\r')) throw new Error(`bare line break in ${raw}`);
    const fields = ['', ...raw.split('^')];
    return { fields, type: fields[2]!, raw };
  });
}

export function ofType(txt: string, type: string): TxtRecord[] {
  return records(txt).filter((r) => r.type === type);
}

/** Field n of every record of a type. */
export function column(txt: string, type: string, n: number): string[] {
  return ofType(txt, type).map((r) => r.fields[n]!);
}
