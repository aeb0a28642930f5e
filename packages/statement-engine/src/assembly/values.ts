// Readers for single values with the checks every field of their kind needs. Each returns a usable value (or
// a neutral one after reporting), so a row with problems can still be checked further.

import { formatForPeople, fromEpochMillis, isPlausibleEpoch, type CivilDate } from '../dates.js';
import { describeAmountError, parsePaise } from '../money.js';
import type { Place } from '../problems.js';
import { cleanText, isMeaningfulName } from '../text.js';
import type { BuildContext } from './context.js';

export type PlaceFn = () => Place;

export interface TextRules {
  /** Longest text the field allows. */
  max: number;
  /** FVU name rule: not blank, not only dots or special characters. */
  name?: boolean;
}

/** Trimmed ASCII text ('' when empty), with TEXT_SANITISED / NON_ASCII_TEXT / NAME_INVALID / FIELD_TOO_LONG. */
export function readText(ctx: BuildContext, value: unknown, place: PlaceFn, label: string, rules: TextRules): string {
  if (value === null || value === undefined) return '';
  const raw = typeof value === 'string' ? value : String(value);
  const { text, replaced, nonAscii } = cleanText(raw);
  if (replaced) ctx.report('TEXT_SANITISED', place, `${label}: carets, tabs or line breaks were replaced by spaces`);
  if (nonAscii) ctx.report('NON_ASCII_TEXT', place, `${label} has characters outside ASCII that the file cannot carry`);
  if (rules.name && text !== '' && !isMeaningfulName(text)) ctx.report('NAME_INVALID', place, `${label} must contain letters or digits`);
  if (text.length > rules.max) ctx.report('FIELD_TOO_LONG', place, `${label} is ${text.length} characters; at most ${rules.max} fit`);
  return text;
}

export interface AmountRules {
  /** Challan amounts: whole rupees only. */
  wholeRupees?: boolean;
  /** Negative values allowed (house-property loss). */
  signed?: boolean;
}

/** Amount in paise; 0 for empty cells; NaN after reporting a problem. */
export function readAmount(ctx: BuildContext, value: unknown, place: PlaceFn, label: string, rules: AmountRules = {}): number {
  if (value === null || value === undefined) return 0;
  const paise = parsePaise(value);
  if (Number.isNaN(paise)) {
    ctx.report('INVALID_AMOUNT', place, `${label} ${describeAmountError(value)}`);
    return Number.NaN;
  }
  if (paise < 0 && !rules.signed) {
    ctx.report('NEGATIVE_AMOUNT', place, `${label} must not be negative`);
    return Number.NaN;
  }
  if (rules.wholeRupees && paise % 100 !== 0) {
    ctx.report('AMOUNT_NOT_WHOLE_RUPEES', place, `${label} must be whole rupees (no paise)`);
    return Number.NaN;
  }
  return paise;
}

export interface DateRules {
  /** Reject dates after the file creation date. */
  notFuture?: boolean;
}

/** Calendar date (IST) of an epoch-milliseconds cell; null when empty or after reporting. */
export function readDate(ctx: BuildContext, value: unknown, place: PlaceFn, label: string, rules: DateRules = { notFuture: true }): CivilDate | null {
  if (value === null || value === undefined) return null;
  if (!isPlausibleEpoch(value)) {
    ctx.report('INVALID_DATE', place, `${label} is not a date in epoch milliseconds`);
    return null;
  }
  const date = fromEpochMillis(value);
  if (rules.notFuture !== false && date > ctx.today) {
    ctx.report('FUTURE_DATE', place, `${label} ${formatForPeople(date)} is after the file creation date ${formatForPeople(ctx.today)}`);
  }
  return date;
}

export function yn(flag: boolean): 'Y' | 'N' {
  return flag ? 'Y' : 'N';
}

/** A cell that should hold a code-like string (tokens, serials): trimmed text, '' when empty. */
export function readCode(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

/** An identifier (PAN, TAN, GSTIN, certificate): trimmed and upper-cased, with a warning when the case changed. */
export function readIdentifier(ctx: BuildContext, value: unknown, place: PlaceFn, label: string): string {
  const text = readCode(value);
  const upper = text.toUpperCase();
  if (upper !== text) ctx.report('IDENTIFIER_UPPERCASED', place, `${label} was written in lower case; it is upper-cased`);
  return upper;
}
