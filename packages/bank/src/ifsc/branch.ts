/**
 * The branch object of `GET /bank/{ifsc}`: Razorpay's IFSC API shape (upper-case keys), which is what the
 * spec's "Bank branch (IFSC lookup) object" lists. The spec declares every string field a required string, so
 * a value the dataset lacks (MICR, SWIFT, CONTACT, ...) is the empty string, never null.
 */
export interface Branch {
  ADDRESS: string;
  BANK: string;
  BANKCODE: string;
  BRANCH: string;
  CENTRE: string;
  CITY: string;
  CONTACT: string;
  DISTRICT: string;
  IFSC: string;
  IMPS: boolean;
  ISO3166: string;
  MICR: string;
  NEFT: boolean;
  RTGS: boolean;
  STATE: string;
  SWIFT: string;
  UPI: boolean;
}

/** String fields other than IFSC, in the order the snapshot stores their columns. */
export const STRING_FIELDS = [
  'ADDRESS', 'BANK', 'BANKCODE', 'BRANCH', 'CENTRE', 'CITY', 'CONTACT', 'DISTRICT', 'ISO3166', 'MICR', 'STATE', 'SWIFT',
] as const satisfies readonly (keyof Branch)[];
export type StringField = (typeof STRING_FIELDS)[number];

/** Boolean fields, in the order of their bits in the snapshot's flag byte. */
export const FLAG_FIELDS = ['IMPS', 'NEFT', 'RTGS', 'UPI'] as const satisfies readonly (keyof Branch)[];
export type FlagField = (typeof FLAG_FIELDS)[number];

/** The spec's pattern for the `ifsc` path parameter (operations 11 and 12). */
export const IFSC_PATTERN = /^[A-Za-z]{4}[A-Za-z0-9]{7}$/;

export const IFSC_LENGTH = 11;

export function isIfscPattern(value: string): boolean {
  return IFSC_PATTERN.test(value);
}

/** IFSCs are case-insensitive; the directory keys them upper-case. */
export function canonicalIfsc(value: string): string {
  return value.trim().toUpperCase();
}
