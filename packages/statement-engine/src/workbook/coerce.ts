// Reading what deductors send (liberal in what we read): a cell whose JSON type is not its column's is read as
// the column's type when that is unambiguous, with a warning naming the cell. Nothing is guessed: text that is
// not plainly a number stays a type error, and digit grouping ("1,00,000") is an error of its own, because
// Indian and international grouping put the commas in different places.

import type { RuleCode } from '../rules.js';
import type { FieldSpec } from './spec.js';

/** A cell read as its column's type (`code` is the warning), or a value that cannot be (`code` is the error). */
export interface Coercion {
  value: unknown;
  code: RuleCode;
  /** Completes "'<column>' ..." into the message. */
  note: string;
}

const PLAIN_INTEGER = /^-?\d+$/;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const GROUPED_NUMBER = /^-?\d{1,3}(,\d{2,3})+(\.\d+)?$/;
const TRUE_TEXT = new Set(['y', 'yes', 'true']);
const FALSE_TEXT = new Set(['n', 'no', 'false']);

const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);

function numberFromText(spec: FieldSpec, text: string): Coercion | null {
  const t = text.trim();
  if (t === '') return { value: null, code: 'NUMBER_FROM_TEXT', note: `holds only spaces; read as empty` };
  const plain = spec.type === 'number' ? PLAIN_DECIMAL : PLAIN_INTEGER;
  if (plain.test(t)) {
    const value = Number(t);
    if (Number.isSafeInteger(value) || (spec.type === 'number' && Number.isFinite(value))) {
      return { value, code: 'NUMBER_FROM_TEXT', note: `holds the text ${quote(text)}; read as the number ${value}` };
    }
  }
  if (GROUPED_NUMBER.test(t)) {
    return { value: text, code: 'NUMBER_GROUPED', note: `holds ${quote(text)} with digit-group commas; grouping is not guessed (Indian and international grouping differ), write the plain number` };
  }
  return null;
}

function textFromNumber(spec: FieldSpec, value: number): Coercion {
  const plain = String(value);
  if (spec.digits !== undefined && Number.isInteger(value) && value >= 0 && plain.length < spec.digits) {
    const padded = plain.padStart(spec.digits, '0');
    return { value: padded, code: 'TEXT_FROM_NUMBER', note: `holds the number ${plain}; read as the text "${padded}" (${spec.digits} digits, leading zeros restored)` };
  }
  return { value: plain, code: 'TEXT_FROM_NUMBER', note: `holds the number ${plain}; read as the text "${plain}"` };
}

function booleanFromText(text: string): Coercion | null {
  const t = text.trim().toLowerCase();
  if (t === '') return { value: null, code: 'BOOLEAN_FROM_TEXT', note: 'holds only spaces; read as empty' };
  if (TRUE_TEXT.has(t)) return { value: true, code: 'BOOLEAN_FROM_TEXT', note: `holds the text ${quote(text)}; read as true` };
  if (FALSE_TEXT.has(t)) return { value: false, code: 'BOOLEAN_FROM_TEXT', note: `holds the text ${quote(text)}; read as false` };
  return null;
}

/**
 * A cell whose JSON type is not its column's (the caller has checked), read as the column's type; null when
 * it cannot be read without guessing (the caller reports the type error).
 */
export function coerceCell(spec: FieldSpec, value: unknown): Coercion | null {
  if (typeof value === 'string') {
    if (spec.type === 'boolean') return booleanFromText(value);
    if (spec.type !== 'string') return numberFromText(spec, value);
  }
  if (typeof value === 'number' && spec.type === 'string') return textFromNumber(spec, value);
  return null;
}

/** True when a text cell needs tidying: spaces around it, or lower case in an upper-case code. */
export function needsTidying(spec: FieldSpec, text: string): boolean {
  const last = text.length - 1;
  if (last < 0) return false;
  if (text.charCodeAt(0) <= 32 || text.charCodeAt(last) <= 32) return true;
  if (spec.upper) {
    for (let i = 0; i <= last; i++) {
      const c = text.charCodeAt(i);
      if (c >= 97 && c <= 122) return true;
    }
  }
  return false;
}

/** The tidied text of a cell needsTidying() flagged, with a warning for each change. */
export function tidyText(spec: FieldSpec, text: string): { value: string; changes: Coercion[] } {
  const changes: Coercion[] = [];
  let value = text.trim();
  if (value !== text) changes.push({ value, code: 'SPACES_TRIMMED', note: `has spaces around ${quote(value)}; they are removed` });
  if (spec.upper && value.toUpperCase() !== value) {
    const upperCased = value.toUpperCase();
    changes.push({ value: upperCased, code: 'CODE_UPPERCASED', note: `${quote(value)} is read as ${quote(upperCased)}` });
    value = upperCased;
  }
  return { value, changes };
}
