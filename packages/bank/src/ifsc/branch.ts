/**
 * The branch object of `GET /bank/{ifsc}`: Razorpay's IFSC API shape (upper-case keys), which is what the
 * spec's "Bank branch (IFSC lookup) object" lists. In the directory a value the dataset lacks is the empty
 * string; the API shows it as {@link BranchView} does.
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

/**
 * The branch as the API answers it. The vendor's examples show an absent SWIFT code as `null` (and an absent
 * CONTACT as ""), so a client written for the vendor tests SWIFT against null (docs/API.md, docs/VENDOR_COMPAT.md).
 */
export type BranchView = Omit<Branch, 'SWIFT'> & { SWIFT: string | null };

/** Directory fields the vendor shows as `null` when absent. */
export const NULLABLE_FIELDS = ['SWIFT'] as const satisfies readonly StringField[];

export function branchView(branch: Branch): BranchView {
  return { ...branch, SWIFT: branch.SWIFT === '' ? null : branch.SWIFT };
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
