/**
 * tds-txt-format.md §9(a): the NSDL-style 24Q Q3 sample, reproduced where its inputs can be put in a workbook.
 * §9 captions it FY 2019-20; its fields 16/17 say AY 2019-20 / FY 2018-19 and its dates are in December 2018,
 * so the fixture is a FY 2018-19 workbook (DECISIONS.md D-35). The sample predates the current layouts (BH 70 fields, DD 48); the CD is unchanged (41 fields), so it
 * is expected verbatim; BH fields 1-59 and DD fields 1-34 keep their positions in the 72/54-field layouts.
 * Not reproducible, hence «open»: BH address lines 21-25 and 35-39 (the workbook has three address parts, the
 * sample five), BH 29/30 and 44/45 (STD codes and telephones have no workbook column), BH 32 (deductor type: the
 * sample says F for a PAN whose 4th character is A), BH 69 (GSTIN, not in that version). DD fields 30 and 34:
 * the sample's remark B with tax 1000 and certificate '748596klop' contradicts §5 (B means no deduction), so the
 * fixture has no remark (DECISIONS.md D-32).
 */
import type { GoldenCase } from '../golden-case.js';

export const SAMPLE_A_24Q: GoldenCase = {
  title: 'tds-txt-format.md §9(a) 24Q Q3 FY 2018-19 sample',
  fixture: 'sample-a_form24q_q3_fy2018-19.json',
  family: 'legacy',
  options: {"form":"24Q","quarter":"Q3","financialYear":"FY 2018-19","tan":"MUMN77777A"},
  now: '2020-02-07T06:30:00.000Z',
  lines: [
    "1^FH^SL1^R^07022020^1^D^MUMN77777A^1^«any»^^^^^^^^",
    "2^BH^1^1^24Q^^^^^^^^MUMN77777A^^SGAAA4563K^201920^201819^Q3^ABC Limited^N.A.^«open»^«open»^«open»^«open»^«open»^19^425000^abc@yahoo.com^«open»^«open»^N^«open»^MAHESH^AM^«open»^«open»^«open»^«open»^«open»^19^425000^xyz@gmail.com^9898989898^«open»^«open»^N^1000.00^^0^^N^N^^^^^^^AAAPA1111A^^^^^^^^^^«open»^^^",
    "3^CD^1^1^1^N^^^^^^00052^^^^0000412^^14122018^^^^1000.00^0.00^0.00^0.00^0.00^1000.00^^1000.00^1000.00^0.00^0.00^1000.00^0.00^0.00^^N^^0.00^200^",
    "4^DD^1^1^1^O^1^^^AAAPA1234A^^^GURU THAKUR^1000.00^0.00^0.00^1000.00^^1000.00^^^10000.00^16122018^16122018^14122018^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
  ],
};
