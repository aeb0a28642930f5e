/**
 * tds-txt-format.md §9(b): the batch header of a real 24Q Q1 statement (3 challans, 11569.00 in all), the
 * only line the sample gives. §9 captions it FY 2015-16, but its fields 16/17 say AY 2015-16 / FY 2014-15, so
 * the fixture is a FY 2014-15 workbook (DECISIONS.md D-35). The challans and deductees are ours, chosen to add up to the sample's
 * totals, and written field by field like the other golden cases. The published BH is expected verbatim
 * (69 fields then, 72 now; fields 1-59 keep their positions) except where a workbook cannot say what the
 * sample says, which is «open»: address lines 22/23 and 36/37 (the sample has five parts; street → 21,
 * area → 24, city → 25, DECISIONS.md D-10), STD codes and telephones 29/30 and 44/45, "address changed" 31/46
 * (Y in the sample; the workbook has no such column), and 49/50: the sample has 49 empty and 50 = 0 where the
 * 2019 sample (a) and our reading (D-08) have 49 = 0 and 50 empty.
 */
import type { GoldenCase } from '../golden-case.js';

export const SAMPLE_B_24Q: GoldenCase = {
  title: 'tds-txt-format.md §9(b) 24Q Q1 FY 2014-15 batch header',
  fixture: 'sample-b_form24q_q1_fy2014-15.json',
  family: 'legacy',
  options: {"form":"24Q","quarter":"Q1","financialYear":"FY 2014-15","tan":"MUML03492G"},
  now: '2014-07-20T06:30:00.000Z',
  lines: [
    "1^FH^SL1^R^20072014^1^D^MUML03492G^1^«any»^^^^^^^^",
    // BH: tds-txt-format.md §9(b) as published, «open» where noted above
    "2^BH^1^3^24Q^^^^^^^^MUML03492G^^AABCR2885E^201516^201415^Q1^PUNJAB CHEMICALS AND CROP PROTECTION LIMITED^HEAD OFFICE^21^«open»^«open»^Andheri^Mumbai^19^400072^accountspunjab@gmail.com^«open»^«open»^«open»^K^Jyotsna Palek^accountant^21^«open»^«open»^Andheri^Mumbai^19^400072^accountspunjab@gmail.com^9820154788^«open»^«open»^«open»^11569.00^^«open»^«open»^N^N^^^^^^^AAZPS0268D^^^^^^^^^^^^^",
    // CD: 1=3 2=CD 3=1 4=1 5=2 6=N 12=00311 16=0510308 18=07052014 22=4000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=4000.00 29=4000.00 30=4000.00 31=0.00 32=0.00 33=4000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "3^CD^1^1^2^N^^^^^^00311^^^^0510308^^07052014^^^^4000.00^0.00^0.00^0.00^0.00^4000.00^^4000.00^4000.00^0.00^0.00^4000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=4 2=DD 3=1 4=1 5=1 6=O 10=AKVPD4321B 13=Devendra Kulkarni 14=2500.00 15=0.00 16=0.00 17=2500.00 19=2500.00 22=60000.00 23=30042014 24=30042014 25=07052014 33=92B
    "4^DD^1^1^1^O^1^^^AKVPD4321B^^^Devendra Kulkarni^2500.00^0.00^0.00^2500.00^^2500.00^^^60000.00^30042014^30042014^07052014^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=5 2=DD 3=1 4=1 5=2 6=O 10=BMNPS8765C 13=Swati Mehra 14=1500.00 15=0.00 16=0.00 17=1500.00 19=1500.00 22=45000.00 23=30042014 24=30042014 25=07052014 33=92B
    "5^DD^1^1^2^O^2^^^BMNPS8765C^^^Swati Mehra^1500.00^0.00^0.00^1500.00^^1500.00^^^45000.00^30042014^30042014^07052014^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // CD: 1=6 2=CD 3=1 4=2 5=2 6=N 12=00312 16=0510308 18=05062014 22=4000.00 23=0.00 24=0.00 25=0.00 26=0.00 27=4000.00 29=4000.00 30=4000.00 31=0.00 32=0.00 33=4000.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "6^CD^1^2^2^N^^^^^^00312^^^^0510308^^05062014^^^^4000.00^0.00^0.00^0.00^0.00^4000.00^^4000.00^4000.00^0.00^0.00^4000.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=7 2=DD 3=1 4=2 5=1 6=O 10=AKVPD4321B 13=Devendra Kulkarni 14=2500.00 15=0.00 16=0.00 17=2500.00 19=2500.00 22=60000.00 23=31052014 24=31052014 25=05062014 33=92B
    "7^DD^1^2^1^O^1^^^AKVPD4321B^^^Devendra Kulkarni^2500.00^0.00^0.00^2500.00^^2500.00^^^60000.00^31052014^31052014^05062014^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // DD: 1=8 2=DD 3=1 4=2 5=2 6=O 10=BMNPS8765C 13=Swati Mehra 14=1500.00 15=0.00 16=0.00 17=1500.00 19=1500.00 22=45000.00 23=31052014 24=31052014 25=05062014 33=92B
    "8^DD^1^2^2^O^2^^^BMNPS8765C^^^Swati Mehra^1500.00^0.00^0.00^1500.00^^1500.00^^^45000.00^31052014^31052014^05062014^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
    // CD: 1=9 2=CD 3=1 4=3 5=1 6=N 12=00313 16=0510308 18=30062014 22=3569.00 23=0.00 24=0.00 25=0.00 26=0.00 27=3569.00 29=3569.00 30=3569.00 31=0.00 32=0.00 33=3569.00 34=0.00 35=0.00 37=N 39=0.00 40=200
    "9^CD^1^3^1^N^^^^^^00313^^^^0510308^^30062014^^^^3569.00^0.00^0.00^0.00^0.00^3569.00^^3569.00^3569.00^0.00^0.00^3569.00^0.00^0.00^^N^^0.00^200^",
    // DD: 1=10 2=DD 3=1 4=3 5=1 6=O 10=AKVPD4321B 13=Devendra Kulkarni 14=3569.00 15=0.00 16=0.00 17=3569.00 19=3569.00 22=60000.00 23=30062014 24=30062014 25=30062014 33=92B
    "10^DD^1^3^1^O^1^^^AKVPD4321B^^^Devendra Kulkarni^3569.00^0.00^0.00^3569.00^^3569.00^^^60000.00^30062014^30062014^30062014^^^^^^^^92B^^^^^^^^^^^^^^^^^^^^^",
  ],
};
