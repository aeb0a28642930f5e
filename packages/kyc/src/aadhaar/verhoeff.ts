/**
 * Verhoeff check digits (dihedral group D5), the checksum of Aadhaar numbers: the 12th digit makes the whole
 * number check to zero. A passing checksum only says the number is well formed, not that it was issued.
 */

const MULTIPLY: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

const PERMUTE: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

const INVERSE: readonly number[] = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

/** Runs the checksum over `digits` read right to left, the rightmost at position `offset`. */
function checksum(digits: string, offset: number): number {
  let c = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = (MULTIPLY[c] as readonly number[])[(PERMUTE[(i + offset) % 8] as readonly number[])[digit] as number] as number;
  }
  return c;
}

export function verhoeffValid(digits: string): boolean {
  return /^[0-9]+$/.test(digits) && checksum(digits, 0) === 0;
}

/** The digit to append to `payload` so that the result passes {@link verhoeffValid}. */
export function verhoeffCheckDigit(payload: string): string {
  if (!/^[0-9]+$/.test(payload)) throw new TypeError('A Verhoeff payload is made of digits');
  return String(INVERSE[checksum(payload, 1)]);
}

/** UIDAI's rules: 12 digits, the first neither 0 nor 1, the last the Verhoeff check digit. */
export function isValidAadhaarNumber(value: string): boolean {
  return /^[2-9][0-9]{11}$/.test(value) && verhoeffValid(value);
}
