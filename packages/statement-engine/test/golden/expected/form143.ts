/**
 * Expected TXT for fixtures/form143_q1_ty2026-27.json, written field by field from the layout tables
 * (new family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_143_Q1: GoldenCase = {
  title: "Form 143 Q1 TY 2026-27 (new family TCS; field table unpublished)",
  fixture: "form143_q1_ty2026-27.json",
  family: "new",
  options: {"form": "143", "quarter": "Q1", "financialYear": "TY 2026-27", "tan": "BBNM03579C"},
  now: "2026-07-11T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=TC1 4=R 5=11072026 6=1 7=D 8=BBNM03579C 9=1 10=«any»
    "1^FH^TC1^R^11072026^1^D^BBNM03579C^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=143 13=BBNM03579C 15=AAECM3579L 16=202728 17=202627 18=Q1 19=Mahanadi Minerals Ltd 20=INDIA 21=Plot 21 22=Kharavela Nagar PO 23=Unit 3 Road 24=Kharavela Nagar 25=Khordha 26=24 27=751001 28=tcs@mahanadiminerals.in 29=91 30=9437098765 32=K 33=Subrat Mohanty 34=Finance Manager 35=Plot 21 36=Kharavela Nagar PO 37=Unit 3 Road 38=Kharavela Nagar 39=Khordha 40=24 41=751001 42=subrat.m@mahanadiminerals.in 43=INDIA 44=91 45=9437012345 47=35000.00 52=N 59=BKZPM2468E 69=21AAECM3579L1Z6
    "2^BH^1^2^143^^^^^^^^BBNM03579C^^AAECM3579L^202728^202627^Q1^Mahanadi Minerals Ltd^INDIA^Plot 21^Kharavela Nagar PO^Unit 3 Road^Kharavela Nagar^Khordha^24^751001^tcs@mahanadiminerals.in^91^9437098765^^K^Subrat Mohanty^Finance Manager^Plot 21^Kharavela Nagar PO^Unit 3 Road^Kharavela Nagar^Khordha^24^751001^subrat.m@mahanadiminerals.in^INDIA^91^9437012345^^35000.00^^^^^N^^^^^^^BKZPM2468E^^^^^^^^^^21AAECM3579L1Z6^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 8=20000.00 9=0.00 10=0.00 11=0.00 12=20000.00 13=C 15=0510308 17=07001 19=07052026 21=20000.00 22=20000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^2^N^^20000.00^0.00^0.00^0.00^20000.00^C^^0510308^^07001^^07052026^^20000.00^20000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=AAECS2468Q 9=Sambalpur Scrap Traders Pvt Ltd 11=N 12=1 14=N 15=1073 18=Y 19=10042026 20=500000.00 24=5000.00 25=5000.00 27=10042026 28=1.0000
    "4^DD^1^1^1^O^^AAECS2468Q^Sambalpur Scrap Traders Pvt Ltd^^N^1^^N^1073^^^Y^10042026^500000.00^^^^5000.00^5000.00^^10042026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=2 5=1 6=O 8=AADCJ9753S 9=Jagannath Motors Pvt Ltd 11=N 12=1 14=N 15=1075 18=Y 19=20042026 20=1500000.00 24=15000.00 25=15000.00 27=20042026 28=1.0000
    "5^DD^1^2^1^O^^AADCJ9753S^Jagannath Motors Pvt Ltd^^N^1^^N^1075^^^Y^20042026^1500000.00^^^^15000.00^15000.00^^20042026^1.0000^^^^^^^^^^^^^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 8=15000.00 9=0.00 10=0.00 11=0.00 12=15000.00 13=C 15=0510308 17=07002 19=05062026 21=15000.00 22=15000.00 23=200 24=0.00 25=0.00
    "6^CD^1^2^2^N^^15000.00^0.00^0.00^0.00^15000.00^C^^0510308^^07002^^05062026^^15000.00^15000.00^200^0.00^0.00^^^^^",
    // DD: 1=7 2=DD 3=1 4=1 5=2 6=O 8=BPLPK1357N 9=Kiran Patnaik 11=N 12=2 14=N 15=1075 18=Y 19=12052026 20=1200000.00 24=12000.00 25=12000.00 27=12052026 28=1.0000
    "7^DD^1^1^2^O^^BPLPK1357N^Kiran Patnaik^^N^2^^N^1075^^^Y^12052026^1200000.00^^^^12000.00^12000.00^^12052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 8=AAECS2468Q 9=Sambalpur Scrap Traders Pvt Ltd 11=N 12=1 14=N 15=1073 18=Y 19=25052026 20=300000.00 24=3000.00 25=3000.00 27=25052026 28=1.0000
    "8^DD^1^2^2^O^^AAECS2468Q^Sambalpur Scrap Traders Pvt Ltd^^N^1^^N^1073^^^Y^25052026^300000.00^^^^3000.00^3000.00^^25052026^1.0000^^^^^^^^^^^^^^^^^",
  ],
};
