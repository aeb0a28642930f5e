// DD: deductee / collectee detail. Legacy 54 fields (24Q, 26Q, 27Q, 27EQ differ in the tail), new 45 fields.
// Each writer sets every field it may use on every call (to '' when not applicable) into its form's compiled
// layout (records/compact.ts), which is reused across records without clearing.

import type { Deductee } from '../build/models.js';
import { formatDdMmYyyy } from '../dates.js';
import type { FormKind } from '../forms.js';
import { formatPaise, formatRate } from '../money.js';
import type { Family } from '../period.js';
import { CompactRecord } from './compact.js';
import { FIELD_COUNTS } from './fields.js';

/**
 * New-form DD fields 4 and 5. The two extractions of Protean's Form 140 workbook put the deductee record
 * number at 4 and the challan reference at 5; legacy formats have them the other way round. See FORMAT_NOTES.md.
 */
export const NEW_DD_DEDUCTEE_FIELD = 4;
export const NEW_DD_CHALLAN_FIELD = 5;

const date = (d: number | null): string => (d === null || d === 0 ? '' : formatDdMmYyyy(d));
const money = (p: number | null | undefined): string => (p === null || p === undefined ? '' : formatPaise(p));
const flag = (b: boolean | null): string => (b === null ? '' : b ? 'Y' : 'N');

const COMMON_LEGACY = [4, 5, 10, 12, 13, 14, 15, 16, 17, 19, 22, 23, 24, 30, 33, 34];
const COMMON_NEW = [4, 5, 8, 9, 15, 18, 19, 20, 24, 25, 27, 32, 33];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Fields each form's DD may fill, beyond the common ones. */
const VARIABLE: Readonly<Record<Family, Record<FormKind, number[]>>> = {
  legacy: {
    salary: [...COMMON_LEGACY, 7, 25],
    nonsalary: [...COMMON_LEGACY, 8, 26, ...range(43, 48)],
    nonresident: [...COMMON_LEGACY, 8, 26, 27, ...range(35, 49)],
    tcs: [...COMMON_LEGACY, 8, 21, 26, 31, 32, 49],
  },
  new: {
    salary: [...COMMON_NEW, 29],
    nonsalary: [...COMMON_NEW, 22, 23, 28, 31],
    nonresident: [...COMMON_NEW, 21, 22, 23, 28, 31, 34, 35, 37, 38, 39, 40, 41],
    tcs: [...COMMON_NEW, 21, 28, 34, 35],
  },
};

const layouts: Record<Family, Partial<Record<FormKind, CompactRecord>>> = { legacy: {}, new: {} };

/** The compiled DD layout of a form: record type, batch number 1 and mode O are constants. */
function layout(family: Family, kind: FormKind): CompactRecord {
  return (layouts[family][kind] ??= new CompactRecord(FIELD_COUNTS[family].DD, { 2: 'DD', 3: '1', 6: 'O' }, VARIABLE[family][kind]));
}

function legacyTail(f: CompactRecord, kind: FormKind, d: Deductee): void {
  const placeholderPan = d.payee.panKind !== 'valid';
  const tcs = kind === 'tcs';
  const nonResident = kind === 'nonresident';
  f.set(21, tcs ? formatPaise(d.totalValue) : '');
  // 27EQ: collectee non-resident / permanent establishment, for collectees without PAN (FVU 5.7).
  const nri = tcs && placeholderPan ? d.payee.nonResident : null;
  f.set(31, flag(nri));
  f.set(32, nri ? flag(d.payee.permanentEstablishment) : '');
  f.set(27, nonResident ? d.grossingUp : '');
  f.set(35, nonResident && d.dtaa !== null ? (d.dtaa ? 'B' : 'A') : ''); // rate as per DTAA (B) or the Act (A)
  f.set(36, nonResident ? d.remittance : '');
  f.set(37, nonResident ? d.form15ca : '');
  f.set(38, nonResident ? d.payee.countryCode : '');
  // Contact details of a payee without PAN (rule 37BC relief); EY's generator writes them only then.
  const contact = nonResident && placeholderPan;
  f.set(39, contact ? d.payee.email : '');
  f.set(40, contact ? d.payee.contactNumber : '');
  f.set(41, contact ? d.payee.address : '');
  f.set(42, contact ? d.payee.taxId : '');
  const cash = kind === 'nonsalary' || nonResident;
  for (let i = 0; i < 6; i++) f.set(43 + i, cash ? money(d.cash[i]) : '');
  f.set(49, (nonResident || tcs) && d.payee.newRegime !== null ? (d.payee.newRegime ? 'N' : 'Y') : ''); // opting out of 115BAC
}

function legacyDeductee(kind: FormKind, d: Deductee, serial: number): string {
  const f = layout('legacy', kind);
  const salary = kind === 'salary';
  f.set(4, d.challan.recordText);
  f.set(5, String(serial));
  f.set(8, salary ? '' : d.payee.deducteeType === 'company' ? '01' : '02');
  f.set(10, d.payee.pan);
  const reference = d.payee.panKind !== 'valid' ? String(d.payee.srNo) : '';
  f.set(7, salary ? reference : ''); // 24Q employee serial number: mandatory for a placeholder PAN (ref §4.4)
  f.set(12, reference); // deductee / employee reference number
  f.set(13, d.payee.name);
  f.set(14, formatPaise(d.incomeTax));
  f.set(15, formatPaise(d.surcharge));
  f.set(16, formatPaise(d.cess));
  f.set(17, formatPaise(d.deducted));
  f.set(19, formatPaise(d.deposited));
  f.set(22, formatPaise(d.amountPaid));
  f.set(23, date(d.paymentDate));
  f.set(24, date(d.deductionDate));
  f.set(25, salary ? date(d.depositDate) : '');
  f.set(26, salary ? '' : formatRate(d.rate));
  f.set(30, d.remark);
  f.set(33, d.section);
  f.set(34, d.certificate);
  legacyTail(f, kind, d);
  return f.body();
}

function newDeductee(kind: FormKind, d: Deductee, serial: number): string {
  const f = layout('new', kind);
  const placeholderPan = d.payee.panKind !== 'valid';
  const salary = kind === 'salary';
  const nonResident = kind === 'nonresident';
  const tcs = kind === 'tcs';
  f.set(NEW_DD_DEDUCTEE_FIELD, String(serial));
  f.set(NEW_DD_CHALLAN_FIELD, d.challan.recordText);
  f.set(8, d.payee.pan);
  f.set(9, d.payee.name);
  f.set(15, d.section);
  f.set(18, d.challan.nil ? 'N' : 'Y'); // whether the tax deducted has been deposited
  f.set(19, date(d.paymentDate));
  f.set(20, formatPaise(d.amountPaid));
  f.set(24, formatPaise(d.deducted));
  f.set(25, formatPaise(d.deposited));
  f.set(27, date(d.deductionDate));
  f.set(28, salary ? '' : formatRate(d.rate)); // Form 138: rate not used
  f.set(29, salary ? date(d.depositDate) : ''); // Form 138: date of deposit
  f.set(32, d.remark);
  f.set(33, d.certificate);
  const cash = kind === 'nonsalary' || nonResident;
  f.set(22, cash ? money(d.cash[0]) : '');
  f.set(23, cash ? money(d.cash[1]) : '');
  f.set(31, cash ? d.form121 : '');
  // Forms 144 and 143: positions of our design (Protean's tables are not public); see FORMAT_NOTES.md.
  f.set(21, nonResident ? d.grossingUp : tcs ? formatPaise(d.totalValue) : '');
  const nri = tcs && placeholderPan ? d.payee.nonResident : null;
  f.set(34, nonResident ? (d.dtaa === null ? '' : d.dtaa ? 'B' : 'A') : flag(nri));
  f.set(35, nonResident ? d.remittance : nri ? flag(d.payee.permanentEstablishment) : '');
  f.set(37, nonResident ? d.payee.countryCode : '');
  const contact = nonResident && placeholderPan;
  f.set(38, contact ? d.payee.email : '');
  f.set(39, contact ? d.payee.contactNumber : '');
  f.set(40, contact ? d.payee.address : '');
  f.set(41, contact ? d.payee.taxId : '');
  return f.body();
}

/** The DD record without its line number; `serial` is the deductee's number within its challan. */
export function deducteeRecord(family: Family, kind: FormKind, d: Deductee, serial: number): string {
  return family === 'legacy' ? legacyDeductee(kind, d, serial) : newDeductee(kind, d, serial);
}
