/**
 * Expected TXT for fixtures/form143_q1_ty2026-27.multi-challan.json: Form 143 with four challans, the fourth a nil
 * challan, written field by field in the DD layout FVU 1.2 reads (FORMAT_NOTES §7). FVU 1.2 does not check the rows
 * under the first challan (FORMAT_NOTES §17), so everything this case is for sits under challans 2-4:
 * - every collectee code 1-10 in DD 12 (challan 2): from the PAN's 4th letter (C P H A F B J G), 5 and 6 from
 *   deductee_type (AOP of companies, co-operative society, both with an A PAN);
 * - DD 11 non-resident `N` on every resident row and `Y` with DD 13 permanent establishment `Y` / `N` (challan 3);
 *   DD 14 opting out u/s 202(1) `Y` for one collectee, `N` by default;
 * - remarks: C without PAN (collectee code from deductee_type), A with a 15-character certificate, B (declaration,
 *   no tax) with 1068; the nil challan (CD 6 = Y) with its remark-B row;
 * - interest 200 on challan 2, allocated in CD 24.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_143_Q1_MULTI_CHALLAN: GoldenCase = {
  title: 'Form 143 Q1 TY 2026-27, four challans (one nil): every collectee code, non-residents, remarks A/B/C (new, FVU 1.2)',
  fixture: 'form143_q1_ty2026-27.multi-challan.json',
  family: 'new',
  options: { form: '143', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'BBNM03579C' },
  now: '2026-07-11T06:30:00.000Z',
  lines: [
    // FH: 1=1 2=FH 3=TC1 4=R 5=11072026 6=1 7=D 8=BBNM03579C 9=1 10=«any»
    "1^FH^TC1^R^11072026^1^D^BBNM03579C^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=4 5=143 13=BBNM03579C 15=AAECM3579L 16=202728 17=202627 18=Q1 19=Mahanadi Minerals Ltd 20=INDIA 21=Plot 21 22=Kharavela Nagar PO 23=Unit 3 Road 24=Kharavela Nagar 25=Khordha 26=24 27=751001 28=tcs@mahanadiminerals.in 29=91 30=9437098765 32=K 33=Subrat Mohanty 34=Finance Manager 35=Plot 21 36=Kharavela Nagar PO 37=Unit 3 Road 38=Kharavela Nagar 39=Khordha 40=24 41=751001 42=subrat.m@mahanadiminerals.in 43=INDIA 44=91 45=9437012345 47=72200.00 52=N 59=BKZPM2468E 69=21AAECM3579L1Z6
    "2^BH^1^4^143^^^^^^^^BBNM03579C^^AAECM3579L^202728^202627^Q1^Mahanadi Minerals Ltd^INDIA^Plot 21^Kharavela Nagar PO^Unit 3 Road^Kharavela Nagar^Khordha^24^751001^tcs@mahanadiminerals.in^91^9437098765^^K^Subrat Mohanty^Finance Manager^Plot 21^Kharavela Nagar PO^Unit 3 Road^Kharavela Nagar^Khordha^24^751001^subrat.m@mahanadiminerals.in^INDIA^91^9437012345^^72200.00^^^^^N^^^^^^^BKZPM2468E^^^^^^^^^^21AAECM3579L1Z6^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=1 6=N 8=5000.00 9=0.00 10=0.00 11=0.00 12=5000.00 13=C 15=0510308 17=07001 19=07052026 21=5000.00 22=5000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^1^N^^5000.00^0.00^0.00^0.00^5000.00^C^^0510308^^07001^^07052026^^5000.00^5000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=AAECS2468Q 9=Sambalpur Scrap Traders Pvt Ltd 11=N 12=1 14=N 15=1073 18=Y 19=10042026 20=500000.00 24=5000.00 25=5000.00 27=10042026 28=1.0000
    "4^DD^1^1^1^O^^AAECS2468Q^Sambalpur Scrap Traders Pvt Ltd^^N^1^^N^1073^^^Y^10042026^500000.00^^^^5000.00^5000.00^^10042026^1.0000^^^^^^^^^^^^^^^^^",
    // CD: 1=5 2=CD 3=1 4=2 5=9 6=N 8=40500.00 9=200.00 10=0.00 11=0.00 12=40700.00 13=C 15=0510308 17=07002 19=05062026 21=40500.00 22=40500.00 23=200 24=200.00 25=0.00
    "5^CD^1^2^9^N^^40500.00^200.00^0.00^0.00^40700.00^C^^0510308^^07002^^05062026^^40500.00^40500.00^200^200.00^0.00^^^^^",
    // DD: 1=6 2=DD 3=1 4=1 5=2 6=O 8=BPLPK1357N 9=Kiran Patnaik 11=N 12=2 14=Y 15=1075 18=Y 19=04052026 20=1200000.00 24=12000.00 25=12000.00 27=04052026 28=1.0000
    "6^DD^1^1^2^O^^BPLPK1357N^Kiran Patnaik^^N^2^^Y^1075^^^Y^04052026^1200000.00^^^^12000.00^12000.00^^04052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=7 2=DD 3=1 4=2 5=2 6=O 8=BPLHM1357P 9=Mohanty Family HUF 11=N 12=3 14=N 15=1073 18=Y 19=05052026 20=300000.00 24=3000.00 25=3000.00 27=05052026 28=1.0000
    "7^DD^1^2^2^O^^BPLHM1357P^Mohanty Family HUF^^N^3^^N^1073^^^Y^05052026^300000.00^^^^3000.00^3000.00^^05052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=3 5=2 6=O 8=BPLAS1357Q 9=Sahu Traders AOP 11=N 12=4 14=N 15=1074 18=Y 19=06052026 20=400000.00 24=4000.00 25=4000.00 27=06052026 28=1.0000
    "8^DD^1^3^2^O^^BPLAS1357Q^Sahu Traders AOP^^N^4^^N^1074^^^Y^06052026^400000.00^^^^4000.00^4000.00^^06052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=9 2=DD 3=1 4=4 5=2 6=O 8=BPLAS2468R 9=Kalinga Mining Consortium 11=N 12=5 14=N 15=1074 18=Y 19=07052026 20=600000.00 24=6000.00 25=6000.00 27=07052026 28=1.0000
    "9^DD^1^4^2^O^^BPLAS2468R^Kalinga Mining Consortium^^N^5^^N^1074^^^Y^07052026^600000.00^^^^6000.00^6000.00^^07052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=10 2=DD 3=1 4=5 5=2 6=O 8=BPLAS3579S 9=Utkal Forest Cooperative 11=N 12=6 14=N 15=1069 18=Y 19=08052026 20=200000.00 24=10000.00 25=10000.00 27=08052026 28=5.0000
    "10^DD^1^5^2^O^^BPLAS3579S^Utkal Forest Cooperative^^N^6^^N^1069^^^Y^08052026^200000.00^^^^10000.00^10000.00^^08052026^5.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=11 2=DD 3=1 4=6 5=2 6=O 8=AAFFD1357T 9=Das and Sons 11=N 12=7 14=N 15=1073 18=Y 19=09052026 20=100000.00 24=1000.00 25=1000.00 27=09052026 28=1.0000
    "11^DD^1^6^2^O^^AAFFD1357T^Das and Sons^^N^7^^N^1073^^^Y^09052026^100000.00^^^^1000.00^1000.00^^09052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=12 2=DD 3=1 4=7 5=2 6=O 8=BPLBK1357U 9=Konark Buyers BOI 11=N 12=8 14=N 15=1068 18=Y 19=10052026 20=100000.00 24=1000.00 25=1000.00 27=10052026 28=1.0000
    "12^DD^1^7^2^O^^BPLBK1357U^Konark Buyers BOI^^N^8^^N^1068^^^Y^10052026^100000.00^^^^1000.00^1000.00^^10052026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=13 2=DD 3=1 4=8 5=2 6=O 8=BPLJK1357V 9=Odisha University 11=N 12=9 14=N 15=1070 18=Y 19=11052026 20=100000.00 24=2500.00 25=2500.00 27=11052026 28=2.5000
    "13^DD^1^8^2^O^^BPLJK1357V^Odisha University^^N^9^^N^1070^^^Y^11052026^100000.00^^^^2500.00^2500.00^^11052026^2.5000^^^^^^^^^^^^^^^^^",
    // DD: 1=14 2=DD 3=1 4=9 5=2 6=O 8=BPLGK1357W 9=Municipal Corporation Cuttack 11=N 12=10 14=N 15=1073 18=Y 19=12052026 20=100000.00 24=1000.00 25=1000.00 27=12052026 28=1.0000
    "14^DD^1^9^2^O^^BPLGK1357W^Municipal Corporation Cuttack^^N^10^^N^1073^^^Y^12052026^100000.00^^^^1000.00^1000.00^^12052026^1.0000^^^^^^^^^^^^^^^^^",
    // CD: 1=15 2=CD 3=1 4=3 5=4 6=N 8=26500.00 9=0.00 10=0.00 11=0.00 12=26500.00 13=C 15=0510308 17=07003 19=06072026 21=26500.00 22=26500.00 23=200 24=0.00 25=0.00
    "15^CD^1^3^4^N^^26500.00^0.00^0.00^0.00^26500.00^C^^0510308^^07003^^06072026^^26500.00^26500.00^200^0.00^0.00^^^^^",
    // DD: 1=16 2=DD 3=1 4=1 5=3 6=O 8=AADCJ9753S 9=Jagannath Motors Pvt Ltd 11=Y 12=1 13=Y 14=N 15=1075 18=Y 19=02062026 20=1500000.00 24=15000.00 25=15000.00 27=02062026 28=1.0000
    "16^DD^1^1^3^O^^AADCJ9753S^Jagannath Motors Pvt Ltd^^Y^1^Y^N^1075^^^Y^02062026^1500000.00^^^^15000.00^15000.00^^02062026^1.0000^^^^^^^^^^^^^^^^^",
    // DD: 1=17 2=DD 3=1 4=2 5=3 6=O 8=PANNOTAVBL 9=Bay of Bengal Traders 11=Y 12=7 13=N 14=N 15=1073 18=Y 19=03062026 20=200000.00 24=10000.00 25=10000.00 27=03062026 28=5.0000 32=C
    "17^DD^1^2^3^O^^PANNOTAVBL^Bay of Bengal Traders^^Y^7^N^N^1073^^^Y^03062026^200000.00^^^^10000.00^10000.00^^03062026^5.0000^^^^C^^^^^^^^^^^^^",
    // DD: 1=18 2=DD 3=1 4=3 5=3 6=O 8=AAECS2468Q 9=Sambalpur Scrap Traders Pvt Ltd 11=N 12=1 14=N 15=1073 18=Y 19=04062026 20=300000.00 24=1500.00 25=1500.00 27=04062026 28=0.5000 32=A 33=CERT14300000001
    "18^DD^1^3^3^O^^AAECS2468Q^Sambalpur Scrap Traders Pvt Ltd^^N^1^^N^1073^^^Y^04062026^300000.00^^^^1500.00^1500.00^^04062026^0.5000^^^^A^CERT14300000001^^^^^^^^^^^^",
    // DD: 1=19 2=DD 3=1 4=4 5=3 6=O 8=AAFFD1357T 9=Das and Sons 11=N 12=7 14=N 15=1068 18=Y 19=05062026 20=50000.00 24=0.00 25=0.00 28=0.0000 32=B
    "19^DD^1^4^3^O^^AAFFD1357T^Das and Sons^^N^7^^N^1068^^^Y^05062026^50000.00^^^^0.00^0.00^^^0.0000^^^^B^^^^^^^^^^^^^",
    // CD: 1=20 2=CD 3=1 4=4 5=1 6=Y 8=0.00 9=0.00 10=0.00 11=0.00 12=0.00 19=30062026 21=0.00 22=0.00 24=0.00 25=0.00
    "20^CD^1^4^1^Y^^0.00^0.00^0.00^0.00^0.00^^^^^^^30062026^^0.00^0.00^^0.00^0.00^^^^^",
    // DD: 1=21 2=DD 3=1 4=1 5=4 6=O 8=BPLPK1357N 9=Kiran Patnaik 11=N 12=2 14=Y 15=1069 18=N 19=20062026 20=40000.00 24=0.00 25=0.00 28=0.0000 32=B
    "21^DD^1^1^4^O^^BPLPK1357N^Kiran Patnaik^^N^2^^Y^1069^^^N^20062026^40000.00^^^^0.00^0.00^^^0.0000^^^^B^^^^^^^^^^^^^",
  ],
};
