// Identifier patterns (reference §7). PAN 4th character is the holder status.

export const PAN_PATTERN = /^[A-Z]{3}[PCFTGHLABJ][A-Z][0-9]{4}[A-Z]$/;
export const PAN_PLACEHOLDERS = new Set(['PANAPPLIED', 'PANINVALID', 'PANNOTAVBL']);
export const DEDUCTOR_PAN_NOT_REQUIRED = 'PANNOTREQD';
export const TAN_PATTERN = /^[A-Z]{4}[0-9]{5}[A-Z]$/;
export const BSR_PATTERN = /^[0-9]{7}$/;
export const CHALLAN_SERIAL_PATTERN = /^[0-9]{5}$/;
export const PIN_PATTERN = /^[1-9][0-9]{5}$/;
export const EMAIL_PATTERN = /^[^@\s^]+@[^@\s^]+\.[^@\s^]+$/;
export const GSTIN_PATTERN = /^(?:[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][A-Z][0-9A-Z]|[0-9]{4}[A-Z]{3}[0-9]{5}[A-Z]{2}[0-9A-Z])$/;
export const AIN_PATTERN = /^[A-Za-z0-9]{7}$/;
export const RECEIPT_NUMBER_PATTERN = /^[0-9]{15}$/;
/** Legacy lower-deduction certificate (197 / 206C(9)): 10 characters. */
export const LEGACY_CERTIFICATE_PATTERN = /^[A-Za-z0-9]{10}$/;
/** New certificate u/s 395: 15 alphanumeric characters. */
export const NEW_CERTIFICATE_PATTERN = /^[A-Za-z0-9]{15}$/;

export type PanKind = 'valid' | 'placeholder' | 'invalid';

export function panKind(pan: string): PanKind {
  if (PAN_PATTERN.test(pan)) return 'valid';
  if (PAN_PLACEHOLDERS.has(pan)) return 'placeholder';
  return 'invalid';
}
