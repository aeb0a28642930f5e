/**
 * Raw branch records as Razorpay's by-bank JSON holds them (copied from the public-domain dataset, with its
 * quirks: null MICR/CONTACT/SWIFT, a lower-case duplicate flag key, a sublet branch).
 */
export const RAW_BRANCHES: Record<string, Record<string, unknown>[]> = {
  ABNA: [
    { BANK: 'Royal Bank of Scotland N.V.', IFSC: 'ABNA0000001', MICR: null, BRANCH: 'RTGS-HO', ADDRESS: '414 EMPIRE COMPLEX, SENAPATI BAPAT MARG LOWER PAREL WEST MUMBAI 400013', STATE: 'MAHARASHTRA', CONTACT: null, UPI: false, RTGS: true, CITY: 'GREATER BOMBAY', CENTRE: 'MUMBAI', DISTRICT: 'MUMBAI', NEFT: false, IMPS: true, SWIFT: null, ISO3166: 'IN-MH' },
    { BANK: 'Royal Bank of Scotland N.V.', IFSC: 'ABNA0100310', MICR: '400030002', BRANCH: 'BRADY HOUSE, MUMBAI', ADDRESS: 'BRADY HOUSE,14 VEER NARIMAN ROAD,FORT, MUMBAI - 400023', STATE: 'MAHARASHTRA', CONTACT: null, UPI: false, RTGS: true, CITY: 'GREATER BOMBAY', CENTRE: 'MUMBAI', DISTRICT: 'MUMBAI', NEFT: false, IMPS: true, SWIFT: null, ISO3166: 'IN-MH' },
  ],
  FDRL: [
    { BANK: 'Federal Bank', IFSC: 'FDRL0000001', MICR: null, BRANCH: 'ATM POOL BRANCH', ADDRESS: 'FEDERAL TOWERS ALUVA', STATE: 'KERALA', CONTACT: '+914842633832', UPI: true, RTGS: true, CITY: 'ERNAKULAM', CENTRE: 'ALUVA', DISTRICT: 'ALUVA', NEFT: true, IMPS: true, SWIFT: null, ISO3166: 'IN-KL' },
    { BANK: 'Nilambur Co-operative Urban Bank', IFSC: 'FDRL0NCUB01', BRANCH: 'Nilambur Co-operative Urban Bank IMPS', CENTRE: 'NA', DISTRICT: 'NA', STATE: 'MAHARASHTRA', ADDRESS: 'NA', CONTACT: null, IMPS: true, CITY: 'MUMBAI', UPI: false, NEFT: false, RTGS: false, MICR: null, SWIFT: null, ISO3166: 'IN-MH' },
  ],
  NCUB: [
    { BANK: 'Nilambur Co-operative Urban Bank', IFSC: 'NCUB0000001', MICR: '679792102', BRANCH: 'RTGS-HO', ADDRESS: 'P.B.NO.10,NILAMBUR MAIN ROAD,NILAMBUR', STATE: 'KERALA', CONTACT: '+914931220227', UPI: false, RTGS: true, CITY: 'MALAPPURAM', CENTRE: 'NILAMBUR', DISTRICT: 'NILAMBUR', NEFT: true, IMPS: true, SWIFT: null, ISO3166: 'IN-KL' },
  ],
  RBIS: [
    { BANK: 'Reserve Bank of India', IFSC: 'RBIS0AGPA01', MICR: null, BRANCH: 'AGARTALA', ADDRESS: 'II FLOOR, JACKSON GATE BUILDING LENIN SARANI ,AGARTALA', STATE: 'TRIPURA', CONTACT: '+913812381051', UPI: false, RTGS: true, CITY: 'AGARTALA', CENTRE: 'TRIPURA', DISTRICT: 'TRIPURA', NEFT: true, IMPS: true, SWIFT: null, ISO3166: 'IN-TR', imps: false },
  ],
  YESB: [
    { BANK: 'Yes Bank', IFSC: 'YESB0000001', BRANCH: 'Yes Bank IMPS', CENTRE: 'MUMBAI', DISTRICT: 'MUMBAI', STATE: 'MAHARASHTRA', ADDRESS: 'GROUND AND FIRST FLOOR,MOTI MAHAL, DR. ANNIE BESANT ROAD,, NEXT TO CITY BAKERY, WORLI, MUMBAI, MAHARASHTRA-400018', CONTACT: '+912266699293', IMPS: true, CITY: 'MUMBAI', UPI: true, MICR: '400532002', RTGS: true, NEFT: true, SWIFT: null, ISO3166: 'IN-MH' },
    { BANK: 'Delhi Nagrik Sehkari Bank', IFSC: 'YESB0DNB002', BRANCH: 'Delhi Nagrik Sehkari Bank IMPS', CENTRE: 'DELHI', DISTRICT: 'DELHI', STATE: 'MAHARASHTRA', ADDRESS: '720, NEAR GHANTAGHAR, SUBZI MANDI, DELHI - 110007', CONTACT: '+919560344685', IMPS: true, CITY: 'MUMBAI', UPI: true, MICR: '110196002', RTGS: true, NEFT: true, SWIFT: null, ISO3166: 'IN-MH' },
  ],
};

/** The by-bank layout: one `<CODE>.json` per bank, an object keyed by IFSC. */
export function byBankFiles(dir = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [code, rows] of Object.entries(RAW_BRANCHES)) {
    const keyed = Object.fromEntries(rows.map((row) => [row['IFSC'] as string, row]));
    files[`${dir}${code}.json`] = JSON.stringify(keyed, null, 2);
  }
  return files;
}

/** Razorpay's IFSC.csv column order. */
export const CSV_COLUMNS = [
  'BANK', 'IFSC', 'BRANCH', 'CENTRE', 'DISTRICT', 'STATE', 'ADDRESS', 'CONTACT', 'IMPS', 'RTGS', 'CITY', 'ISO3166',
  'NEFT', 'MICR', 'UPI', 'SWIFT',
] as const;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? 'NA' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The same branches as IFSC.csv writes them: missing values "NA", quoting where needed, CRLF lines. */
export function ifscCsv(): string {
  const rows = Object.values(RAW_BRANCHES).flat();
  const lines = [CSV_COLUMNS.join(','), ...rows.map((row) => CSV_COLUMNS.map((c) => csvCell(row[c])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
