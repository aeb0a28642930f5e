/**
 * Expected TXT for fixtures/form138_q1_ty2026-27.json, written field by field from the layout tables
 * (new family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_138_Q1: GoldenCase = {
  title: "Form 138 Q1 TY 2026-27 (new family, Q1-Q3 format)",
  fixture: "form138_q1_ty2026-27.json",
  family: "new",
  options: {"form": "138", "quarter": "Q1", "financialYear": "TY 2026-27", "tan": "BLRK07890B"},
  now: "2026-07-11T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=SL1 4=R 5=11072026 6=1 7=D 8=BLRK07890B 9=1 10=«any»
    "1^FH^SL1^R^11072026^1^D^BLRK07890B^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=138 13=BLRK07890B 15=AAECK7890J 16=202728 17=202627 18=Q1 19=Kaveri Hospitals Pvt Ltd 20=INDIA 21=No 12 22=Jayanagar 23=30th Cross Road 24=Jayanagar 4th Block 25=Bengaluru Urban 26=15 27=560011 28=payroll@kaverihospitals.in 29=91 30=9845098450 32=K 33=Deepa Rao 34=HR Head 35=No 12 36=Jayanagar 37=30th Cross Road 38=Jayanagar 4th Block 39=Bengaluru Urban 40=15 41=560011 42=deepa.r@kaverihospitals.in 43=INDIA 44=91 45=9845011223 47=43100.00 49=0 52=N 59=AFRPR2468L 69=29AAECK7890J1Z4
    "2^BH^1^2^138^^^^^^^^BLRK07890B^^AAECK7890J^202728^202627^Q1^Kaveri Hospitals Pvt Ltd^INDIA^No 12^Jayanagar^30th Cross Road^Jayanagar 4th Block^Bengaluru Urban^15^560011^payroll@kaverihospitals.in^91^9845098450^^K^Deepa Rao^HR Head^No 12^Jayanagar^30th Cross Road^Jayanagar 4th Block^Bengaluru Urban^15^560011^deepa.r@kaverihospitals.in^INDIA^91^9845011223^^43100.00^^0^^^N^^^^^^^AFRPR2468L^^^^^^^^^^29AAECK7890J1Z4^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 8=25000.00 9=0.00 10=0.00 11=0.00 12=25000.00 13=C 15=0510308 17=05001 19=07052026 21=25000.00 22=25000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^2^N^^25000.00^0.00^0.00^0.00^25000.00^C^^0510308^^05001^^07052026^^25000.00^25000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=BNMPK1234P 9=Kiran Kumar 15=1002 18=Y 19=30042026 20=200000.00 24=15000.00 25=15000.00 27=30042026 29=07052026
    "4^DD^1^1^1^O^^BNMPK1234P^Kiran Kumar^^^^^^1002^^^Y^30042026^200000.00^^^^15000.00^15000.00^^30042026^^07052026^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=2 5=1 6=O 8=CQRPS5678T 9=Shilpa Shetty 15=1002 18=Y 19=30042026 20=150000.00 24=10000.00 25=10000.00 27=30042026 29=07052026
    "5^DD^1^2^1^O^^CQRPS5678T^Shilpa Shetty^^^^^^1002^^^Y^30042026^150000.00^^^^10000.00^10000.00^^30042026^^07052026^^^^^^^^^^^^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 8=18000.00 9=100.00 10=0.00 11=0.00 12=18100.00 13=C 15=0510308 17=05002 19=05062026 21=18000.00 22=18000.00 23=200 24=100.00 25=0.00
    "6^CD^1^2^2^N^^18000.00^100.00^0.00^0.00^18100.00^C^^0510308^^05002^^05062026^^18000.00^18000.00^200^100.00^0.00^^^^^",
    // DD: 1=7 2=DD 3=1 4=1 5=2 6=O 8=BNMPK1234P 9=Kiran Kumar 15=1002 18=Y 19=31052026 20=200000.00 24=15000.00 25=15000.00 27=31052026 29=05062026
    "7^DD^1^1^2^O^^BNMPK1234P^Kiran Kumar^^^^^^1002^^^Y^31052026^200000.00^^^^15000.00^15000.00^^31052026^^05062026^^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 8=DUVPN9012W 9=Naveen Reddy 15=1002 18=Y 19=31052026 20=100000.00 24=3000.00 25=3000.00 27=31052026 29=05062026
    "8^DD^1^2^2^O^^DUVPN9012W^Naveen Reddy^^^^^^1002^^^Y^31052026^100000.00^^^^3000.00^3000.00^^31052026^^05062026^^^^^^^^^^^^^^^^",
  ],
};
