// A test-side writer of TRACES consolidated (conso) files in the layout of the real file TRACES issued
// (test/fixtures/conso/26Q_FY2014-15_Q2_real-layout_redacted.tds), written field by field from that file and not
// from the engine's reader (src/correction/conso.ts), so that the two check each other. The data is the original
// statement's: its regular TXT, read at the regular layout's positions (what TRACES holds once it is processed).
//
// The real file's records, as this writer lays them out (field numbers from 1; line number 1, record type 2):
// - FH, 18 fields: 3 file type, 4 R, 5 file date, 7 T, 8 empty (TFC id), 9 batches (1), 10 the file's line count,
//   11 "data as on" date, 15 the file hash.
// - BH, 69 fields: 4 challans, 5 form, 8 original token, 9 previous token (the last correction's, else the
//   original's), 13 TAN, 14 the next challan record number, 15 PAN, 16-18 AY/FY/quarter, 19-42 deductor and
//   responsible person, 43 a remark (empty), 44-46, 47 batch total (zero-padded), 48 responsible person's mobile,
//   49-51, 52 empty, 53 empty, 54-69.
// - CD, 41 fields: 4 record number, 5 rows, 6 nil, 8 the next row number, 9 booking status M/U/P, 12 serial,
//   14 DDO serial, 16 BSR, 18 date, 22-26 OLTAS amounts (zero-padded), 27 total (not padded), 29-35 totals (padded),
//   37 book entry, 38 pending amount, 40 fee, 41 minor head.
// - DD, 39 fields: 4 challan, 5 row, 6 mode (O, F when locked by Form 26A/27BA), 7 employee serial, 8 code (one
//   digit), 10 PAN, 12 PAN reference, 13 name, 14-17 and 19 amounts (padded), 21 purchase value, 22 amount paid
//   (padded), 23/24 dates paid/deducted, 25 date of deposit (the challan's date), 26 rate, 27 grossing up,
//   30 remark, 31 PAN flag (Y for a PAN), 32 PAN counter (1), 34 section code.
// - SD (24Q Q4): no real conso salary record was seen; the regular SD is copied with padded amounts (inference).

export interface ConsoOptions {
  /** Token (RRR) of the regular statement, BH 8. */
  token?: string;
  /** BH 9: the last processed correction's token (default: the original token). */
  previousToken?: string;
  hash?: string;
  /** FH 11 "data as on" (default: the regular FH 5). */
  dataAsOn?: string;
  /** Booking status per challan record number of the regular statement (default U). */
  status?: Record<number, 'M' | 'U' | 'P' | ''>;
  /** [challan record, deductee record] pairs written with mode F. */
  locked?: Array<[number, number]>;
  /** Record numbers the latest statement gives, when earlier corrections left gaps: challan record -> new number. */
  challanNumbers?: Record<number, number>;
  /** BH 14 (default: one above the highest challan record number). */
  nextChallan?: number;
  /** CD 8 per challan record of the regular statement (default: one above its highest row number). */
  nextDeductee?: Record<number, number>;
}

const COUNTS = { FH: 18, BH: 69, CD: 41, DD: 39 } as const;
const AMOUNT = /^-?[0-9]+\.[0-9]{2}$/;
const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
/** Amounts as TRACES writes them: zero-padded to 15 characters (000000003000.00). */
const pad = (v: string | undefined) => (v !== undefined && AMOUNT.test(v) && !v.startsWith('-') ? v.padStart(15, '0') : (v ?? ''));
const blank = (n: number): string[] => new Array<string>(n + 1).fill('');

/** The conso file TRACES would issue for a regular statement (its TXT as the engine writes it). */
export function writeConso(regularTxt: string, options: ConsoOptions = {}): string {
  const regular = records(regularTxt);
  const fh = regular.find((f) => f[2] === 'FH')!;
  const rh = regular.find((f) => f[2] === 'BH')!;
  const token = options.token ?? '123456789012345';
  const out: string[][] = [];
  const renumber = (record: number) => options.challanNumbers?.[record] ?? record;
  const challanRecords = regular.filter((f) => f[2] === 'CD').map((f) => renumber(Number(f[4])));

  const h = blank(COUNTS.FH);
  h[2] = 'FH';
  h[3] = fh[3]!;
  h[4] = 'R';
  h[5] = fh[5]!;
  h[7] = 'T';
  h[9] = '1';
  h[10] = String(regular.length);
  h[11] = options.dataAsOn ?? fh[5]!;
  h[15] = options.hash ?? '00000000000014812809';
  out.push(h);

  const b = blank(COUNTS.BH);
  b[2] = 'BH';
  b[3] = '1';
  b[4] = rh[4]!;
  b[5] = rh[5]!;
  b[8] = token;
  b[9] = options.previousToken ?? token;
  b[13] = rh[13]!;
  b[14] = String(options.nextChallan ?? Math.max(0, ...challanRecords) + 1);
  for (const n of [15, 16, 17, 18]) b[n] = rh[n]!;
  for (let n = 19; n <= 42; n++) b[n] = rh[n]!;
  for (const n of [44, 45, 46]) b[n] = rh[n]!;
  b[47] = pad(rh[47]);
  b[48] = rh[43]!;
  for (const n of [49, 50, 51]) b[n] = pad(rh[n]);
  for (let n = 54; n <= 69; n++) b[n] = rh[n]!;
  out.push(b);

  let challan = 0;
  let challanDate = '';
  for (const f of regular) {
    if (f[2] === 'CD') {
      challan = Number(f[4]);
      challanDate = f[18]!;
      const rows = Number(f[5]);
      const c = blank(COUNTS.CD);
      c[2] = 'CD';
      c[3] = '1';
      c[4] = String(renumber(challan));
      c[5] = f[5]!;
      c[6] = f[6]!;
      c[8] = String(options.nextDeductee?.[challan] ?? rows + 1);
      c[9] = options.status?.[challan] ?? 'U';
      for (const n of [12, 14, 16, 18]) c[n] = f[n]!;
      for (let n = 22; n <= 26; n++) c[n] = pad(f[n]);
      c[27] = f[27]!;
      for (let n = 29; n <= 35; n++) c[n] = pad(f[n]);
      c[37] = f[37]!;
      c[38] = '0.00';
      c[40] = f[39]!;
      c[41] = f[40]!;
      out.push(c);
    } else if (f[2] === 'DD') {
      const d = blank(COUNTS.DD);
      d[2] = 'DD';
      d[3] = '1';
      d[4] = String(renumber(challan));
      d[5] = f[5]!;
      d[6] = options.locked?.some(([c, r]) => c === challan && r === Number(f[5])) ? 'F' : 'O';
      for (const n of [7, 8, 10, 12, 13, 23, 24, 26, 27, 30]) d[n] = f[n]!;
      for (const n of [14, 15, 16, 17, 19, 21, 22]) d[n] = pad(f[n]);
      d[25] = f[25] || challanDate;
      d[31] = PAN.test(f[10]!) ? 'Y' : 'N';
      d[32] = '1';
      d[34] = f[33]!;
      out.push(d);
    } else if (f[2] !== 'FH' && f[2] !== 'BH') {
      out.push(f.map((v, n) => (n >= 3 ? pad(v) : v)));
    }
  }
  return `${out.map((f, i) => [String(i + 1), ...f.slice(2)].join('^')).join('\r\n')}\r\n`;
}

/** The records of a TXT as field arrays (index = field number). */
export function records(txt: string): string[][] {
  return txt
    .split(/\r?\n/)
    .filter((l) => l !== '')
    .map((l) => ['', ...l.split('^')]);
}
