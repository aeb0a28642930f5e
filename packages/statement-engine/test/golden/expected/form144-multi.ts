/**
 * Expected TXT for fixtures/form144_q1_ty2026-27.multi-challan.json: Form 144 with four challans, the fourth a nil
 * challan, written field by field in the DD layout FVU 1.2 reads (FORMAT_NOTES §7). FVU 1.2 does not check the rows
 * under the first challan (FORMAT_NOTES §17), so everything this case is for sits under challans 2-4:
 * - every deductee code 1-10 in DD 12 (challan 2): from the PAN's 4th letter (C P H A F B J T), 5 and 6 from
 *   deductee_type (AOP of companies, co-operative society, both with an A PAN);
 * - opting out u/s 202(1) `Y` (DD 14), grossed up `Y` (DD 21), the Act `A` and DTAA `B` (DD 30), natures of
 *   remittance 16 21 27 28 49 99 with section 1057 (DD 16), countries (DD 17);
 * - remarks: A with a 15-character certificate, C without PAN (nature 16: address, email, contact number and tax
 *   id in DD 37/38/39/41), Y with section 1058 (no nature), I with 1055 (nature 27);
 * - interest 150 on challan 2, allocated in CD 24; the nil challan (CD 6 = Y) with its remark-Y row.
 * Markers: see ../line-match.ts. Keep each comment and the line below it in step when editing.
 */
import type { GoldenCase } from '../golden-case.js';

export const FORM_144_Q1_MULTI_CHALLAN: GoldenCase = {
  title: 'Form 144 Q1 TY 2026-27, four challans (one nil): every deductee code, remarks A/C/I/Y (new, FVU 1.2)',
  fixture: 'form144_q1_ty2026-27.multi-challan.json',
  family: 'new',
  options: { form: '144', quarter: 'Q1', financialYear: 'TY 2026-27', tan: 'DELG02468E' },
  now: '2026-07-11T06:30:00.000Z',
  lines: [
    // FH: 1=1 2=FH 3=NS1 4=R 5=11072026 6=1 7=D 8=DELG02468E 9=1 10=«any»
    "1^FH^NS1^R^11072026^1^D^DELG02468E^1^«any»^^^^^^^^",
    // BH: 1=2 2=BH 3=1 4=4 5=144 13=DELG02468E 15=AABCG2468B 16=202728 17=202627 18=Q1 19=Ganga Digital Media Pvt Ltd 20=INDIA 21=Tower B 22=Sector 39 PO 23=Cyber Park Road 24=Sector 39 25=Gurugram 26=12 27=122003 28=tax@gangadigital.in 29=91 30=9810098100 32=K 33=Arvind Malhotra 34=CFO 35=Tower B 36=Sector 39 PO 37=Cyber Park Road 38=Sector 39 39=Gurugram 40=12 41=122003 42=arvind.m@gangadigital.in 43=INDIA 44=91 45=9810012345 47=375150.00 52=N 59=AHKPM3579D 69=06AABCG2468B1Z9
    "2^BH^1^4^144^^^^^^^^DELG02468E^^AABCG2468B^202728^202627^Q1^Ganga Digital Media Pvt Ltd^INDIA^Tower B^Sector 39 PO^Cyber Park Road^Sector 39^Gurugram^12^122003^tax@gangadigital.in^91^9810098100^^K^Arvind Malhotra^CFO^Tower B^Sector 39 PO^Cyber Park Road^Sector 39^Gurugram^12^122003^arvind.m@gangadigital.in^INDIA^91^9810012345^^375150.00^^^^^N^^^^^^^AHKPM3579D^^^^^^^^^^06AABCG2468B1Z9^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=1 6=N 8=100000.00 9=0.00 10=0.00 11=0.00 12=100000.00 13=C 15=0510308 17=07001 19=07052026 21=100000.00 22=100000.00 23=200 24=0.00 25=0.00
    "3^CD^1^1^1^N^^100000.00^0.00^0.00^0.00^100000.00^C^^0510308^^07001^^07052026^^100000.00^100000.00^200^0.00^0.00^^^^^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 8=AACCG2468K 9=Globex Technologies Inc 12=1 14=N 15=1057 16=21 17=267 18=Y 19=10042026 20=1000000.00 21=N 24=100000.00 25=100000.00 27=10042026 28=10.0000 30=B
    "4^DD^1^1^1^O^^AACCG2468K^Globex Technologies Inc^^^1^^N^1057^21^267^Y^10042026^1000000.00^N^^^100000.00^100000.00^^10042026^10.0000^^B^^^^^^^^^^^^^^^",
    // CD: 1=5 2=CD 3=1 4=2 5=9 6=N 8=175000.00 9=150.00 10=0.00 11=0.00 12=175150.00 13=C 15=0510308 17=07002 19=05062026 21=175000.00 22=175000.00 23=200 24=150.00 25=0.00
    "5^CD^1^2^9^N^^175000.00^150.00^0.00^0.00^175150.00^C^^0510308^^07002^^05062026^^175000.00^175000.00^200^150.00^0.00^^^^^",
    // DD: 1=6 2=DD 3=1 4=1 5=2 6=O 8=ABMPK1234L 9=Kenji Tanaka 12=2 14=Y 15=1057 16=49 17=123 18=Y 19=04052026 20=200000.00 21=N 24=20000.00 25=20000.00 27=04052026 28=10.0000 30=B
    "6^DD^1^1^2^O^^ABMPK1234L^Kenji Tanaka^^^2^^Y^1057^49^123^Y^04052026^200000.00^N^^^20000.00^20000.00^^04052026^10.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=7 2=DD 3=1 4=2 5=2 6=O 8=ABMHS1234M 9=Shah Family HUF 12=3 14=N 15=1057 16=27 17=265 18=Y 19=05052026 20=300000.00 21=N 24=30000.00 25=30000.00 27=05052026 28=10.0000 30=A
    "7^DD^1^2^2^O^^ABMHS1234M^Shah Family HUF^^^3^^N^1057^27^265^Y^05052026^300000.00^N^^^30000.00^30000.00^^05052026^10.0000^^A^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=3 5=2 6=O 8=ABMAK1234N 9=Rhine Consortium AOP 12=4 14=N 15=1057 16=99 17=91 18=Y 19=06052026 20=100000.00 21=Y 24=10000.00 25=10000.00 27=06052026 28=10.0000 30=B
    "8^DD^1^3^2^O^^ABMAK1234N^Rhine Consortium AOP^^^4^^N^1057^99^91^Y^06052026^100000.00^Y^^^10000.00^10000.00^^06052026^10.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=9 2=DD 3=1 4=4 5=2 6=O 8=ABMAK5678P 9=Lyon Joint Venture 12=5 14=N 15=1057 16=21 17=85 18=Y 19=07052026 20=400000.00 21=N 24=40000.00 25=40000.00 27=07052026 28=10.0000 30=B
    "9^DD^1^4^2^O^^ABMAK5678P^Lyon Joint Venture^^^5^^N^1057^21^85^Y^07052026^400000.00^N^^^40000.00^40000.00^^07052026^10.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=10 2=DD 3=1 4=5 5=2 6=O 8=ABMAK9012Q 9=Maple Growers Cooperative 12=6 14=N 15=1057 16=16 17=42 18=Y 19=08052026 20=100000.00 21=N 24=10000.00 25=10000.00 27=08052026 28=10.0000 30=B
    "10^DD^1^5^2^O^^ABMAK9012Q^Maple Growers Cooperative^^^6^^N^1057^16^42^Y^08052026^100000.00^N^^^10000.00^10000.00^^08052026^10.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=11 2=DD 3=1 4=6 5=2 6=O 8=AAFFN1357P 9=Nordic Design Partners 12=7 14=N 15=1057 16=49 17=236 18=Y 19=09052026 20=500000.00 21=N 24=25000.00 25=25000.00 27=09052026 28=5.0000 30=B 32=A 33=CERT14400000007
    "11^DD^1^6^2^O^^AAFFN1357P^Nordic Design Partners^^^7^^N^1057^49^236^Y^09052026^500000.00^N^^^25000.00^25000.00^^09052026^5.0000^^B^^A^CERT14400000007^^^^^^^^^^^^",
    // DD: 1=12 2=DD 3=1 4=7 5=2 6=O 8=ABMBK1234R 9=Harbour Investors BOI 12=8 14=N 15=1057 16=28 17=221 18=Y 19=10052026 20=200000.00 21=N 24=20000.00 25=20000.00 27=10052026 28=10.0000 30=B
    "12^DD^1^7^2^O^^ABMBK1234R^Harbour Investors BOI^^^8^^N^1057^28^221^Y^10052026^200000.00^N^^^20000.00^20000.00^^10052026^10.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=13 2=DD 3=1 4=8 5=2 6=O 8=ABMJK1234S 9=Alpine University 12=9 14=N 15=1057 16=21 17=237 18=Y 19=11052026 20=100000.00 21=N 24=10000.00 25=10000.00 27=11052026 28=10.0000 30=B
    "13^DD^1^8^2^O^^ABMJK1234S^Alpine University^^^9^^N^1057^21^237^Y^11052026^100000.00^N^^^10000.00^10000.00^^11052026^10.0000^^B^^^^^^^^^^^^^^^",
    // DD: 1=14 2=DD 3=1 4=9 5=2 6=O 8=ABMTK1234T 9=Dutch Heritage Trust 12=10 14=N 15=1057 16=27 17=175 18=Y 19=12052026 20=100000.00 21=N 24=10000.00 25=10000.00 27=12052026 28=10.0000 30=B
    "14^DD^1^9^2^O^^ABMTK1234T^Dutch Heritage Trust^^^10^^N^1057^27^175^Y^12052026^100000.00^N^^^10000.00^10000.00^^12052026^10.0000^^B^^^^^^^^^^^^^^^",
    // CD: 1=15 2=CD 3=1 4=3 5=3 6=N 8=100000.00 9=0.00 10=0.00 11=0.00 12=100000.00 13=C 15=0510308 17=07003 19=06072026 21=100000.00 22=100000.00 23=200 24=0.00 25=0.00
    "15^CD^1^3^3^N^^100000.00^0.00^0.00^0.00^100000.00^C^^0510308^^07003^^06072026^^100000.00^100000.00^200^0.00^0.00^^^^^",
    // DD: 1=16 2=DD 3=1 4=1 5=3 6=O 8=PANNOTAVBL 9=Sydney Analytics Pty Ltd 12=1 14=N 15=1057 16=16 17=15 18=Y 19=02062026 20=500000.00 21=N 24=100000.00 25=100000.00 27=02062026 28=20.0000 30=A 32=C 37=12 George Street Sydney 38=ap@sydneyanalytics.example 39=61298765432 41=AU51824753556
    "16^DD^1^1^3^O^^PANNOTAVBL^Sydney Analytics Pty Ltd^^^1^^N^1057^16^15^Y^02062026^500000.00^N^^^100000.00^100000.00^^02062026^20.0000^^A^^C^^^^^12 George Street Sydney^ap@sydneyanalytics.example^61298765432^^AU51824753556^^^^",
    // DD: 1=17 2=DD 3=1 4=2 5=3 6=O 8=AACCG2468K 9=Globex Technologies Inc 12=1 14=N 15=1058 17=267 18=Y 19=03062026 20=5000.00 21=N 24=0.00 25=0.00 28=0.0000 30=A 32=Y
    "17^DD^1^2^3^O^^AACCG2468K^Globex Technologies Inc^^^1^^N^1058^^267^Y^03062026^5000.00^N^^^0.00^0.00^^^0.0000^^A^^Y^^^^^^^^^^^^^",
    // DD: 1=18 2=DD 3=1 4=3 5=3 6=O 8=ABMAK1234N 9=Rhine Consortium AOP 12=4 14=N 15=1055 16=27 17=91 18=Y 19=04062026 20=700000.00 21=N 24=0.00 25=0.00 28=0.0000 30=B 32=I
    "18^DD^1^3^3^O^^ABMAK1234N^Rhine Consortium AOP^^^4^^N^1055^27^91^Y^04062026^700000.00^N^^^0.00^0.00^^^0.0000^^B^^I^^^^^^^^^^^^^",
    // CD: 1=19 2=CD 3=1 4=4 5=1 6=Y 8=0.00 9=0.00 10=0.00 11=0.00 12=0.00 19=30062026 21=0.00 22=0.00 24=0.00 25=0.00
    "19^CD^1^4^1^Y^^0.00^0.00^0.00^0.00^0.00^^^^^^^30062026^^0.00^0.00^^0.00^0.00^^^^^",
    // DD: 1=20 2=DD 3=1 4=1 5=4 6=O 8=ABMHS1234M 9=Shah Family HUF 12=3 14=N 15=1058 17=265 18=N 19=20062026 20=8000.00 21=N 24=0.00 25=0.00 28=0.0000 30=A 32=Y
    "20^DD^1^1^4^O^^ABMHS1234M^Shah Family HUF^^^3^^N^1058^^265^N^20062026^8000.00^N^^^0.00^0.00^^^0.0000^^A^^Y^^^^^^^^^^^^^",

  ],
};
