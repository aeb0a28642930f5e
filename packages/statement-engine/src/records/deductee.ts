// DD: deductee / collectee detail. Legacy 54 fields (24Q, 26Q, 27Q, 27EQ differ in the tail), new 45 fields.

import type { Deductee } from '../build/models.js';
import { formatDdMmYyyy } from '../dates.js';
import type { FormKind } from '../forms.js';
import { formatPaise, formatRate } from '../money.js';
import type { Family } from '../period.js';
import { blank, body, FIELD_COUNTS, type Fields } from './fields.js';

/**
 * New-form DD fields 4 and 5. The two extractions of Protean's Form 140 workbook put the deductee record
 * number at 4 and the challan reference at 5; legacy formats have them the other way round. See FORMAT_NOTES.md.
 */
export const NEW_DD_DEDUCTEE_FIELD = 4;
export const NEW_DD_CHALLAN_FIELD = 5;

const date = (d: number | null): string => (d === null || d === 0 ? '' : formatDdMmYyyy(d));
const money = (p: number | null): string => (p === null ? '' : formatPaise(p));

function legacyTail(f: Fields, kind: FormKind, d: Deductee): void {
  const placeholderPan = d.payee.panKind !== 'valid';
  if (kind === 'tcs') {
    f[21] = formatPaise(d.totalValue);
    if (placeholderPan && d.payee.nonResident !== null) {
      f[31] = d.payee.nonResident ? 'Y' : 'N';
      if (d.payee.nonResident && d.payee.permanentEstablishment !== null) f[32] = d.payee.permanentEstablishment ? 'Y' : 'N';
    }
  }
  if (kind === 'nonresident') {
    f[27] = d.grossingUp;
    f[35] = d.dtaa === null ? '' : d.dtaa ? 'B' : 'A'; // rate as per DTAA (B) or the Income-tax Act (A)
    f[36] = d.remittance;
    f[37] = d.form15ca;
    f[38] = d.payee.countryCode;
    if (placeholderPan) {
      // Contact details of a payee without PAN (rule 37BC relief); EY's generator writes them only then.
      f[39] = d.payee.email;
      f[40] = d.payee.contactNumber;
      f[41] = d.payee.address;
      f[42] = d.payee.taxId;
    }
  }
  if (kind === 'nonsalary' || kind === 'nonresident') d.cash.forEach((v, i) => (f[43 + i] = money(v)));
  if ((kind === 'nonresident' || kind === 'tcs') && d.payee.newRegime !== null) f[49] = d.payee.newRegime ? 'N' : 'Y'; // opting out of 115BAC
}

function legacyDeductee(kind: FormKind, d: Deductee, serial: number): string {
  const f = blank(FIELD_COUNTS.legacy.DD);
  const placeholderPan = d.payee.panKind !== 'valid';
  f[2] = 'DD';
  f[3] = '1';
  f[4] = String(d.challan.record);
  f[5] = String(serial);
  f[6] = 'O';
  if (kind !== 'salary') f[8] = d.payee.deducteeType === 'company' ? '01' : '02';
  f[10] = d.payee.pan;
  if (placeholderPan) f[12] = String(d.payee.srNo); // deductee / employee reference number
  f[13] = d.payee.name;
  f[14] = formatPaise(d.incomeTax);
  f[15] = formatPaise(d.surcharge);
  f[16] = formatPaise(d.cess);
  f[17] = formatPaise(d.deducted);
  f[19] = formatPaise(d.deposited);
  f[22] = formatPaise(d.amountPaid);
  f[23] = date(d.paymentDate);
  f[24] = date(d.deductionDate);
  if (kind === 'salary') f[25] = date(d.depositDate);
  else f[26] = formatRate(d.rate);
  f[30] = d.remark;
  f[33] = d.section;
  f[34] = d.certificate;
  legacyTail(f, kind, d);
  return body(f);
}

function newDeductee(kind: FormKind, d: Deductee, serial: number): string {
  const f = blank(FIELD_COUNTS.new.DD);
  const placeholderPan = d.payee.panKind !== 'valid';
  f[2] = 'DD';
  f[3] = '1';
  f[NEW_DD_DEDUCTEE_FIELD] = String(serial);
  f[NEW_DD_CHALLAN_FIELD] = String(d.challan.record);
  f[6] = 'O';
  f[8] = d.payee.pan;
  f[9] = d.payee.name;
  f[15] = d.section;
  f[18] = d.challan.nil ? 'N' : 'Y'; // whether the tax deducted has been deposited
  f[19] = date(d.paymentDate);
  f[20] = formatPaise(d.amountPaid);
  f[24] = formatPaise(d.deducted);
  f[25] = formatPaise(d.deposited);
  f[27] = date(d.deductionDate);
  f[32] = d.remark;
  f[33] = d.certificate;
  if (kind === 'salary') {
    f[29] = date(d.depositDate); // Form 138: date of deposit; rate not used
  } else {
    f[28] = formatRate(d.rate);
  }
  if (kind === 'nonsalary' || kind === 'nonresident') {
    f[22] = money(d.cash[0] ?? null);
    f[23] = money(d.cash[1] ?? null);
    f[31] = d.form121;
  }
  if (kind === 'nonresident') {
    // Form 144 positions are our design (Protean's table is not public): see FORMAT_NOTES.md.
    f[21] = d.grossingUp;
    f[34] = d.dtaa === null ? '' : d.dtaa ? 'B' : 'A';
    f[35] = d.remittance;
    f[37] = d.payee.countryCode;
    if (placeholderPan) {
      f[38] = d.payee.email;
      f[39] = d.payee.contactNumber;
      f[40] = d.payee.address;
      f[41] = d.payee.taxId;
    }
  }
  if (kind === 'tcs') {
    // Form 143 positions are our design: see FORMAT_NOTES.md.
    f[21] = formatPaise(d.totalValue);
    if (placeholderPan && d.payee.nonResident !== null) {
      f[34] = d.payee.nonResident ? 'Y' : 'N';
      if (d.payee.nonResident && d.payee.permanentEstablishment !== null) f[35] = d.payee.permanentEstablishment ? 'Y' : 'N';
    }
  }
  return body(f);
}

/** The DD record without its line number; `serial` is the deductee's number within its challan. */
export function deducteeRecord(family: Family, kind: FormKind, d: Deductee, serial: number): string {
  return family === 'legacy' ? legacyDeductee(kind, d, serial) : newDeductee(kind, d, serial);
}
