// The lines of Form No. 16 Part B (Annexure), Income-tax Rules 1962 rule 31(1)(a), for one employee, with every
// amount taken from the SD record (and its S16 / C6A children) the 24Q Q4 TXT is written from. Item numbers and
// wording follow the annexure as TRACES lays it out from FY 2024-25 (README "The form": the 2019 annexure with the
// 10(14) line in item 2 and the two Agnipath (s.80CCH) lines in item 10); the SD field each amount is written to
// is named beside it, so a reader can check the PDF against the TXT line by line.

import { formatPaise, type AnnexureEmployee, type Chapter6AEntry } from '@satyapan/statement-engine';

/** One line of the annexure. `amount` for a single-column line; `gross`/`qualifying`/`deductible` for Chapter VI-A. */
export interface PartBRow {
  /** '1(a)', '10(m)', '19'; '' for a heading. */
  item: string;
  label: string;
  amount?: string;
  gross?: string;
  qualifying?: string;
  deductible?: string;
  /** Printed instead of an amount: the new regime (s.115BAC) allows no such claim. */
  notAllowed?: boolean;
  /** Printed instead of an amount, for a line whose amount the statement holds on another line. */
  note?: string;
}

/** Chapter VI-A sections the new regime still allows (s.115BAC(2)); the engine refuses any other claim. */
const NEW_REGIME_6A = new Set(['80CCD(2)', '80CCH']);

/** Sections that have their own line in item 10 before its 80C group total (10(d)). */
const OWN_LINE: ReadonlyArray<readonly [string, string, string, boolean]> = [
  ['10(a)', '80C', 'Deduction in respect of life insurance premia, contributions to provident fund etc. under section 80C', false],
  ['10(b)', '80CCC', 'Deduction in respect of contribution to certain pension funds under section 80CCC', false],
  ['10(c)', '80CCD(1)', "Deduction in respect of contribution by taxpayer to pension scheme under section 80CCD(1)", false],
];
const BEFORE_AGNIPATH: ReadonlyArray<readonly [string, string, string, boolean]> = [
  ['10(e)', '80CCD(1B)', 'Deduction in respect of amount paid/deposited to notified pension scheme under section 80CCD(1B)', false],
  ['10(f)', '80CCD(2)', "Deduction in respect of contribution by Employer to pension scheme under section 80CCD(2)", false],
  ['10(g)', '80D', 'Deduction in respect of health insurance premia under section 80D', false],
  ['10(h)', '80E', 'Deduction in respect of interest on loan taken for higher education under section 80E', false],
];
const AFTER_AGNIPATH: ReadonlyArray<readonly [string, string, string, boolean]> = [
  ['10(k)', '80G', 'Deduction in respect of donations to certain funds, charitable institutions, etc. under section 80G', true],
  ['10(l)', '80TTA', 'Deduction in respect of interest on deposits in savings account under section 80TTA', true],
];
/** The Agnipath lines: the employee's own contribution (s.80CCH(1)) and the Central Government's (s.80CCH(2)). */
const AGNIPATH_LABELS = {
  employee: 'Deduction in respect of contribution by taxpayer to Agnipath Scheme under section 80CCH(1)',
  government: 'Deduction in respect of contribution by Central Government to Agnipath Scheme under section 80CCH(2)',
} as const;
const NAMED = new Set([...OWN_LINE, ...BEFORE_AGNIPATH, ...AFTER_AGNIPATH].map(([, section]) => section).concat('80CCH', '80CCH(1)'));

const money = formatPaise;

/** The C6A entry of a section, or zeros when the employee has none (the annexure prints every line). */
function entryOf(entries: readonly Chapter6AEntry[], section: string): Chapter6AEntry {
  return entries.find((e) => e.section === section) ?? { section, deductible: 0, gross: 0, qualifying: null };
}

function amountRow(item: string, label: string, paise: number, notAllowed = false): PartBRow {
  return notAllowed && paise === 0 ? { item, label, notAllowed } : { item, label, amount: money(paise) };
}

function chapter6ARow(item: string, label: string, e: Chapter6AEntry, withQualifying: boolean, newRegime: boolean): PartBRow {
  if (newRegime && !NEW_REGIME_6A.has(e.section) && e.deductible === 0 && e.gross === 0) return { item, label, notAllowed: true };
  return { item, label, gross: money(e.gross), ...(withQualifying ? { qualifying: money(e.qualifying ?? 0) } : {}), deductible: money(e.deductible) };
}

/**
 * 10(i) and 10(j). The workbook and the C6A record carry one 80CCH amount, not the two contributions. Under the new
 * regime only the Central Government's is deductible (s.115BAC(2)), so the amount is 10(j)'s; under the old regime
 * it is both together, printed on 10(i) with 10(j) saying so rather than splitting it by a guess.
 */
function agnipathRows(entries: readonly Chapter6AEntry[], newRegime: boolean): PartBRow[] {
  const own = entries.find((e) => e.section === '80CCH(1)');
  const combined = entryOf(entries, '80CCH');
  if (newRegime) {
    return [
      chapter6ARow('10(i)', AGNIPATH_LABELS.employee, own ?? { ...combined, section: '80CCH(1)', gross: 0, deductible: 0 }, false, true),
      chapter6ARow('10(j)', AGNIPATH_LABELS.government, combined, false, true),
    ];
  }
  if (own) return [chapter6ARow('10(i)', AGNIPATH_LABELS.employee, own, false, false), chapter6ARow('10(j)', AGNIPATH_LABELS.government, combined, false, false)];
  const inOne = combined.gross !== 0 || combined.deductible !== 0;
  return [
    chapter6ARow('10(i)', AGNIPATH_LABELS.employee, combined, false, false),
    inOne
      ? { item: '10(j)', label: AGNIPATH_LABELS.government, note: 'Included in 10(i)' }
      : chapter6ARow('10(j)', AGNIPATH_LABELS.government, combined, false, false),
  ];
}

/** Item 10's lines: one per named section, the 80C group's total, the Agnipath lines, then every other C6A entry under 10(m). */
function chapter6ARows(entries: readonly Chapter6AEntry[], newRegime: boolean, aggregate80C: number): PartBRow[] {
  const named = (lines: typeof OWN_LINE) => lines.map(([item, section, label, q]) => chapter6ARow(item, label, entryOf(entries, section), q, newRegime));
  const rows = named(OWN_LINE);
  const group = OWN_LINE.map(([, section]) => entryOf(entries, section));
  rows.push({ item: '10(d)', label: 'Total deduction under section 80C, 80CCC and 80CCD(1)', gross: money(group.reduce((a, e) => a + e.gross, 0)), deductible: money(aggregate80C) });
  rows.push(...named(BEFORE_AGNIPATH), ...agnipathRows(entries, newRegime), ...named(AFTER_AGNIPATH));
  const others = entries.filter((e) => !NAMED.has(e.section));
  rows.push({ item: '10(m)', label: 'Amount deductible under any other provision(s) of Chapter VI-A' + (others.length === 0 ? ': none' : '') });
  for (const e of others) {
    const label = e.section === 'OTHERS' ? 'other sections: 80CCG, 80DD, 80EE, 80EEA, 80GG, 80GGC, 80TTB, 80U, others' : `section ${e.section}`;
    rows.push({ item: '', label, gross: money(e.gross), qualifying: money(e.qualifying ?? 0), deductible: money(e.deductible) });
  }
  const otherTotal = others.reduce((a, e) => ({ gross: a.gross + e.gross, qualifying: a.qualifying + (e.qualifying ?? 0), deductible: a.deductible + e.deductible }), { gross: 0, qualifying: 0, deductible: 0 });
  rows.push({ item: '10(n)', label: 'Total of amount deductible under any other provision(s) of Chapter VI-A', gross: money(otherTotal.gross), qualifying: money(otherTotal.qualifying), deductible: money(otherTotal.deductible) });
  return rows;
}

/** Items 1 to 9: salary, exemptions under section 10, deductions under section 16, other income. */
function incomeRows({ detail: s, figures: x }: AnnexureEmployee): PartBRow[] {
  const newRegime = s.newRegime;
  const s16 = (section: string) => s.section16.find((e) => e.section === section)?.amount ?? 0;
  return [
    { item: '1', label: 'Gross Salary' },
    amountRow('1(a)', 'Salary as per provisions contained in section 17(1)', s.s17_1), // SD 67
    amountRow('1(b)', 'Value of perquisites under section 17(2) (as per Form No. 12BA, wherever applicable)', s.s17_2), // SD 68
    amountRow('1(c)', 'Profits in lieu of salary under section 17(3) (as per Form No. 12BA, wherever applicable)', s.s17_3), // SD 69
    amountRow('1(d)', 'Total', x.currentSalary), // SD 34
    amountRow('1(e)', 'Reported total amount of salary received from other employer(s)', s.previousSalary), // SD 35
    { item: '2', label: 'Less: Allowances to the extent exempt under section 10' },
    amountRow('2(a)', 'Travel concession or assistance under section 10(5)', newRegime ? 0 : s.travel, newRegime), // SD 70
    amountRow('2(b)', 'Death-cum-retirement gratuity under section 10(10)', s.gratuity), // SD 71
    amountRow('2(c)', 'Commuted value of pension under section 10(10A)', s.pension), // SD 72
    amountRow('2(d)', 'Cash equivalent of leave salary encashment under section 10(10AA)', s.leave), // SD 73
    amountRow('2(e)', 'House rent allowance under section 10(13A)', newRegime ? 0 : s.hra, newRegime), // SD 74
    amountRow('2(f)', 'Other special allowances under section 10(14)', s.specialAllowances), // SD 80
    amountRow('2(g)', 'Amount of any other exemption under section 10', s.otherExemption), // SD 75
    amountRow('2(h)', 'Total amount of any other exemption under section 10', s.otherExemption), // SD 75
    amountRow('2(i)', 'Total amount of exemption claimed under section 10 [2(a)+2(b)+2(c)+2(d)+2(e)+2(f)+2(h)]', x.exemptions), // SD 76
    amountRow('3', 'Total amount of salary received from current employer [1(d)-2(i)]', x.currentSalary - x.exemptions),
    { item: '4', label: 'Less: Deductions under section 16' },
    amountRow('4(a)', 'Standard deduction under section 16(ia)', s16('16(ia)')), // S16
    amountRow('4(b)', 'Entertainment allowance under section 16(ii)', s16('16(ii)'), newRegime), // S16
    amountRow('4(c)', 'Tax on employment under section 16(iii)', s16('16(iii)'), newRegime), // S16
    amountRow('5', 'Total amount of deductions under section 16 [4(a)+4(b)+4(c)]', x.section16), // SD 16
    amountRow('6', 'Income chargeable under the head "Salaries" [3+1(e)-5]', x.chargeable), // SD 17
    { item: '7', label: 'Add: Any other income reported by the employee under section 192(2B)' },
    amountRow('7(a)', 'Income (or admissible loss) from house property reported by employee offered for TDS', s.houseProperty),
    amountRow('7(b)', 'Income under the head Other Sources offered for TDS', s.otherSources), // SD 77
    amountRow('8', 'Total amount of other income reported by the employee [7(a)+7(b)]', x.otherHeads), // SD 18
    amountRow('9', 'Gross total income (6+8)', x.grossTotalIncome), // SD 19
  ];
}

/** Items 11 to 19: total income and the tax on it. */
function taxRows({ detail: s, figures: x }: AnnexureEmployee): PartBRow[] {
  return [
    amountRow('11', 'Aggregate of deductible amount under Chapter VI-A [10(d)+10(e)+10(f)+10(g)+10(h)+10(i)+10(j)+10(k)+10(l)+10(n)]', x.chapter6A), // SD 22
    amountRow('12', 'Total taxable income (9-11)', x.taxableIncome), // SD 23
    amountRow('13', 'Tax on total income', s.incomeTax), // SD 24
    amountRow('14', 'Rebate under section 87A, if applicable', s.rebate87A), // SD 78
    amountRow('15', 'Surcharge, wherever applicable', s.surcharge), // SD 25
    amountRow('16', 'Health and education cess', s.cess), // SD 26
    amountRow('17', 'Tax payable (13+15+16-14)', x.netTax + s.relief89),
    amountRow('18', 'Less: Relief under section 89 (attach details)', s.relief89), // SD 27
    amountRow('19', 'Net tax payable (17-18)', x.netTax), // SD 28
  ];
}

/** Every line of the employee's Part B, in the annexure's order. */
export function partBRows(employee: AnnexureEmployee): PartBRow[] {
  return [
    ...incomeRows(employee),
    { item: '10', label: 'Deductions under Chapter VI-A' },
    ...chapter6ARows(employee.detail.chapter6A, employee.detail.newRegime, employee.figures.aggregate80C),
    ...taxRows(employee),
  ];
}
