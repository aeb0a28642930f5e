/**
 * ISO 3166-2:IN subdivision codes by the upper-case state names RBI's lists use. Used to fill `ISO3166` when
 * the dataset lacks it (about 1% of rows), so that a search by `state=IN-XX` finds those branches too.
 * Includes the misspellings that occur in the published data.
 */
const CODES: Record<string, string> = {
  'ANDHRA PRADESH': 'IN-AP',
  'ARUNACHAL PRADESH': 'IN-AR',
  ASSAM: 'IN-AS',
  BIHAR: 'IN-BR',
  CHHATTISGARH: 'IN-CT',
  GOA: 'IN-GA',
  GUJARAT: 'IN-GJ',
  HARYANA: 'IN-HR',
  'HIMACHAL PRADESH': 'IN-HP',
  JHARKHAND: 'IN-JH',
  KARNATAKA: 'IN-KA',
  KERALA: 'IN-KL',
  'MADHYA PRADESH': 'IN-MP',
  'MADHY PRADESH': 'IN-MP',
  MAHARASHTRA: 'IN-MH',
  MANIPUR: 'IN-MN',
  MEGHALAYA: 'IN-ML',
  MIZORAM: 'IN-MZ',
  NAGALAND: 'IN-NL',
  ODISHA: 'IN-OR',
  ORISSA: 'IN-OR',
  ODHISA: 'IN-OR',
  PUNJAB: 'IN-PB',
  RAJASTHAN: 'IN-RJ',
  SIKKIM: 'IN-SK',
  'TAMIL NADU': 'IN-TN',
  TELANGANA: 'IN-TG',
  TRIPURA: 'IN-TR',
  'UTTAR PRADESH': 'IN-UP',
  UTTARAKHAND: 'IN-UT',
  UTTARKHAND: 'IN-UT',
  'WEST BENGAL': 'IN-WB',
  'ANDAMAN AND NICOBAR ISLANDS': 'IN-AN',
  CHANDIGARH: 'IN-CH',
  'DADRA AND NAGAR HAVELI AND DAMAN AND DIU': 'IN-DH',
  'DADRA AND NAGAR HAVELI': 'IN-DH',
  'DADAR AND NAGAR HAVELI': 'IN-DH',
  'DAMAN AND DIU': 'IN-DH',
  DELHI: 'IN-DL',
  'JAMMU AND KASHMIR': 'IN-JK',
  LADAKH: 'IN-LA',
  LAKSHADWEEP: 'IN-LD',
  PUDUCHERRY: 'IN-PY',
  PONDICHERRY: 'IN-PY',
};

/** `IN-XX` for a state name, or "" when the name is not a known state. */
export function iso3166ForState(state: string): string {
  return CODES[state.trim().replace(/\s+/g, ' ').replace(/&/g, 'AND').toUpperCase()] ?? '';
}
