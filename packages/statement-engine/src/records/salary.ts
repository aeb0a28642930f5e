// Legacy 24Q Q4 salary annexure: SD (88 fields) with its S16 (8) and C6A (10) children, and for specified
// senior citizens (s.194P) the 94P record (28 fields) with its P16 (8) and P6A (10) children.

import { formatDdMmYyyy, type CivilDate } from '../dates.js';
import { formatPaise, formatRate } from '../money.js';
import { blank, body, FIELD_COUNTS } from './fields.js';

export interface SalaryParty {
  pan: string;
  name: string;
}

export interface Chapter6AEntry {
  /** C6A field 6, e.g. '80C', '80CCD(1B)', 'OTHERS'. */
  section: string;
  deductible: number;
  gross: number;
  /** Written only for 80G, 80TTA and OTHERS. */
  qualifying: number | null;
}

export interface SalaryDetail {
  record: number;
  pan: string;
  referenceNumber: string;
  name: string;
  category: string;
  from: CivilDate;
  to: CivilDate;
  newRegime: boolean;
  placeholderPan: boolean;
  // paise
  s17_1: number;
  s17_2: number;
  s17_3: number;
  previousSalary: number;
  travel: number;
  gratuity: number;
  pension: number;
  leave: number;
  hra: number;
  otherExemption: number;
  specialAllowances: number;
  section16: Array<{ section: '16(ia)' | '16(ii)' | '16(iii)'; amount: number }>;
  houseProperty: number;
  otherSources: number;
  chapter6A: Chapter6AEntry[];
  incomeTax: number;
  rebate87A: number;
  surcharge: number;
  cess: number;
  relief89: number;
  tdsCurrent: number;
  tdsPrevious: number;
  otherTds192_2B: number;
  landlords: SalaryParty[];
  lenders: SalaryParty[];
  superannuation: { fund: string; from: CivilDate; to: CivilDate; amount: number; averageRate: number; tax: number } | null;
}

/** Derived amounts of an SD record (SD field numbers in the names' comments). */
export function salaryFigures(s: SalaryDetail) {
  const currentSalary = s.s17_1 + s.s17_2 + s.s17_3; // 34
  const totalSalary = currentSalary + s.previousSalary; // 13
  const exemptions = (s.newRegime ? 0 : s.travel + s.hra) + s.gratuity + s.pension + s.leave + s.otherExemption + s.specialAllowances; // 76
  const section16 = s.section16.reduce((a, e) => a + e.amount, 0); // 16
  const chargeable = totalSalary - exemptions - section16; // 17
  const otherHeads = s.houseProperty + s.otherSources; // 18
  const grossTotalIncome = chargeable + otherHeads; // 19
  const chapter6A = s.chapter6A.reduce((a, e) => a + e.deductible, 0); // 22
  const taxableIncome = grossTotalIncome - chapter6A; // 23
  const netTax = s.incomeTax - s.rebate87A + s.surcharge + s.cess - s.relief89; // 28
  const totalTds = s.tdsCurrent + s.tdsPrevious; // 29
  const aggregate80C = s.chapter6A.filter((e) => e.section === '80C' || e.section === '80CCC' || e.section === '80CCD(1)').reduce((a, e) => a + e.deductible, 0); // 31
  return { currentSalary, totalSalary, exemptions, section16, chargeable, otherHeads, grossTotalIncome, chapter6A, taxableIncome, netTax, totalTds, shortfall: netTax - totalTds, aggregate80C };
}

function partyFields(f: string[], first: number, parties: readonly SalaryParty[]): void {
  parties.forEach((p, i) => {
    f[first + 2 * i] = p.pan;
    f[first + 2 * i + 1] = p.name;
  });
}

export function salaryRecord(s: SalaryDetail): string {
  const x = salaryFigures(s);
  const f = blank(FIELD_COUNTS.legacy.SD);
  f[2] = 'SD';
  f[3] = '1';
  f[4] = String(s.record);
  f[5] = 'A';
  f[7] = s.pan;
  f[8] = s.referenceNumber;
  f[9] = s.name;
  f[10] = s.category;
  f[11] = formatDdMmYyyy(s.from);
  f[12] = formatDdMmYyyy(s.to);
  f[13] = formatPaise(x.totalSalary);
  f[15] = String(s.section16.length);
  f[16] = formatPaise(x.section16);
  f[17] = formatPaise(x.chargeable);
  f[18] = formatPaise(x.otherHeads);
  f[19] = formatPaise(x.grossTotalIncome);
  f[21] = String(s.chapter6A.length);
  f[22] = formatPaise(x.chapter6A);
  f[23] = formatPaise(x.taxableIncome);
  f[24] = formatPaise(s.incomeTax);
  f[25] = formatPaise(s.surcharge);
  f[26] = formatPaise(s.cess);
  f[27] = formatPaise(s.relief89);
  f[28] = formatPaise(x.netTax);
  f[29] = formatPaise(x.totalTds);
  f[30] = formatPaise(x.shortfall);
  f[31] = formatPaise(x.aggregate80C);
  f[34] = formatPaise(x.currentSalary);
  f[35] = formatPaise(s.previousSalary);
  f[36] = formatPaise(s.tdsCurrent);
  f[37] = formatPaise(s.tdsPrevious);
  f[38] = s.placeholderPan ? 'Y' : 'N';
  f[39] = s.landlords.length > 0 ? 'Y' : 'N';
  f[40] = String(s.landlords.length); // 0 when 39 is N (FVU T_FV_6071)
  partyFields(f, 41, s.landlords);
  f[49] = s.lenders.length > 0 ? 'Y' : 'N';
  f[50] = String(s.lenders.length); // 0 when 49 is N (FVU T_FV_6081)
  partyFields(f, 51, s.lenders);
  f[59] = s.superannuation ? 'Y' : 'N';
  if (s.superannuation) {
    const sa = s.superannuation;
    f[60] = sa.fund;
    f[61] = formatDdMmYyyy(sa.from);
    f[62] = formatDdMmYyyy(sa.to);
    f[63] = formatPaise(sa.amount);
    f[64] = formatRate(sa.averageRate);
    f[65] = formatPaise(sa.tax);
    f[66] = formatPaise(x.grossTotalIncome + sa.amount);
  }
  f[67] = formatPaise(s.s17_1);
  f[68] = formatPaise(s.s17_2);
  f[69] = formatPaise(s.s17_3);
  f[70] = s.newRegime ? '' : formatPaise(s.travel);
  f[71] = formatPaise(s.gratuity);
  f[72] = formatPaise(s.pension);
  f[73] = formatPaise(s.leave);
  f[74] = s.newRegime ? '' : formatPaise(s.hra);
  f[75] = formatPaise(s.otherExemption);
  f[76] = formatPaise(x.exemptions);
  f[77] = formatPaise(s.otherSources);
  f[78] = formatPaise(s.rebate87A);
  f[79] = s.newRegime ? 'N' : 'Y'; // opting out of taxation u/s 115BAC(1A)
  f[80] = formatPaise(s.specialAllowances);
  f[81] = formatPaise(s.otherTds192_2B);
  return body(f);
}

/** S16 under an SD record, or P16 (the same 8 fields) under a 94P record. */
export function section16Record(sdRecord: number, k: number, section: string, amount: number, type: 'S16' | 'P16' = 'S16'): string {
  const f = blank(FIELD_COUNTS.legacy[type]);
  f[2] = type;
  f[3] = '1';
  f[4] = String(sdRecord);
  f[5] = String(k);
  f[6] = section;
  f[7] = formatPaise(amount);
  return body(f);
}

export function chapter6ARecord(sdRecord: number, k: number, e: Chapter6AEntry): string {
  const f = blank(FIELD_COUNTS.legacy.C6A);
  f[2] = 'C6A';
  f[3] = '1';
  f[4] = String(sdRecord);
  f[5] = String(k);
  f[6] = e.section;
  f[7] = formatPaise(e.deductible);
  f[8] = formatPaise(e.gross);
  f[9] = e.qualifying === null ? '' : formatPaise(e.qualifying);
  return body(f);
}

/** The SD record followed by its S16 and C6A records. */
export function salaryGroup(s: SalaryDetail): string[] {
  return [
    salaryRecord(s),
    ...s.section16.map((e, i) => section16Record(s.record, i + 1, e.section, e.amount)),
    ...s.chapter6A.map((e, i) => chapter6ARecord(s.record, i + 1, e)),
  ];
}

/**
 * s.194P detail of a specified senior citizen (24Q Q4 v7.5). Field list: tds-txt-format §4.5 (one C# app,
 * `Get194PString`, the only public writer; record names confirmed by the TS module for 24Q Q4 v7.5): addendum
 * §3, Medium. The record has no employment period, exemptions, previous employer or TDS fields.
 */
export interface SeniorCitizenDetail {
  record: number;
  pan: string;
  name: string;
  category: string;
  newRegime: boolean;
  // paise
  pension: number;
  bankInterest: number;
  section16: Array<{ section: '16(ia)' | '16(ii)' | '16(iii)'; amount: number }>;
  chapter6A: Chapter6AEntry[];
  incomeTax: number;
  rebate87A: number;
  surcharge: number;
  cess: number;
  relief89: number;
}

/** Derived amounts of a 94P record (94P field numbers in the comments). */
export function seniorCitizenFigures(s: SeniorCitizenDetail) {
  const section16 = s.section16.reduce((a, e) => a + e.amount, 0); // 12
  const chargeable = s.pension - section16; // 13
  const grossTotalIncome = chargeable + s.bankInterest; // 15
  const chapter6A = s.chapter6A.reduce((a, e) => a + e.deductible, 0); // 19
  const totalPayable = s.incomeTax - s.rebate87A + s.surcharge + s.cess; // 25
  const aggregate80C = s.chapter6A.filter((e) => e.section === '80C' || e.section === '80CCC' || e.section === '80CCD(1)').reduce((a, e) => a + e.deductible, 0); // 17
  return { section16, chargeable, grossTotalIncome, chapter6A, taxableIncome: grossTotalIncome - chapter6A, totalPayable, netTax: totalPayable - s.relief89, aggregate80C };
}

export function seniorCitizenRecord(s: SeniorCitizenDetail): string {
  const x = seniorCitizenFigures(s);
  const f = blank(FIELD_COUNTS.legacy['94P']);
  f[2] = '94P';
  f[3] = '1';
  f[4] = String(s.record);
  f[5] = 'A';
  f[6] = s.pan;
  f[7] = s.name;
  f[8] = s.category;
  f[9] = s.newRegime ? 'N' : 'Y'; // opting out of taxation u/s 115BAC(1A), as SD field 79
  f[10] = formatPaise(s.pension);
  f[11] = String(s.section16.length);
  f[12] = formatPaise(x.section16);
  f[13] = formatPaise(x.chargeable);
  f[14] = formatPaise(s.bankInterest); // income from other sources: interest from the specified bank
  f[15] = formatPaise(x.grossTotalIncome);
  f[17] = formatPaise(x.aggregate80C);
  f[18] = String(s.chapter6A.length);
  f[19] = formatPaise(x.chapter6A);
  f[20] = formatPaise(x.taxableIncome);
  f[21] = formatPaise(s.incomeTax);
  f[22] = formatPaise(s.rebate87A);
  f[23] = formatPaise(s.surcharge);
  f[24] = formatPaise(s.cess);
  f[25] = formatPaise(x.totalPayable);
  f[26] = formatPaise(s.relief89);
  f[27] = formatPaise(x.netTax);
  return body(f);
}

/**
 * P6A field order after the section id. The one public writer (addendum §3) writes gross, qualifying,
 * deductible, unlike its own C6A (deductible, gross, qualifying): we follow it, and keep the order here.
 */
export const P6A_AMOUNT_FIELDS = { gross: 7, qualifying: 8, deductible: 9 } as const;

export function seniorChapter6ARecord(record: number, k: number, e: Chapter6AEntry): string {
  const f = blank(FIELD_COUNTS.legacy.P6A);
  f[2] = 'P6A';
  f[3] = '1';
  f[4] = String(record);
  f[5] = String(k);
  f[6] = e.section;
  f[P6A_AMOUNT_FIELDS.gross] = formatPaise(e.gross);
  f[P6A_AMOUNT_FIELDS.qualifying] = e.qualifying === null ? '' : formatPaise(e.qualifying);
  f[P6A_AMOUNT_FIELDS.deductible] = formatPaise(e.deductible);
  return body(f);
}

/** The 94P record followed by its P16 (same shape as S16) and P6A records. */
export function seniorCitizenGroup(s: SeniorCitizenDetail): string[] {
  return [
    seniorCitizenRecord(s),
    ...s.section16.map((e, i) => section16Record(s.record, i + 1, e.section, e.amount, 'P16')),
    ...s.chapter6A.map((e, i) => seniorChapter6ARecord(s.record, i + 1, e)),
  ];
}
