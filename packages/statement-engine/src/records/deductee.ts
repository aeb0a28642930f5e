// DD: deductee / collectee detail. Legacy 54 fields (24Q, 26Q, 27Q, 27EQ differ in the tail), new 45 fields.
// Fields are handed to a FieldWriter in ascending order: as text for convert(), as bytes for the streaming
// path (records/field-writer.ts).

import type { Deductee } from '../build/models.js';
import type { FormKind } from '../forms.js';
import type { Family } from '../period.js';
import { FIELD_COUNTS } from './fields.js';
import type { FieldWriter } from './field-writer.js';

/**
 * New-form DD fields 4 and 5. The two extractions of Protean's Form 140 workbook put the deductee record
 * number at 4 and the challan reference at 5; legacy formats have them the other way round. See FORMAT_NOTES.md.
 */
export const NEW_DD_DEDUCTEE_FIELD: 4 | 5 = 4;
export const NEW_DD_CHALLAN_FIELD: 4 | 5 = 5;

const flag = (b: boolean | null): string => (b === null ? '' : b ? 'Y' : 'N');

function legacyDeductee(w: FieldWriter, kind: FormKind, d: Deductee, serial: number): void {
  const salary = kind === 'salary';
  const tcs = kind === 'tcs';
  const nonResident = kind === 'nonresident';
  const placeholderPan = d.payee.panKind !== 'valid';
  const reference = placeholderPan ? String(d.payee.srNo) : '';
  // 27EQ: collectee non-resident / permanent establishment, for collectees without PAN (FVU 5.7).
  const nri = tcs && placeholderPan ? d.payee.nonResident : null;
  // 27Q: contact details of a payee without PAN (rule 37BC relief); EY's generator writes them only then.
  const contact = nonResident && placeholderPan;
  const cash = kind === 'nonsalary' || nonResident;
  w.text(2, 'DD');
  w.text(3, '1'); // batch number
  w.int(4, d.challan.record);
  w.int(5, serial);
  w.text(6, 'O'); // mode
  w.text(7, salary ? reference : ''); // 24Q employee serial number: mandatory for a placeholder PAN (ref §4.4)
  w.text(8, salary ? '' : d.payee.deducteeType === 'company' ? '01' : '02');
  w.text(10, d.payee.pan, d.payee.srNo);
  w.text(12, reference); // deductee / employee reference number
  w.text(13, d.payee.name, d.payee.srNo);
  w.paise(14, d.incomeTax);
  w.paise(15, d.surcharge);
  w.paise(16, d.cess);
  w.paise(17, d.deducted);
  w.paise(19, d.deposited);
  w.paise(21, tcs ? d.totalValue : null); // 27EQ: total value of the purchase
  w.paise(22, d.amountPaid);
  w.date(23, d.paymentDate);
  w.date(24, d.deductionDate);
  w.date(25, salary ? d.depositDate : null); // 24Q: date of deposit
  if (!salary) w.rate(26, d.rate);
  w.text(27, nonResident ? d.grossingUp : '');
  w.text(30, d.remark);
  w.text(31, flag(nri));
  w.text(32, nri ? flag(d.payee.permanentEstablishment) : '');
  w.text(33, d.section);
  w.text(34, d.certificate);
  w.text(35, nonResident && d.dtaa !== null ? (d.dtaa ? 'B' : 'A') : ''); // rate as per DTAA (B) or the Act (A)
  w.text(36, nonResident ? d.remittance : '');
  w.text(37, nonResident ? d.form15ca : '');
  w.text(38, nonResident ? d.payee.countryCode : '');
  w.text(39, contact ? d.payee.email : '');
  w.text(40, contact ? d.payee.contactNumber : '');
  w.text(41, contact ? d.payee.address : '');
  w.text(42, contact ? d.payee.taxId : '');
  for (let i = 0; i < 6; i++) w.paise(43 + i, cash ? (d.cash[i] ?? null) : null); // s.194N amounts
  w.text(49, (nonResident || tcs) && d.payee.newRegime !== null ? (d.payee.newRegime ? 'N' : 'Y') : ''); // opting out of 115BAC
  w.end();
}

function newDeductee(w: FieldWriter, kind: FormKind, d: Deductee, serial: number): void {
  const salary = kind === 'salary';
  const nonResident = kind === 'nonresident';
  const tcs = kind === 'tcs';
  const placeholderPan = d.payee.panKind !== 'valid';
  const cash = kind === 'nonsalary' || nonResident;
  const nri = tcs && placeholderPan ? d.payee.nonResident : null;
  const contact = nonResident && placeholderPan;
  w.text(2, 'DD');
  w.text(3, '1'); // batch number
  w.int(4, NEW_DD_DEDUCTEE_FIELD === 4 ? serial : d.challan.record);
  w.int(5, NEW_DD_CHALLAN_FIELD === 5 ? d.challan.record : serial);
  w.text(6, 'O'); // mode
  w.text(8, d.payee.pan, d.payee.srNo);
  w.text(9, d.payee.name, d.payee.srNo);
  w.text(15, d.section);
  w.text(18, d.challan.nil ? 'N' : 'Y'); // whether the tax deducted has been deposited
  w.date(19, d.paymentDate);
  w.paise(20, d.amountPaid);
  // Forms 144 and 143: positions of our design (Protean's tables are not public); see FORMAT_NOTES.md.
  if (nonResident) w.text(21, d.grossingUp);
  else if (tcs) w.paise(21, d.totalValue);
  w.paise(22, cash ? (d.cash[0] ?? null) : null);
  w.paise(23, cash ? (d.cash[1] ?? null) : null);
  w.paise(24, d.deducted);
  w.paise(25, d.deposited);
  w.date(27, d.deductionDate);
  if (!salary) w.rate(28, d.rate); // Form 138: rate not used
  w.date(29, salary ? d.depositDate : null); // Form 138: date of deposit
  w.text(31, cash ? d.form121 : '');
  w.text(32, d.remark);
  w.text(33, d.certificate);
  w.text(34, nonResident ? (d.dtaa === null ? '' : d.dtaa ? 'B' : 'A') : flag(nri));
  w.text(35, nonResident ? d.remittance : nri ? flag(d.payee.permanentEstablishment) : '');
  w.text(37, nonResident ? d.payee.countryCode : '');
  w.text(38, contact ? d.payee.email : '');
  w.text(39, contact ? d.payee.contactNumber : '');
  w.text(40, contact ? d.payee.address : '');
  w.text(41, contact ? d.payee.taxId : '');
  w.end();
}

/** Number of fields of the DD record in a family. */
export function deducteeFieldCount(family: Family): number {
  return FIELD_COUNTS[family].DD;
}

/** Writes the DD record (without its line number); `serial` is the deductee's number within its challan. */
export function writeDeducteeRecord(w: FieldWriter, family: Family, kind: FormKind, d: Deductee, serial: number): void {
  if (family === 'legacy') legacyDeductee(w, kind, d, serial);
  else newDeductee(w, kind, d, serial);
}
