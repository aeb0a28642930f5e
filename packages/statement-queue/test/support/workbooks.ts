// Sheet JSON workbooks made up for these tests (names, PANs and amounts are invented), in the shape the engine
// reads: a 26Q for Q2 of FY 2025-26 and a 27EQ for Q3 of FY 2025-26, with as many deductee rows as asked.

import { createHash } from 'node:crypto';

const IST_DAY = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) - 5.5 * 3600 * 1000;
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A well-formed individual PAN that differs for every n. */
export function panFor(n: number, kind: 'P' | 'C' = 'P'): string {
  const a = LETTERS[n % 24] as string;
  const b = LETTERS[Math.floor(n / 24) % 24] as string;
  const digits = String(n % 10_000).padStart(4, '0');
  return `AB${a}${kind}${b}${digits}${LETTERS[(n * 7) % 24]}`;
}

function payer(tan: string): object {
  return {
    name: 'payer_sheet', '@entity': 'sheet', blocks: [
      {
        name: 'payer_list', '@entity': 'list', items: [
          { name: 'Godavari Test Traders Pvt Ltd' }, { tan }, { pan: 'AAGCG4321K' }, { branch: 'Head Office' },
          { gstin: null }, { street: '12 Station Road' }, { area: 'Shivajinagar' }, { city: 'Pune' }, { state: 'MAHARASHTRA' },
          { postal_code: '411005' }, { email: 'tds@godavari.example' }, { mobile: null },
        ],
      },
      {
        name: 'responsible_person_list', '@entity': 'list', items: [
          { designation: 'Accounts Head' }, { name: 'Asha Deshpande' }, { pan: 'ABDPD1234K' }, { street: '12 Station Road' },
          { area: 'Shivajinagar' }, { city: 'Pune' }, { state: 'MAHARASHTRA' }, { postal_code: '411005' },
          { email: 'asha@godavari.example' }, { mobile: '9822000001' },
        ],
      },
    ],
  };
}

export interface WorkbookOptions {
  rows?: number;
  tan?: string;
  /** Rows (0-based) whose PAN is made invalid, so the engine reports them. */
  badPanRows?: number[];
  /** Rows (0-based) whose PAN is written in lower case: the engine upper-cases it with a warning. */
  lowerCasePanRows?: number[];
}

/** Form 26Q, Q2 of FY 2025-26: one challan covering every payment. */
export function workbook26Q(options: WorkbookOptions = {}): object {
  const rows = options.rows ?? 3;
  const payees: unknown[][] = [];
  const payments: unknown[][] = [];
  let total = 0;
  for (let i = 0; i < rows; i += 1) {
    const pan = options.badPanRows?.includes(i) ? `BAD${i}PAN` : panFor(i + 1);
    payees.push([i + 1, options.lowerCasePanRows?.includes(i) ? pan.toLowerCase() : pan, `Payee Number ${i + 1}`]);
    const day = IST_DAY(2025, 7 + (i % 3), 1 + (i % 28));
    const tds = 100 + (i % 50);
    total += tds;
    payments.push([i + 1, '00123', '0510308', 'professional_services', tds * 10, day, tds, 0, 0, day, null, null]);
  }
  return {
    name: 'form26q_workbook', '@entity': 'workbook', sheets: [
      payer(options.tan ?? 'PNEG01234C'),
      { name: 'payee_sheet', '@entity': 'sheet', blocks: [{ name: 'payee_table', '@entity': 'table', header: ['sr_no', 'pan', 'name'], rows: payees }] },
      {
        name: 'challan_sheet', '@entity': 'sheet', blocks: [{
          name: 'challan_table', '@entity': 'table',
          header: ['challan_serial', 'bsr_code', 'paid_date_epoch', 'minor_head', 'tds_amount', 'surcharge', 'health_and_education_cess', 'interest', 'late_filing_fees', 'other_penalty'],
          rows: [['00123', '0510308', IST_DAY(2025, 10, 5), 'tds_payable', total, 0, 0, 0, 0, 0]],
        }],
      },
      {
        name: 'payment_sheet', '@entity': 'sheet', blocks: [{
          name: 'payment_table', '@entity': 'table',
          header: ['payee_sr_no', 'challan_serial', 'bsr_code', 'nature_of_payment', 'payment_amount', 'payment_date_epoch', 'tds_amount', 'surcharge', 'health_and_education_cess', 'deduction_date_epoch', 'reason_for_lower_deduction', 'certificate_number'],
          rows: payments,
        }],
      },
    ],
  };
}

/** Form 27EQ, Q3 of FY 2025-26. */
export function workbook27EQ(options: WorkbookOptions = {}): object {
  const rows = options.rows ?? 2;
  const payees: unknown[][] = [];
  const payments: unknown[][] = [];
  let total = 0;
  for (let i = 0; i < rows; i += 1) {
    payees.push([i + 1, panFor(i + 1, 'C'), `Buyer Number ${i + 1} Pvt Ltd`, false, false, false]);
    const day = IST_DAY(2025, 10 + (i % 3), 2 + (i % 27));
    const tcs = 1000 + (i % 10);
    total += tcs;
    payments.push([i + 1, '04001', '0510308', 'scrap', tcs * 100, tcs * 100, day, tcs, 0, 0, day, null, null]);
  }
  return {
    name: 'form27eq_workbook', '@entity': 'workbook', sheets: [
      payer(options.tan ?? 'PNEG01234C'),
      {
        name: 'payee_sheet', '@entity': 'sheet', blocks: [{
          name: 'payee_table', '@entity': 'table', header: ['sr_no', 'pan', 'name', 'nri', 'permanent_establishment_in_india', 'opting_new_regime'], rows: payees,
        }],
      },
      {
        name: 'challan_sheet', '@entity': 'sheet', blocks: [{
          name: 'challan_table', '@entity': 'table',
          header: ['challan_serial', 'bsr_code', 'paid_date_epoch', 'minor_head', 'tcs_amount', 'surcharge', 'health_and_education_cess', 'interest', 'late_filing_fees', 'other_penalty'],
          rows: [['04001', '0510308', IST_DAY(2026, 1, 5), 'tcs_payable', total, 0, 0, 0, 0, 0]],
        }],
      },
      {
        name: 'payment_sheet', '@entity': 'sheet', blocks: [{
          name: 'payment_table', '@entity': 'table',
          header: ['payee_sr_no', 'challan_serial', 'bsr_code', 'nature_of_payment', 'total_value_of_purchase', 'amount_received', 'payment_date_epoch', 'tcs_amount', 'surcharge', 'health_and_education_cess', 'collection_date_epoch', 'reason_for_lower_or_higher_collection', 'certificate_number'],
          rows: payments,
        }],
      },
    ],
  };
}

/**
 * A CSI (Challan Status Inquiry) file for a workbook made here, in the layout the official FVU reads (the engine's
 * FORMAT_NOTES.md §13): `challan count ^ TAN ^ TAN name ^ FVU versions ^ hash`, then one hash token per challan
 * (unsalted here: the bank's salt is the FVU's). `name` (default the workbook's deductor) makes the bank disagree.
 */
export function csiFor(workbook: object, tan = 'PNEG01234C', name?: string): string {
  type Block = { name: string; header?: string[]; rows?: unknown[][]; items?: Array<Record<string, unknown>> };
  const sheets = (workbook as { sheets: Array<{ blocks: Block[] }> }).sheets;
  const block = (blockName: string) => sheets.flatMap((s) => s.blocks).find((b) => b.name === blockName)!;
  const holder = name ?? (block('payer_list').items!.find((i) => 'name' in i)!.name as string);
  const challans = block('challan_table');
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const tokens = challans.rows!.map((row) => md5(`${tan}${JSON.stringify(row)}`));
  return [`${tokens.length}^${tan}^${holder}^9.4^9.4^${md5(tokens.join(''))}`, ...tokens].map((line) => `${line}\r\n`).join('');
}
