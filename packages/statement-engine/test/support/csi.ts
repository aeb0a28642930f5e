// A test-side writer of CSI (Challan Status Inquiry) files in the real layout, as the official FVU reads it
// (the FVU runner's README, "Reading a verdict", from FVU 9.4's own reading of a .csi): line 1 is `challan count ^
// TAN ^ TAN name ^ FVU higher version ^ FVU lower version ^ file hash`, then one line per challan holding a hash
// token. The bank's tokens are salted with a secret of the FVU's; this writer hashes the same parts unsalted,
// which is all a test can do: the FVU calls such a file invalid (T-FV-1029), after its TAN and name checks.
// Written independently of the engine's reader, so the two check each other.

import { createHash } from 'node:crypto';
import type { Row, WorkbookParts } from './sheet-json.js';

export interface CsiLine {
  bsr: string;
  /** Epoch milliseconds (the workbook's dates) or ddmmyyyy text. */
  date: number | string;
  serial: string;
  /** Rupees. */
  amount: number;
}

/** ddmmyyyy of an epoch in IST (UTC+05:30), the calendar the workbook's dates are read in. */
export function ddmmyyyyIst(ms: number): string {
  const iso = new Date(ms + 5.5 * 3600 * 1000).toISOString();
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A CSI file for `tan` and `name` listing `lines`; `count` overrides the count line 1 announces. */
export function writeCsi(tan: string, name: string, lines: readonly CsiLine[], count = lines.length): string {
  const tokens = lines.map((l) => md5(`${l.bsr}${typeof l.date === 'number' ? ddmmyyyyIst(l.date) : l.date}${l.serial}${tan}${l.amount.toFixed(2)}`));
  return [`${count}^${tan}^${name}^9.4^9.4^${md5(tokens.join(''))}`, ...tokens].map((line) => `${line}\r\n`).join('');
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
