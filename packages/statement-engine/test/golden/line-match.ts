/**
 * Field-by-field comparison of a TXT record with an expected line. Expected lines are written out in full
 * (caret-delimited) in ./expected/*.ts; three markers stand for values the sources leave open:
 *   «any»   any non-empty text without a caret (free text the engine chooses, e.g. FH field 10, RPU name)
 *   «zero»  '', '0' or '0.00' (a zero amount or count in a field whose M/O status the sources do not give)
 *   «open»  the sources give no position for this field (Forms 143/144 specifics); not asserted
 *   «?»     disputed between this reading and the engine; the value we expect is kept in disputed.json
 */
import { fieldCount, fieldLabel, type Family, type RecordType } from './layouts.js';
import type { TxtRecord } from './txt-parser.js';

export const ANY = '«any»';
export const ZERO = '«zero»';
export const OPEN = '«open»';
export const DISPUTED = '«?»';

function matches(expected: string, actual: string): boolean {
  if (expected === ANY) return actual !== '' && !actual.includes('^');
  if (expected === ZERO) return actual === '' || actual === '0' || actual === '0.00';
  if (expected === OPEN || expected === DISPUTED) return true;
  return expected === actual;
}

/** Field numbers (1-based) that an expected line pins to a definite value (not a marker, not empty). */
export function pinnedFields(expectedLine: string): number[] {
  return expectedLine
    .split('^')
    .map((value, index) => ({ value, field: index + 1 }))
    .filter(({ value }) => value !== '' && value !== ANY && value !== ZERO && value !== OPEN && value !== DISPUTED)
    .map(({ field }) => field);
}

/**
 * Compares one record with its expected line. Returns one message per differing field, each naming the
 * record type, field number and field name, e.g. "DD field 14 (income tax): expected '1000.00', got '1000'".
 * `only`, when given, restricts the comparison to those field numbers.
 */
export function recordMismatches(
  family: Family,
  actual: TxtRecord,
  expectedLine: string,
  only?: readonly number[],
): string[] {
  const expected = expectedLine.split('^');
  const type = expected[1] as RecordType;
  const problems: string[] = [];
  if (actual.type !== type) return [`line ${actual.physicalLine}: expected a ${type} record, got ${actual.type}`];
  if (expected.length !== fieldCount(family, type)) {
    throw new Error(`expected ${type} line has ${expected.length} fields, the ${family} layout has ${fieldCount(family, type)}`);
  }
  expected.forEach((want, index) => {
    const n = index + 1;
    if (only && !only.includes(n)) return;
    const got = actual.values[index] ?? '<missing>';
    if (!matches(want, got)) problems.push(`line ${actual.physicalLine} ${fieldLabel(family, type, n)}: expected '${want}', got '${got}'`);
  });
  return problems;
}

/**
 * An expected line with its markers replaced by plain values ('ANY', '0.00', ''), so that the self-check
 * can parse the expectations with the same reader it uses on the engine's output.
 */
export function materialize(expectedLine: string): string {
  return expectedLine
    .split('^')
    .map((value) => (value === ANY ? 'ANY' : value === ZERO ? '0.00' : value === OPEN || value === DISPUTED ? '' : value))
    .join('^');
}
