import { ERROR_REGISTRY, serviceError } from '@satyapan/core';
import { isIfscPattern } from './ifsc/branch.js';

/**
 * The spec's input rules for operations 11 and 12, with the vendor's messages where one is known (docs/API.md:
 * a well-formed value that breaks a rule is 422). The router checks the same rules with JSON Schema; these
 * checks keep the services safe when called directly.
 */
export const ACCOUNT_NUMBER_MAX = 40;
export const NAME_MAX = 100;
export const MOBILE_PATTERN = /^[6-9]\d{9}$/;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_TEXT_MAX = 100;

/** Field rules broken with a 422 `Invalid <field>: <reason>` (the registry's INVALID_FIELD). */
const FIELD_RULES = {
  accountNumberLength: ['account_number', `must be 1 to ${ACCOUNT_NUMBER_MAX} characters`],
  accountNumberCharacters: ['account_number', 'must contain only letters and digits'],
  name: ['name', `must be at most ${NAME_MAX} characters`],
} as const satisfies Record<string, readonly [string, string]>;

type FieldRule = keyof typeof FIELD_RULES;

/** The exact 422 messages, shared with the router's JSON Schemas (`x-message`) so both layers say the same. */
export const VALIDATION_MESSAGES: Readonly<Record<FieldRule | 'ifsc' | 'mobileDigits' | 'mobile', string>> = {
  ifsc: 'Invalid IFSC pattern',
  // The vendor's penny-drop words: first whether it is a number at all, then whether it is a mobile number.
  mobileDigits: ERROR_REGISTRY.PHONE_NOT_NUMERIC.message(),
  mobile: ERROR_REGISTRY.INVALID_PHONE.message(),
  ...Object.fromEntries(Object.entries(FIELD_RULES).map(([rule, [field, reason]]) => [rule, `Invalid ${field}: ${reason}`])) as Record<FieldRule, string>,
};

function broken(rule: FieldRule): never {
  const [field, reason] = FIELD_RULES[rule];
  throw serviceError('INVALID_FIELD', field, reason);
}

export function assertIfsc(ifsc: string): void {
  if (!isIfscPattern(ifsc)) throw serviceError('UNPROCESSABLE', VALIDATION_MESSAGES.ifsc);
}

export function assertAccountNumber(accountNumber: string): void {
  if (accountNumber.length === 0 || accountNumber.length > ACCOUNT_NUMBER_MAX) {
    broken('accountNumberLength');
  }
  if (!/^[A-Za-z0-9]+$/.test(accountNumber)) {
    broken('accountNumberCharacters');
  }
}

export function assertName(name: string | undefined): void {
  if (name !== undefined && name.length > NAME_MAX) {
    broken('name');
  }
}

export const DIGITS_PATTERN = /^[0-9]+$/;

export function assertMobile(mobile: string | undefined): void {
  if (mobile === undefined) return;
  if (!DIGITS_PATTERN.test(mobile)) throw serviceError('PHONE_NOT_NUMERIC');
  if (!MOBILE_PATTERN.test(mobile)) throw serviceError('INVALID_PHONE');
}
