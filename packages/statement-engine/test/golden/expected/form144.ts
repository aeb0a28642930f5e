/**
 * Expected TXT for fixtures/form144_q1_ty2026-27.json, written field by field from the layout tables
 * (new family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_144_Q1: GoldenCase = {
  title: "Form 144 Q1 TY 2026-27 (new family; DD field table unpublished)",
  fixture: "form144_q1_ty2026-27.json",
  family: "new",
  options: {"form": "144", "quarter": "Q1", "financialYear": "TY 2026-27", "tan": "DELG02468E"},
  now: "2026-07-11T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=11072026 6=1 7=D 8=DELG02468E 9=1 10=«any»
    "1^FH^NS1^R^11072026^1^D^DELG02468E^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=144 13=DELG02468E 15=AABCG2468B 16=202728 17=202627 18=Q1 19=Ganga Digital Media Pvt Ltd 20=INDIA 21=Tower B 22=Sector 39 PO 23=Cyber Park Road 24=Sector 39 25=Gurugram 26=12 27=122003 28=tax@gangadigital.in 29=91 30=9810098100 32=K 33=Arvind Malhotra 34=CFO 35=Tower B 36=Sector 39 PO 37=Cyber Park Road 38=Sector 39 39=Gurugram 40=12 41=122003 42=arvind.m@gangadigital.in 43=INDIA 44=91 45=9810012345 47=300000.00 52=N 59=AHKPM3579D 69=06AABCG2468B1Z9
    "2^BH^1^2^144^^^^^^^^DELG02468E^^AABCG2468B^202728^202627^Q1^Ganga Digital Media Pvt Ltd^INDIA^Tower B^Sector 39 PO^Cyber Park Road^Sector 39^Gurugram^12^122003^tax@gangadigital.in^91^9810098100^^K^Arvind Malhotra^CFO^Tower B^Sector 39 PO^Cyber Park Road^Sector 39^Gurugram^12^122003^arvind.m@gangadigital.in^INDIA^91^9810012345^^300000.00^^^^^N^^^^^^^AHKPM3579D^^^^^^^^^^06AABCG2468B1Z9^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 8=200000.00 9=0.00 10=0.00 11=0.00 12=200000.00 13=C 15=0510308 17=06001 19=07052026 21=200000.00 22=200000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^2^N^^200000.00^0.00^0.00^0.00^200000.00^C^^0510308^^06001^^07052026^^200000.00^200000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=AACCG2468K 9=Globex Technologies Inc 12=1 14=N 15=1057 16=21 17=267 18=Y 19=15042026 20=1000000.00 21=N 24=150000.00 25=150000.00 27=15042026 28=15.0000 30=B
    "4^DD^1^1^1^O^^AACCG2468K^Globex Technologies Inc^^^1^^N^1057^21^267^Y^15042026^1000000.00^N^^^150000.00^150000.00^^15042026^15.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=2 5=1 6=O 8=AAFFN1357P 9=Nordic Design Partners 12=7 14=N 15=1057 16=49 17=236 18=Y 19=25042026 20=500000.00 21=N 24=50000.00 25=50000.00 27=25042026 28=10.0000 30=B
    "5^DD^1^2^1^O^^AAFFN1357P^Nordic Design Partners^^^7^^N^1057^49^236^Y^25042026^500000.00^N^^^50000.00^50000.00^^25042026^10.0000^^B^^^^^^^^^^^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 8=100000.00 9=0.00 10=0.00 11=0.00 12=100000.00 13=C 15=0510308 17=06002 19=05062026 21=100000.00 22=100000.00 23=200 24=0.00 25=0.00
    "6^CD^1^2^2^N^^100000.00^0.00^0.00^0.00^100000.00^C^^0510308^^06002^^05062026^^100000.00^100000.00^200^0.00^0.00^^^^^",
    // DD: 1=7 2=DD 3=1 4=1 5=2 6=O 8=AACCG2468K 9=Globex Technologies Inc 12=1 14=N 15=1057 16=21 17=267 18=Y 19=20052026 20=400000.00 21=N 24=80000.00 25=80000.00 27=20052026 28=20.0000 30=A
    "7^DD^1^1^2^O^^AACCG2468K^Globex Technologies Inc^^^1^^N^1057^21^267^Y^20052026^400000.00^N^^^80000.00^80000.00^^20052026^20.0000^^A^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 8=AAFFN1357P 9=Nordic Design Partners 12=7 14=N 15=1057 16=49 17=236 18=Y 19=28052026 20=200000.00 21=N 24=20000.00 25=20000.00 27=28052026 28=10.0000 30=B
    "8^DD^1^2^2^O^^AAFFN1357P^Nordic Design Partners^^^7^^N^1057^49^236^Y^28052026^200000.00^N^^^20000.00^20000.00^^28052026^10.0000^^B^^^^^^^^^^^^^^^",
  ],
};
