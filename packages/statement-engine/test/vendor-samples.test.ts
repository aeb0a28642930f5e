// The vendor's own published sample workbooks, one per form (test/fixtures/vendor-samples, sources in its
// README), converted as the command line does: the file streamed, the TAN read from its payer list, the quarter
// its payment dates fall in. Each gives a TXT, or is refused only for the data errors listed, each at its place.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertFile, peekWorkbook, type FormName, type Problem, type Quarter } from '../src/index.js';

const DIR = fileURLToPath(new URL('./fixtures/vendor-samples/', import.meta.url));
const NOW = new Date('2026-11-20T10:00:00+05:30');

interface Sample {
  file: string;
  form: FormName;
  quarter: Quarter;
  year: string;
  /** The errors it is refused for (code@sheet/row/column); none: a TXT is written. */
  refusedFor?: string[];
}

const SAMPLES: Sample[] = [
  // Payments dated 10 Jan, 10 Feb and 10 Mar 2024: Q4, which carries the salary details this workbook lacks.
  { file: 'form24q_workbook.data.json', form: '24Q', quarter: 'Q4', year: 'FY 2023-24', refusedFor: ['SHEET_MISSING@salary_detail_sheet/null/null'] },
  { file: 'form24q_workbook_q4.data.json', form: '24Q', quarter: 'Q4', year: 'FY 2023-24', refusedFor: [
    // Its three senior-citizen salary rows claim rebate and relief u/s 89 that together exceed the tax: a real
    // data error, reported at each row's relief cell.
    'SALARY_NET_TAX_NEGATIVE@salary_detail_sheet/2/relief_us_89',
    'SALARY_NET_TAX_NEGATIVE@salary_detail_sheet/3/relief_us_89',
    'SALARY_NET_TAX_NEGATIVE@salary_detail_sheet/4/relief_us_89',
  ] },
  { file: 'form26q_workbook.data.json', form: '26Q', quarter: 'Q3', year: 'FY 2023-24' },
  { file: 'form27q_workbook.data.json', form: '27Q', quarter: 'Q3', year: 'FY 2023-24' },
  { file: 'form27eq_workbook.data.json', form: '27EQ', quarter: 'Q3', year: 'FY 2023-24' },
  // CERT138A001 / CERT144A001 have 11 characters; the new-family certificate number has 15.
  { file: 'form138_workbook.data.json', form: '138', quarter: 'Q1', year: 'TY 2026-27', refusedFor: ['INVALID_CERTIFICATE@payment_sheet/2/certificate_number'] },
  { file: 'form140_workbook.data.json', form: '140', quarter: 'Q1', year: 'TY 2026-27' },
  // Its first row pays interest on an IFSC bond (1042) with nature of remittance "fees for technical services" (21),
  // which FVU 1.2 takes with section 1057 only (T_FV_6423).
  { file: 'form144_workbook.data.json', form: '144', quarter: 'Q1', year: 'TY 2026-27', refusedFor: ['INVALID_CERTIFICATE@payment_sheet/2/certificate_number', 'NATURE_OF_REMITTANCE_NOT_FOR_SECTION@payment_sheet/2/nature_of_remittance'] },
];

const where = (p: Problem) => `${p.code}@${p.sheet}/${p.row}/${p.column}`;

/** Every payment date of a sample, as ISO days in IST (to check the quarter chosen above). */
function paymentDays(file: string): string[] {
  const workbook = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { sheets: Array<{ name: string; blocks: Array<{ header: string[]; rows: unknown[][] }> }> };
  const table = workbook.sheets.find((s) => s.name === 'payment_sheet')!.blocks[0]!;
  const column = table.header.indexOf('payment_date_epoch');
  return table.rows.map((r) => new Date((r[column] as number) + 19800000).toISOString().slice(0, 10));
}

const QUARTER_MONTHS: Record<Quarter, string[]> = { Q1: ['04', '05', '06'], Q2: ['07', '08', '09'], Q3: ['10', '11', '12'], Q4: ['01', '02', '03'] };

describe("the vendor's sample workbooks, converted as the command line does", function () {
  this.timeout(20000);

  it('covers every form the vendor publishes a sample for', () => {
    expect(SAMPLES.map((s) => s.form)).to.deep.equal(['24Q', '24Q', '26Q', '27Q', '27EQ', '138', '140', '144']);
  });

  for (const sample of SAMPLES) {
    const title = `${sample.file} (${sample.form} ${sample.quarter} ${sample.year}): ${sample.refusedFor ? `refused only for ${sample.refusedFor.join(', ')}` : 'a TXT'}`;
    const test = async () => {
      const path = join(DIR, sample.file);
      for (const day of paymentDays(sample.file)) expect(QUARTER_MONTHS[sample.quarter], day).to.include(day.slice(5, 7));
      const { tan } = await peekWorkbook(path);
      const conversion = await convertFile(path, { form: sample.form, quarter: sample.quarter, financialYear: sample.year, tan: tan!, now: () => NOW });
      const errors = conversion.report.problems.filter((p) => p.severity === 'error').map(where);
      let txt = '';
      if (conversion.lines) for await (const line of conversion.lines) txt += line;
      else await conversion.dispose();
      if (sample.refusedFor) {
        expect(errors).to.deep.equal(sample.refusedFor);
        expect(conversion.lines).to.equal(null);
      } else {
        expect(errors, 'errors').to.deep.equal([]);
        expect(txt).to.match(/^1\^FH\^/);
        expect(txt.split('\r\n').filter((l) => /^\d+\^DD\^/.test(l))).to.have.length.greaterThan(0);
      }
    };
    it(title, test);
  }

  it('the 27EQ sample: its three all-zero challans (23456, 45678, 67890) are nil challans, CD 6 = Y, 12/16/40 empty, 18 = 31122023, with a NIL_CHALLAN_ASSUMED warning each; never paid challans', async () => {
    const path = join(DIR, 'form27eq_workbook.data.json');
    const conversion = await convertFile(path, { form: '27EQ', quarter: 'Q3', financialYear: 'FY 2023-24', tan: 'AHMA44270C', now: () => NOW });
    let txt = '';
    for await (const line of conversion.lines!) txt += line;
    expect(conversion.report.problems.filter((p) => p.code === 'NIL_CHALLAN_ASSUMED').map(where)).to.deep.equal([
      'NIL_CHALLAN_ASSUMED@challan_sheet/7/paid_date_epoch',
      'NIL_CHALLAN_ASSUMED@challan_sheet/8/paid_date_epoch',
      'NIL_CHALLAN_ASSUMED@challan_sheet/9/paid_date_epoch',
    ]);
    const challans = txt.split('\r\n').filter((l) => /^\d+\^CD\^/.test(l)).map((l) => ['', ...l.split('^')]);
    const fields = (cd: string[]) => ({ 4: cd[4], 6: cd[6], 12: cd[12], 16: cd[16], 18: cd[18], 27: cd[27], 40: cd[40] });
    expect(challans.slice(5).map(fields)).to.deep.equal([6, 7, 8].map((n) => ({ 4: String(n), 6: 'Y', 12: '', 16: '', 18: '31122023', 27: '0.00', 40: '' })));
    expect(challans.slice(0, 5).map((cd) => cd[6])).to.deep.equal(['N', 'N', 'N', 'N', 'N']);
  });

  it('the 27Q sample is read with its digit-text ISD codes and mobiles (a warning at each cell)', async () => {
    const path = join(DIR, 'form27q_workbook.data.json');
    const conversion = await convertFile(path, { form: '27Q', quarter: 'Q3', financialYear: 'FY 2023-24', tan: 'AHMA00000A', now: () => NOW });
    await conversion.dispose();
    const coerced = conversion.report.problems.filter((p) => p.code === 'NUMBER_FROM_TEXT').map(where);
    expect(coerced).to.have.length(20);
    expect(coerced).to.include.members(['NUMBER_FROM_TEXT@payee_sheet/3/isd_code', 'NUMBER_FROM_TEXT@payee_sheet/3/mobile']);
  });
});
