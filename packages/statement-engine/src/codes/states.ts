// Annexure 1 state codes (BH fields 26 and 40; Annexure 5 reuses them for BH field 54). Written as two digits.

const STATES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['01', ['ANDAMAN AND NICOBAR ISLANDS', 'ANDAMAN AND NICOBAR']],
  ['02', ['ANDHRA PRADESH']],
  ['03', ['ARUNACHAL PRADESH']],
  ['04', ['ASSAM']],
  ['05', ['BIHAR']],
  ['06', ['CHANDIGARH']],
  ['07', ['DADRA AND NAGAR HAVELI AND DAMAN AND DIU']],
  ['09', ['DELHI']],
  ['10', ['GOA']],
  ['11', ['GUJARAT']],
  ['12', ['HARYANA']],
  ['13', ['HIMACHAL PRADESH']],
  ['14', ['JAMMU AND KASHMIR']],
  ['15', ['KARNATAKA']],
  ['16', ['KERALA']],
  ['17', ['LAKSHWADEEP', 'LAKSHADWEEP']],
  ['18', ['MADHYA PRADESH']],
  ['19', ['MAHARASHTRA']],
  ['20', ['MANIPUR']],
  ['21', ['MEGHALAYA']],
  ['22', ['MIZORAM']],
  ['23', ['NAGALAND']],
  ['24', ['ODISHA', 'ORISSA']],
  ['25', ['PONDICHERRY', 'PUDUCHERRY']],
  ['26', ['PUNJAB']],
  ['27', ['RAJASTHAN']],
  ['28', ['SIKKIM']],
  ['29', ['TAMIL NADU', 'TAMILNADU']],
  ['30', ['TRIPURA']],
  ['31', ['UTTAR PRADESH']],
  ['32', ['WEST BENGAL']],
  ['33', ['CHHATTISGARH', 'CHHATISGARH', 'CHHATISHGARH']],
  ['34', ['UTTARAKHAND', 'UTTARANCHAL']],
  ['35', ['JHARKHAND']],
  ['36', ['TELANGANA']],
  ['37', ['LADAKH']],
];

/** Upper case, '&' read as AND, punctuation and repeated spaces dropped. */
function normalise(name: string): string {
  return name
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/[^A-Z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const BY_NAME = new Map<string, string>();
for (const [code, names] of STATES) for (const name of names) BY_NAME.set(normalise(name), code);
const CODES = new Set(STATES.map(([code]) => code));

/** Two-digit state code for a state name (as in the vendor's enum) or a numeric code; null when unknown. */
export function stateCode(value: string): string | null {
  const trimmed = value.trim();
  if (/^\d{1,2}$/.test(trimmed)) {
    const code = trimmed.padStart(2, '0');
    return CODES.has(code) ? code : null;
  }
  return BY_NAME.get(normalise(trimmed)) ?? null;
}

/** The state's name for a two-digit code (its first spelling above), or null when the code is unknown. */
export function stateName(code: string): string | null {
  return STATES.find(([c]) => c === code)?.[1][0] ?? null;
}
