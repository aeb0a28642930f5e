/**
 * Expected TXT for fixtures/form27q_q1_fy2025-26.json, written field by field from the layout tables
 * (legacy family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Generated once from a field map and then reviewed by hand; edit both together.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_27Q_Q1: GoldenCase = {
  title: "27Q Q1 FY 2025-26 (legacy, 27Q v7.5; list items as [key, value] pairs)",
  fixture: "form27q_q1_fy2025-26.json",
  family: "legacy",
  options: {"form": "27Q", "quarter": "Q1", "financialYear": "FY 2025-26", "tan": "DELG02468H"},
  now: "2025-07-25T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=25072025 6=1 7=D 8=DELG02468H 9=1 10=«any»
    "1^FH^NS1^R^25072025^1^D^DELG02468H^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=27Q 13=DELG02468H 15=AABCG2468B 16=202627 17=202526 18=Q1 19=Ganga Digital Media Pvt Ltd 20=Corporate Office 21=Tower B Cyber Park 24=Sector 39 25=Gurugram 26=12 27=122003 28=tax@gangadigital.in 31=N 32=K 33=Arvind Malhotra 34=CFO 35=Tower B Cyber Park 38=Sector 39 39=Gurugram 40=12 41=122003 42=arvind.m@gangadigital.in 43=9810012345 46=N 47=300000.00 51=N 52=N 59=AHKPM3579D 69=06AABCG2468B1Z9
    "2^BH^1^2^27Q^^^^^^^^DELG02468H^^AABCG2468B^202627^202526^Q1^Ganga Digital Media Pvt Ltd^Corporate Office^Tower B Cyber Park^^^Sector 39^Gurugram^12^122003^tax@gangadigital.in^^^N^K^Arvind Malhotra^CFO^Tower B Cyber Park^^^Sector 39^Gurugram^12^122003^arvind.m@gangadigital.in^9810012345^^^N^300000.00^^^^N^N^^^^^^^AHKPM3579D^^^^^^^^^^06AABCG2468B1Z9^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 12=03001 16=0510308 18=07052025 22=200000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=200000.00 29=200000.00 30=200000.00 31=0.00 32=0.00 33=200000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^2^N^^^^^^03001^^^^0510308^^07052025^^^^200000.00^0.00^0.00^0.00^0.00^200000.00^^200000.00^200000.00^0.00^0.00^200000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=01 10=AACCG2468K 13=Globex Technologies Inc 14=150000.00 15=0.00 16=0.00 17=150000.00 19=150000.00 22=1000000.00 23=15042025 24=15042025 26=15.0000 27=N 33=195 35=B 36=21 37=123456789012345 38=267 49=Y
    "4^DD^1^1^1^O^^01^^AACCG2468K^^^Globex Technologies Inc^150000.00^0.00^0.00^150000.00^^150000.00^^^1000000.00^15042025^15042025^^15.0000^N^^^^^^195^^B^21^123456789012345^267^^^^^^^^^^^Y^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 8=02 10=AAFFN1357P 13=Nordic Design Partners 14=50000.00 15=0.00 16=0.00 17=50000.00 19=50000.00 22=500000.00 23=25042025 24=25042025 26=10.0000 27=N 33=195 35=B 36=49 37=223456789012345 38=236 49=N
    "5^DD^1^1^2^O^^02^^AAFFN1357P^^^Nordic Design Partners^50000.00^0.00^0.00^50000.00^^50000.00^^^500000.00^25042025^25042025^^10.0000^N^^^^^^195^^B^49^223456789012345^236^^^^^^^^^^^N^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 12=03002 16=0510308 18=06062025 22=100000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=100000.00 29=100000.00 30=100000.00 31=0.00 32=0.00 33=100000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "6^CD^1^2^2^N^^^^^^03002^^^^0510308^^06062025^^^^100000.00^0.00^0.00^0.00^0.00^100000.00^^100000.00^100000.00^0.00^0.00^100000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=7 2=DD 3=1 4=2 5=1 6=O 8=01 10=AACCG2468K 13=Globex Technologies Inc 14=80000.00 15=0.00 16=0.00 17=80000.00 19=80000.00 22=400000.00 23=20052025 24=20052025 26=20.0000 27=N 33=195 35=A 36=21 37=323456789012345 38=267 49=Y
    "7^DD^1^2^1^O^^01^^AACCG2468K^^^Globex Technologies Inc^80000.00^0.00^0.00^80000.00^^80000.00^^^400000.00^20052025^20052025^^20.0000^N^^^^^^195^^A^21^323456789012345^267^^^^^^^^^^^Y^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 8=02 10=AAFFN1357P 13=Nordic Design Partners 14=20000.00 15=0.00 16=0.00 17=20000.00 19=20000.00 22=200000.00 23=28052025 24=28052025 26=10.0000 27=N 33=195 35=B 36=49 37=423456789012345 38=236 49=N
    "8^DD^1^2^2^O^^02^^AAFFN1357P^^^Nordic Design Partners^20000.00^0.00^0.00^20000.00^^20000.00^^^200000.00^28052025^28052025^^10.0000^N^^^^^^195^^B^49^423456789012345^236^^^^^^^^^^^N^^^^^",
  ],
};
