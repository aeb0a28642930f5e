/**
 * tds-txt-format.md §9(d): the Form 140 worked example (Q1 TY 2026-27, one challan, five deductees, one
 * PANNOTAVBL at 20% with remark C), copied verbatim except for two substitutions:
 *   - FH field 10 (name of the return preparation utility) is free text: «any»;
 *   - the two deductee PANs of the sample (ABCDE1234F, BCDEF2345G) have a 4th character outside
 *     P/C/H/F/A/T/B/L/J/G, so they fail the PAN rule (§7); the fixture uses ABCPE1234F and BCDFE2345G.
 * The published sample with its own PANs is fixtures/sample-d_as-published_invalid-pans.json, which must be
 * refused (see the golden test).
 */
import type { GoldenCase } from '../golden-case.js';

export const SAMPLE_D_FORM_140: GoldenCase = {
  title: 'tds-txt-format.md §9(d) Form 140 worked example',
  fixture: 'sample-d_form140_q1_ty2026-27.json',
  family: 'new',
  options: {"form":"140","quarter":"Q1","financialYear":"TY 2026-27","tan":"MUMZ12345E"},
  now: '2026-07-11T06:30:00.000Z',
  lines: [
    "1^FH^NS1^R^11072026^1^D^MUMZ12345E^1^\u00abany\u00bb^^^^^^^^",
    "2^BH^1^1^140^^^^^^^^MUMZ12345E^^AAACZ1234F^202728^202627^Q1^ZeroBook Test Deductor Pvt Ltd^INDIA^1 Evergreen Road^^^^^19^400001^tds@zerobook.test^91^2266778899^^K^Alex Manager^Director^1 Evergreen Road^^^^^19^400001^alex@zerobook.test^INDIA^91^2266778899^^65000.00^^^^^N^^^^^^^AAAPA1234Q^^^^^^^^^^^^^",
    "3^CD^1^1^5^N^^65000.00^0.00^0.00^0.00^65000.00^C^^0510308^^02345^^28062026^^65000.00^65000.00^200^^^^^^^",
    "4^DD^1^1^1^O^^ABCPE1234F^M/s Legal Advisors^^^^^^1027^^^Y^10042026^120000.00^^^^12000.00^12000.00^^10042026^10.0000^^^^^^^^^^^^^^^^^",
    "5^DD^1^2^1^O^^BCDFE2345G^M/s Audit Partners LLP^^^^^^1027^^^Y^15042026^100000.00^^^^10000.00^10000.00^^15042026^10.0000^^^^^^^^^^^^^^^^^",
    "6^DD^1^3^1^O^^ABCPE1234F^M/s Legal Advisors^^^^^^1027^^^Y^10052026^80000.00^^^^8000.00^8000.00^^10052026^10.0000^^^^^^^^^^^^^^^^^",
    "7^DD^1^4^1^O^^BCDFE2345G^M/s Audit Partners LLP^^^^^^1027^^^Y^20052026^150000.00^^^^15000.00^15000.00^^20052026^10.0000^^^^^^^^^^^^^^^^^",
    "8^DD^1^5^1^O^^PANNOTAVBL^M/s Counsel (no PAN)^^^^^^1027^^^Y^01062026^100000.00^^^^20000.00^20000.00^^01062026^20.0000^^^^C^^^^^^^^^^^^^",
  ],
};
