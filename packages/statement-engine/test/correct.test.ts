// Correction statements: original statement -> conso file (written by the test-side writer support/conso.ts
// from the documented conso layout) -> corrected workbook -> correction TXT, checked field by field against
// the layout tables' correction entries and against the two statements it is built from.

import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sheetJsonToXlsx } from '../src/index.js';
import {
  checkTxt,
  ConsoFileError,
  convert,
  correct,
  correctFile,
  correctFileTo,
  LAYOUT_VERSIONS,
  parseConso,
  readConso,
  RULES,
  type ConvertOptions,
  type CorrectOptions,
  type CorrectionResult,
} from '../src/index.js';
import { baseline } from './support/baselines.js';
import { records, writeConso, type ConsoOptions } from './support/conso.js';
import { REAL_CONSO_PATH, realConso, realConsoOptions, realConsoParts } from './support/real-conso.js';
import { form26qParts, OPTIONS_26Q } from './support/fixtures.js';
import { buildWorkbook, ist, type WorkbookParts } from './support/sheet-json.js';

const TOKEN = '123456789012345';
const yearCode = (o: ConvertOptions) => o.financialYear.replace(/^FY (\d{4})-(\d{2})$/, (_, a: string, b: string) => `${a}20${b}`);

function regularTxt(parts: WorkbookParts, options: ConvertOptions): string {
  const r = convert(buildWorkbook(parts), options);
  expect(r.report.errorCount, JSON.stringify(r.report.problems)).to.equal(0);
  return r.txt!;
}

interface Case {
  original: string;
  conso: string;
  corrected: string;
  result: CorrectionResult;
}

/** The whole round trip for one change of the workbook. */
function roundTrip(parts: () => WorkbookParts, options: ConvertOptions, change: (p: WorkbookParts) => void, consoOptions: ConsoOptions = {}, extra: Partial<CorrectOptions> = {}): Case {
  const original = regularTxt(parts(), options);
  const conso = writeConso(original, { token: TOKEN, ...consoOptions });
  const changed = parts();
  change(changed);
  const corrected = convert(buildWorkbook(changed), options).txt ?? '';
  const result = correct(buildWorkbook(changed), conso, { ...options, ...extra });
  return { original, conso, corrected, result };
}

const codes = (r: CorrectionResult) => r.report.problems.map((p) => p.code);
const ofType = (txt: string, type: string) => records(txt).filter((f) => f[2] === type);

/** Checks the correction TXT against the layouts and returns its records. */
function written(c: Case, options: ConvertOptions): string[][] {
  expect(c.result.report.errorCount, JSON.stringify(c.result.report.problems)).to.equal(0);
  expect(c.result.txt).to.be.a('string');
  checkTxt(c.result.txt!, 'legacy', options.form, yearCode(options), 'C');
  return records(c.result.txt!);
}

/** Every field of a correction DD equals the corrected statement's, except the correction slots. */
const DD_SLOTS = new Set([1, 3, 4, 5, 6, 9, 11, 18, 20]);
function expectSameDeductee(correction: string[], regular: string[]): void {
  for (let n = 2; n < regular.length; n++) if (!DD_SLOTS.has(n)) expect(correction[n], `DD field ${n}`).to.equal(regular[n]);
}

describe('correction statements: conso file -> corrected workbook -> correction TXT', () => {
  it('the layout tables carry the correction slots the reference sources, and only the correction compiles them', () => {
    const legacy = LAYOUT_VERSIONS.find((v) => v.family === 'legacy')!;
    const slots = (type: string) => legacy.records.find((r) => r.recordType === type)!.fields.filter((f) => f.correction && f.presence === 'NA').map((f) => f.n);
    expect(slots('BH')).to.include.members([6, 7, 8, 10 - 2, 12, 53]);
    expect(slots('CD')).to.deep.equal([7, 11, 13, 15, 17, 28]);
    expect(slots('DD')).to.deep.equal([9, 11, 18, 20]);
    expect(slots('SD')).to.deep.equal([20]);
    // A regular TXT with a correction slot filled is refused by the regular check, accepted by neither as a correction without BH 6.
    const txt = regularTxt(form26qParts(), OPTIONS_26Q);
    const broken = txt.replace(/\^BH\^1\^2\^26Q\^\^/, '^BH^1^2^26Q^C3^');
    expect(() => checkTxt(broken, 'legacy', '26Q', '202526')).to.throw(/BH field 6 \(Transaction Type\): not applicable/);
    expect(() => checkTxt(txt, 'legacy', '26Q', '202526', 'C')).to.throw(/FH field 4 \(Upload Type\)/);
  });

  it('26Q: a deductee row updated (amount paid) is a C3 batch with mode U, the last values from the conso file and the new values from the workbook', () => {
    const c = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payments[3]!.payment_amount = 115000), { hash: 'A1B2C3D4E5' });
    const lines = written(c, OPTIONS_26Q);
    expect(lines.map((f) => f[2])).to.deep.equal(['FH', 'BH', 'CD', 'DD']);
    const [fh, bh, cd, dd] = lines as [string[], string[], string[], string[]];
    expect([fh[4], fh[9], fh[18]]).to.deep.equal(['C', '1', 'A1B2C3D4E5']);
    expect([bh[3], bh[4], bh[6], bh[7], bh[8], bh[9], bh[12], bh[13], bh[53]]).to.deep.equal(['1', '1', 'C3', '0', TOKEN, TOKEN, 'MUMA12345E', 'MUMA12345E', '']);
    // Without batch updation the details are left out, but for the four the FVU wants in every batch (T-FV-2101, 2082, 2077, 2235).
    expect([bh[15], bh[21], bh[28], bh[31], bh[33], bh[43], bh[46]], 'details not updated: empty (T-FV-2141 and on)').to.deep.equal(['', '', '', '', '', '', '']);
    expect([bh[19], bh[26], bh[32], bh[51], bh[59]]).to.deep.equal(['Acme Traders Pvt Ltd', '19', 'K', 'N', 'ABCPR1234K']);
    expect([bh[16], bh[17], bh[18], bh[47]]).to.deep.equal(['202627', '202526', 'Q3', '21250.00']);
    // The challan: its record number and its CIN and total as in the conso file, indicator 0, so no OLTAS amounts nor
    // minor head (T-FV-3027 ... 3162) but the fee (T-FV-3158); its tax totals are what the rows change (0.00 here).
    expect([cd[3], cd[4], cd[5], cd[7], cd[11], cd[15], cd[17], cd[28]]).to.deep.equal(['1', '2', '1', '0', '00202', '0510308', '07012026', '21250.00']);
    expect([cd[22], cd[23], cd[24], cd[25], cd[26], cd[39], cd[40]]).to.deep.equal(['', '', '', '', '', '200.00', '']);
    expect([cd[27], cd[29], cd[30], cd[31], cd[32], cd[33]]).to.deep.equal(['21250.00', '0.00', '0.00', '0.00', '0.00', '0.00']);
    const regularDd = ofType(c.corrected, 'DD')[3]!; // challan 2's second row in the corrected statement
    const originalDd = ofType(c.original, 'DD')[3]!;
    expect([dd[3], dd[4], dd[5], dd[6]]).to.deep.equal(['1', '2', '2', 'U']);
    expectSameDeductee(dd, regularDd);
    expect([dd[9], dd[11], dd[18], dd[20]]).to.deep.equal([originalDd[10], originalDd[12], originalDd[17], originalDd[19]]);
    expect([dd[22], dd[26]]).to.deep.equal(['115000.00', '9.5652']);
    expect(c.result.batches).to.deep.equal([{ type: 'C3', batchUpdation: '0', challans: 1, deductees: { added: 0, updated: 1, panUpdated: 0 } }]);
  });

  it('the self-check of a correction: record numbers must rise, rows must point at their challan, the slots hold their codes', () => {
    const c = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      p.payments[3]!.payment_amount = 115000;
      p.payments[4]!.payment_amount = 31000;
    });
    const txt = c.result.txt!;
    checkTxt(txt, 'legacy', '26Q', '202526', 'C');
    const lines = txt.split('\r\n');
    const swap = (i: number, from: RegExp, to: string) => [...lines.slice(0, i), lines[i]!.replace(from, to), ...lines.slice(i + 1)].join('\r\n');
    expect(() => checkTxt(swap(4, /^5\^DD\^1\^2\^3\^/, '5^DD^1^2^2^'), 'legacy', '26Q', '202526', 'C')).to.throw(/line 5, DD field 5 .*record number 2 after 2: the numbers must rise/);
    expect(() => checkTxt(swap(3, /^4\^DD\^1\^2\^/, '4^DD^1^7^'), 'legacy', '26Q', '202526', 'C')).to.throw(/line 4, DD field 4 .*refers to CD 7, but it follows CD 2/);
    expect(() => checkTxt(swap(2, /^3\^CD\^1\^2\^2\^N\^0\^/, '3^CD^1^2^2^N^2^'), 'legacy', '26Q', '202526', 'C')).to.throw(/CD field 7 \(Challan Updation Indicator\): not one of the layout's values/);
    expect(() => checkTxt(swap(3, /\^U\^\^2\^CDEHS4567J\^/, '^U^^2^CDEHS4567^'), 'legacy', '26Q', '202526', 'C')).to.throw(/DD field 9 \(Last Employee\/Party PAN\): not a PAN/);
    expect(() => checkTxt(swap(1, /\^C3\^/, '^Y^'), 'legacy', '26Q', '202526', 'C')).to.throw(/BH field 6 \(Transaction Type\)/);
  });

  it('26Q: a row added takes the number the conso gives (CD 8) with mode A, the challan totals what it adds; a row left out is refused (no deletion, T_FV_6049)', () => {
    const c = roundTrip(
      form26qParts,
      OPTIONS_26Q,
      (p) => {
        p.payments.push({ ...p.payments[0]!, payment_amount: 50000, tds_amount: 1000, payment_date_epoch: ist('2025-11-02'), deduction_date_epoch: ist('2025-11-02') }); // under 00101
        p.challans[0]!.tds_amount = 13000;
      },
      { nextDeductee: { 1: 7 } }, // rows 3-6 of challan 1 were added and deleted by earlier corrections
    );
    const lines = written(c, OPTIONS_26Q);
    expect(lines.map((f) => `${f[2]}${f[2] === 'DD' ? f[6] : ''}`)).to.deep.equal(['FH', 'BH', 'CD', 'DDA']);
    const [, bh, cd, add] = lines as string[][];
    expect([bh![6], bh![4], bh![47]]).to.deep.equal(['C3', '1', '13150.00']);
    expect([cd![4], cd![7], cd![28], cd![22], cd![40]], 'challan 1 changed its tax: indicator 1, its own amounts given').to.deep.equal(['1', '1', '12150.00', '13000.00', '200']);
    expect([cd![29], cd![30], cd![33]], 'the rows add 1000.00').to.deep.equal(['1000.00', '1000.00', '1000.00']);
    expect([add![4], add![5], add![9], add![18]]).to.deep.equal(['1', '7', '', '']);
    expectSameDeductee(add!, ofType(c.corrected, 'DD')[2]!);
    const deleted = roundTrip(form26qParts, OPTIONS_26Q, (p) => p.payments.splice(4, 1)); // Kiran Kumar's zero-tax row under 00202
    expect(codes(deleted.result)).to.deep.equal(['CORRECTION_DELETE_NOT_ALLOWED']);
    expect(deleted.result.report.problems[0], 'a deleted row: at its challan').to.include({ sheet: 'challan_sheet', row: 3 });
    expect(deleted.result.report.problems[0]!.message).to.match(/deductee record 3 of challan record 2 \(conso line 9\)/);
  });

  it('26Q: a PAN update is a C5 batch: no updation indicator, TAN or batch total, a challan and rows that give only numbers, PANs and last totals', () => {
    const c = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payees[3]!.pan = 'CDEHS4567K'));
    const lines = written(c, OPTIONS_26Q);
    expect(codes(c.result)).to.deep.equal(['CORRECTION_PAN_CHANGE_ONCE']);
    expect(c.result.report.problems[0]).to.include({ sheet: 'payment_sheet', row: 5 });
    const [, bh, cd, dd] = lines as string[][];
    expect([bh![4], bh![6], bh![7], bh![13], bh![15], bh![19], bh![47], bh![53]]).to.deep.equal(['1', 'C5', '', '', '', 'Acme Traders Pvt Ltd', '', '']);
    expect(cd!.map((v, n) => (v === '' ? '' : `${n}=${v}`)).filter(Boolean)).to.deep.equal(['1=3', '2=CD', '3=1', '4=2', '5=1', '6=N', '11=00202', '15=0510308', '17=07012026', '28=21250.00', '37=N']);
    expect(dd!.map((v, n) => (v === '' ? '' : `${n}=${v}`)).filter(Boolean)).to.deep.equal(['1=4', '2=DD', '3=1', '4=2', '5=2', '10=CDEHS4567K', '18=11000.00', '20=11000.00']);
    expect(c.result.batches).to.deep.equal([{ type: 'C5', batchUpdation: '', challans: 1, deductees: { added: 0, updated: 0, panUpdated: 1 } }]);
    const invalid = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payees[3]!.pan = 'PANNOTAVBL'));
    expect(codes(invalid.result)).to.include('CORRECTION_PAN_TO_INVALID');
    expect(invalid.result.txt).to.equal(null);
  });

  it('26Q: a remark-C row (no PAN, higher rate) gets its PAN: the workbook gives the PAN without the reason, the correction is a C5 with the last PAN reference', () => {
    const c = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      p.payees[2]!.pan = 'BCDPD1234E';
      delete p.payments[2]!.reason_for_lower_deduction;
    });
    const lines = written(c, OPTIONS_26Q);
    expect(codes(c.result)).to.deep.equal([]);
    const dd = lines.find((f) => f[2] === 'DD')!;
    expect([dd[4], dd[5], dd[6], dd[10], dd[11], dd[12], dd[18], dd[30]]).to.deep.equal(['2', '1', '', 'BCDPD1234E', '0000000003', '', '10000.00', '']);
    expect(c.result.batches.map((b) => b.type)).to.deep.equal(['C5']);
    // Keeping the reason C with the PAN is the regular rule's refusal.
    const kept = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payees[2]!.pan = 'BCDPD1234E'));
    expect(codes(kept.result)).to.include('REMARK_C_REQUIRES_NO_PAN');
  });

  it('26Q: a challan changed is a C2 batch (indicator 1, last CIN and total, its own amounts); a matched or provisionally booked challan is refused; a correction without a row is refused (T_FV_6381)', () => {
    const change = (p: WorkbookParts) => {
      p.challans[1]!.interest = 100;
      p.payments[0]!.payment_amount = 410000; // a row of challan 1: the file needs a deductee record
    };
    const c = roundTrip(form26qParts, OPTIONS_26Q, change);
    const [, bh, cd, bh3] = written(c, OPTIONS_26Q) as string[][];
    expect([bh![6], bh![7], bh![4], bh![47]]).to.deep.equal(['C2', '0', '1', '21350.00']);
    expect([cd![4], cd![5], cd![7], cd![25], cd![27], cd![28], cd![29], cd![40]]).to.deep.equal(['2', '0', '1', '100.00', '21350.00', '21250.00', '0.00', '200']);
    expect([bh3![2], bh3![6]]).to.deep.equal(['BH', 'C3']);
    for (const status of ['M', 'P'] as const) {
      const booked = roundTrip(form26qParts, OPTIONS_26Q, change, { status: { 2: status } });
      expect(codes(booked.result)).to.deep.equal(['CORRECTION_CHALLAN_BOOKED']);
      expect(booked.result.report.problems[0]).to.include({ sheet: 'challan_sheet', row: 3, column: null });
      expect(booked.result.report.problems[0]!.message).to.match(/challan record 2 \(conso line 6/);
    }
    // A serial corrected (BSR, date and amount unchanged) is still the same challan.
    const serial = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      p.challans[1]!.challan_serial = '00203';
      for (const row of p.payments) if (row.challan_serial === '00202') row.challan_serial = '00203';
      p.payments[0]!.payment_amount = 410000;
    });
    const [, , cds] = written(serial, OPTIONS_26Q) as string[][];
    expect([cds![4], cds![7], cds![11], cds![12]]).to.deep.equal(['2', '1', '00202', '00203']);
    // The challan alone: a file with no deductee record, which the FVU refuses.
    const alone = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.challans[1]!.interest = 100));
    expect(codes(alone.result)).to.deep.equal(['CORRECTION_NO_DEDUCTEE_RECORD']);
  });

  it('26Q: an added challan is a C9 batch numbered as the conso gives (BH 14), its rows mode O from 1; only for Central or State Government deductors (T_FV_6052)', () => {
    const government = () => {
      const p = form26qParts();
      p.payer.deductor_type = 'S';
      p.payer.government_state_code = 'MAHARASHTRA';
      return p;
    };
    const add = (p: WorkbookParts) => {
      p.challans.push({ ...p.challans[1]!, challan_serial: '00303', paid_date_epoch: ist('2026-01-20'), tds_amount: 5000, interest: 0, late_filing_fees: 0, other_penalty: 0 });
      p.payments.push({ ...p.payments[3]!, challan_serial: '00303', payment_amount: 50000, tds_amount: 5000 });
    };
    // An earlier correction left the latest statement's challans at 1 and 4, and TRACES gives 6 as the next.
    const c = roundTrip(government, OPTIONS_26Q, add, { challanNumbers: { 1: 1, 2: 4 }, nextChallan: 6 });
    const [fh, bh, cd, dd] = written(c, OPTIONS_26Q) as string[][];
    expect(fh![9]).to.equal('1');
    expect([bh![6], bh![7], bh![15], bh![19], bh![32], bh![47]]).to.deep.equal(['C9', '', '', 'Acme Traders Pvt Ltd', 'S', '5000.00']);
    expect([cd![4], cd![5], cd![7], cd![11], cd![15], cd![28], cd![12], cd![22], cd![29]]).to.deep.equal(['6', '1', '0', '', '', '', '00303', '5000.00', '5000.00']);
    expect([dd![4], dd![5], dd![6], dd![9]]).to.deep.equal(['6', '1', 'O', '']);
    const company = roundTrip(form26qParts, OPTIONS_26Q, add);
    expect(codes(company.result)).to.deep.equal(['CORRECTION_C9_NOT_GOVERNMENT']);
    expect(company.result.report.problems[0]).to.include({ sheet: 'challan_sheet', row: 4 });
  });

  it('deductor details alone are refused (no deductee record, T_FV_6381); with a PAN update they are a C1 batch (no count, indicator or total); with a challan change they ride on the C2 batch', () => {
    const details = (p: WorkbookParts) => {
      p.payer.email = 'accounts@acme.example';
      p.payer.street = '14 Marine Drive';
    };
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, details).result)).to.deep.equal(['CORRECTION_NO_DEDUCTEE_RECORD']);
    const c1 = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      details(p);
      p.payees[3]!.pan = 'CDEHS4567K';
    });
    const [fh, bh] = written(c1, OPTIONS_26Q) as string[][];
    expect([fh![9], bh![4], bh![6], bh![7], bh![13], bh![15], bh![28], bh![21], bh![31], bh![46], bh![47], bh![53]]).to.deep.equal(['2', '', 'C1', '', 'MUMA12345E', 'AAACA1234F', 'accounts@acme.example', '14 Marine Drive', 'Y', 'N', '', 'K']);
    expect(c1.result.batches.map((b) => `${b.type}:${b.batchUpdation}`)).to.deep.equal(['C1:', 'C5:']);
    const all = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      p.payer.email = 'accounts@acme.example';
      p.challans[1]!.interest = 100;
      p.payees[3]!.pan = 'CDEHS4567K';
      p.payments[0]!.payment_amount = 410000;
    });
    const lines = written(all, OPTIONS_26Q);
    const headers = lines.filter((f) => f[2] === 'BH');
    expect(headers.map((f) => `${f[3]}:${f[6]}:${f[7]}:${f[28]}`)).to.deep.equal(['1:C2:1:accounts@acme.example', '2:C3:0:', '3:C5::']);
    expect(lines[0]![9]).to.equal('3');
    expect(all.result.batches.map((b) => b.type)).to.deep.equal(['C2', 'C3', 'C5']);
  });

  it('deductor fields the workbook has no column for (STD code, telephone, alternates) repeat the conso\'s in the batch that updates the details, and do not count as a change', () => {
    const original = regularTxt(form26qParts(), OPTIONS_26Q);
    const conso = writeConso(original, { token: TOKEN }).replace(/^(2\^BH(?:\^[^^]*){26})\^\^\^/m, '$1^022^22001234^');
    const parts = form26qParts();
    parts.payments[3]!.payment_amount = 115000;
    const same = correct(buildWorkbook(parts), conso, OPTIONS_26Q);
    expect(same.batches.map((b) => `${b.type}:${b.batchUpdation}`), 'no deductor change seen').to.deep.equal(['C3:0']);
    parts.payer.email = 'accounts@acme.example';
    const updated = correct(buildWorkbook(parts), conso, OPTIONS_26Q);
    const bh = records(updated.txt!)[1]!;
    expect([bh[7], bh[28], bh[29], bh[30]]).to.deep.equal(['1', 'accounts@acme.example', '022', '22001234']);
  });

  it('no change is refused (CORRECTION_NOTHING_TO_CORRECT); a conso challan missing from the workbook is refused', () => {
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, () => undefined).result)).to.deep.equal(['CORRECTION_NOTHING_TO_CORRECT']);
    const missing = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      p.challans.splice(0, 1);
      p.payments = p.payments.filter((r) => r.challan_serial !== '00101');
    });
    expect(codes(missing.result)).to.deep.equal(['CORRECTION_CHALLAN_MISSING']);
    expect(missing.result.report.problems[0]!.message).to.match(/challan record 1 \(conso line 3; BSR 0510308, date 07112025, serial 00101\)/);
  });

  it('rows locked by Form 26A/27BA (mode F) and remark C rows are refused where TRACES refuses them', () => {
    const locked = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payments[3]!.payment_amount = 115000), { locked: [[2, 2]] });
    expect(codes(locked.result)).to.deep.equal(['CORRECTION_ROW_LOCKED']);
    expect(locked.result.report.problems[0], 'at the payment row').to.include({ sheet: 'payment_sheet', row: 5 });
    const lockedPan = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payees[3]!.pan = 'CDEHS4567K'), { locked: [[2, 2]] });
    expect(codes(lockedPan.result)).to.include('CORRECTION_ROW_LOCKED');
    // Remark C (row 1 of challan 2): changing its amount and date is allowed, its section is not.
    const amountC = roundTrip(form26qParts, OPTIONS_26Q, (p) => {
      p.payments[2]!.payment_amount = 49000;
      p.payments[2]!.payment_date_epoch = ist('2025-12-01');
    });
    expect(codes(amountC.result)).to.deep.equal([]);
    const sectionC = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payments[2]!.nature_of_payment = 'freight_charges'));
    expect(codes(sectionC.result)).to.include('CORRECTION_REMARK_C_ROW');
  });

  it('Y is refused (discontinued at TIN); a type the request does not allow is refused; an unknown type is an option error', () => {
    const change = (p: WorkbookParts) => (p.payments[3]!.payment_amount = 115000);
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, change, {}, { types: ['C3', 'Y'] }).result)).to.deep.equal(['CORRECTION_CANCEL_DISCONTINUED']);
    const narrow = roundTrip(form26qParts, OPTIONS_26Q, change, {}, { types: ['C1', 'C2'] });
    expect(codes(narrow.result)).to.deep.equal(['CORRECTION_TYPE_NOT_REQUESTED']);
    expect(narrow.result.report.problems[0]!.message).to.match(/need C3/);
    expect(() => roundTrip(form26qParts, OPTIONS_26Q, change, {}, { types: ['C7'] })).to.throw(/Unknown correction type 'C7'/);
  });

  it('tokens: BH 8 from the conso file or the option (15 digits, the same), BH 9 the conso\'s previous token (BH 9) or the option (the same)', () => {
    const change = (p: WorkbookParts) => (p.payments[3]!.payment_amount = 115000);
    const later = roundTrip(form26qParts, OPTIONS_26Q, change, { previousToken: '999999999999999' });
    const bh = written(later, OPTIONS_26Q)[1]!;
    expect([bh[8], bh[9]], 'a correction was processed: BH 9 is its token').to.deep.equal([TOKEN, '999999999999999']);
    const given = written(roundTrip(form26qParts, OPTIONS_26Q, change, { previousToken: '999999999999999' }, { lastCorrectionReceiptNumber: '999999999999999' }), OPTIONS_26Q)[1]!;
    expect(given[9]).to.equal('999999999999999');
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, change, {}, { lastCorrectionReceiptNumber: '999999999999999' }).result), 'another than the conso\'s').to.deep.equal(['CORRECTION_INVALID_TOKEN']);
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, change, { token: '', previousToken: '' }).result)).to.deep.equal(['CORRECTION_INVALID_TOKEN']);
    const original = roundTrip(form26qParts, OPTIONS_26Q, change, { token: '', previousToken: '' }, { originalReceiptNumber: '111111111111111' });
    expect(written(original, OPTIONS_26Q)[1]!.slice(8, 10)).to.deep.equal(['111111111111111', '111111111111111']);
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, change, {}, { originalReceiptNumber: '111111111111111' }).result)).to.deep.equal(['CORRECTION_INVALID_TOKEN']);
    expect(codes(roundTrip(form26qParts, OPTIONS_26Q, change, {}, { lastCorrectionReceiptNumber: '12345' }).result)).to.deep.equal(['CORRECTION_INVALID_TOKEN']);
  });

  it('workbook errors of the corrected workbook are the regular validation report, with no TXT', () => {
    const c = roundTrip(form26qParts, OPTIONS_26Q, (p) => (p.payments[0]!.tds_amount = 900000));
    expect(c.result.txt).to.equal(null);
    expect(codes(c.result)).to.include('TAX_EXCEEDS_AMOUNT');
  });

  for (const name of ['24Q', '24Q-Q4', '27Q', '27EQ'] as const) {
    it(`${name}: a deductee row's payment date corrected round-trips as a C3 update, field by field`, () => {
      const { options } = baseline(name);
      const c = roundTrip(() => baseline(name).parts, options, (p) => (p.payments[0]!.payment_date_epoch = (p.payments[0]!.payment_date_epoch as number) - 86400000));
      const lines = written(c, options);
      expect(lines.map((f) => f[2])).to.deep.equal(['FH', 'BH', 'CD', 'DD']);
      const dd = lines[3]!;
      const regular = ofType(c.corrected, 'DD')[0]!;
      const original = ofType(c.original, 'DD')[0]!;
      expectSameDeductee(dd, regular);
      expect([dd[4], dd[5], dd[6], dd[9], dd[18], dd[20]]).to.deep.equal(['1', '1', 'U', original[10], original[17], original[19]]);
      expect(dd[23]).to.not.equal(original[23]);
      if (name.startsWith('24Q')) expect(lines[1]![49]).to.equal('0');
    });
  }

  it('24Q Q4: a salary detail change needs C4, which is refused (CORRECTION_SALARY_NOT_SOURCED)', () => {
    const { options } = baseline('24Q-Q4');
    const c = roundTrip(() => baseline('24Q-Q4').parts, options, (p) => (p.salaries![0]!.salary_as_per_provisions_contained_in_section_17_1 = 1810000));
    expect(codes(c.result)).to.deep.equal(['CORRECTION_SALARY_NOT_SOURCED']);
    // A PAN update of an employee who has a salary row would have to update that row too.
    const pan = roundTrip(() => baseline('24Q-Q4').parts, options, (p) => (p.payees[0]!.pan = 'ABCPM1234B'));
    expect(codes(pan.result)).to.include('CORRECTION_SALARY_NOT_SOURCED');
  });

  it('Forms 138/140/143/144: refused (no public field text of their correction formats)', () => {
    for (const name of ['140', '138', '143', '144'] as const) {
      const { parts, options } = baseline(name);
      const r = correct(buildWorkbook(parts), 'anything', options);
      expect(codes(r), name).to.deep.equal(['CORRECTION_FORMAT_NOT_PUBLISHED']);
      expect(r.txt).to.equal(null);
    }
    expect(RULES.CORRECTION_FORMAT_NOT_PUBLISHED.severity).to.equal('error');
  });

  describe('the conso file refused, with its line and code', () => {
    const original = () => regularTxt(form26qParts(), OPTIONS_26Q);
    const expectation = { tan: 'MUMA12345E', form: '26Q' as const, yearCode: '202526', quarter: 'Q3' };
    function refused(content: string, expected = expectation): ConsoFileError {
      try {
        parseConso(content, expected);
      } catch (error) {
        expect(error).to.be.instanceOf(ConsoFileError);
        return error as ConsoFileError;
      }
      throw new Error('the conso file was accepted');
    }
    const lines = () => writeConso(original(), { token: TOKEN }).split('\r\n').filter((l) => l !== '');
    const join = (l: string[]) => `${l.join('\r\n')}\r\n`;

    it('reads a good file: record numbers, statuses, modes, next numbers, amounts without padding, fee and minor head from 40/41, the section code from 34', () => {
      const conso = parseConso(writeConso(original(), { token: TOKEN, previousToken: '999999999999999', hash: 'A1B2C3D4E5', status: { 1: 'M' }, locked: [[2, 3]], nextChallan: 5 }), expectation);
      expect(conso.challans.map((c) => [c.record, c.status, c.nextDeductee, c.deductees.length, c.fields[27], c.fields[39], c.fields[40]])).to.deep.equal([[1, 'M', 3, 2, '12150.00', '0.00', '200'], [2, 'U', 4, 3, '21250.00', '200.00', '200']]);
      expect(conso.challans[1]!.deductees.map((d) => [d.record, d.mode, d.fields[8], d.fields[33], d.fields[17], d.fields[25], d.panCounter])).to.deep.equal([[1, 'O', '2', '4JB', '10000.00', '', '1'], [2, 'O', '2', '4IB', '11000.00', '', '1'], [3, 'F', '2', '94A', '0.00', '', '1']]);
      expect([conso.originalToken, conso.previousToken, conso.nextChallan, conso.hash, conso.lines]).to.deep.equal([TOKEN, '999999999999999', 5, 'A1B2C3D4E5', 9]);
      // The responsible person's mobile sits at conso BH 48 and is read into the regular 43.
      expect([conso.batchHeader[43], conso.batchHeader[47], conso.batchHeader[19]]).to.deep.equal(['9820012346', '33400.00', 'Acme Traders Pvt Ltd']);
    });

    it('the real conso file TRACES issued (redacted copy): 3 challans of one row, every value where the file has it', () => {
      const real = readFileSync(REAL_CONSO_PATH);
      const conso = parseConso(real, { tan: 'DELT00001A', form: '26Q', yearCode: '201415', quarter: 'Q2' });
      expect([conso.tan, conso.form, conso.yearCode, conso.quarter, conso.lines]).to.deep.equal(['DELT00001A', '26Q', '201415', 'Q2', 8]);
      expect([conso.originalToken, conso.previousToken, conso.nextChallan, conso.dataAsOn, conso.hash]).to.deep.equal(['104989600002814', '104989600002814', 4, '15102014', '00000000000014812809']);
      expect([conso.batchHeader[15], conso.batchHeader[19], conso.batchHeader[32], conso.batchHeader[43], conso.batchHeader[47]]).to.deep.equal(['AAAFT1234C', 'TEST DEDUCTOR LLP', 'F', '9876543210', '9000.00']);
      expect(conso.challans.map((c) => [c.record, c.status, c.nextDeductee, c.pending, c.fields[12], c.fields[16], c.fields[18], c.fields[22], c.fields[27], c.fields[39], c.fields[40], c.deductees.length])).to.deep.equal([
        [1, 'M', 2, '0.00', '07722', '6390340', '07082014', '3000.00', '3000.00', '0.00', '200', 1],
        [2, 'M', 2, '0.00', '03636', '6390340', '06092014', '3000.00', '3000.00', '0.00', '200', 1],
        [3, 'M', 2, '0.00', '06995', '6390340', '07102014', '3000.00', '3000.00', '0.00', '200', 1],
      ]);
      const rows = conso.challans.map((c) => c.deductees[0]!);
      // DD 25 (date of deposit) is filled in the file but not applicable to a 26Q row: read as empty.
      expect(rows.map((d) => [d.record, d.mode, d.fields[8], d.fields[10], d.fields[13], d.fields[17], d.fields[22], d.fields[23], d.fields[25], d.fields[26], d.fields[33], d.panCounter])).to.deep.equal([
        [1, 'O', '2', 'ABCPK1234F', 'TEST DEDUCTEE ONE', '3000.00', '30000.00', '07072014', '', '10.0000', '4IB', '1'],
        [1, 'O', '2', 'ABCPK1234F', 'TEST DEDUCTEE ONE', '3000.00', '30000.00', '07082014', '', '10.0000', '4IB', '1'],
        [1, 'O', '2', 'ABCPK1234F', 'TEST DEDUCTEE ONE', '3000.00', '30000.00', '07092014', '', '10.0000', '4IB', '1'],
      ]);
      // Its FH field 8 is empty (not a TAN) and 10 counts its lines: a file with fewer lines than FH 10 says is cut short.
      const expected = { tan: 'DELT00001A', form: '26Q' as const, yearCode: '201415', quarter: 'Q2' };
      const cut = refused(real.toString('latin1').replace('^T^^1^8^', '^T^^1^9^'), expected);
      expect([cut.code, cut.line, cut.message]).to.deep.equal(['CONSO_TRUNCATED', 8, 'conso file line 8: the file ends after 8 of the 9 lines FH field 10 declares']);
      expect(refused(real.toString('latin1').replace('^T^^1^8^', '^T^^1^x^'), expected).message).to.equal('conso file line 1: FH field 10 (number of lines) is not a number of lines');
      expect(refused(real.toString('latin1').replace('^4^AAAFT1234C^', '^3^AAAFT1234C^'), expected).message).to.match(/line 2: BH field 14 \(next challan record number\) is 3, not above the highest challan record number 3/);
    });

    it('a correction on the real file\'s layout: every row an update only where the workbook changed, the next numbers the file gives', () => {
      const parts = realConsoParts();
      parts.payments[1]!.payment_amount = 31000;
      parts.payments.push({ ...parts.payments[2]!, payment_amount: 2000, tds_amount: 0, deduction_date_epoch: null, reason_for_lower_deduction: 'transaction_where_tax_not_been_deducted_as_amount_paid_to_vendor_party_has_not_exceeded_the_threshold_limit' });
      const r = correct(buildWorkbook(parts), realConso(), realConsoOptions());
      expect(r.report.errorCount, JSON.stringify(r.report.problems)).to.equal(0);
      checkTxt(r.txt!, 'legacy', '26Q', '201415', 'C');
      const lines = records(r.txt!);
      expect(lines.map((f) => `${f[2]}${f[2] === 'DD' ? f[6] : f[2] === 'BH' ? f[6] : ''}`)).to.deep.equal(['FH', 'BHC3', 'CD', 'DDU', 'CD', 'DDA']);
      expect([lines[0]![18], lines[1]![7], lines[1]![8], lines[1]![9]]).to.deep.equal(['00000000000014812809', '1', '104989600002814', '104989600002814']);
      expect([lines[3]![4], lines[3]![5], lines[3]![9], lines[3]![22], lines[5]![4], lines[5]![5]]).to.deep.equal(['2', '1', 'ABCPK1234F', '31000.00', '3', '2']);
    });

    it('malformed: a line number out of order, an unknown record, a DD under another challan, a bad status, a bad amount', () => {
      const l = lines();
      const gap = [...l];
      gap.splice(4, 1);
      expect([refused(join(gap)).code, refused(join(gap)).line]).to.deep.equal(['INVALID_CONSO', 5]);
      const unknown = l.map((x, i) => (i === 3 ? x.replace('^DD^', '^XX^') : x));
      expect(refused(join(unknown)).message).to.match(/^conso file line 4: unknown record type 'XX'/);
      const other = l.map((x, i) => (i === 4 ? x.replace(/^5\^DD\^1\^1\^/, '5^DD^1^2^') : x));
      expect(refused(join(other)).message).to.match(/line 5: DD field 4 names challan 2/);
      const status = l.map((x, i) => (i === 2 ? x.replace('^U^', '^Q^') : x));
      expect(refused(join(status)).message).to.match(/line 3: CD field 9 \(booking status\) is 'Q'/);
      const amount = l.map((x, i) => (i === 3 ? x.replace('000000008000.00', '8,000.00') : x));
      expect(refused(join(amount)).message).to.match(/line 4: DD field 14 is not an amount/);
      expect(refused('').code).to.equal('INVALID_CONSO');
      expect(refused(join(['1^BH^1'])).message).to.match(/line 1: the first line is not the file header/);
    });

    it('truncated: the file ends before the deductees or challans its headers count', () => {
      const l = lines();
      const cut = refused(join(l.slice(0, l.length - 1)));
      expect([cut.code, cut.line]).to.deep.equal(['CONSO_TRUNCATED', 8]);
      expect(cut.message).to.match(/ends after 2 of the 3 deductee records challan 2 \(line 6\)/);
      const noChallan = refused(join(l.slice(0, 5)));
      expect(noChallan.code).to.equal('CONSO_TRUNCATED');
      expect(noChallan.message).to.match(/ends after 1 of the 2 challans/);
      const halfLine = refused(join([...l.slice(0, 8), l[8]!.slice(0, 40)]));
      expect([halfLine.code, halfLine.line]).to.deep.equal(['INVALID_CONSO', 9]);
    });

    it('another TAN or another form, year or quarter', () => {
      const tan = refused(writeConso(original()), { ...expectation, tan: 'MUMB12345E' });
      expect([tan.code, tan.line]).to.deep.equal(['CONSO_OTHER_TAN', 2]);
      const quarter = refused(writeConso(original()), { ...expectation, quarter: 'Q2' });
      expect([quarter.code, quarter.line]).to.deep.equal(['CONSO_OTHER_PERIOD', 2]);
      expect(quarter.message).to.match(/Form 26Q 202526 Q3, the correction for Form 26Q 202526 Q2/);
      // correct() refuses the same way: the workbook's options are the statement's.
      expect(() => correct(buildWorkbook(form26qParts()), writeConso(original()), { ...OPTIONS_26Q, quarter: 'Q2' })).to.throw(ConsoFileError, /CONSO|other/i);
    });
  });

  describe('the streaming form', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'satyapan-correct-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('the conso file read a line at a time as the workbook\'s challans come, in another order than the file\'s: the correction correct() makes, each challan paired by its CIN', async () => {
      const parts = form26qParts();
      parts.challans.push(
        { ...parts.challans[0]!, challan_serial: '00303', paid_date_epoch: ist('2025-12-07'), tds_amount: 5000, interest: 0 },
        { ...parts.challans[1]!, challan_serial: '00404', paid_date_epoch: ist('2025-12-08'), tds_amount: 3000, late_filing_fees: 0, other_penalty: 0 },
        // Two challans alike but for the serial: only their CIN tells them apart (the looser pairing would not).
        { ...parts.challans[1]!, challan_serial: '00505', paid_date_epoch: ist('2025-12-10'), tds_amount: 2000, late_filing_fees: 0, other_penalty: 0 },
        { ...parts.challans[1]!, challan_serial: '00606', paid_date_epoch: ist('2025-12-10'), tds_amount: 2000, late_filing_fees: 0, other_penalty: 0 },
      );
      parts.payments.push(
        { ...parts.payments[1]!, challan_serial: '00303', tds_amount: 5000, payment_amount: 50000 },
        { ...parts.payments[3]!, challan_serial: '00404', tds_amount: 3000, payment_amount: 30000 },
        { ...parts.payments[1]!, challan_serial: '00505', tds_amount: 2000, payment_amount: 20000 },
        { ...parts.payments[3]!, challan_serial: '00606', tds_amount: 2000, payment_amount: 20000 },
      );
      const conso = writeConso(regularTxt(parts, OPTIONS_26Q), { token: TOKEN });
      const oneLineChunks = () => Readable.from(conso.split(/(?<=\r\n)/).map((l) => Buffer.from(l, 'latin1')));
      const correctBoth = async (change: (p: WorkbookParts) => void) => {
        const changed: WorkbookParts = JSON.parse(JSON.stringify(parts));
        change(changed);
        const path = join(dir, 'reordered.json');
        writeFileSync(path, JSON.stringify(buildWorkbook(changed)));
        return { streamed: await correctFile(path, oneLineChunks(), OPTIONS_26Q), inMemory: correct(buildWorkbook(changed), conso, OPTIONS_26Q) };
      };
      // The workbook's challans and rows in reverse order, one amount changed under 00101 (the conso's challan 1).
      const reversed = await correctBoth((p) => {
        p.challans.reverse();
        p.payments.reverse();
        p.payments.find((r) => r.challan_serial === '00101' && r.payee_sr_no === 2)!.payment_amount = 41000;
      });
      expect(reversed.streamed.txt).to.be.a('string').and.to.equal(reversed.inMemory.txt);
      const cds = ofType(reversed.streamed.txt!, 'CD');
      expect(cds.map((f) => [f[4], f[12]]), 'one C3 challan: the conso\'s record 1, its last serial').to.deep.equal([['1', '00101']]);
      expect(ofType(reversed.streamed.txt!, 'DD').map((f) => [f[5], f[6], f[22]])).to.deep.equal([['2', 'U', '41000.00']]);
      // A serial changed: no exact CIN, so the challan waits to the end of the file and pairs by amount, BSR and date.
      const serial = await correctBoth((p) => {
        p.challans.reverse();
        p.challans.find((c) => c.challan_serial === '00303')!.challan_serial = '00333';
        p.payments.filter((r) => r.challan_serial === '00303').forEach((r) => (r.challan_serial = '00333'));
        p.payments.find((r) => r.challan_serial === '00404')!.payment_amount = 31000;
      });
      expect(serial.streamed.report.problems).to.deep.equal(serial.inMemory.report.problems);
      expect(serial.streamed.txt).to.be.a('string').and.to.equal(serial.inMemory.txt);
      expect(serial.streamed.batches.map((b) => b.type)).to.deep.equal(['C2', 'C3']);
      // A challan the conso does not have, and one of the conso's missing: the same refusal both ways.
      const swapped = await correctBoth((p) => {
        p.challans.find((c) => c.challan_serial === '00404')!.bsr_code = '6390009';
        p.challans.find((c) => c.challan_serial === '00404')!.paid_date_epoch = ist('2025-12-09');
        p.payments.filter((r) => r.challan_serial === '00404').forEach((r) => (r.bsr_code = '6390009'));
      });
      expect(codes(swapped.inMemory)).to.include('CORRECTION_CHALLAN_MISSING');
      expect(swapped.streamed.report.problems).to.deep.equal(swapped.inMemory.report.problems);
    });

    it('the conso file read in a worker thread (hooks.parallel; the default from 16 MiB): the same correction, report and refusals as in this thread, and no thread left', async () => {
      const threads = () => readdirSync('/proc/self/task').length;
      const before = threads();
      const parts = form26qParts();
      // More challans than the worker reads ahead of the comparison (4), each with a row.
      for (let k = 0; k < 6; k++) {
        const serial = `0${k + 7}0${k + 7}0`.slice(0, 5);
        parts.challans.push({ ...parts.challans[0]!, challan_serial: serial, paid_date_epoch: ist('2025-12-07'), tds_amount: 1000 + k, interest: 0 });
        parts.payments.push({ ...parts.payments[1]!, challan_serial: serial, tds_amount: 1000 + k, payment_amount: 10000 + 10 * k });
      }
      // The workbook's challans and rows in reverse order (a challan waits for its pair), one amount changed.
      const conso = writeConso(regularTxt(parts, OPTIONS_26Q), { token: TOKEN });
      expect(records(conso).filter((f) => f[2] === 'CD').length).to.equal(parts.challans.length).and.to.be.greaterThan(4);
      const changed: WorkbookParts = JSON.parse(JSON.stringify(parts));
      changed.challans.reverse();
      changed.payments.reverse();
      changed.payments[1]!.payment_amount = Number(changed.payments[1]!.payment_amount) + 1000;
      const workbookPath = join(dir, 'worker-corrected.json');
      writeFileSync(workbookPath, JSON.stringify(buildWorkbook(changed)));
      // A workbook with an error: the conso file is read to its end (end(), no next()) before the report is given.
      const broken: WorkbookParts = JSON.parse(JSON.stringify(changed));
      (broken.payments[0] as Record<string, unknown>).payment_amount = 'forty';
      const brokenPath = join(dir, 'worker-broken.json');
      writeFileSync(brokenPath, JSON.stringify(buildWorkbook(broken)));
      const outcome = async (consoPath: string, parallel: boolean, workbook = workbookPath) => {
        try {
          const result = await correctFile(workbook, consoPath, OPTIONS_26Q, { parallel });
          return { txt: result.txt, problems: result.report.problems, batches: result.batches };
        } catch (error) {
          const e = error as ConsoFileError & { errno?: number };
          return { refused: { name: e.name, code: e.code, line: e.line, message: e.message, isConsoError: e instanceof ConsoFileError } };
        }
      };
      const lines = conso.split('\r\n');
      const deductees = lines.flatMap((l, i) => (l.split('^')[1] === 'DD' ? [i] : []));
      expect(deductees.length).to.be.greaterThan(2);
      const cases: Array<[string, string]> = [
        ['good', conso],
        ['malformed row', lines.map((l, i) => (i === deductees[2] ? l.replace('^DD^', '^XX^') : l)).join('\r\n')],
        ['truncated', lines.slice(0, deductees[2]).join('\r\n')],
        ['another TAN', conso.replace(/MUMA12345E/g, 'AHMA00000C')],
      ];
      for (const [label, text] of cases) {
        const consoPath = join(dir, `worker-${label.replace(/\W+/g, '-')}.tds`);
        writeFileSync(consoPath, text, 'latin1');
        const inThread = await outcome(consoPath, false);
        expect(await outcome(consoPath, true), label).to.deep.equal(inThread);
        if (label === 'good') expect(ofType(inThread.txt!, 'DD').length, label).to.equal(1);
        else expect(inThread.refused?.isConsoError, label).to.equal(true);
        const refusedWorkbook = await outcome(consoPath, false, brokenPath);
        expect(await outcome(consoPath, true, brokenPath), `${label}, the workbook refused`).to.deep.equal(refusedWorkbook);
        if (label === 'good') expect(refusedWorkbook.problems?.map((p) => p.code), label).to.include('CELL_TYPE');
      }
      const missing = await outcome(join(dir, 'no-such-conso.tds'), true);
      expect(missing).to.deep.equal(await outcome(join(dir, 'no-such-conso.tds'), false));
      expect(missing.refused?.code).to.equal('ENOENT');
      expect(threads(), 'no worker thread left').to.equal(before);
    });

    it('correctFile() from files equals correct(); readConso() reads a stream line by line with the same result as parseConso()', async () => {
      const parts = form26qParts();
      const conso = writeConso(regularTxt(parts, OPTIONS_26Q), { token: TOKEN });
      parts.payments[3]!.payment_amount = 115000;
      parts.payer.email = 'accounts@acme.example';
      const workbookPath = join(dir, 'corrected.json');
      const consoPath = join(dir, 'MUMA12345E_202526_26Q_Q3.tds');
      writeFileSync(workbookPath, JSON.stringify(buildWorkbook(parts)));
      writeFileSync(consoPath, conso, 'latin1');
      const inMemory = correct(buildWorkbook(parts), conso, OPTIONS_26Q);
      const streamed = await correctFile(workbookPath, consoPath, OPTIONS_26Q);
      expect(streamed.txt).to.be.a('string').and.to.equal(inMemory.txt);
      expect(streamed.batches).to.deep.equal(inMemory.batches);
      const expectation = { tan: 'MUMA12345E', form: '26Q' as const, yearCode: '202526', quarter: 'Q3' };
      const chunks = [...Buffer.from(conso, 'latin1')].reduce<Buffer[]>((acc, b, i) => (i % 7 === 0 ? [...acc, Buffer.from([b])] : [...acc.slice(0, -1), Buffer.concat([acc[acc.length - 1]!, Buffer.from([b])])]), []);
      const xlsxPath = join(dir, 'corrected.xlsx');
      await sheetJsonToXlsx(buildWorkbook(parts)).xlsx.writeFile(xlsxPath);
      expect((await correctFile(xlsxPath, consoPath, OPTIONS_26Q)).txt, 'the .xlsx form of the corrected workbook').to.equal(inMemory.txt);
      // A refused change in an .xlsx workbook is named by its Excel cell, and the streaming form places it as correct() does.
      const locked = writeConso(regularTxt(form26qParts(), OPTIONS_26Q), { token: TOKEN, locked: [[2, 2]] });
      const lockedPath = join(dir, 'locked.tds');
      writeFileSync(lockedPath, locked, 'latin1');
      const [fromXlsx] = (await correctFile(xlsxPath, lockedPath, OPTIONS_26Q)).report.problems;
      // Sheet JSON row 5 (the header is row 1) is Excel row 6 (title row 1, header row 2): `row` is the Excel row.
      expect(fromXlsx).to.include({ code: 'CORRECTION_ROW_LOCKED', sheet: 'payment_sheet', row: 6, cell: 'payment_sheet!A6' });
      expect((await correctFile(workbookPath, lockedPath, OPTIONS_26Q)).report.problems).to.deep.equal(correct(buildWorkbook(parts), locked, OPTIONS_26Q).report.problems);
      // correctFileTo() writes the same TXT to a file as its lines are made; a correction with errors writes none.
      const txtPath = join(dir, 'correction.txt');
      const toFile = await correctFileTo(workbookPath, consoPath, txtPath, OPTIONS_26Q);
      expect(toFile).to.include({ txtPath });
      expect(toFile.batches).to.deep.equal(inMemory.batches);
      expect(readFileSync(txtPath, 'latin1')).to.equal(inMemory.txt);
      expect(toFile.written).to.deep.equal({ lines: inMemory.txt!.split('\r\n').length - 1, bytes: inMemory.txt!.length });
      const refusedPath = join(dir, 'refused.txt');
      const refused = await correctFileTo(workbookPath, lockedPath, refusedPath, OPTIONS_26Q);
      expect(refused).to.include({ txtPath: null, written: null });
      expect(refused.report.valid).to.equal(false);
      expect(existsSync(refusedPath)).to.equal(false);
      const withBom = await readConso(Readable.from([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(conso, 'latin1')]), expectation);
      expect(withBom, 'a UTF-8 byte-order mark is skipped').to.deep.equal(parseConso(conso, expectation));
      const fromStream = await readConso(Readable.from(chunks), expectation);
      expect(fromStream).to.deep.equal(parseConso(conso, expectation));
      const cut = conso.split('\r\n').slice(0, 8).join('\r\n');
      const error = await readConso(Readable.from([cut]), expectation).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ConsoFileError);
      expect((error as ConsoFileError).code).to.equal('CONSO_TRUNCATED');
    });
  });
});
