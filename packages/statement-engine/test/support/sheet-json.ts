// Builds Sheet JSON workbooks for tests: lists in either encoding, tables from header + row objects.

export type Encoding = 'object' | 'pair';

export type Row = Record<string, unknown>;

export interface WorkbookParts {
  name: string;
  payer: Row;
  responsible: Row;
  payeeHeader: string[];
  payees: Row[];
  challanHeader: string[];
  challans: Row[];
  paymentHeader: string[];
  payments: Row[];
  salaryHeader?: string[];
  salaries?: Row[];
}

export function list(name: string, values: Row, encoding: Encoding = 'object') {
  const items = Object.entries(values).map(([k, v]) => (encoding === 'pair' ? [k, v] : { [k]: v }));
  return { name, '@entity': 'list', items };
}

export function table(name: string, header: string[], rows: Row[]) {
  return { name, '@entity': 'table', header, rows: rows.map((r) => header.map((h) => (h in r ? r[h] : null))) };
}

export function sheet(name: string, blocks: unknown[]) {
  return { name, '@entity': 'sheet', blocks };
}

export function buildWorkbook(p: WorkbookParts, encoding: Encoding = 'object') {
  const sheets = [
    sheet('payer_sheet', [list('payer_list', p.payer, encoding), list('responsible_person_list', p.responsible, encoding)]),
    sheet('payee_sheet', [table('payee_table', p.payeeHeader, p.payees)]),
    sheet('challan_sheet', [table('challan_table', p.challanHeader, p.challans)]),
    sheet('payment_sheet', [table('payment_table', p.paymentHeader, p.payments)]),
  ];
  if (p.salaryHeader && p.salaries) sheets.push(sheet('salary_detail_sheet', [table('salary_detail_table', p.salaryHeader, p.salaries)]));
  return { name: p.name, '@entity': 'workbook', sheets };
}

/** Epoch milliseconds of midnight IST on a date, the way the vendor's samples write dates. */
export function ist(date: string): number {
  return Date.parse(`${date}T00:00:00+05:30`);
}

/** A structured clone with a change applied, for "one field wrong" tests. */
export function variant<T>(base: T, change: (copy: T) => void): T {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}
