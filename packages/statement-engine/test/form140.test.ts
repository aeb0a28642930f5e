import { expect } from 'chai';
import { convert } from '../src/index.js';
import { form140, form140Parts, OPTIONS_140 } from './support/fixtures.js';
import { buildWorkbook, ist } from './support/sheet-json.js';
import { ofType, records } from './support/txt.js';

// Reference §9 (d): the Form 140 worked example, Q1 TY 2026-27, lines 2-8 verbatim. Line 1 differs only in
// FH field 10 (the preparation utility's name). The sample's two PANs have an impossible 4th character; the
// fixture uses valid ones, substituted here. CD 24/25 (interest and others allocation) are 0.00, not empty as in
// the example (written for v1.0): FVU 1.2 makes them mandatory numbers (T_FV_6547/6549; empty crashes it).
const SAMPLE_D = [
  '1^FH^NS1^R^11072026^1^D^MUMZ12345E^1^ZeroBook^^^^^^^^',
  '2^BH^1^1^140^^^^^^^^MUMZ12345E^^AAACZ1234F^202728^202627^Q1^ZeroBook Test Deductor Pvt Ltd^INDIA^1 Evergreen Road^^^^^19^400001^tds@zerobook.test^91^2266778899^^K^Alex Manager^Director^1 Evergreen Road^^^^^19^400001^alex@zerobook.test^INDIA^91^2266778899^^65000.00^^^^^N^^^^^^^AAAPA1234Q^^^^^^^^^^^^^',
  '3^CD^1^1^5^N^^65000.00^0.00^0.00^0.00^65000.00^C^^0510308^^02345^^28062026^^65000.00^65000.00^200^0.00^0.00^^^^^',
  '4^DD^1^1^1^O^^ABCDE1234F^M/s Legal Advisors^^^^^^1027^^^Y^10042026^120000.00^^^^12000.00^12000.00^^10042026^10.0000^^^^^^^^^^^^^^^^^',
  '5^DD^1^2^1^O^^BCDEF2345G^M/s Audit Partners LLP^^^^^^1027^^^Y^15042026^100000.00^^^^10000.00^10000.00^^15042026^10.0000^^^^^^^^^^^^^^^^^',
  '6^DD^1^3^1^O^^ABCDE1234F^M/s Legal Advisors^^^^^^1027^^^Y^10052026^80000.00^^^^8000.00^8000.00^^10052026^10.0000^^^^^^^^^^^^^^^^^',
  '7^DD^1^4^1^O^^BCDEF2345G^M/s Audit Partners LLP^^^^^^1027^^^Y^20052026^150000.00^^^^15000.00^15000.00^^20052026^10.0000^^^^^^^^^^^^^^^^^',
  '8^DD^1^5^1^O^^PANNOTAVBL^M/s Counsel (no PAN)^^^^^^1027^^^Y^01062026^100000.00^^^^20000.00^20000.00^^01062026^20.0000^^^^C^^^^^^^^^^^^^',
].map((l) => l.replace(/ABCDE1234F/g, 'ABCPE1234F').replace(/BCDEF2345G/g, 'BCDFF2345G'));

describe('Form 140 (TY 2026-27)', () => {
  it('reproduces the worked example of reference §9 (d) line for line', () => {
    const { txt, report } = convert(form140(), OPTIONS_140);
    expect(report.errorCount, JSON.stringify(report.problems)).to.equal(0);
    const lines = txt!.split('\r\n');
    expect(lines.pop()).to.equal('');
    expect(lines.slice(1)).to.deep.equal(SAMPLE_D.slice(1));
    expect(lines[0]).to.equal(SAMPLE_D[0]!.replace('ZeroBook', 'Satyapan'));
  });

  it('writes FH 18, BH 72, CD 30 and DD 45 fields, CRLF on every line', () => {
    const { txt } = convert(form140(), OPTIONS_140);
    const counts = Object.fromEntries(records(txt!).map((r) => [r.type, r.fields.length - 1]));
    expect(counts).to.deep.equal({ FH: 18, BH: 72, CD: 30, DD: 45 });
    expect(txt!.split('\r\n').length - 1).to.equal(8);
    expect(txt!.replace(/\r\n/g, '')).not.to.match(/[\r\n]/);
  });

  it('numbers deductees from 1 within each challan (DD 4) and points DD 5 at the challan record (CD 4)', () => {
    const parts = form140Parts();
    parts.challans.push({ challan_serial: '02346', bsr_code: '0510308', paid_date_epoch: ist('2026-06-29'), minor_head: 'tds_payable', total_tax_deducted: 20000, interest: 0, late_filing_fees: 0, other_penalty: 0 });
    parts.challans[0]!.total_tax_deducted = 45000;
    parts.payments[4]!.challan_serial = '02346';
    const { txt, report } = convert(buildWorkbook(parts), OPTIONS_140);
    expect(report.errorCount).to.equal(0);
    const dd = ofType(txt!, 'DD');
    expect(dd.map((r) => [r.fields[4], r.fields[5]])).to.deep.equal([
      ['1', '1'],
      ['2', '1'],
      ['3', '1'],
      ['4', '1'],
      ['1', '2'],
    ]);
    const cd = ofType(txt!, 'CD');
    expect(cd.map((r) => [r.fields[4], r.fields[5], r.fields[12], r.fields[21], r.fields[22]])).to.deep.equal([
      ['1', '4', '45000.00', '45000.00', '45000.00'],
      ['2', '1', '20000.00', '20000.00', '20000.00'],
    ]);
    expect(ofType(txt!, 'BH')[0]!.fields[4]).to.equal('2');
    expect(ofType(txt!, 'BH')[0]!.fields[47]).to.equal('65000.00');
  });

  it('splits contractors into 1023 (individual/HUF PAN) and 1024 (others)', () => {
    const parts = form140Parts();
    parts.payments[0]!.nature_of_payment = 'freight_charges';
    parts.payments[0]!.total_tax_deducted = 1200;
    parts.payments[0]!.total_tax_deposited = 1200;
    parts.payments[1]!.nature_of_payment = 'freight_charges';
    parts.payments[1]!.total_tax_deducted = 2000;
    parts.payments[1]!.total_tax_deposited = 2000;
    parts.challans[0]!.total_tax_deducted = 46200;
    const { txt, report } = convert(buildWorkbook(parts), OPTIONS_140);
    expect(report.errorCount, JSON.stringify(report.problems)).to.equal(0);
    expect(ofType(txt!, 'DD').map((r) => r.fields[15])).to.deep.equal(['1023', '1024', '1027', '1027', '1027']);
  });

  it('writes the s.393(3) cash-withdrawal amounts in DD 22/23 and the Form 121 UIN in DD 31', () => {
    const parts = form140Parts();
    Object.assign(parts.payments[1]!, {
      nature_of_payment: 'cash_withdrawal',
      amount_of_cash_withdrawal_more_than_1_crore_under_section_393_3: 1500000,
    });
    Object.assign(parts.payments[0]!, {
      total_tax_deducted: 0,
      total_tax_deposited: 0,
      deduction_date_epoch: null,
      reason_for_lower_deduction: 'no_deduction_on_account_of_declaration_u_s_393_6',
      unique_identification_number_form_121: 'UIN2026ABCD1234',
      nature_of_payment: 'interest_on_securities', // remark B: one of the sections FVU 1.2 takes it with (T_FV_6446)
    });
    parts.challans[0]!.total_tax_deducted = 53000;
    const { txt, report } = convert(buildWorkbook(parts), OPTIONS_140);
    expect(report.errorCount, JSON.stringify(report.problems)).to.equal(0);
    const dd = ofType(txt!, 'DD');
    expect([dd[1]!.fields[15], dd[1]!.fields[22], dd[1]!.fields[23]]).to.deep.equal(['1065', '1500000.00', '']);
    expect([dd[0]!.fields[24], dd[0]!.fields[27], dd[0]!.fields[28], dd[0]!.fields[31], dd[0]!.fields[32]]).to.deep.equal(['0.00', '', '0.0000', 'UIN2026ABCD1234', 'B']);
  });
});
