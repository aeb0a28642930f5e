// DD: deductee / collectee detail. Legacy 54 fields (24Q, 26Q, 27Q, 27EQ differ in the tail), new 45 fields.
// Fields are handed to a FieldWriter in ascending order: as text for convert(), as bytes for the streaming
// path (records/field-writer.ts).

import type { Deductee } from '../assembly/models.js';
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

// An empty value is no call at all: every FieldWriter leaves a field it is not given empty (the next field or
// end() writes its caret and checks it as empty). So a field a form never fills, or that is empty for this
// payee, is not called: a dozen calls fewer per record, on each of a million records.

function legacyDeductee(w: FieldWriter, kind: FormKind, d: Deductee, serial: number): void {
  const salary = kind === 'salary';
  const tcs = kind === 'tcs';
  const nonResident = kind === 'nonresident';
  const placeholderPan = d.payee.panKind !== 'valid';
  // DD 12 is exactly 10 characters and not all zeros (FVU T_FV_4325): the row's serial, zero-padded.
  const reference = placeholderPan ? String(d.payee.srNo).padStart(10, '0') : '';
  // 27EQ: collectee non-resident / permanent establishment, for collectees without PAN (FVU 5.7).
  const nri = tcs && placeholderPan ? d.payee.nonResident : null;
  const cash = kind === 'nonsalary' || nonResident;
  w.text(2, 'DD');
  w.text(3, '1'); // batch number
  w.int(4, d.challan.record);
  w.int(5, serial);
  w.text(6, 'O'); // mode
  if (salary) w.text(7, String(d.payee.srNo)); // 24Q employee serial number: mandatory on every row (FVU T-FV-4033)
  else w.text(8, d.payee.deducteeCode); // without a leading zero (FVU T-FV-4056)
  w.text(10, d.payee.pan, d.payee.srNo);
  w.text(12, reference); // deductee / employee reference number
  w.text(13, d.payee.name, d.payee.srNo);
  w.paise(14, d.incomeTax);
  w.paise(15, d.surcharge);
  w.paise(16, d.cess);
  w.paise(17, d.deducted);
  w.paise(19, d.deposited);
  if (tcs) w.paise(21, d.totalValue); // 27EQ: total value of the purchase
  w.paise(22, d.amountPaid);
  w.date(23, d.paymentDate);
  w.date(24, d.deductionDate);
  if (salary) w.date(25, d.depositDate); // 24Q: date of deposit
  else w.rate(26, d.rate);
  if (nonResident) w.text(27, d.grossingUp);
  w.text(30, d.remark);
  if (nri !== null) w.text(31, flag(nri));
  if (nri) w.text(32, flag(d.payee.permanentEstablishment));
  w.text(33, d.section);
  w.text(34, d.certificate);
  if (nonResident) nonResidentTail(w, d, placeholderPan);
  // s.194N amounts (43-48): the ones not given are empty.
  if (cash) for (let i = 0; i < 6 && i < d.cash.length; i++) w.paise(43 + i, d.cash[i] ?? null);
  if ((nonResident || tcs) && d.payee.newRegime !== null) w.text(49, d.payee.newRegime ? 'N' : 'Y'); // opting out of 115BAC
  w.end();
}

/** Legacy 27Q DD 35-42. */
function nonResidentTail(w: FieldWriter, d: Deductee, placeholderPan: boolean): void {
  if (d.dtaa !== null) w.text(35, d.dtaa ? 'B' : 'A'); // rate as per DTAA (B) or the Act (A)
  w.text(36, d.remittance);
  w.text(37, d.form15ca);
  w.text(38, d.payee.countryCode);
  // Contact details of a payee without PAN (rule 37BC relief); EY's generator writes them only then.
  if (placeholderPan) contactFields(w, d, 39);
}

/** Email, contact number, address and tax id of a payee without PAN, from field `first` on. */
function contactFields(w: FieldWriter, d: Deductee, first: number): void {
  w.text(first, d.payee.email);
  w.text(first + 1, d.payee.contactNumber);
  w.text(first + 2, d.payee.address);
  w.text(first + 3, d.payee.taxId);
}

/** FVU 1.2 natures of remittance whose remark-C rows without PAN carry the payee's contact details (T-FV-4335..4343). */
const CONTACT_NATURES: ReadonlySet<string> = new Set(['05', '06', '07', '10', '11', '12', '13', '14', '16', '17']);

/** Form 144 DD 37-41: address, email, contact and tax id, only where FVU 1.2 takes them (see CONTACT_NATURES). */
export function writesNonResidentContact(d: Deductee): boolean {
  return d.remark === 'C' && d.payee.panKind !== 'valid' && CONTACT_NATURES.has(d.remittance);
}

function newDeductee(w: FieldWriter, kind: FormKind, d: Deductee, serial: number): void {
  const salary = kind === 'salary';
  const nonResident = kind === 'nonresident';
  const tcs = kind === 'tcs';
  const cash = kind === 'nonsalary' || nonResident;
  w.text(2, 'DD');
  w.text(3, '1'); // batch number
  w.int(4, NEW_DD_DEDUCTEE_FIELD === 4 ? serial : d.challan.record);
  w.int(5, NEW_DD_CHALLAN_FIELD === 5 ? d.challan.record : serial);
  w.text(6, 'O'); // mode
  w.text(8, d.payee.pan, d.payee.srNo);
  w.text(9, d.payee.name, d.payee.srNo);
  // Forms 143/144: fields where FVU 1.2 reads them (FORMAT_NOTES.md §7).
  if (tcs) w.text(11, flag(d.payee.nonResident ?? false)); // collectee is non-resident (mandatory)
  if (tcs || nonResident) w.text(12, d.payee.deducteeCode);
  if (tcs && d.payee.nonResident) w.text(13, flag(d.payee.permanentEstablishment)); // only for a non-resident
  if (tcs || nonResident) w.text(14, d.payee.newRegime === false ? 'Y' : 'N'); // opting out u/s 202(1)
  w.text(15, d.section);
  if (nonResident) {
    w.text(16, d.remittance);
    w.text(17, d.payee.countryCode);
  }
  w.text(18, d.challan.nil ? 'N' : 'Y'); // whether the tax deducted has been deposited
  w.date(19, d.paymentDate);
  w.paise(20, d.amountPaid);
  if (nonResident) w.text(21, d.grossingUp || 'N');
  if (cash) {
    w.paise(22, d.cash[0] ?? null);
    w.paise(23, d.cash[1] ?? null);
  }
  w.paise(24, d.deducted);
  w.paise(25, d.deposited);
  w.date(27, d.deductionDate);
  if (!salary) w.rate(28, d.rate); // Form 138: rate not used
  else w.date(29, d.depositDate); // Form 138: date of deposit
  if (nonResident) w.text(30, d.dtaa ? 'B' : 'A'); // rate as per DTAA (B) or the Act (A): mandatory
  if (cash) w.text(31, d.form121);
  w.text(32, d.remark);
  w.text(33, d.certificate);
  if (nonResident && writesNonResidentContact(d)) {
    w.text(37, d.payee.address);
    w.text(38, d.payee.email);
    w.text(39, d.payee.contactNumber);
    w.text(41, d.payee.taxId);
  }
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
