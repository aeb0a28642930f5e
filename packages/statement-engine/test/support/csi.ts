// A test-side writer of CSI (Challan Status Inquiry) files, from the layout FORMAT_NOTES.md ("CSI file")
// documents: a caret-delimited header (TAN ^ download date ^ deductor name) whose name field is the one the
// public LHS TaxCPC code reads (tds-corrections.md §5.2), then one caret-delimited line per challan with the
// parts of its CIN (BSR code, tender date ddmmyyyy, serial; tds-corrections.md §5.2) and the amount.
// Written independently of the engine's reader, so the two check each other.

import type { Row, WorkbookParts } from './sheet-json.js';

export interface CsiLine {
  bsr: string;
  /** Epoch milliseconds (the workbook's dates) or ddmmyyyy text. */
  date: number | string;
  serial: string;
  minorHead?: string;
  /** Rupees. */
  amount: number;
}

/** ddmmyyyy of an epoch in IST (UTC+05:30), the calendar the workbook's dates are read in. */
export function ddmmyyyyIst(ms: number): string {
  const iso = new Date(ms + 5.5 * 3600 * 1000).toISOString();
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;
}

export function writeCsi(tan: string, name: string, lines: readonly CsiLine[], downloaded = '25112026'): string {
  const rows = [`${tan}^${downloaded}^${name}`];
  for (const l of lines) {
    const date = typeof l.date === 'number' ? ddmmyyyyIst(l.date) : l.date;
    rows.push(`${l.bsr}^${date}^${l.serial}^0020^${l.minorHead ?? '200'}^${l.amount.toFixed(2)}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

const num = (r: Row, key: string) => (typeof r[key] === 'number' ? (r[key] as number) : 0);

/** The CSI line a bank would have for a workbook challan row (either dialect); null for nil / book-entry rows. */
export function csiLineOf(r: Row): CsiLine | null {
  if (r.nil_challan_indicator === 'Y' || r.nil_challan_indicator === true || r.mode_of_payment === 'B') return null;
  if ('total_tax_deposited' in r) {
    return { bsr: String(r.bsr_code_or_form_24g_receipt_number), date: r.bank_challan_or_transfer_voucher_date_epoch as number, serial: String(r.bank_challan_number_or_ddo_serial_number), amount: num(r, 'total_tax_deposited') };
  }
  const levies = ['tds_amount', 'tcs_amount', 'total_tax_deducted', 'surcharge', 'health_and_education_cess', 'interest', 'late_filing_fees', 'other_penalty'];
  return { bsr: String(r.bsr_code), date: r.paid_date_epoch as number, serial: String(r.challan_serial), amount: levies.reduce((sum, k) => sum + num(r, k), 0) };
}

/** A CSI file that matches every challan of the parts, for the statement's TAN and the deductor's name. */
export function csiFor(parts: WorkbookParts, tan: string, change?: (lines: CsiLine[]) => void): string {
  const lines = parts.challans.map(csiLineOf).filter((l): l is CsiLine => l !== null);
  change?.(lines);
  return writeCsi(tan, String(parts.payer.name), lines);
}
