/**
 * Expected TXT for fixtures/form27eq_q3_fy2025-26.data-names.json, written field by field from the layout tables
 * (legacy family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_27EQ_Q3_DATA_NAMES: GoldenCase = {
  title: "27EQ Q3 FY 2025-26 (legacy, 27EQ v6.9; column names of the vendor data file)",
  fixture: "form27eq_q3_fy2025-26.data-names.json",
  family: "legacy",
  options: {"form": "27EQ", "quarter": "Q3", "financialYear": "FY 2025-26", "tan": "BBNM03579C"},
  now: "2026-01-20T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=TC1 4=R 5=20012026 6=1 7=D 8=BBNM03579C 9=1 10=«any»
    "1^FH^TC1^R^20012026^1^D^BBNM03579C^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=27EQ 13=BBNM03579C 15=AAECM3579L 16=202627 17=202526 18=Q3 19=Mahanadi Minerals Ltd 20=Bhubaneswar 21=Plot 21 Unit 3 24=Kharavela Nagar 25=Bhubaneswar 26=24 27=751001 28=tcs@mahanadiminerals.in 31=N 32=K 33=Subrat Mohanty 34=Finance Manager 35=Plot 21 Unit 3 38=Kharavela Nagar 39=Bhubaneswar 40=24 41=751001 42=subrat.m@mahanadiminerals.in 43=9437012345 46=N 47=35000.00 51=N 52=N 59=BKZPM2468E 69=21AAECM3579L1Z6
    "2^BH^1^2^27EQ^^^^^^^^BBNM03579C^^AAECM3579L^202627^202526^Q3^Mahanadi Minerals Ltd^Bhubaneswar^Plot 21 Unit 3^^^Kharavela Nagar^Bhubaneswar^24^751001^tcs@mahanadiminerals.in^^^N^K^Subrat Mohanty^Finance Manager^Plot 21 Unit 3^^^Kharavela Nagar^Bhubaneswar^24^751001^subrat.m@mahanadiminerals.in^9437012345^^^N^35000.00^^^^N^N^^^^^^^BKZPM2468E^^^^^^^^^^21AAECM3579L1Z6^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 12=04001 16=0510308 18=07112025 22=20000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=20000.00 29=20000.00 30=20000.00 31=0.00 32=0.00 33=20000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^2^N^^^^^^04001^^^^0510308^^07112025^^^^20000.00^0.00^0.00^0.00^0.00^20000.00^^20000.00^20000.00^0.00^0.00^20000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=01 10=AAECS2468Q 13=Sambalpur Scrap Traders Pvt Ltd 14=5000.00 15=0.00 16=0.00 17=5000.00 19=5000.00 21=600000.00 22=500000.00 23=10102025 24=10102025 26=1.0000 33=E 49=Y
    "4^DD^1^1^1^O^^1^^AAECS2468Q^^^Sambalpur Scrap Traders Pvt Ltd^5000.00^0.00^0.00^5000.00^^5000.00^^600000.00^500000.00^10102025^10102025^^1.0000^^^^^^^E^^^^^^^^^^^^^^^^Y^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 8=01 10=AADCJ9753S 13=Jagannath Motors Pvt Ltd 14=15000.00 15=0.00 16=0.00 17=15000.00 19=15000.00 21=1500000.00 22=1500000.00 23=20102025 24=20102025 26=1.0000 33=L 49=Y
    "5^DD^1^1^2^O^^1^^AADCJ9753S^^^Jagannath Motors Pvt Ltd^15000.00^0.00^0.00^15000.00^^15000.00^^1500000.00^1500000.00^20102025^20102025^^1.0000^^^^^^^L^^^^^^^^^^^^^^^^Y^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 12=04002 16=0510308 18=06122025 22=15000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=15000.00 29=15000.00 30=15000.00 31=0.00 32=0.00 33=15000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "6^CD^1^2^2^N^^^^^^04002^^^^0510308^^06122025^^^^15000.00^0.00^0.00^0.00^0.00^15000.00^^15000.00^15000.00^0.00^0.00^15000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=7 2=DD 3=1 4=2 5=1 6=O 8=02 10=BPLPK1357N 13=Kiran Patnaik 14=12000.00 15=0.00 16=0.00 17=12000.00 19=12000.00 21=1200000.00 22=1200000.00 23=12112025 24=12112025 26=1.0000 33=L 49=N
    "7^DD^1^2^1^O^^2^^BPLPK1357N^^^Kiran Patnaik^12000.00^0.00^0.00^12000.00^^12000.00^^1200000.00^1200000.00^12112025^12112025^^1.0000^^^^^^^L^^^^^^^^^^^^^^^^N^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 8=01 10=AAECS2468Q 13=Sambalpur Scrap Traders Pvt Ltd 14=3000.00 15=0.00 16=0.00 17=3000.00 19=3000.00 21=300000.00 22=300000.00 23=25112025 24=25112025 26=1.0000 33=E 49=Y
    "8^DD^1^2^2^O^^1^^AAECS2468Q^^^Sambalpur Scrap Traders Pvt Ltd^3000.00^0.00^0.00^3000.00^^3000.00^^300000.00^300000.00^25112025^25112025^^1.0000^^^^^^^E^^^^^^^^^^^^^^^^Y^^^^^",
  ],
};
