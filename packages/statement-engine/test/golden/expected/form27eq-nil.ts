/**
 * Expected TXT for fixtures/form27eq_q3_fy2025-26.zero-challan.json: the data-names 27EQ fixture plus, in the
 * shape of the vendor's own 27EQ sample (in-co-sandbox/in-co-sandbox-docs, data/tcs/reports/form/
 * form27eq_workbook.data.json, challan 23456), a challan whose amounts are all 0 (serial 04003, BSR 0510308,
 * minor head tcs_payable, dated 02-11-2025) and its one row (scrap, no TCS, remark B: a Form 27C declaration; sale of goods, code R, is refused from FY 2025-26 by
 * FVU T_FV_6380). It is written as
 * a nil challan (tds-rules-addendum.md §1.1, §1.3): CD 6 = Y; 12, 14, 16, 37, 40 empty; 18 = the quarter's last
 * day; amounts 0.00. Its row: no tax, 24 (date of collection) empty, 26 rate 0.0000, 30 remark B.
 * The lines of the data-names case, with BH 4 (challan count) = 3, then the nil challan and its row.
 */
import type { GoldenCase } from '../golden-case.js';
import { FORM_27EQ_Q3_DATA_NAMES } from './form27eq-data.js';

/** The data-names case's lines with BH field 4 (count of challan records) = 3. */
function withThreeChallans(lines: readonly string[]): string[] {
  return lines.map((line) => {
    const fields = line.split('^');
    if (fields[1] !== 'BH') return line;
    if (fields[3] !== '2') throw new Error('the data-names case has two challans');
    fields[3] = '3';
    return fields.join('^');
  });
}

export const FORM_27EQ_Q3_NIL_CHALLAN: GoldenCase = {
  ...FORM_27EQ_Q3_DATA_NAMES,
  title: "27EQ Q3 FY 2025-26 (legacy, 27EQ v6.9) with an all-zero challan written as a nil challan",
  fixture: "form27eq_q3_fy2025-26.zero-challan.json",
  lines: [
    ...withThreeChallans(FORM_27EQ_Q3_DATA_NAMES.lines),
    // CD: 1=9 2=CD 3=1 4=3 5=1 6=Y 18=31122025 22=0.00 23=0.00 24=0.00 25=0.00 26=0.00 27=0.00 29=0.00 30=0.00 31=0.00 32=0.00 33=0.00 34=0.00 35=0.00 39=0.00
    "9^CD^1^3^1^Y^^^^^^^^^^^^31122025^^^^0.00^0.00^0.00^0.00^0.00^0.00^^0.00^0.00^0.00^0.00^0.00^0.00^0.00^^^^0.00^^",
    // DD: 1=10 2=DD 3=1 4=3 5=1 6=O 8=02 10=AAAPX3456A 13=Tony Xavier 14=0.00 15=0.00 16=0.00 17=0.00 19=0.00 21=750000.00 22=750000.00 23=04102025 26=0.0000 30=B 33=E 49=Y
    "10^DD^1^3^1^O^^2^^AAAPX3456A^^^Tony Xavier^0.00^0.00^0.00^0.00^^0.00^^750000.00^750000.00^04102025^^^0.0000^^^^B^^^E^^^^^^^^^^^^^^^^Y^^^^^",
  ],
};
