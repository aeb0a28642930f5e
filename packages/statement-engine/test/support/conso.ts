// A test-side writer of TRACES consolidated (conso) files, from the conso layout FORMAT_NOTES.md §15 documents
// (tds-corrections.md §4.2), written independently of the engine's reader so that the two check each other:
// the regular TXT of the original statement, with
// - FH field 15 holding the file's hash (EY reads it there),
// - BH field 8 the token of the regular statement, and five fields inserted after field 42 (the conso BH tail
//   puts the responsible person's mobile at 48 where the regular BH has it at 43; EY, TDSMAN),
// - CD field 9 the booking status M/U/P (TDSMAN's "NSDL status"),
// - DD one field inserted before the section code, which moves to 34 (traces-app, EY, TDSMAN), and mode F for
//   rows locked by Form 26A/27BA,
// - amounts zero-padded to 15 characters (`000000000234.00`, traces-app).

export interface ConsoOptions {
  /** Token (RRR) of the regular statement, BH 8. */
  token?: string;
  hash?: string;
  /** Booking status per challan record number (default U). */
  status?: Record<number, 'M' | 'U' | 'P' | ''>;
  /** [challan record, deductee record] pairs written with mode F. */
  locked?: Array<[number, number]>;
  /** Record numbers the latest statement gives, when earlier corrections left gaps: challan record -> new number. */
  challanNumbers?: Record<number, number>;
}

const AMOUNT = /^-?[0-9]+\.[0-9]{2}$/;
const pad = (v: string) => (AMOUNT.test(v) && !v.startsWith('-') ? v.padStart(15, '0') : v);

/** The conso file TRACES would issue for a regular statement (its TXT as the engine writes it). */
export function writeConso(regularTxt: string, options: ConsoOptions = {}): string {
  const token = options.token ?? '123456789012345';
  const out: string[] = [];
  let challan = 0;
  for (const line of regularTxt.split('\r\n')) {
    if (line === '') continue;
    const f = ['', ...line.split('^')];
    const type = f[2];
    if (type === 'FH') {
      f[15] = options.hash ?? 'A1B2C3D4E5';
    } else if (type === 'BH') {
      f[8] = token;
      f.splice(43, 0, '', '', '', '', '');
    } else if (type === 'CD') {
      challan = Number(f[4]);
      const record = options.challanNumbers?.[challan] ?? challan;
      f[4] = String(record);
      f[9] = options.status?.[challan] ?? 'U';
      for (let n = 3; n < f.length; n++) f[n] = pad(f[n]!);
    } else if (type === 'DD') {
      f[4] = String(options.challanNumbers?.[challan] ?? challan);
      if (options.locked?.some(([c, d]) => c === challan && d === Number(f[5]))) f[6] = 'F';
      for (let n = 6; n < f.length; n++) f[n] = pad(f[n]!);
      f.splice(31, 0, '');
    }
    out.push(f.slice(1).join('^'));
  }
  return `${out.join('\r\n')}\r\n`;
}

/** The records of a TXT as field arrays (index = field number). */
export function records(txt: string): string[][] {
  return txt
    .split('\r\n')
    .filter((l) => l !== '')
    .map((l) => ['', ...l.split('^')]);
}
