// Output of each form, checked field by field against the layout tables (field numbers in the test names).

import { expect } from 'chai';
import { convert, type ConvertOptions } from '../src/index.js';
import { baseline, type BaselineName } from './support/baselines.js';
import { LEGACY_PAYER, LEGACY_RESPONSIBLE } from './support/fixtures.js';
import { LEGACY_CHALLAN_HEADER, PAYMENT_24Q_HEADER } from './support/headers.js';
import { buildWorkbook, ist, type WorkbookParts } from './support/sheet-json.js';
import { ofType, records } from './support/txt.js';

function txtOf(parts: WorkbookParts, options: ConvertOptions): string {
  const { txt, report } = convert(buildWorkbook(parts), options);
  expect(report.errorCount, JSON.stringify(report.problems, null, 1)).to.equal(0);
  return txt!;
}

/** The TXT of a form's baseline workbook, which must convert without errors. */
function baselineTxt(name: BaselineName): string {
  const { parts, options } = baseline(name);
  return txtOf(parts, options);
}

const pick = (fields: string[], numbers: number[]) => numbers.map((n) => fields[n]);

describe('Form 26Q (FY 2025-26, legacy v7.8)', () => {
  const txt = () => baselineTxt('26Q');

  it('FH 1-10: line 1, NS1, regular, creation date in IST, sequence 1, deductor upload, TAN, one batch', () => {
    expect(records(txt())[0]!.fields.slice(1, 11)).to.deep.equal(['1', 'FH', 'NS1', 'R', '10052026', '1', 'D', 'MUMA12345E', '1', 'Satyapan']);
  });

  it('BH 4, 5, 16-18, 47: challan count, form, AY/FY, quarter, batch total of challan deposits (whole rupees)', () => {
    const bh = ofType(txt(), 'BH')[0]!.fields;
    // challans: 12000 + 150 interest; 21000 + 200 fee + 50 others
    expect(pick(bh, [4, 5, 16, 17, 18, 47])).to.deep.equal(['2', '26Q', '202627', '202526', 'Q3', '33400.00']);
  });

  it('BH 20-28, 31, 32, 43, 46, 51, 52, 59, 69: branch, address split by meaning, flags, category from PAN, RP mobile and PAN, GSTIN', () => {
    const bh = ofType(txt(), 'BH')[0]!.fields;
    expect(pick(bh, [19, 20, 21, 22, 23, 24, 25, 26, 27, 28])).to.deep.equal(['Acme Traders Pvt Ltd', 'Head Office', '12 Marine Drive', '', '', 'Churchgate', 'Mumbai', '19', '400020', 'tds@acme.example']);
    expect(pick(bh, [29, 30, 31, 32, 43, 44, 45, 46, 49, 50, 51, 52, 59, 69])).to.deep.equal(['', '', 'N', 'K', '9820012346', '', '', 'N', '', '', 'N', 'N', 'ABCPR1234K', '27AAACA1234F1Z5']);
  });

  it('CD 5, 22-35, 37, 39, 40: counts, OLTAS amounts, sums over its DD rows, interest/others repeated, fee, minor head', () => {
    const [c1, c2] = ofType(txt(), 'CD').map((r) => r.fields);
    expect(pick(c1!, [4, 5, 6, 12, 16, 18, 22, 25, 26, 27, 29, 33, 34, 35, 37, 39, 40])).to.deep.equal(['1', '2', 'N', '00101', '0510308', '07112025', '12000.00', '150.00', '0.00', '12150.00', '12000.00', '12000.00', '150.00', '0.00', 'N', '0.00', '200']);
    expect(pick(c2!, [4, 5, 22, 25, 26, 27, 29, 39])).to.deep.equal(['2', '3', '21000.00', '0.00', '50.00', '21250.00', '21000.00', '200.00']);
  });

  it('DD 4/5 (challan / deductee no. restarting per challan), 8 (1 company / 2 other, FVU T-FV-4056), 12 (10-character reference for a PAN-less payee, T_FV_4325), 26 rate, 30 remark, 33 section', () => {
    const dd = ofType(txt(), 'DD').map((r) => pick(r.fields, [4, 5, 8, 10, 12, 26, 30, 33]));
    expect(dd).to.deep.equal([
      ['1', '1', '1', 'AAACB2345G', '', '2.0000', '', '94C'],
      ['1', '2', '2', 'BCDPK3456H', '', '10.0000', '', '4JB'],
      ['2', '1', '2', 'PANNOTAVBL', '0000000003', '20.0000', 'C', '4JB'],
      ['2', '2', '2', 'CDEHS4567J', '', '10.0000', '', '4IB'],
      ['2', '3', '2', 'BCDPK3456H', '', '0.0000', 'Y', '94A'],
    ]);
  });

  it('DD 14-17, 19, 22-24: tax split, total, deposited, amount, payment date, deduction date (empty when no tax)', () => {
    const dd = ofType(txt(), 'DD').map((r) => pick(r.fields, [14, 15, 16, 17, 19, 22, 23, 24, 25]));
    expect(dd[0]).to.deep.equal(['8000.00', '0.00', '0.00', '8000.00', '8000.00', '400000.00', '15102025', '15102025', '']);
    expect(dd[4]).to.deep.equal(['0.00', '0.00', '0.00', '0.00', '0.00', '30000.00', '31122025', '', '']);
  });

  it('the same workbook with [key, value] list items gives the same TXT', () => {
    const { parts, options } = baseline('26Q');
    const pairs = convert(buildWorkbook(parts, 'pair'), options);
    expect(pairs.txt).to.equal(txt());
  });

  it("accepts the vendor sample's spellings: reason_for_lower_or_higher_deduction, heath_and_education_cess, rows without trailing nulls", () => {
    const { parts, options } = baseline('26Q');
    parts.paymentHeader = parts.paymentHeader.map((h) => (h === 'reason_for_lower_deduction' ? 'reason_for_lower_or_higher_deduction' : h));
    for (const p of parts.payments) {
      p.reason_for_lower_or_higher_deduction = p.reason_for_lower_deduction;
      delete p.reason_for_lower_deduction;
    }
    parts.challanHeader = parts.challanHeader.map((h) => (h === 'health_and_education_cess' ? 'heath_and_education_cess' : h));
    for (const c of parts.challans) c.heath_and_education_cess = c.health_and_education_cess;
    const wb = buildWorkbook(parts);
    const payments = wb.sheets[3]!.blocks[0] as { rows: unknown[][] };
    payments.rows = payments.rows.map((r) => {
      const row = [...r];
      while (row.length > 0 && row[row.length - 1] === null) row.pop();
      return row;
    });
    const { txt: same, report } = convert(wb, options);
    expect(report.errorCount).to.equal(0);
    expect(same).to.equal(txt());
  });
});

describe('Form 24Q (FY 2025-26, legacy)', () => {
  it('Q3: FH 3 SL1; BH 49 = 0 and BH 50/70/71 empty; DD 8 and 26 empty, 25 = its challan date, 33 = 92B', () => {
    const txt = baselineTxt('24Q');
    expect(records(txt)[0]!.fields[3]).to.equal('SL1');
    const bh = ofType(txt, 'BH')[0]!.fields;
    expect(pick(bh, [5, 47, 49, 50, 70, 71])).to.deep.equal(['24Q', '24960.00', '0', '', '', '']);
    const dd = ofType(txt, 'DD').map((r) => pick(r.fields, [4, 5, 8, 16, 17, 23, 24, 25, 26, 33]));
    expect(dd[0]).to.deep.equal(['1', '1', '', '280.00', '7280.00', '31102025', '31102025', '07112025', '', '92B']);
    expect(dd[3]).to.deep.equal(['2', '2', '', '200.00', '5200.00', '30112025', '30112025', '05122025', '', '92B']);
    expect(ofType(txt, 'SD')).to.be.empty;
  });

  it('DD 7 carries the employee serial (payee sr_no) on every row (FVU T-FV-4033), DD 12 the 10-character reference for a placeholder PAN (T_FV_4325); SD 8 and 38 too in Q4', () => {
    const { parts, options } = baseline('24Q-Q4');
    parts.payees[1]!.pan = 'PANNOTAVBL';
    for (const p of parts.payments.filter((x) => x.payee_sr_no === 2)) p.reason_for_lower_deduction = 'deduction_of_tax_at_higher_rate_due_to_non_availability_of_pan';
    const { txt, report } = convert(buildWorkbook(parts), options);
    expect(report.errorCount, JSON.stringify(report.problems)).to.equal(0);
    expect(ofType(txt!, 'DD').map((r) => pick(r.fields, [7, 10, 12, 30]))).to.deep.equal([
      ['1', 'ABCPM1234A', '', ''],
      ['2', 'PANNOTAVBL', '0000000002', 'C'],
      ['1', 'ABCPM1234A', '', ''],
      ['2', 'PANNOTAVBL', '0000000002', 'C'],
    ]);
    expect(pick(ofType(txt!, 'SD')[1]!.fields, [7, 8, 38])).to.deep.equal(['PANNOTAVBL', '2', 'Y']);
  });

  it('Q4: SD/S16/C6A after all challans; BH 49 = SD count, 50 = sum of SD 19, 70/71 = no 194P records', () => {
    const txt = baselineTxt('24Q-Q4');
    expect(records(txt).map((r) => r.type)).to.deep.equal(['FH', 'BH', 'CD', 'DD', 'DD', 'CD', 'DD', 'DD', 'SD', 'S16', 'SD', 'S16', 'S16', 'C6A', 'C6A']);
    expect(records(txt).map((r) => r.fields[1])).to.deep.equal(Array.from({ length: 15 }, (_, i) => String(i + 1)));
    expect(records(txt).filter((r) => r.type === 'SD').map((r) => r.fields.length - 1)).to.deep.equal([88, 88]);
    expect(records(txt).filter((r) => r.type === 'S16').map((r) => r.fields.length - 1)).to.deep.equal([8, 8, 8]);
    expect(records(txt).filter((r) => r.type === 'C6A').map((r) => r.fields.length - 1)).to.deep.equal([10, 10]);
    const bh = ofType(txt, 'BH')[0]!.fields;
    expect(pick(bh, [49, 50, 70, 71])).to.deep.equal(['2', '2992500.00', '0', '0.00']);
  });

  it('Q4 SD arithmetic: 13 = 34 + 35, 17 = 13 - 76 - 16, 19 = 17 + 18, 23 = 19 - 22, 28 = 24 - 78 + 25 + 26 - 27, 29 = 36 + 37, 30 = 28 - 29', () => {
    const sd = ofType(baselineTxt('24Q-Q4'), 'SD')[1]!.fields;
    expect(pick(sd, [4, 5, 7, 9, 10, 11, 12])).to.deep.equal(['2', 'A', 'BCDPS2345B', 'Suresh Shah', 'G', '01062025', '31032026']);
    expect(pick(sd, [13, 15, 16, 17, 18, 19, 21, 22, 23])).to.deep.equal(['1440000.00', '2', '52500.00', '1267500.00', '0.00', '1267500.00', '2', '175000.00', '1092500.00']);
    expect(pick(sd, [24, 25, 26, 27, 28, 29, 30, 31])).to.deep.equal(['60000.00', '0.00', '2400.00', '0.00', '62400.00', '60000.00', '2400.00', '150000.00']);
    expect(pick(sd, [34, 35, 36, 37, 38, 39, 40, 41, 42, 49, 59])).to.deep.equal(['1240000.00', '200000.00', '50000.00', '10000.00', 'N', 'Y', '1', 'CDEPI3456C', 'Lata Iyer', 'N', 'N']);
    expect(pick(sd, [67, 68, 69, 74, 76, 79])).to.deep.equal(['1200000.00', '40000.00', '0.00', '120000.00', '120000.00', 'Y']);
  });

  it('Q4 children: S16 4/5/6/7 (SD no., own no., section id, amount); C6A 7/8/9 = deductible, gross, qualifying', () => {
    const txt = baselineTxt('24Q-Q4');
    expect(ofType(txt, 'S16').map((r) => pick(r.fields, [3, 4, 5, 6, 7]))).to.deep.equal([
      ['1', '1', '1', '16(ia)', '75000.00'],
      ['1', '2', '1', '16(ia)', '50000.00'],
      ['1', '2', '2', '16(iii)', '2500.00'],
    ]);
    expect(ofType(txt, 'C6A').map((r) => pick(r.fields, [4, 5, 6, 7, 8, 9]))).to.deep.equal([
      ['2', '1', '80C', '150000.00', '180000.00', ''],
      ['2', '2', '80D', '25000.00', '30000.00', ''],
    ]);
  });

  it('Q4 new-regime employee: SD 70 and 74 empty, 79 = N (not opting out of 115BAC), 10 = W', () => {
    const sd = ofType(baselineTxt('24Q-Q4'), 'SD')[0]!.fields;
    expect(pick(sd, [10, 70, 74, 79])).to.deep.equal(['W', '', '', 'N']);
  });

  it('reproduces the CD line of reference sample (a) (24Q Q3 FY 2018-19) field for field', () => {
    const parts: WorkbookParts = {
      name: 'form24q_workbook',
      payer: { ...LEGACY_PAYER, name: 'ABC Limited', tan: 'MUMN77777A', pan: 'SGAAA4563K' },
      responsible: { ...LEGACY_RESPONSIBLE, pan: 'AAAPA1111A' },
      payeeHeader: ['sr_no', 'pan', 'name', 'opting_new_regime', 'employee_category'],
      payees: [{ sr_no: 1, pan: 'AAAPA1234A', name: 'GURU THAKUR', opting_new_regime: false, employee_category: 'general' }],
      challanHeader: [...LEGACY_CHALLAN_HEADER],
      challans: [{ challan_serial: '00052', bsr_code: '0000412', paid_date_epoch: ist('2018-12-14'), minor_head: 'tds_payable', tds_amount: 1000, surcharge: 0, health_and_education_cess: 0, interest: 0, late_filing_fees: 0, other_penalty: 0 }],
      paymentHeader: [...PAYMENT_24Q_HEADER],
      payments: [{ payee_sr_no: 1, challan_serial: '00052', bsr_code: '0000412', nature_of_payment: 'payout_to_employees', payment_amount: 10000, payment_date_epoch: ist('2018-12-16'), tds_amount: 1000, surcharge: 0, health_and_education_cess: 0, deduction_date_epoch: ist('2018-12-16') }],
    };
    const options: ConvertOptions = { form: '24Q', quarter: 'Q3', financialYear: 'FY 2018-19', tan: 'MUMN77777A', now: () => new Date('2020-02-07T10:00:00+05:30') };
    const { txt, report } = convert(buildWorkbook(parts), options);
    expect(report.errorCount, JSON.stringify(report.problems)).to.equal(0);
    const cd = ofType(txt!, 'CD')[0]!.raw;
    expect(cd).to.equal('3^CD^1^1^1^N^^^^^^00052^^^^0000412^^14122018^^^^1000.00^0.00^0.00^0.00^0.00^1000.00^^1000.00^1000.00^0.00^0.00^1000.00^0.00^0.00^^N^^0.00^200^');
    // Sample (a)'s DD is the 48-field FVU 7.x shape; its first 29 fields are the same today, except DD 7 (employee
    // serial), empty in the sample and mandatory for FVU 9.4 (T-FV-4033).
    const dd = ofType(txt!, 'DD')[0]!.fields.slice(2, 30).join('^');
    expect(dd).to.equal('DD^1^1^1^O^1^^^AAAPA1234A^^^GURU THAKUR^1000.00^0.00^0.00^1000.00^^1000.00^^^10000.00^16122018^16122018^14122018^^^^');
    expect(report.problems.map((p) => p.code)).to.include('DEPOSIT_BEFORE_DEDUCTION');
  });
});

describe('Form 27Q (FY 2025-26, legacy v7.5)', () => {
  it('DD 26 rate (of the tax alone, without surcharge and cess), 27 grossing-up, 35 DTAA (B) / Act (A), 36 remittance code, 37 15CA, 38 country, 49 115BAC opt-out', () => {
    // 15000 + 600 cess on 150000: the rate is 10.0000 (the DTAA rate), not 10.4000 (FORMAT_NOTES §4 "Rate").
    const txt = baselineTxt('27Q');
    const dd = ofType(txt, 'DD').map((r) => pick(r.fields, [8, 10, 12, 17, 26, 27, 30, 33, 35, 36, 37, 38, 49]));
    expect(dd).to.deep.equal([
      ['1', 'AAFCG1234K', '', '15600.00', '10.0000', 'N', '', '195', 'B', '21', '123456789012345', '267', 'N'],
      ['2', 'PANNOTAVBL', '0000000002', '20800.00', '20.0000', 'N', 'C', '195', 'A', '49', '', '236', 'N'],
    ]);
  });

  it('DD 39-42 (email, contact, address, TIN) only for a payee without PAN', () => {
    const dd = ofType(baselineTxt('27Q'), 'DD').map((r) => pick(r.fields, [39, 40, 41, 42]));
    expect(dd[0]).to.deep.equal(['', '', '', '']);
    expect(dd[1]).to.deep.equal(['info@nordic.example', '46812345678', 'Storgatan 1, Norrmalm, Stockholm, Stockholm, 11122', 'SE5566778899']);
  });
});

describe('Form 27EQ (FY 2025-26, legacy v6.9)', () => {
  it('FH 3 TC1, BH 5 27EQ; DD 21 purchase value, 22 amount received, 26 rate, 30 remark, 31/32 NRI/PE for a PAN-less collectee, 33 collection letter', () => {
    const txt = baselineTxt('27EQ');
    expect(records(txt)[0]!.fields[3]).to.equal('TC1');
    expect(ofType(txt, 'BH')[0]!.fields[5]).to.equal('27EQ');
    const dd = ofType(txt, 'DD').map((r) => pick(r.fields, [8, 17, 21, 22, 23, 24, 26, 30, 31, 32, 33, 49]));
    expect(dd).to.deep.equal([
      ['1', '7000.00', '700000.00', '700000.00', '12112025', '12112025', '1.0000', '', '', '', 'E', 'Y'],
      ['2', '20000.00', '1000000.00', '1000000.00', '12122025', '12122025', '2.0000', 'C', 'Y', 'Y', 'L', 'N'],
    ]);
  });

  it("the vendor schema's column names (paid_date, payment_amount, payment_date, collection_date, reason_for_lower_collection) give the same TXT", () => {
    const { parts, options } = baseline('27EQ');
    const rename: Record<string, string> = {
      amount_received: 'payment_amount',
      payment_date_epoch: 'payment_date',
      collection_date_epoch: 'collection_date',
      reason_for_lower_or_higher_collection: 'reason_for_lower_collection',
    };
    parts.challanHeader = parts.challanHeader.map((h) => (h === 'paid_date_epoch' ? 'paid_date' : h));
    for (const c of parts.challans) c.paid_date = c.paid_date_epoch;
    parts.paymentHeader = parts.paymentHeader.map((h) => rename[h] ?? h);
    for (const p of parts.payments) for (const [from, to] of Object.entries(rename)) p[to] = p[from];
    expect(txtOf(parts, options)).to.equal(baselineTxt('27EQ'));
  });
});

describe('Form 138 (TY 2026-27, Q1-Q3)', () => {
  it('FH 3 SL1; BH 20-25 and 35-39 from the structured address; 29/30 and 44/45 calling code and number; 32 from the deductor_type token', () => {
    const txt = baselineTxt('138');
    const bh = ofType(txt, 'BH')[0]!.fields;
    expect(records(txt)[0]!.fields[3]).to.equal('SL1');
    expect(pick(bh, [5, 16, 17, 20, 21, 22, 23, 24, 25, 26, 29, 30, 32])).to.deep.equal(['138', '202728', '202627', 'INDIA', '12 Marine Drive', 'Churchgate', 'Veer Nariman Road', 'Fort', 'Mumbai', '19', '91', '9820012345', 'K']);
    expect(pick(bh, [35, 39, 43, 44, 45, 59])).to.deep.equal(['12 Marine Drive', 'Mumbai', 'INDIA', '91', '9820012346', 'ABCPR1234K']);
  });

  it('CD 6 nil flag, 8-12 amounts, 13 mode, 15 BSR, 17 serial, 23 minor head 200; DD 15 = 1002, 28 empty (rate not used), 29 = date of deposit', () => {
    const txt = baselineTxt('138');
    const cd = ofType(txt, 'CD')[0]!.fields;
    expect(pick(cd, [5, 6, 8, 12, 13, 15, 17, 19, 21, 22, 23])).to.deep.equal(['2', 'N', '13000.00', '13000.00', 'C', '0510308', '11111', '07052026', '13000.00', '13000.00', '200']);
    const dd = ofType(txt, 'DD')[0]!.fields;
    expect(pick(dd, [4, 5, 15, 18, 19, 20, 24, 25, 27, 28, 29])).to.deep.equal(['1', '1', '1002', 'Y', '30042026', '150000.00', '7500.00', '7500.00', '30042026', '', '07052026']);
  });

  it('Q4 is refused until Protean publishes its annexures', () => {
    const { parts, options } = baseline('138');
    const { txt, report } = convert(buildWorkbook(parts), { ...options, quarter: 'Q4' });
    expect(txt).to.equal(null);
    expect(report.problems.map((p) => p.code)).to.include('FORM_138_Q4_NOT_PUBLISHED');
  });
});

describe('Form 144 (TY 2026-27; DD as FVU 1.2 reads it)', () => {
  it('FH 3 NS1, BH 5 144; DD 12 deductee code, 14 opt-out, 15 section, 16 remittance, 17 country, 21 grossing-up, 28 rate, 30 Act/DTAA; 37-41 only for remark C without PAN and nature 16', () => {
    const { parts, options } = baseline('144');
    const { txt, report } = convert(buildWorkbook(parts), options);
    expect(report.problems, JSON.stringify(report.problems)).to.deep.equal([]);
    expect(records(txt!)[0]!.fields[3]).to.equal('NS1');
    expect(ofType(txt!, 'BH')[0]!.fields[5]).to.equal('144');
    const dd = ofType(txt!, 'DD').map((r) => pick(r.fields, [8, 12, 14, 15, 16, 17, 21, 28, 30, 32, 37, 38, 39, 40, 41]));
    expect(dd).to.deep.equal([
      ['AAFCG1234K', '1', 'N', '1057', '21', '267', 'N', '10.0000', 'B', '', '', '', '', '', ''],
      ['PANNOTAVBL', '1', 'N', '1057', '16', '236', 'N', '20.0000', 'A', 'C', 'Storgatan 1, Stockholm', 'info@nordic.example', '46812345678', '', 'SE5566778899'],
    ]);
    expect(records(txt!).map((r) => r.fields.length - 1)).to.deep.equal([18, 72, 30, 45, 30, 45]);
  });
});

describe('Form 143 (TY 2026-27; our workbook, DD as FVU 1.2 reads it)', () => {
  it('FH 3 TC1, BH 5 143; DD 11 non-resident, 12 collectee code, 13 PE (non-residents only), 14 opt-out, 15 collection code, 21 empty, 24/25, 27, 28, 32', () => {
    const { parts, options } = baseline('143');
    const { txt, report } = convert(buildWorkbook(parts), options);
    expect(report.problems, JSON.stringify(report.problems)).to.deep.equal([]);
    expect(records(txt!)[0]!.fields[3]).to.equal('TC1');
    expect(ofType(txt!, 'BH')[0]!.fields[5]).to.equal('143');
    const dd = ofType(txt!, 'DD').map((r) => pick(r.fields, [4, 5, 11, 12, 13, 14, 15, 19, 20, 21, 24, 25, 27, 28, 32]));
    expect(dd).to.deep.equal([
      ['1', '1', 'N', '1', '', 'N', '1073', '12042026', '700000.00', '', '7000.00', '7000.00', '12042026', '1.0000', ''],
      ['1', '2', 'Y', '7', 'N', 'N', '1075', '12052026', '1000000.00', '', '20000.00', '20000.00', '12052026', '2.0000', 'C'],
    ]);
  });
});
