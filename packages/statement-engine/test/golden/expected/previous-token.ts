/**
 * The golden 26Q and Form 140 cases converted with `previousReceiptNumber`, the token number of the previous
 * regular statement (tds-rules-addendum.md §8; DECISIONS.md D-34): the same TXT as the case without it, except
 * BH field 9 = the 15-digit token and BH field 52 = `Y`. FH 4 stays `R` and BH 8 (original token, corrections
 * only) stays empty.
 */
import type { GoldenCase } from '../golden-case.js';
import { FORM_140_Q1 } from './form140.js';
import { FORM_26Q_Q2 } from './form26q.js';

/** The shape of the CBDT FAQ's example token: 15 digits, leading zero. */
const TOKEN = '010010200083251';

function withPreviousToken(base: GoldenCase): GoldenCase {
  const lines = base.lines.map((line) => {
    const fields = line.split('^');
    if (fields[1] !== 'BH') return line;
    if (fields[7] !== '' || fields[8] !== '' || fields[51] !== 'N') throw new Error(`${base.title}: BH 8/9/52 are not '', '', 'N'`);
    fields[8] = TOKEN; // BH 9
    fields[51] = 'Y'; // BH 52
    return fields.join('^');
  });
  return {
    ...base,
    title: `${base.title}, previous regular statement's token in BH 9 (BH 52 = Y)`,
    options: { ...base.options, previousReceiptNumber: TOKEN },
    lines,
  };
}

export const FORM_26Q_Q2_PREVIOUS_TOKEN = withPreviousToken(FORM_26Q_Q2);
export const FORM_140_Q1_PREVIOUS_TOKEN = withPreviousToken(FORM_140_Q1);
