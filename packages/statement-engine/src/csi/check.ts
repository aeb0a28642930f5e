// The statement against the CSI file, as far as its real layout lets anyone but the FVU go: the TAN (the FVU's
// T_FV_6069) and the TAN name (T-FV-3173) must be the statement's, and the file must list at least as many
// challans as the statement pays through a bank. Each challan line is a salted hash whose scheme is not
// published, so which challan matches which, and for how much, is left to the FVU; the report says so.

import { NOWHERE } from '../problems.js';
import type { BuildContext } from '../assembly/context.js';
import type { Challan } from '../assembly/models.js';
import type { CsiFile } from './parse.js';

export class CsiCheck {
  constructor(
    private readonly ctx: BuildContext,
    private readonly csi: CsiFile,
  ) {
    if (csi.tan !== ctx.options.tan) {
      ctx.report('CSI_TAN_MISMATCH', NOWHERE, `The CSI file is for TAN ${csi.tan}, the statement for ${ctx.options.tan}`);
    }
  }

  /** After the whole workbook is read. */
  check(challans: readonly Challan[], deductorName: string): void {
    if (deductorName !== '' && deductorName.trim().toUpperCase() !== this.csi.name.toUpperCase()) {
      this.ctx.report('CSI_NAME_MISMATCH', { sheet: 'payer_sheet', row: null, column: 'payer_list.name' }, `The CSI file names the TAN holder '${this.csi.name.slice(0, 75)}'`);
    }
    // Nil challans and book adjustments (transfer vouchers) pay nothing through a bank: the CSI has no line for them.
    const banked = challans.filter((c) => !c.nil && c.mode === 'C').length;
    if (banked > this.csi.count) {
      this.ctx.report('CSI_FEWER_CHALLANS', NOWHERE, `The statement has ${banked} challans paid through a bank; the CSI file lists ${this.csi.count}: at least ${banked - this.csi.count} cannot match`);
    }
    if (banked > 0) {
      this.ctx.report('CSI_CHALLANS_LEFT_TO_FVU', NOWHERE, `The CSI file's ${this.csi.count} challan lines are hashes whose scheme is not published: the FVU matches the statement's ${banked} bank challans against them`);
    }
  }
}
