// The statement in normalised form: what the record writers need, independent of the workbook dialect.

import type { CivilDate } from '../dates.js';
import type { DeducteeType } from '../codes/misc.js';

/** BH address lines 1-5 (21-25 for the deductor, 35-39 for the responsible person). */
export type Address = [string, string, string, string, string];

/** What the deductor and the responsible person both give; the BH has one block of the same shape for each. */
export interface Contact {
  name: string;
  pan: string;
  address: Address;
  state: string;
  pin: string;
  email: string;
  /** New BH 20 / 43 (country/region). */
  country: string;
  /** New BH 29/30 and 44/45. Legacy: the responsible person's mobile is BH 43; the deductor's STD code and
   *  telephone are not in the vendor's workbook and stay empty. */
  callingCode: string;
  contactNumber: string;
}

export interface Deductor extends Contact {
  tan: string;
  /** Legacy BH 20 (branch/division). */
  branch: string;
  /** BH 32 (Annexure 4). */
  category: string;
  /** BH 54 (state code, state-government deductors). */
  governmentState: string;
  /** BH 57/58. */
  ministry: string;
  ministryOther: string;
  /** BH 68. */
  ain: string;
  /** BH 69. */
  gstin: string;
}

export interface ResponsiblePerson extends Contact {
  designation: string;
}

export interface Payee {
  srNo: number;
  row: number;
  pan: string;
  panKind: 'valid' | 'placeholder' | 'invalid';
  name: string;
  deducteeType: DeducteeType;
  /**
   * The deductee code as written: legacy DD 8 `1` company / `2` other, or on 27Q/27EQ from FY 2023-24 the code 1 to
   * 10 of the vendor's deductee types (FORMAT_NOTES.md §16, T-FV-4056); Forms 143/144 DD 12, the same codes (§17);
   * empty where the form has none (24Q, 138, 140).
   */
  deducteeCode: string;
  /**
   * The payee's PAN cell could not be read (its problem is already reported): the payee is known by number,
   * its payments are checked, but nothing that depends on the PAN is.
   */
  damaged: boolean;
  // salary (24Q)
  newRegime: boolean | null;
  employeeCategory: string;
  // non-residents (27Q / 144)
  countryCode: string;
  email: string;
  contactNumber: string;
  address: string;
  taxId: string;
  // collectees (27EQ / 143)
  nonResident: boolean | null;
  permanentEstablishment: boolean | null;
}

export interface Challan {
  /** CD field 4: 1..n in challan-sheet order. */
  record: number;
  /** `record` as text, written in every DD of the challan. */
  recordText: string;
  row: number;
  /** Header name of the challan's tax column, where challan-total problems are reported. */
  taxColumn: string;
  /** The challan row had a cell that could not be read (already reported): its own cross-checks are skipped. */
  damaged: boolean;
  /**
   * A payment row naming this challan could not be built (its problem is already reported): the totals over
   * its deductee rows are partial, so the checks that compare them (short, excess, no deductees) are skipped.
   */
  incomplete: boolean;
  nil: boolean;
  /** Serial and BSR code as given: payment rows name the challan by them (a nil challan does not write them). */
  serial: string;
  bsr: string;
  /** CD 18 / 19: the challan's date; the last day of the quarter for a nil challan. */
  date: CivilDate;
  /** The date as the workbook gives it (0 if none): with serial and BSR it identifies the challan (its CIN). */
  givenDate: CivilDate;
  minorHead: string;
  /** 'C' challan, 'B' book adjustment, '' for nil challans. */
  mode: '' | 'C' | 'B';
  // Whole-rupee amounts, in paise.
  incomeTax: number;
  surcharge: number;
  cess: number;
  interest: number;
  fee: number;
  others: number;
  // Totals over the challan's deductee rows, in paise.
  deductees: number;
  sumIncomeTax: number;
  sumSurcharge: number;
  sumCess: number;
  sumDeducted: number;
  sumDeposited: number;
  hasInKindSection: boolean;
  /** Earliest payment date among its deductees (minor head 100 check). */
  earliestPayment: CivilDate;
  /** The PAN of its first deductee row, and whether a later row has another or any row no valid PAN (minor head 100 check). */
  rowPan: string;
  rowPansDiffer: boolean;
}

/** One deductee/collectee row, ready to be written. */
export interface Deductee {
  row: number;
  payee: Payee;
  challan: Challan;
  section: string;
  amountPaid: number;
  paymentDate: CivilDate;
  incomeTax: number;
  surcharge: number;
  cess: number;
  /** Total tax deducted/collected. */
  deducted: number;
  deposited: number;
  deductionDate: CivilDate | null;
  /** 24Q / 138: date of deposit (its challan's date). */
  depositDate: CivilDate | null;
  /** Ten-thousandths of a percent. */
  rate: number;
  remark: string;
  certificate: string;
  /** Cash-withdrawal amounts (paise or null), in the workbook's column order. */
  cash: Array<number | null>;
  form121: string;
  /** 27EQ / 143: total value of the purchase / transaction. */
  totalValue: number;
  // 27Q / 144
  dtaa: boolean | null;
  remittance: string;
  form15ca: string;
  grossingUp: string;
}
