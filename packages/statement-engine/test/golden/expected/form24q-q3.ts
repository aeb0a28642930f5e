/**
 * Expected TXT for fixtures/form24q_q3_fy2025-26.json, written field by field from the layout tables
 * (legacy family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Generated once from a field map and then reviewed by hand; edit both together.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_24Q_Q3: GoldenCase = {
  title: "24Q Q3 FY 2025-26 (legacy, 24Q Q1-Q3 v6.3)",
  fixture: "form24q_q3_fy2025-26.json",
  family: "legacy",
  options: {"form": "24Q", "quarter": "Q3", "financialYear": "FY 2025-26", "tan": "MUMS04567F"},
  now: "2026-01-20T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=SL1 4=R 5=20012026 6=1 7=D 8=MUMS04567F 9=1 10=«any»
    "1^FH^SL1^R^20012026^1^D^MUMS04567F^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=24Q 13=MUMS04567F 15=AAACS6789N 16=202627 17=202526 18=Q3 19=Sagar Shipping Services Ltd 20=Mumbai Office 21=Nariman Bhavan 24=Nariman Point 25=Mumbai 26=19 27=400021 28=payroll@sagarship.in 31=N 32=K 33=Pooja Iyer 34=HR Manager 35=Nariman Bhavan 38=Nariman Point 39=Mumbai 40=19 41=400021 42=pooja.i@sagarship.in 43=9819012345 46=N 47=35880.00 49=0 51=N 52=N 59=AGTPI1357C 69=27AAACS6789N1Z2
    "2^BH^1^2^24Q^^^^^^^^MUMS04567F^^AAACS6789N^202627^202526^Q3^Sagar Shipping Services Ltd^Mumbai Office^Nariman Bhavan^^^Nariman Point^Mumbai^19^400021^payroll@sagarship.in^^^N^K^Pooja Iyer^HR Manager^Nariman Bhavan^^^Nariman Point^Mumbai^19^400021^pooja.i@sagarship.in^9819012345^^^N^35880.00^^0^^N^N^^^^^^^AGTPI1357C^^^^^^^^^^27AAACS6789N1Z2^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 12=01001 16=0510308 18=07112025 22=20000.00 23=0.00 24=800.00 25=0.00 26=0.00 27=20800.00 29=20800.00 30=20000.00 31=0.00 32=800.00 33=20800.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^2^N^^^^^^01001^^^^0510308^^07112025^^^^20000.00^0.00^800.00^0.00^0.00^20800.00^^20800.00^20000.00^0.00^800.00^20800.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 10=BXCPM2345K 13=Manoj Kumar 14=12000.00 15=0.00 16=480.00 17=12480.00 19=12480.00 22=150000.00 23=31102025 24=31102025 25=07112025 33=92B
    "4^DD^1^1^1^O^^^^BXCPM2345K^^^Manoj Kumar^12000.00^0.00^480.00^12480.00^^12480.00^^^150000.00^31102025^31102025^07112025^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 10=CYDPS6789L 13=Sunita Sharma 14=8000.00 15=0.00 16=320.00 17=8320.00 19=8320.00 22=120000.00 23=31102025 24=31102025 25=07112025 33=92B
    "5^DD^1^1^2^O^^^^CYDPS6789L^^^Sunita Sharma^8000.00^0.00^320.00^8320.00^^8320.00^^^120000.00^31102025^31102025^07112025^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 12=01002 16=0510308 18=05122025 22=14500.00 23=0.00 24=580.00 25=0.00 26=0.00 27=15080.00 29=15080.00 30=14500.00 31=0.00 32=580.00 33=15080.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "6^CD^1^2^2^N^^^^^^01002^^^^0510308^^05122025^^^^14500.00^0.00^580.00^0.00^0.00^15080.00^^15080.00^14500.00^0.00^580.00^15080.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=7 2=DD 3=1 4=2 5=1 6=O 10=BXCPM2345K 13=Manoj Kumar 14=12000.00 15=0.00 16=480.00 17=12480.00 19=12480.00 22=150000.00 23=30112025 24=30112025 25=05122025 33=92B
    "7^DD^1^2^1^O^^^^BXCPM2345K^^^Manoj Kumar^12000.00^0.00^480.00^12480.00^^12480.00^^^150000.00^30112025^30112025^05122025^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 10=DZEPR1234M 13=Rahul Joshi 14=2500.00 15=0.00 16=100.00 17=2600.00 19=2600.00 22=90000.00 23=30112025 24=30112025 25=05122025 33=92B
    "8^DD^1^2^2^O^^^^DZEPR1234M^^^Rahul Joshi^2500.00^0.00^100.00^2600.00^^2600.00^^^90000.00^30112025^30112025^05122025^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
  ],
};
