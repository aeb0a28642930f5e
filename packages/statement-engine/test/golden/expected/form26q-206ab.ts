/**
 * Expected TXT for fixtures/form26q_q2_fy2024-25.206ab.json, written field by field from the layout tables
 * (legacy family). Each line is preceded by its non-empty fields, numbered as in the layouts.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 *
 * Remarks per FVU release (FORMAT_NOTES §4): DD 30 = U (higher rate u/s 206AB, FVU 7.2, statements from FY 2021-22 Q2,
 * payments up to 31-03-2025) on sections 94C, 4JB and 4JA, which the 206AB list does not exclude (it excludes
 * 2AA, 94B, 4BB, LBC, 94N, 4NF); DD 30 = B (s.197A declaration) on 94A, which the published B list names, with
 * tax 0.00, rate 0.0000 and no date of deduction (DD 24 empty).
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_26Q_Q2_206AB: GoldenCase = {
  title: "26Q Q2 FY 2024-25 with remark U (s.206AB) and B (legacy, 26Q)",
  fixture: "form26q_q2_fy2024-25.206ab.json",
  family: "legacy",
  options: {"form": "26Q", "quarter": "Q2", "financialYear": "FY 2024-25", "tan": "PNEK01234C"},
  now: "2024-10-20T06:30:00.000Z",
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=20102024 6=1 7=D 8=PNEK01234C 9=1 10=«any»
    "1^FH^NS1^R^20102024^1^D^PNEK01234C^1^\u00abany\u00bb^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=2 5=26Q 13=PNEK01234C 15=AABCK1234L 16=202526 17=202425 18=Q2 19=Kaveri Textiles Pvt Ltd 20=Head Office 21=Plot 14 MIDC Phase 2 24=Bhosari 25=Pune 26=19 27=411026 28=tds@kaveritextiles.in 31=N 32=K 33=Meera Kulkarni 34=Finance Head 35=Plot 14 MIDC Phase 2 38=Bhosari 39=Pune 40=19 41=411026 42=meera.k@kaveritextiles.in 43=9822012345 46=N 47=51500.00 51=N 52=N 59=ABLPK4321M 69=27AABCK1234L1Z5
    "2^BH^1^2^26Q^^^^^^^^PNEK01234C^^AABCK1234L^202526^202425^Q2^Kaveri Textiles Pvt Ltd^Head Office^Plot 14 MIDC Phase 2^^^Bhosari^Pune^19^411026^tds@kaveritextiles.in^^^N^K^Meera Kulkarni^Finance Head^Plot 14 MIDC Phase 2^^^Bhosari^Pune^19^411026^meera.k@kaveritextiles.in^9822012345^^^N^51500.00^^^^N^N^^^^^^^ABLPK4321M^^^^^^^^^^27AABCK1234L1Z5^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=3 6=N 12=00711 16=0510308 18=07082024 22=45000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=45000.00 29=45000.00 30=45000.00 31=0.00 32=0.00 33=45000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^3^N^^^^^^00711^^^^0510308^^07082024^^^^45000.00^0.00^0.00^0.00^0.00^45000.00^^45000.00^45000.00^0.00^0.00^45000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=01 10=AAFCS5678Q 13=Sahyadri Logistics Pvt Ltd 14=25000.00 15=0.00 16=0.00 17=25000.00 19=25000.00 22=500000.00 23=15072024 24=15072024 26=5.0000 30=U 33=94C
    "4^DD^1^1^1^O^^1^^AAFCS5678Q^^^Sahyadri Logistics Pvt Ltd^25000.00^0.00^0.00^25000.00^^25000.00^^^500000.00^15072024^15072024^^5.0000^^^^U^^^94C^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 8=02 10=BQRPD2468J 13=Dinesh Patil 14=20000.00 15=0.00 16=0.00 17=20000.00 19=20000.00 22=100000.00 23=22072024 24=22072024 26=20.0000 30=U 33=4JB
    "5^DD^1^1^2^O^^2^^BQRPD2468J^^^Dinesh Patil^20000.00^0.00^0.00^20000.00^^20000.00^^^100000.00^22072024^22072024^^20.0000^^^^U^^^4JB^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=6 2=DD 3=1 4=1 5=3 6=O 8=02 10=BQRPD2468J 13=Dinesh Patil 14=0.00 15=0.00 16=0.00 17=0.00 19=0.00 22=30000.00 23=31072024 26=0.0000 30=B 33=94A
    "6^DD^1^1^3^O^^2^^BQRPD2468J^^^Dinesh Patil^0.00^0.00^0.00^0.00^^0.00^^^30000.00^31072024^^^0.0000^^^^B^^^94A^^^^^^^^^^^^^^^^^^^^^",
    // CD: 1=7 2=CD 3=1 4=2 5=2 6=N 12=00712 16=6390009 18=06092024 22=6500.00 23=0.00 24=0.00 25=0.00 26=0.00 27=6500.00 29=6500.00 30=6500.00 31=0.00 32=0.00 33=6500.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "7^CD^1^2^2^N^^^^^^00712^^^^6390009^^06092024^^^^6500.00^0.00^0.00^0.00^0.00^6500.00^^6500.00^6500.00^0.00^0.00^6500.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=8 2=DD 3=1 4=2 5=1 6=O 8=02 10=AAGFM1357R 13=Mehta and Sons 14=4000.00 15=0.00 16=0.00 17=4000.00 19=4000.00 22=200000.00 23=20082024 24=20082024 26=2.0000 33=4IA
    "8^DD^1^2^1^O^^2^^AAGFM1357R^^^Mehta and Sons^4000.00^0.00^0.00^4000.00^^4000.00^^^200000.00^20082024^20082024^^2.0000^^^^^^^4IA^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=9 2=DD 3=1 4=2 5=2 6=O 8=01 10=AAFCS5678Q 13=Sahyadri Logistics Pvt Ltd 14=2500.00 15=0.00 16=0.00 17=2500.00 19=2500.00 22=50000.00 23=26082024 24=26082024 26=5.0000 30=U 33=4JA
    "9^DD^1^2^2^O^^1^^AAFCS5678Q^^^Sahyadri Logistics Pvt Ltd^2500.00^0.00^0.00^2500.00^^2500.00^^^50000.00^26082024^26082024^^5.0000^^^^U^^^4JA^^^^^^^^^^^^^^^^^^^^^",
  ],
};
