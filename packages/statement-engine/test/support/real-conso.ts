// The statement behind the real conso file of test/fixtures/conso/ (26Q, FY 2014-15 Q2, 3 challans of Rs 3,000
// with one rent row each), as a workbook the engine converts: a correction is this workbook changed, built on
// that conso file. The identity (TAN, PANs, names, contacts) is a parameter, so the same statement can be
// written for the redacted copy (REDACTED) or for any conso file of the same shape.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConsoStatement, ConvertOptions } from '../../src/index.js';
import { LEGACY_CHALLAN_HEADER, PAYMENT_26Q_HEADER } from './headers.js';
import { ist, type WorkbookParts } from './sheet-json.js';

export const REAL_CONSO_PATH = fileURLToPath(new URL('../fixtures/conso/26Q_FY2014-15_Q2_real-layout_redacted.tds', import.meta.url));

export interface ConsoIdentity {
  tan: string;
  deductorPan: string;
  deductorName: string;
  email: string;
  mobile: string;
  responsibleName: string;
  deducteePan: string;
  deducteeName: string;
}

/** The redacted copy's values; its TAN DELT00001A fails the FVU's check letter (T-FV-1010), so B stands in. */
export const REDACTED: ConsoIdentity = {
  tan: 'DELT00001B',
  deductorPan: 'AAAFT1234C',
  deductorName: 'TEST DEDUCTOR LLP',
  email: 'RESPONSIBLE@EXAMPLE.COM',
  mobile: '9876543210',
  responsibleName: 'TEST PERSON',
  deducteePan: 'ABCPK1234F',
  deducteeName: 'TEST DEDUCTEE ONE',
};

/** The redacted real conso file, with the TAN the tests use (REDACTED.tan) where it had DELT00001A. */
export function realConso(identity: ConsoIdentity = REDACTED): string {
  return readFileSync(REAL_CONSO_PATH, 'latin1').replaceAll('^DELT00001A^', `^${identity.tan}^`);
}

export function realConsoOptions(identity: ConsoIdentity = REDACTED, now: () => Date = () => new Date('2015-01-10T11:00:00+05:30')): ConvertOptions {
  return { form: '26Q', quarter: 'Q2', financialYear: 'FY 2014-15', tan: identity.tan, now };
}

/**
 * The workbook of the statement the conso file holds. What the conso file does not hold and a statement needs
 * today (the responsible person's PAN, BH 59, mandatory for the FVU: T-FV-2235) is given here, so the deductor
 * details of any correction on it differ from the conso's (a batch carries them).
 */
export function realConsoParts(identity: ConsoIdentity = REDACTED): WorkbookParts {
  // The conso's address lines are T-4 | ADITYA CITY CENTER | VAIBHAV KHAND | INDIRAPURAM | GHAZIABAD; the legacy
  // workbook's street wraps at word boundaries, so it cannot split them the same way: the address is written anew.
  const office = { street: 'T-4 ADITYA CITY CENTER', area: 'INDIRAPURAM', city: 'GHAZIABAD', state: 'UTTAR PRADESH', postal_code: '201010' };
  const months = [
    { serial: '07722', paid: '2014-08-07', payment: '2014-07-07' },
    { serial: '03636', paid: '2014-09-06', payment: '2014-08-07' },
    { serial: '06995', paid: '2014-10-07', payment: '2014-09-07' },
  ];
  return {
    name: 'form26q_workbook',
    payer: { name: identity.deductorName, tan: identity.tan, pan: identity.deductorPan, branch: 'INDIRAPURAM', deductor_type: 'F', ...office, email: identity.email },
    responsible: { designation: 'PARTNER', name: identity.responsibleName, pan: 'ABCPT1234K', ...office, email: identity.email, mobile: identity.mobile },
    payeeHeader: ['sr_no', 'pan', 'name'],
    payees: [{ sr_no: 1, pan: identity.deducteePan, name: identity.deducteeName }],
    challanHeader: [...LEGACY_CHALLAN_HEADER],
    challans: months.map((m) => ({ challan_serial: m.serial, bsr_code: '6390340', paid_date_epoch: ist(m.paid), minor_head: 'tds_payable', tds_amount: 3000, surcharge: 0, health_and_education_cess: 0, interest: 0, late_filing_fees: 0, other_penalty: 0 })),
    paymentHeader: [...PAYMENT_26Q_HEADER],
    payments: months.map((m) => ({
      payee_sr_no: 1,
      challan_serial: m.serial,
      bsr_code: '6390340',
      nature_of_payment: 'lease_and_rental_payment',
      payment_amount: 30000,
      payment_date_epoch: ist(m.payment),
      tds_amount: 3000,
      surcharge: 0,
      health_and_education_cess: 0,
      deduction_date_epoch: ist(m.payment),
    })),
  };
}

/**
 * The identity of a conso file of this statement's shape, read from the file itself (TAN BH 13, PAN BH 15, name
 * BH 19, e-mail BH 28, responsible person BH 33 and mobile, the first row's PAN and name): the workbook of any such
 * file is realConsoParts(identityOf(...)), so no identity needs to be written into the repository.
 */
export function identityOf(conso: ConsoStatement): ConsoIdentity {
  const bh = conso.batchHeader;
  const row = conso.challans[0]!.deductees[0]!.fields;
  return { tan: conso.tan, deductorPan: bh[15]!, deductorName: bh[19]!, email: bh[28]!, mobile: bh[43]!, responsibleName: bh[33]!, deducteePan: row[10]!, deducteeName: row[13]! };
}
