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
    // FH: 1=1 2=FH 3=NS1 4=R 5=11072026 6=1 7=D 8=MUMZ12345E 9=1 10=«any»
    "1^FH^NS1^R^11072026^1^D^MUMZ12345E^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=1 5=140 13=MUMZ12345E 15=AAACZ1234F 16=202728 17=202627 18=Q1 19=ZeroBook Test Deductor Pvt Ltd 20=INDIA 21=1 Evergreen Road 26=19 27=400001 28=tds@zerobook.test 29=91 30=2266778899 32=K 33=Alex Manager 34=Director 35=1 Evergreen Road 40=19 41=400001 42=alex@zerobook.test 43=INDIA 44=91 45=2266778899 47=65000.00 52=N 59=AAAPA1234Q
    "2^BH^1^1^140^^^^^^^^MUMZ12345E^^AAACZ1234F^202728^202627^Q1^ZeroBook Test Deductor Pvt Ltd^INDIA^1 Evergreen Road^^^^^19^400001^tds@zerobook.test^91^2266778899^^K^Alex Manager^Director^1 Evergreen Road^^^^^19^400001^alex@zerobook.test^INDIA^91^2266778899^^65000.00^^^^^N^^^^^^^AAAPA1234Q^^^^^^^^^^^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=5 6=N 8=65000.00 9=0.00 10=0.00 11=0.00 12=65000.00 13=C 15=0510308 17=02345 19=28062026 21=65000.00 22=65000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^5^N^^65000.00^0.00^0.00^0.00^65000.00^C^^0510308^^02345^^28062026^^65000.00^65000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=ABCPE1234F 9=M/s Legal Advisors 15=1027 18=Y 19=10042026 20=120000.00 24=12000.00 25=12000.00 27=10042026 28=10.0000
    "4^DD^1^1^1^O^^ABCPE1234F^M/s Legal Advisors^^^^^^1027^^^Y^10042026^120000.00^^^^12000.00^12000.00^^10042026^10.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=2 5=1 6=O 8=BCDFE2345G 9=M/s Audit Partners LLP 15=1027 18=Y 19=15042026 20=100000.00 24=10000.00 25=10000.00 27=15042026 28=10.0000
    "5^DD^1^2^1^O^^BCDFE2345G^M/s Audit Partners LLP^^^^^^1027^^^Y^15042026^100000.00^^^^10000.00^10000.00^^15042026^10.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=6 2=DD 3=1 4=3 5=1 6=O 8=ABCPE1234F 9=M/s Legal Advisors 15=1027 18=Y 19=10052026 20=80000.00 24=8000.00 25=8000.00 27=10052026 28=10.0000
    "6^DD^1^3^1^O^^ABCPE1234F^M/s Legal Advisors^^^^^^1027^^^Y^10052026^80000.00^^^^8000.00^8000.00^^10052026^10.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=7 2=DD 3=1 4=4 5=1 6=O 8=BCDFE2345G 9=M/s Audit Partners LLP 15=1027 18=Y 19=20052026 20=150000.00 24=15000.00 25=15000.00 27=20052026 28=10.0000
    "7^DD^1^4^1^O^^BCDFE2345G^M/s Audit Partners LLP^^^^^^1027^^^Y^20052026^150000.00^^^^15000.00^15000.00^^20052026^10.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=5 5=1 6=O 8=PANNOTAVBL 9=M/s Counsel (no PAN) 15=1027 18=Y 19=01062026 20=100000.00 24=20000.00 25=20000.00 27=01062026 28=20.0000 32=C
    "8^DD^1^5^1^O^^PANNOTAVBL^M/s Counsel (no PAN)^^^^^^1027^^^Y^01062026^100000.00^^^^20000.00^20000.00^^01062026^20.0000^^^^C^^^^^^^^^^^^^",
  ],
};
