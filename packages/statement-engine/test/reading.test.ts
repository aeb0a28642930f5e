// Reading what deductors send: header aliases on every table where the column occurs, cells coerced to their
// column's type (a warning at each cell), nothing ambiguous guessed, and one bad cell that does not cascade
// into findings about the rows that depend on it.

import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convert, convertFile, type ConvertOptions, type Problem } from '../src/index.js';
import { baseline, BASELINE_NAMES, type BaselineName } from './support/baselines.js';
import { buildWorkbook, type Row, type WorkbookParts } from './support/sheet-json.js';

const where = (p: Problem) => `${p.code}@${p.sheet}/${p.row}/${p.column}`;

function run(name: BaselineName, change: (p: WorkbookParts, o: ConvertOptions) => void) {
  const { parts, options } = baseline(name);
  change(parts, options);
  return convert(buildWorkbook(parts), options);
}

function clean(name: BaselineName) {
  const { parts, options } = baseline(name);
  return convert(buildWorkbook(parts), options);
}

/** The problems a change adds to the clean baseline's. */
function added(name: BaselineName, change: (p: WorkbookParts, o: ConvertOptions) => void): string[] {
  const before = new Set(clean(name).report.problems.map(where));
  return run(name, change).report.problems.map(where).filter((w) => !before.has(w));
}

const CESS = 'health_and_education_cess';
const TABLES = ['payeeHeader', 'challanHeader', 'paymentHeader', 'salaryHeader'] as const;

describe('reading: header aliases', () => {
  const withCess = BASELINE_NAMES.flatMap((name) =>
    TABLES.filter((t) => baseline(name).parts[t]?.includes(CESS)).map((t) => [name, t] as const),
  );

  it('the cess column occurs in the challan, payment and salary tables of the legacy forms', () => {
    expect(withCess.map(([n, t]) => `${n} ${t}`)).to.include.members(['24Q paymentHeader', '24Q challanHeader', '26Q challanHeader', '27Q challanHeader', '27Q paymentHeader', '27EQ paymentHeader', '24Q-Q4 salaryHeader']);
  });

  for (const [name, header] of withCess) {
    it(`${name} ${header}: the vendor's spelling heath_and_education_cess reads as health_and_education_cess`, () => {
      const expected = clean(name);
      const renamed = run(name, (p) => {
        const columns = p[header]!;
        columns[columns.indexOf(CESS)] = 'heath_and_education_cess';
        const rows = header === 'salaryHeader' ? p.salaries! : p[header.replace('Header', 's') as 'payees' | 'challans' | 'payments'];
        for (const r of rows) r.heath_and_education_cess = r[CESS];
      });
      expect(renamed.txt).to.equal(expected.txt);
      expect(renamed.report.problems).to.deep.equal(expected.report.problems);
    });
  }
});

describe('reading: cells of another type', () => {
  it('digit text in number columns (27Q isd_code "377", mobile "9999999999") gives the same TXT, a warning per cell', () => {
    const expected = clean('27Q');
    const r = run('27Q', (p) => {
      for (const payee of p.payees) {
        payee.isd_code = String(payee.isd_code);
        payee.mobile = String(payee.mobile);
      }
    });
    expect(r.txt).to.equal(expected.txt);
    const coerced = r.report.problems.filter((p) => p.code === 'NUMBER_FROM_TEXT');
    expect(coerced.map(where)).to.deep.equal(['NUMBER_FROM_TEXT@payee_sheet/2/isd_code', 'NUMBER_FROM_TEXT@payee_sheet/2/mobile', 'NUMBER_FROM_TEXT@payee_sheet/3/isd_code', 'NUMBER_FROM_TEXT@payee_sheet/3/mobile']);
    expect(coerced[0]!.severity).to.equal('warning');
    expect(coerced[0]!.message).to.equal(`'isd_code' holds the text "1"; read as the number 1`);
  });

  it('numbers in code columns get their leading zeros back where the width is fixed (serial 5, BSR 7, PIN 6)', () => {
    const expected = clean('26Q');
    const r = run('26Q', (p) => {
      for (const c of p.challans) {
        c.challan_serial = Number(c.challan_serial);
        c.bsr_code = Number(c.bsr_code);
      }
      for (const pay of p.payments) {
        pay.challan_serial = Number(pay.challan_serial);
        pay.bsr_code = Number(pay.bsr_code);
      }
      p.payer.postal_code = Number(p.payer.postal_code);
      p.payer.mobile = Number(p.payer.mobile);
    });
    expect(r.txt).to.equal(expected.txt);
    const problems = r.report.problems.filter((p) => p.code === 'TEXT_FROM_NUMBER');
    expect(problems.every((p) => p.severity === 'warning')).to.equal(true);
    expect(problems.find((p) => p.sheet === 'challan_sheet' && p.row === 2 && p.column === 'bsr_code')!.message).to.equal(`'bsr_code' holds the number 510308; read as the text "0510308" (7 digits, leading zeros restored)`);
    expect(problems.find((p) => p.sheet === 'payment_sheet' && p.row === 2 && p.column === 'challan_serial')!.message).to.include('"00101" (5 digits');
    expect(problems.map(where)).to.include.members(['TEXT_FROM_NUMBER@payer_sheet/10/payer_list.postal_code', 'TEXT_FROM_NUMBER@payer_sheet/12/payer_list.mobile']);
  });

  it('Y/N, yes/no and true/false text (any case) in true/false columns', () => {
    const expected = clean('27EQ');
    const r = run('27EQ', (p) => {
      const text: Record<string, string[]> = { true: ['Y', 'yes', 'TRUE'], false: ['n', 'No', 'false'] };
      p.payees.forEach((payee, i) => {
        for (const key of ['nri', 'permanent_establishment_in_india']) {
          if (typeof payee[key] === 'boolean') payee[key] = text[String(payee[key])]![i % 3]!;
        }
      });
    });
    expect(r.txt).to.equal(expected.txt);
    const problems = r.report.problems.filter((p) => p.code === 'BOOLEAN_FROM_TEXT');
    expect(problems).to.have.length.greaterThan(1);
    expect(problems[0]!.message).to.match(/^'nri' holds the text "(Y|n)"; read as (true|false)$/);
  });

  it('text that is not plainly a boolean or a number stays a type error', () => {
    const problems = run('27EQ', (p) => {
      p.payees[0]!.nri = 'maybe';
      p.payments[0]!.tcs_amount = '12 lakh';
    }).report.problems;
    expect(problems.filter((p) => p.code === 'CELL_TYPE').map(where)).to.deep.equal(['CELL_TYPE@payee_sheet/2/nri', 'CELL_TYPE@payment_sheet/2/tcs_amount']);
  });

  it('an amount with digit grouping ("1,00,000") is an error that says so, not a guess; one problem for the cell', () => {
    const r = run('26Q', (p) => (p.payments[0]!.payment_amount = '4,00,000'));
    expect(r.txt).to.equal(null);
    const problems = r.report.problems.filter((p) => p.sheet === 'payment_sheet' && p.row === 2);
    expect(problems.map(where)).to.deep.equal(['NUMBER_GROUPED@payment_sheet/2/payment_amount']);
    expect(problems[0]!.message).to.equal(`'payment_amount' holds "4,00,000" with digit-group commas; grouping is not guessed (Indian and international grouping differ), write the plain number`);
  });

  it('surrounding spaces are trimmed and lower-case codes upper-cased, each a warning at its cell', () => {
    const expected = clean('138');
    const r = run('138', (p) => {
      p.payees[0]!.name = `  ${String(p.payees[0]!.name)} `;
      p.challans[0]!.mode_of_payment = 'c';
      p.challans[0]!.nil_challan_indicator = ' n';
      p.payer.state = `${String(p.payer.state).toLowerCase()} `;
    });
    expect(r.txt).to.equal(expected.txt);
    const codes = r.report.problems.filter((p) => p.code === 'SPACES_TRIMMED' || p.code === 'CODE_UPPERCASED').map(where);
    expect(codes).to.include.members([
      'SPACES_TRIMMED@payee_sheet/2/name',
      'CODE_UPPERCASED@challan_sheet/2/mode_of_payment',
      'SPACES_TRIMMED@challan_sheet/2/nil_challan_indicator',
      'CODE_UPPERCASED@challan_sheet/2/nil_challan_indicator',
      'SPACES_TRIMMED@payer_sheet/10/payer_list.state',
      'CODE_UPPERCASED@payer_sheet/10/payer_list.state',
    ]);
  });

  it("the caller's workbook is not changed by the coercions", () => {
    const { parts, options } = baseline('27Q');
    parts.payees[0]!.mobile = String(parts.payees[0]!.mobile);
    parts.payees[0]!.name = ` ${String(parts.payees[0]!.name)}`;
    const workbook = buildWorkbook(parts);
    const copy = structuredClone(workbook);
    convert(workbook, options);
    expect(workbook).to.deep.equal(copy);
  });

  it('the streaming path reads the same way (same TXT, same problems)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-reading-test-'));
    try {
      const { parts, options } = baseline('27Q');
      parts.payees[1]!.isd_code = '46';
      parts.challans[0]!.challan_serial = Number(parts.challans[0]!.challan_serial);
      parts.payments[0]!.challan_serial = ` ${String(parts.payments[0]!.challan_serial)}`;
      const workbook = buildWorkbook(parts);
      const path = join(dir, 'coerced.json');
      writeFileSync(path, JSON.stringify(workbook));
      const expected = convert(workbook, options);
      const conversion = await convertFile(path, options);
      let txt = '';
      for await (const line of conversion.lines!) txt += line;
      expect(txt).to.equal(expected.txt);
      expect(conversion.report).to.deep.equal(expected.report);
      expect(expected.report.problems.map((p) => p.code)).to.include.members(['NUMBER_FROM_TEXT', 'TEXT_FROM_NUMBER', 'SPACES_TRIMMED']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading: one bad cell does not cascade', () => {
  const payeeOf27Q = (p: WorkbookParts, i: number): Row => p.payees[i]!;

  it('a payee with an unreadable mobile: one error at that cell and nothing else', () => {
    const problems = added('27Q', (p) => (payeeOf27Q(p, 0).mobile = '+1 (512) 555-0100'));
    expect(problems).to.deep.equal(['CELL_TYPE@payee_sheet/2/mobile']);
  });

  it("the payee's payments are still checked (a deduction dated before the quarter is still found)", () => {
    const problems = added('27Q', (p) => {
      payeeOf27Q(p, 0).mobile = 'n/a';
      const payment = p.payments.find((r) => r.payee_sr_no === 1)!;
      payment.deduction_date_epoch = Date.parse('2024-01-15T00:00:00+05:30');
    });
    expect(problems).to.include('CELL_TYPE@payee_sheet/2/mobile');
    expect(problems.filter((w) => w.startsWith('DEDUCTION_DATE_BEFORE_QUARTER'))).to.have.length(1);
    expect(problems.filter((w) => /CHALLAN_(WITHOUT_DEDUCTEES|EXCESS|SHORT)/.test(w))).to.deep.equal([]);
  });

  it('a payee whose PAN cell is unreadable: one error, no PAN-derived findings on its payments', () => {
    const problems = added('26Q', (p) => (p.payees[0]!.pan = true));
    expect(problems).to.deep.equal(['CELL_TYPE@payee_sheet/2/pan']);
  });

  it('a payment with an unreadable amount: one error, its challan not reported short, in excess or empty', () => {
    const problems = added('26Q', (p) => (p.payments[0]!.tds_amount = { rupees: 8000 }));
    expect(problems).to.deep.equal(['CELL_TYPE@payment_sheet/2/tds_amount']);
  });

  it('every payment of a challan unreadable: no "challan without deductees" or "exceeds the 0.00"', () => {
    const problems = added('26Q', (p) => {
      for (const pay of p.payments) if (pay.challan_serial === '00101') pay.payment_date_epoch = 'soon';
    });
    expect(problems).to.deep.equal(['CELL_TYPE@payment_sheet/2/payment_date_epoch', 'CELL_TYPE@payment_sheet/3/payment_date_epoch']);
  });

  it('a payee whose number is unreadable: its payments are not reported as naming an unknown payee', () => {
    const problems = added('26Q', (p) => (p.payees[0]!.sr_no = 'one'));
    expect(problems).to.deep.equal(['CELL_TYPE@payee_sheet/2/sr_no']);
  });

  it('a challan whose BSR code is unreadable: its payments are not reported as naming an unknown challan', () => {
    const problems = added('26Q', (p) => (p.challans[0]!.bsr_code = ['0510308']));
    expect(problems).to.deep.equal(['CELL_TYPE@challan_sheet/2/bsr_code']);
  });

  it('a challan with an unreadable amount: its payments are still checked', () => {
    const problems = added('26Q', (p) => {
      p.challans[1]!.interest = 'none';
      p.payments.find((r) => r.challan_serial === '00202')!.nature_of_payment = 'gardening';
    });
    expect(problems).to.deep.equal(['CELL_TYPE@challan_sheet/3/interest', 'INVALID_NATURE_OF_PAYMENT@payment_sheet/4/nature_of_payment']);
  });
});
