// Identifier patterns (reference §7). PAN 4th character is the holder status.

export const PAN_PATTERN = /^[A-Z]{3}[PCFTGHLABJ][A-Z][0-9]{4}[A-Z]$/;
export const PAN_PLACEHOLDERS = new Set(['PANAPPLIED', 'PANINVALID', 'PANNOTAVBL']);
export const DEDUCTOR_PAN_NOT_REQUIRED = 'PANNOTREQD';
export const TAN_PATTERN = /^[A-Z]{4}[0-9]{5}[A-Z]$/;
/**
 * The FVU's (9.4) city codes, the first three letters of every TAN it accepts (T-FV-1010): read from the FVU
 * jar's constant pool (class com.tin.tds.w), as no public document lists them.
 */
export const TAN_CITY_CODES: ReadonlySet<string> = new Set([
  'AGR', 'AHM', 'ALD', 'AMR', 'BBN', 'BLR', 'BPL', 'BRD', 'CAL', 'CHE', 'CHN', 'CMB', 'DEL', 'HYD', 'JBP', 'JDH',
  'JLD', 'JPR', 'KLP', 'KNP', 'LKN', 'MRI', 'MRT', 'MUM', 'NGP', 'NSK', 'PNE', 'PTL', 'PTN', 'RCH', 'RKT', 'RTK',
  'SHL', 'SRT', 'TVD', 'VPN',
]);
/** The FVU's TAN check letter: the 5 digits mod 7 pick one of two letters (T-FV-1010). */
const TAN_CHECK_LETTERS = ['AH', 'BI', 'CJ', 'DK', 'EL', 'FM', 'GN'];
export const BSR_PATTERN = /^[0-9]{7}$/;
export const CHALLAN_SERIAL_PATTERN = /^[0-9]{5}$/;
export const PIN_PATTERN = /^[1-9][0-9]{5}$/;
export const EMAIL_PATTERN = /^[^@\s^]+@[^@\s^]+\.[^@\s^]+$/;
export const GSTIN_PATTERN = /^(?:[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][A-Z][0-9A-Z]|[0-9]{4}[A-Z]{3}[0-9]{5}[A-Z]{2}[0-9A-Z])$/;
export const AIN_PATTERN = /^[A-Za-z0-9]{7}$/;
export const RECEIPT_NUMBER_PATTERN = /^[0-9]{15}$/;

/** A statement's token number (15 digits) ends with the first 14 digits mod 7, as the FVU checks BH 9 (T-FV-2232). */
export function hasTokenCheckDigit(token: string): boolean {
  return RECEIPT_NUMBER_PATTERN.test(token) && BigInt(token.slice(0, 14)) % 7n === BigInt(token[14]!);
}
/** Legacy lower-deduction certificate (197 / 206C(9)): 10 characters. */
export const LEGACY_CERTIFICATE_PATTERN = /^[A-Za-z0-9]{10}$/;
/** New certificate u/s 395: 15 alphanumeric characters. */
export const NEW_CERTIFICATE_PATTERN = /^[A-Za-z0-9]{15}$/;

/** A TAN the FVU accepts: the pattern, a known city code and the check letter (T-FV-1010). */
export function isValidTan(tan: string): boolean {
  if (!TAN_PATTERN.test(tan) || !TAN_CITY_CODES.has(tan.slice(0, 3))) return false;
  return TAN_CHECK_LETTERS[Number(tan.slice(4, 9)) % 7]!.includes(tan[9]!);
}

export type PanKind = 'valid' | 'placeholder' | 'invalid';

export function panKind(pan: string): PanKind {
  if (PAN_PATTERN.test(pan)) return 'valid';
  if (PAN_PLACEHOLDERS.has(pan)) return 'placeholder';
  return 'invalid';
}
