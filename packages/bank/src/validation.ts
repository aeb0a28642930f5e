import { serviceError } from '@satyapan/core';
import { isIfscPattern } from './ifsc/branch.js';

/**
 * The spec's input rules for operations 11 and 12, with the vendor's messages where one is known (API.md:
 * a well-formed value that breaks a rule is 422). The router checks the same rules with JSON Schema; these
 * checks keep the services safe when called directly.
 */
export const ACCOUNT_NUMBER_MAX = 40;
export const NAME_MAX = 100;
export const MOBILE_PATTERN = /^[6-9]\d{9}$/;
export const SEARCH_LIMIT_MAX = 100;
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_TEXT_MAX = 100;

export function assertIfsc(ifsc: string): void {
  if (!isIfscPattern(ifsc)) throw serviceError('UNPROCESSABLE', 'Invalid IFSC pattern');
}

export function assertAccountNumber(accountNumber: string): void {
  if (accountNumber.length === 0 || accountNumber.length > ACCOUNT_NUMBER_MAX) {
    throw serviceError('INVALID_FIELD', 'account_number', `must be 1 to ${ACCOUNT_NUMBER_MAX} characters`);
  }
  if (!/^[A-Za-z0-9]+$/.test(accountNumber)) {
    throw serviceError('INVALID_FIELD', 'account_number', 'must contain only letters and digits');
  }
}

export function assertName(name: string | undefined): void {
  if (name !== undefined && name.length > NAME_MAX) {
    throw serviceError('INVALID_FIELD', 'name', `must be at most ${NAME_MAX} characters`);
  }
}

export function assertMobile(mobile: string | undefined): void {
  if (mobile !== undefined && !MOBILE_PATTERN.test(mobile)) {
    throw serviceError('INVALID_FIELD', 'mobile', 'must be 10 digits starting with 6, 7, 8 or 9');
  }
}
