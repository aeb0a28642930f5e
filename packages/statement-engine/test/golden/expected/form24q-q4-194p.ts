/**
 * Expected TXT for fixtures/form24q_q4_fy2025-26.194p.json, written field by field from the layout tables
 * (legacy family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 *
 * s.194P (addendum §3): DD 33 = 94P for the payment rows of the two specified senior citizens (the vendor's
 * 24Q sample: nature_of_payment deduction_for_specified_senior_citizens, employee_category senior_citizen);
 * in Q4 each of them gets a 94P record (28 fields, tds-txt-format §4.5) with P16 and P6A children after all SD
 * records, instead of an SD. BH 49/50 count only the SD (1 record, GTI 1725000.00); BH 70/71 = 2 94P records,
 * GTI 1525000.00 + 1000000.00. 94P 10 = gross pension, 14 = interest from the bank, 15 = 13 + 14,
 * 25 = 21 - 22 + 23 + 24, 27 = 25 - 26. P6A 7/8/9 = gross, qualifying, deductible (FORMAT_NOTES §5); 80TTB has its
 * own id in P6A. Narayan Rao (new regime, 9 = N): 1200000 - 75000 + 400000 = 1525000, tax 108750 + cess 4350.
 * Vasanthi Iyer (old regime, 9 = Y): 900000 - 50000 + 150000 = 1000000, less 80D 50000 and 80TTB 50000.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_24Q_Q4_194P: GoldenCase = {
  title: "24Q Q4 FY 2025-26 with s.194P specified senior citizens (legacy, 24Q Q4 v7.5)",
  fixture: "form24q_q4_fy2025-26.194p.json",
  family: "legacy",
  options: {"form": "24Q", "quarter": "Q4", "financialYear": "FY 2025-26", "tan": "MUMS04567D"},
  now: "2026-05-10T06:30:00.000Z",
  salaryQ4: true,
  lines: [
    // FH: 1=1 2=FH 3=SL1 4=R 5=10052026 6=1 7=D 8=MUMS04567D 9=1 10=«any»
    "1^FH^SL1^R^10052026^1^D^MUMS04567D^1^\u00abany\u00bb^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=24Q 13=MUMS04567D 15=AAACS6789N 16=202627 17=202526 18=Q4 19=Godavari Bank Ltd 20=Mumbai Office 21=Nariman Bhavan 24=Nariman Point 25=Mumbai 26=19 27=400021 28=payroll@sagarship.in 31=N 32=K 33=Pooja Iyer 34=HR Manager 35=Nariman Bhavan 38=Nariman Point 39=Mumbai 40=19 41=400021 42=pooja.i@sagarship.in 43=9819012345 46=N 47=37440.00 49=1 50=1725000.00 51=N 52=N 59=AGTPI1357C 69=27AAACS6789N1Z2 70=2 71=2525000.00
    "2^BH^1^2^24Q^^^^^^^^MUMS04567D^^AAACS6789N^202627^202526^Q4^Godavari Bank Ltd^Mumbai Office^Nariman Bhavan^^^Nariman Point^Mumbai^19^400021^payroll@sagarship.in^^^N^K^Pooja Iyer^HR Manager^Nariman Bhavan^^^Nariman Point^Mumbai^19^400021^pooja.i@sagarship.in^9819012345^^^N^37440.00^^1^1725000.00^N^N^^^^^^^AGTPI1357C^^^^^^^^^^27AAACS6789N1Z2^2^2525000.00^",
    // CD: 1=3 2=CD 3=1 4=1 5=3 6=N 12=03001 16=0510308 18=07022026 22=21000.00 23=0.00 24=840.00 25=0.00 26=0.00 27=21840.00 29=21840.00 30=21000.00 31=0.00 32=840.00 33=21840.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^3^N^^^^^^03001^^^^0510308^^07022026^^^^21000.00^0.00^840.00^0.00^0.00^21840.00^^21840.00^21000.00^0.00^840.00^21840.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 10=AKRPN4321B 13=Narayan Rao 14=3000.00 15=0.00 16=120.00 17=3120.00 19=3120.00 22=60000.00 23=31012026 24=31012026 25=07022026 33=94P
    "4^DD^1^1^1^O^1^^^AKRPN4321B^^^Narayan Rao^3000.00^0.00^120.00^3120.00^^3120.00^^^60000.00^31012026^31012026^07022026^^^^^^^^94P^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 10=BLSPV8765C 13=Vasanthi Iyer 14=6000.00 15=0.00 16=240.00 17=6240.00 19=6240.00 22=80000.00 23=31012026 24=31012026 25=07022026 33=94P
    "5^DD^1^1^2^O^2^^^BLSPV8765C^^^Vasanthi Iyer^6000.00^0.00^240.00^6240.00^^6240.00^^^80000.00^31012026^31012026^07022026^^^^^^^^94P^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=6 2=DD 3=1 4=1 5=3 6=O 10=CMTPK1122D 13=Kiran Desai 14=12000.00 15=0.00 16=480.00 17=12480.00 19=12480.00 22=150000.00 23=31012026 24=31012026 25=07022026 33=92B
    "6^DD^1^1^3^O^3^^^CMTPK1122D^^^Kiran Desai^12000.00^0.00^480.00^12480.00^^12480.00^^^150000.00^31012026^31012026^07022026^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // CD: 1=7 2=CD 3=1 4=2 5=2 6=N 12=03002 16=0510308 18=06032026 22=15000.00 23=0.00 24=600.00 25=0.00 26=0.00 27=15600.00 29=15600.00 30=15000.00 31=0.00 32=600.00 33=15600.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "7^CD^1^2^2^N^^^^^^03002^^^^0510308^^06032026^^^^15000.00^0.00^600.00^0.00^0.00^15600.00^^15600.00^15000.00^0.00^600.00^15600.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=8 2=DD 3=1 4=2 5=1 6=O 10=AKRPN4321B 13=Narayan Rao 14=3000.00 15=0.00 16=120.00 17=3120.00 19=3120.00 22=60000.00 23=28022026 24=28022026 25=06032026 33=94P
    "8^DD^1^2^1^O^1^^^AKRPN4321B^^^Narayan Rao^3000.00^0.00^120.00^3120.00^^3120.00^^^60000.00^28022026^28022026^06032026^^^^^^^^94P^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=9 2=DD 3=1 4=2 5=2 6=O 10=CMTPK1122D 13=Kiran Desai 14=12000.00 15=0.00 16=480.00 17=12480.00 19=12480.00 22=150000.00 23=28022026 24=28022026 25=06032026 33=92B
    "9^DD^1^2^2^O^3^^^CMTPK1122D^^^Kiran Desai^12000.00^0.00^480.00^12480.00^^12480.00^^^150000.00^28022026^28022026^06032026^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // SD: 1=10 2=SD 3=1 4=1 5=A 7=CMTPK1122D 9=Kiran Desai 10=G 11=01042025 12=31032026 13=1800000.00 15=1 16=75000.00 17=1725000.00 18=«zero» 19=1725000.00 21=0 22=0.00 23=1725000.00 24=145000.00 25=«zero» 26=5800.00 27=«zero» 28=150800.00 29=150800.00 30=0.00 31=«zero» 34=1800000.00 35=«zero» 36=150800.00 37=«zero» 38=N 39=N 49=N 59=N 67=1800000.00 68=«zero» 69=«zero» 71=«zero» 72=«zero» 73=«zero» 75=«zero» 76=«zero» 77=«zero» 78=«zero» 79=N 80=«zero» 81=«zero»
    "10^SD^1^1^A^^CMTPK1122D^^Kiran Desai^G^01042025^31032026^1800000.00^^1^75000.00^1725000.00^\u00abzero\u00bb^1725000.00^^0^0.00^1725000.00^145000.00^\u00abzero\u00bb^5800.00^\u00abzero\u00bb^150800.00^150800.00^0.00^\u00abzero\u00bb^^^1800000.00^\u00abzero\u00bb^150800.00^\u00abzero\u00bb^N^N^0^^^^^^^^^N^0^^^^^^^^^N^^^^^^^^1800000.00^\u00abzero\u00bb^\u00abzero\u00bb^^\u00abzero\u00bb^\u00abzero\u00bb^\u00abzero\u00bb^^\u00abzero\u00bb^\u00abzero\u00bb^\u00abzero\u00bb^\u00abzero\u00bb^N^\u00abzero\u00bb^\u00abzero\u00bb^^^^^^^",
    // S16: 1=11 2=S16 3=1 4=1 5=1 6=16(ia) 7=75000.00
    "11^S16^1^1^1^16(ia)^75000.00^",
    // 94P: 1=12 2=94P 3=1 4=1 5=A 6=AKRPN4321B 7=Narayan Rao 8=S 9=N 10=1200000.00 11=1 12=75000.00 13=1125000.00 14=400000.00 15=1525000.00 17=«zero» 18=0 19=0.00 20=1525000.00 21=108750.00 22=«zero» 23=«zero» 24=4350.00 25=113100.00 26=«zero» 27=113100.00
    "12^94P^1^1^A^AKRPN4321B^Narayan Rao^S^N^1200000.00^1^75000.00^1125000.00^400000.00^1525000.00^^\u00abzero\u00bb^0^0.00^1525000.00^108750.00^\u00abzero\u00bb^\u00abzero\u00bb^4350.00^113100.00^\u00abzero\u00bb^113100.00^",
    // P16: 1=13 2=P16 3=1 4=1 5=1 6=16(ia) 7=75000.00
    "13^P16^1^1^1^16(ia)^75000.00^",
    // 94P: 1=14 2=94P 3=1 4=2 5=A 6=BLSPV8765C 7=Vasanthi Iyer 8=O 9=Y 10=900000.00 11=1 12=50000.00 13=850000.00 14=150000.00 15=1000000.00 17=«zero» 18=2 19=100000.00 20=900000.00 21=80000.00 22=«zero» 23=«zero» 24=3200.00 25=83200.00 26=«zero» 27=83200.00
    "14^94P^1^2^A^BLSPV8765C^Vasanthi Iyer^O^Y^900000.00^1^50000.00^850000.00^150000.00^1000000.00^^\u00abzero\u00bb^2^100000.00^900000.00^80000.00^\u00abzero\u00bb^\u00abzero\u00bb^3200.00^83200.00^\u00abzero\u00bb^83200.00^",
    // P16: 1=15 2=P16 3=1 4=2 5=1 6=16(ia) 7=50000.00
    "15^P16^1^2^1^16(ia)^50000.00^",
    // P6A: 1=16 2=P6A 3=1 4=2 5=1 6=80D 7=60000.00 9=50000.00
    "16^P6A^1^2^1^80D^60000.00^^50000.00^",
    // P6A: 1=17 2=P6A 3=1 4=2 5=2 6=80TTB 7=150000.00 8=50000.00 9=50000.00
    "17^P6A^1^2^2^80TTB^150000.00^50000.00^50000.00^",
  ],
};
