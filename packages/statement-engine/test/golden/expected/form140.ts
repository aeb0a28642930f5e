/**
 * Expected TXT for fixtures/form140_q1_ty2026-27.json, written field by field from the layout tables
 * (new family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_140_Q1: GoldenCase = {
  title: "Form 140 Q1 TY 2026-27 (new family, FVU 1.2)",
  fixture: "form140_q1_ty2026-27.json",
  family: "new",
  options: {"form": "140", "quarter": "Q1", "financialYear": "TY 2026-27", "tan": "BLRK05678B"},
  now: "2026-07-11T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=11072026 6=1 7=D 8=BLRK05678B 9=1 10=«any»
    "1^FH^NS1^R^11072026^1^D^BLRK05678B^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=140 13=BLRK05678B 15=AAECK5678P 16=202728 17=202627 18=Q1 19=Nandi Software Services Pvt Ltd 20=INDIA 21=No 42 Residency Road 24=Ashok Nagar 25=Bengaluru 26=15 27=560025 28=tds@nandisoft.in 29=91 30=9845012345 32=K 33=Ravi Shankar 34=Director 35=No 42 Residency Road 38=Ashok Nagar 39=Bengaluru 40=15 41=560025 42=ravi.s@nandisoft.in 43=INDIA 44=91 45=9880012345 47=49120.00 52=N 59=BNZPS7531K 69=29AAECK5678P1Z3
    "2^BH^1^2^140^^^^^^^^BLRK05678B^^AAECK5678P^202728^202627^Q1^Nandi Software Services Pvt Ltd^INDIA^No 42 Residency Road^^^Ashok Nagar^Bengaluru^15^560025^tds@nandisoft.in^91^9845012345^^K^Ravi Shankar^Director^No 42 Residency Road^^^Ashok Nagar^Bengaluru^15^560025^ravi.s@nandisoft.in^INDIA^91^9880012345^^49120.00^^^^^N^^^^^^^BNZPS7531K^^^^^^^^^^29AAECK5678P1Z3^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=3 6=N 8=27000.00 9=0.00 10=0.00 11=0.00 12=27000.00 13=C 15=0002390 17=10234 19=05052026 21=27000.00 22=27000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^3^N^^27000.00^0.00^0.00^0.00^27000.00^C^^0002390^^10234^^05052026^^27000.00^27000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=AAKFR2468M 9=Rangoli Advisors LLP 15=1027 18=Y 19=12042026 20=150000.00 24=15000.00 25=15000.00 27=12042026 28=10.0000
    "4^DD^1^1^1^O^^AAKFR2468M^Rangoli Advisors LLP^^^^^^1027^^^Y^12042026^150000.00^^^^15000.00^15000.00^^12042026^10.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=2 5=1 6=O 8=DKMPA1357G 9=Anita Desai 15=1026 18=Y 19=25042026 20=300000.00 24=6000.00 25=6000.00 27=25042026 28=2.0000
    "5^DD^1^2^1^O^^DKMPA1357G^Anita Desai^^^^^^1026^^^Y^25042026^300000.00^^^^6000.00^6000.00^^25042026^2.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=6 2=DD 3=1 4=3 5=1 6=O 8=AADCT9753H 9=Tumkur Infra Pvt Ltd 15=1024 18=Y 19=30042026 20=300000.00 24=6000.00 25=6000.00 27=30042026 28=2.0000
    "6^DD^1^3^1^O^^AADCT9753H^Tumkur Infra Pvt Ltd^^^^^^1024^^^Y^30042026^300000.00^^^^6000.00^6000.00^^30042026^2.0000^^^^^^^^^^^^^^^^^",
    // CD: 1=7 2=CD 3=1 4=2 5=2 6=N 8=22000.00 9=120.00 10=0.00 11=0.00 12=22120.00 13=C 15=0510032 17=20567 19=06062026 21=22000.00 22=22000.00 23=200 24=120.00 25=0.00
    "7^CD^1^2^2^N^^22000.00^120.00^0.00^0.00^22120.00^C^^0510032^^20567^^06062026^^22000.00^22000.00^200^120.00^0.00^^^^^",
    // DD: 1=8 2=DD 3=1 4=1 5=2 6=O 8=PANNOTAVBL 9=Suresh Gowda 15=1027 18=Y 19=15052026 20=100000.00 24=20000.00 25=20000.00 27=15052026 28=20.0000 32=C
    "8^DD^1^1^2^O^^PANNOTAVBL^Suresh Gowda^^^^^^1027^^^Y^15052026^100000.00^^^^20000.00^20000.00^^15052026^20.0000^^^^C^^^^^^^^^^^^^",
    // DD: 1=9 2=DD 3=1 4=2 5=2 6=O 8=DKMPA1357G 9=Anita Desai 15=1022 18=Y 19=31052026 20=20000.00 24=2000.00 25=2000.00 27=31052026 28=10.0000
    "9^DD^1^2^2^O^^DKMPA1357G^Anita Desai^^^^^^1022^^^Y^31052026^20000.00^^^^2000.00^2000.00^^31052026^10.0000^^^^^^^^^^^^^^^^^",
  ],
};
