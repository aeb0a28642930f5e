/**
 * Expected TXT for fixtures/form27q_q1_fy2024-25.206ab.json, written field by field from the layout tables
 * (legacy family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 *
 * DD 30 = J (higher rate u/s 206AB for a non-resident with a permanent establishment, FVU 7.2) on section 195.
 * DD 26 rate (FORMAT_NOTES §4 "Rate"): the rate of the tax alone, DD 14 / DD 22: 200000 on 1000000 is 20.0000
 * although DD 17 (with surcharge 20000 and cess 8800) is 228800.00; 50000 + 5000 + 2200 on 500000 is 10.0000.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_27Q_Q1_206AB: GoldenCase = {
  title: "27Q Q1 FY 2024-25 with remark J (s.206AB), surcharge and cess (legacy, 27Q)",
  fixture: "form27q_q1_fy2024-25.206ab.json",
  family: "legacy",
  options: {"form": "27Q", "quarter": "Q1", "financialYear": "FY 2024-25", "tan": "DELG02468E"},
  now: "2024-07-25T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=25072024 6=1 7=D 8=DELG02468E 9=1 10=«any»
    "1^FH^NS1^R^25072024^1^D^DELG02468E^1^\u00abany\u00bb^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=27Q 13=DELG02468E 15=AABCG2468B 16=202526 17=202425 18=Q1 19=Ganga Digital Media Pvt Ltd 20=Corporate Office 21=Tower B Cyber Park 24=Sector 39 25=Gurugram 26=12 27=122003 28=tax@gangadigital.in 31=N 32=K 33=Arvind Malhotra 34=CFO 35=Tower B Cyber Park 38=Sector 39 39=Gurugram 40=12 41=122003 42=arvind.m@gangadigital.in 43=9810012345 46=N 47=327600.00 51=N 52=N 59=AHKPM3579D 69=06AABCG2468B1Z9
    "2^BH^1^2^27Q^^^^^^^^DELG02468E^^AABCG2468B^202526^202425^Q1^Ganga Digital Media Pvt Ltd^Corporate Office^Tower B Cyber Park^^^Sector 39^Gurugram^12^122003^tax@gangadigital.in^^^N^K^Arvind Malhotra^CFO^Tower B Cyber Park^^^Sector 39^Gurugram^12^122003^arvind.m@gangadigital.in^9810012345^^^N^327600.00^^^^N^N^^^^^^^AHKPM3579D^^^^^^^^^^06AABCG2468B1Z9^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 12=03101 16=0510308 18=07052024 22=250000.00 23=25000.00 24=11000.00 25=0.00 26=0.00 27=286000.00 29=286000.00 30=250000.00 31=25000.00 32=11000.00 33=286000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^2^N^^^^^^03101^^^^0510308^^07052024^^^^250000.00^25000.00^11000.00^0.00^0.00^286000.00^^286000.00^250000.00^25000.00^11000.00^286000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=01 10=AACCG2468K 13=Globex Technologies Inc 14=200000.00 15=20000.00 16=8800.00 17=228800.00 19=228800.00 22=1000000.00 23=15042024 24=15042024 26=20.0000 27=N 30=J 33=195 35=A 36=21 37=523456789012345 38=267 49=Y
    "4^DD^1^1^1^O^^1^^AACCG2468K^^^Globex Technologies Inc^200000.00^20000.00^8800.00^228800.00^^228800.00^^^1000000.00^15042024^15042024^^20.0000^N^^^J^^^195^^A^21^523456789012345^267^^^^^^^^^^^Y^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 8=7 10=AAFFN1357P 13=Nordic Design Partners 14=50000.00 15=5000.00 16=2200.00 17=57200.00 19=57200.00 22=500000.00 23=25042024 24=25042024 26=10.0000 27=N 33=195 35=B 36=49 37=623456789012345 38=236 49=N
    "5^DD^1^1^2^O^^7^^AAFFN1357P^^^Nordic Design Partners^50000.00^5000.00^2200.00^57200.00^^57200.00^^^500000.00^25042024^25042024^^10.0000^N^^^^^^195^^B^49^623456789012345^236^^^^^^^^^^^N^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=1 6=N 12=03102 16=0510308 18=07062024 22=40000.00 23=0.00 24=1600.00 25=0.00 26=0.00 27=41600.00 29=41600.00 30=40000.00 31=0.00 32=1600.00 33=41600.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "6^CD^1^2^1^N^^^^^^03102^^^^0510308^^07062024^^^^40000.00^0.00^1600.00^0.00^0.00^41600.00^^41600.00^40000.00^0.00^1600.00^41600.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=7 2=DD 3=1 4=2 5=1 6=O 8=01 10=AACCG2468K 13=Globex Technologies Inc 14=40000.00 15=0.00 16=1600.00 17=41600.00 19=41600.00 22=200000.00 23=20052024 24=20052024 26=20.0000 27=N 30=J 33=195 35=A 36=21 37=723456789012345 38=267 49=Y
    "7^DD^1^2^1^O^^1^^AACCG2468K^^^Globex Technologies Inc^40000.00^0.00^1600.00^41600.00^^41600.00^^^200000.00^20052024^20052024^^20.0000^N^^^J^^^195^^A^21^723456789012345^267^^^^^^^^^^^Y^^^^^",
  ],
};
