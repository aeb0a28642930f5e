// Every challan of the workbook against the CSI file, as the FVU matches them: by BSR code + tender date +
// serial (the CIN), then the amount. A challan the bank has no record of, one whose amount differs and one
// whose payment rows claim more than the bank received are errors at the challan's cells.

import { formatForPeople } from '../dates.js';
import { formatPaise } from '../money.js';
import { NOWHERE, type Place } from '../problems.js';
import type { TableLayout } from '../workbook/records.js';
import { challanTotal } from '../build/challans.js';
import { col } from '../build/columns.js';
import type { BuildContext } from '../build/context.js';
import type { Challan } from '../build/models.js';
import { cinKey, type CsiChallan, type CsiFile } from './parse.js';

/** Columns where each finding is reported; the first key the dialect has wins. */
const SERIAL_KEYS = ['challan_serial', 'bank_challan_number_or_ddo_serial_number'];
const TOTAL_KEYS = ['total_tax_deposited'];

export class CsiCheck {
  private readonly byCin = new Map<string, CsiChallan>();
  private layout: TableLayout | null = null;

  constructor(
    private readonly ctx: BuildContext,
    private readonly csi: CsiFile,
  ) {
    for (const c of csi.challans) this.byCin.set(cinKey(c.bsr, c.date, c.serial), c);
    if (csi.tan !== ctx.options.tan) {
      ctx.report('CSI_TAN_MISMATCH', NOWHERE, `The CSI file is for TAN ${csi.tan}, the statement for ${ctx.options.tan}`);
    }
  }

  /** The challan table's layout, to name the cells findings are reported at. */
  useLayout(layout: TableLayout): void {
    this.layout = layout;
  }

  /** After the whole workbook is read (the challans' payment totals are complete). */
  check(challans: readonly Challan[], deductorName: string): void {
    if (deductorName !== '' && deductorName.trim().toUpperCase() !== this.csi.name.trim().toUpperCase()) {
      this.ctx.report('CSI_NAME_MISMATCH', { sheet: 'payer_sheet', row: null, column: 'payer_list.name' }, `The CSI file names the deductor '${this.csi.name.slice(0, 75)}'`);
    }
    // Nil challans and book adjustments (transfer vouchers) pay nothing through a bank: the CSI has no line for them.
    for (const c of challans) if (!c.damaged && !c.nil && c.mode === 'C') this.checkChallan(c);
  }

  private checkChallan(c: Challan): void {
    const bank = this.byCin.get(cinKey(c.bsr, c.date, c.serial));
    if (!bank) {
      this.ctx.report('CSI_CHALLAN_NOT_FOUND', this.place(c, SERIAL_KEYS), `The CSI file has no challan with BSR code ${c.bsr}, date ${formatForPeople(c.date)} and serial ${c.serial}`);
      return;
    }
    const total = challanTotal(c);
    if (total !== bank.amount) {
      this.ctx.report('CSI_AMOUNT_MISMATCH', this.place(c, TOTAL_KEYS), `The challan totals ${formatPaise(total)}; the CSI file (line ${bank.line}) says ${formatPaise(bank.amount)} was deposited`);
    }
    // What the statement draws on the challan: the tax its payment rows deposit plus its interest, fee and others.
    const claimed = c.sumDeposited + c.interest + c.fee + c.others;
    if (!c.incomplete && claimed > bank.amount) {
      this.ctx.report('CSI_CHALLAN_OVER_ALLOCATED', this.place(c, []), `The payment rows and levies claim ${formatPaise(claimed)} of this challan; the CSI file (line ${bank.line}) shows only ${formatPaise(bank.amount)} deposited`);
    }
  }

  private place(c: Challan, keys: readonly string[]): Place {
    const place = { sheet: this.layout?.sheetName ?? 'challan_sheet', row: c.row, column: c.taxColumn || null };
    if (!this.layout) return place;
    for (const key of keys) {
      const position = col(this.layout.spec, key);
      if (position >= 0) return { ...place, column: this.layout.columnName(position) };
    }
    return place;
  }
}
