/**
 * Expected TXT for fixtures/form140_q1_ty2026-27.in-kind.json, written field by field from the layout tables
 * (new family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 *
 * In-kind sections (FORMAT_NOTES §4 "In-kind sections"): 1034 (perquisite in kind) and 1059 (lottery winnings in
 * kind), each under its own minor head 100 challan (CD 23 = 100, CD 13 = C; one PAN per such challan, FVU 1.2
 * T_FV_6307), challans 2 and 3 so that FVU 1.2 checks their rows: DD 24 = 0.00, DD 25 = 0.00, DD 28 = 0.0000 and
 * no date of deduction, as the Form 140 v1.0 field table requires; 1033 (perquisites paid in cash) is an ordinary
 * row (warning IN_KIND_LIST_UNSETTLED). 1065 (cash withdrawal, persons other than co-operative societies) carries
 * its amount above Rs 1 crore in DD 22 (FORMAT_NOTES §4 "Cash-withdrawal amounts").
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_140_Q1_IN_KIND: GoldenCase = {
  title: "140 Q1 TY 2026-27 with in-kind sections and a cash withdrawal (new, v1.0)",
  fixture: "form140_q1_ty2026-27.in-kind.json",
  family: "new",
  options: {"form": "140", "quarter": "Q1", "financialYear": "TY 2026-27", "tan": "BLRK05678B"},
  now: "2026-07-11T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=11072026 6=1 7=D 8=BLRK05678B 9=1 10=«any»
    "1^FH^NS1^R^11072026^1^D^BLRK05678B^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=3 5=140 13=BLRK05678B 15=AAECK5678P 16=202728 17=202627 18=Q1 19=Nandi Software Services Pvt Ltd 20=INDIA 21=No 42 Residency Road 24=Ashok Nagar 25=Bengaluru 26=15 27=560025 28=tds@nandisoft.in 29=91 30=9845012345 32=K 33=Ravi Shankar 34=Director 35=No 42 Residency Road 38=Ashok Nagar 39=Bengaluru 40=15 41=560025 42=ravi.s@nandisoft.in 43=INDIA 44=91 45=9880012345 47=52000.00 52=N 59=BNZPS7531K 69=29AAECK5678P1Z3
    "2^BH^1^3^140^^^^^^^^BLRK05678B^^AAECK5678P^202728^202627^Q1^Nandi Software Services Pvt Ltd^INDIA^No 42 Residency Road^^^Ashok Nagar^Bengaluru^15^560025^tds@nandisoft.in^91^9845012345^^K^Ravi Shankar^Director^No 42 Residency Road^^^Ashok Nagar^Bengaluru^15^560025^ravi.s@nandisoft.in^INDIA^91^9880012345^^52000.00^^^^^N^^^^^^^BNZPS7531K^^^^^^^^^^29AAECK5678P1Z3^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=3 6=N 8=19000.00 9=0.00 10=0.00 11=0.00 12=19000.00 13=C 15=0510032 17=30002 19=07052026 21=19000.00 22=19000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^3^N^^19000.00^0.00^0.00^0.00^19000.00^C^^0510032^^30002^^07052026^^19000.00^19000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=AAKFR2468M 9=Rangoli Advisors LLP 15=1033 18=Y 19=28042026 20=50000.00 24=5000.00 25=5000.00 27=28042026 28=10.0000
    "4^DD^1^1^1^O^^AAKFR2468M^Rangoli Advisors LLP^^^^^^1033^^^Y^28042026^50000.00^^^^5000.00^5000.00^^28042026^10.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=2 5=1 6=O 8=AADCT9753H 9=Tumkur Infra Pvt Ltd 15=1065 18=Y 19=02052026 20=10500000.00 22=500000.00 24=10000.00 25=10000.00 27=02052026 28=0.0952
    "5^DD^1^2^1^O^^AADCT9753H^Tumkur Infra Pvt Ltd^^^^^^1065^^^Y^02052026^10500000.00^^500000.00^^10000.00^10000.00^^02052026^0.0952^^^^^^^^^^^^^^^^^",
    // DD: 1=6 2=DD 3=1 4=3 5=1 6=O 8=DKMPA1357G 9=Anita Desai 15=1027 18=Y 19=04052026 20=40000.00 24=4000.00 25=4000.00 27=04052026 28=10.0000
    "6^DD^1^3^1^O^^DKMPA1357G^Anita Desai^^^^^^1027^^^Y^04052026^40000.00^^^^4000.00^4000.00^^04052026^10.0000^^^^^^^^^^^^^^^^^",
    // CD: 1=7 2=CD 3=1 4=2 5=1 6=N 8=9000.00 9=0.00 10=0.00 11=0.00 12=9000.00 13=C 15=0002390 17=30001 19=20042026 21=0.00 22=0.00 23=100 24=0.00 25=0.00
    "7^CD^1^2^1^N^^9000.00^0.00^0.00^0.00^9000.00^C^^0002390^^30001^^20042026^^0.00^0.00^100^0.00^0.00^^^^^",
    // DD: 1=8 2=DD 3=1 4=1 5=2 6=O 8=DKMPA1357G 9=Anita Desai 15=1034 18=Y 19=22042026 20=30000.00 24=0.00 25=0.00 28=0.0000
    "8^DD^1^1^2^O^^DKMPA1357G^Anita Desai^^^^^^1034^^^Y^22042026^30000.00^^^^0.00^0.00^^^0.0000^^^^^^^^^^^^^^^^^",
    // CD: 1=9 2=CD 3=1 4=3 5=1 6=N 8=24000.00 9=0.00 10=0.00 11=0.00 12=24000.00 13=C 15=0002390 17=30003 19=20042026 21=0.00 22=0.00 23=100 24=0.00 25=0.00
    "9^CD^1^3^1^N^^24000.00^0.00^0.00^0.00^24000.00^C^^0002390^^30003^^20042026^^0.00^0.00^100^0.00^0.00^^^^^",
    // DD: 1=10 2=DD 3=1 4=1 5=3 6=O 8=BQXPG4455K 9=Girish Gowda 15=1059 18=Y 19=25042026 20=100000.00 24=0.00 25=0.00 28=0.0000
    "10^DD^1^1^3^O^^BQXPG4455K^Girish Gowda^^^^^^1059^^^Y^25042026^100000.00^^^^0.00^0.00^^^0.0000^^^^^^^^^^^^^^^^^",
  ],
};
