// FH (file header, 18 fields, both families) and BH (batch header, 72 fields).

import type { Statement } from '../assembly/assembler.js';
import type { Contact, Deductor, ResponsiblePerson } from '../assembly/models.js';
import { formatDdMmYyyy, type CivilDate } from '../dates.js';
import type { FormSpec } from '../forms.js';
import { formatPaise } from '../money.js';
import type { ResolvedOptions } from '../options.js';
import type { Family, Period } from '../period.js';
import { blank, body, FIELD_COUNTS } from './fields.js';

/** FH field 10: name of the return preparation utility. */
export const UTILITY_NAME = 'Satyapan';

export function fileHeader(form: FormSpec, tan: string, created: CivilDate): string {
  const f = blank(FIELD_COUNTS[form.family].FH);
  f[2] = 'FH';
  f[3] = form.fileType;
  f[4] = 'R'; // regular statement
  f[5] = formatDdMmYyyy(created);
  f[6] = '1'; // file sequence number
  f[7] = 'D'; // uploader type: deductor
  f[8] = tan;
  f[9] = '1'; // one batch in a regular statement
  f[10] = UTILITY_NAME;
  // 11-18: hashes and FVU/SAM/SCM versions, filled by the FVU: empty.
  return body(f);
}

export interface BatchTotals {
  challans: number;
  /** Sum of every challan's total deposit, in paise (whole rupees). */
  deposit: number;
  /** 24Q Q4: salary detail records and the sum of their gross total income (paise). */
  salary: { records: number; grossTotal: number; seniorRecords: number; seniorGrossTotal: number } | null;
}

/** BH field numbers of one party's contact details: the deductor's block and the responsible person's have the same layout. */
interface ContactFields {
  name: number;
  /** The first of five address lines. */
  address: number;
  state: number;
  pin: number;
  email: number;
  // New family only (the legacy BH puts the branch at 20 and the responsible person's mobile at 43).
  country: number;
  callingCode: number;
  contactNumber: number;
}

const DEDUCTOR_FIELDS: ContactFields = { name: 19, address: 21, state: 26, pin: 27, email: 28, country: 20, callingCode: 29, contactNumber: 30 };
const RESPONSIBLE_FIELDS: ContactFields = { name: 33, address: 35, state: 40, pin: 41, email: 42, country: 43, callingCode: 44, contactNumber: 45 };

function contact(f: string[], at: ContactFields, c: Contact, family: Family): void {
  f[at.name] = c.name;
  for (let i = 0; i < c.address.length; i++) f[at.address + i] = c.address[i]!;
  f[at.state] = c.state;
  f[at.pin] = c.pin;
  f[at.email] = c.email;
  if (family === 'new') {
    f[at.country] = c.country;
    f[at.callingCode] = c.callingCode;
    f[at.contactNumber] = c.contactNumber;
  }
}

function parties(f: string[], family: Family, d: Deductor, rp: ResponsiblePerson): void {
  f[13] = d.tan;
  f[15] = d.pan;
  contact(f, DEDUCTOR_FIELDS, d, family);
  f[32] = d.category;
  contact(f, RESPONSIBLE_FIELDS, rp, family);
  f[34] = rp.designation;
  f[54] = d.governmentState;
  f[57] = d.ministry;
  f[58] = d.ministryOther;
  f[59] = rp.pan;
  f[68] = d.ain;
  f[69] = d.gstin;
}

/**
 * BH 9 and 52, both families (addendum §8: 24Q workbook FY 2013-14, 26Q batch header, Form 140 v1.0): 52 says
 * whether a regular statement of this form was filed for an earlier period; if so, 9 is the 15-digit token
 * number of the previous regular statement. Both come from the request, never from a default.
 */
function previousStatement(f: string[], previousReceiptNumber: string | null): void {
  f[9] = previousReceiptNumber ?? '';
  f[52] = previousReceiptNumber === null ? 'N' : 'Y';
}

/** The BH of a statement as assembled, for the options it was converted with. */
export function statementBatchHeader(statement: Statement, options: ResolvedOptions): string {
  const totals = { challans: statement.challans.length, deposit: statement.batchDeposit, salary: statement.salary };
  return batchHeader(options.form, options.period, statement.deductor, statement.responsible, totals, options.previousReceiptNumber);
}

function batchHeader(form: FormSpec, period: Period, d: Deductor, rp: ResponsiblePerson, totals: BatchTotals, previousReceiptNumber: string | null): string {
  const f = blank(FIELD_COUNTS[form.family].BH);
  f[2] = 'BH';
  f[3] = '1'; // batch number
  f[4] = String(totals.challans);
  f[5] = form.formNumber;
  // 6-8, 10-12: correction-only fields, empty in a regular statement.
  previousStatement(f, previousReceiptNumber);
  f[16] = period.assessmentYearCode;
  f[17] = period.yearCode;
  f[18] = period.quarter;
  parties(f, form.family, d, rp);
  f[47] = formatPaise(totals.deposit);
  if (form.family === 'legacy') {
    f[20] = d.branch;
    // 29/30 deductor STD code and telephone: not in the vendor's legacy workbook.
    f[31] = 'N'; // deductor address changed since last return
    f[43] = rp.contactNumber; // responsible person's mobile
    f[46] = 'N'; // responsible person's address changed
    f[51] = 'N'; // AO approval
  }
  if (form.kind === 'salary') salaryCounts(f, totals.salary);
  return body(f);
}

/**
 * BH 49: salary detail records, `0` in Q1-Q3. Form 138 too: FVU 1.2 refuses it empty (T-FV-2127) and any other
 * count in Q1-Q3 (T-FV-2142); BH 50 stays empty there (T-FV-2090: only for Form 138 Q4). 24Q Q4 adds 50, 70, 71.
 */
function salaryCounts(f: string[], salary: BatchTotals['salary']): void {
  f[49] = String(salary?.records ?? 0);
  if (!salary) return;
  f[50] = formatPaise(salary.grossTotal);
  f[70] = String(salary.seniorRecords); // s.194P (94P) detail records
  f[71] = formatPaise(salary.seniorGrossTotal); // their gross total income (94P field 15)
}
