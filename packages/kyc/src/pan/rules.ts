import { serviceError } from '@satyapan/core';

/**
 * The PAN's structure as the vendor's schema states it: three letters, the holder's category (4th character),
 * a letter, four digits, a check letter. Upper case only, as the vendor's pattern is.
 */
export const PAN_PATTERN = /^[A-Z]{3}[PCFTGHLABJ][A-Z][0-9]{4}[A-Z]$/;

/** The vendor's date pattern of `date_of_birth` (date of incorporation for a business): DD/MM/YYYY. */
export const DATE_OF_BIRTH_PATTERN = /^(0[1-9]|[12][0-9]|3[01])\/(0[1-9]|1[0-2])\/[0-9]{4}$/;

export const AADHAAR_NUMBER_PATTERN = /^[0-9]{12}$/;

/** Longest `name_as_per_pan` and `reason` we take: longer than any name on a PAN; bounds one request's work. */
export const PAN_NAME_MAX = 200;
export const REASON_MAX = 256;

/**
 * The holder's category, from the PAN's 4th character (the Income Tax Department's encoding). The vendor's
 * examples show `individual`, `company`, `trust`, `firm`, `association_of_persons` and `body_of_individuals`;
 * the other four are named the same way.
 */
export const PAN_CATEGORIES = {
  P: 'individual',
  C: 'company',
  H: 'hindu_undivided_family',
  F: 'firm',
  A: 'association_of_persons',
  T: 'trust',
  B: 'body_of_individuals',
  L: 'local_authority',
  J: 'artificial_juridical_person',
  G: 'government',
} as const;

export type PanCategory = (typeof PAN_CATEGORIES)[keyof typeof PAN_CATEGORIES];

/** The category of a PAN that matches {@link PAN_PATTERN}. */
export function panCategory(pan: string): PanCategory {
  return PAN_CATEGORIES[pan.charAt(3) as keyof typeof PAN_CATEGORIES];
}

export const VALIDATION = {
  dateOfBirth: 'Invalid date_of_birth: must be a date as DD/MM/YYYY',
  nameAsPerPan: `Invalid name_as_per_pan: must be 1 to ${PAN_NAME_MAX} characters`,
  reasonLength: `Invalid reason: must be at most ${REASON_MAX} characters`,
  aadhaarNumber: 'Invalid Aadhaar number pattern',
} as const;

/** `consent` as the vendor takes it: `Y` or `y`. */
export function hasConsent(consent: unknown): boolean {
  return consent === 'Y' || consent === 'y';
}

/** A reason must say something (the vendor: "Reason cannot be empty"), and not be a document. */
export function assertReason(reason: unknown): void {
  if (typeof reason !== 'string' || reason.trim() === '') throw serviceError('REASON_EMPTY');
  if (reason.length > REASON_MAX) throw serviceError('UNPROCESSABLE', VALIDATION.reasonLength);
}

/** DD/MM/YYYY that names a real day (31/02/1990 does not). */
export function isCalendarDate(text: string): boolean {
  if (!DATE_OF_BIRTH_PATTERN.test(text)) return false;
  const [day, month, year] = text.split('/').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A DD/MM/YYYY date (one {@link isCalendarDate} accepts) as YYYY-MM-DD. */
export function toIsoDate(ddmmyyyy: string): string {
  const [day, month, year] = ddmmyyyy.split('/');
  return `${year}-${month}-${day}`;
}
