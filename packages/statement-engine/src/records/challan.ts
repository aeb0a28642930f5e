// CD: challan detail. Legacy 41 fields, new 30 fields. Totals over deductee rows come from the builder.

import { challanTotal } from '../assembly/challans.js';
import type { Challan } from '../assembly/models.js';
import { NIL_CHALLAN_AMOUNTS } from '../codes/fvu-choices.js';
import { formatDdMmYyyy } from '../dates.js';
import type { Family } from '../period.js';
import { formatPaise } from '../money.js';
import { blank, body, FIELD_COUNTS } from './fields.js';

/** CD fields 2-6 mean the same in both families: record type, batch, challan record number, deductee count, nil challan. */
function challanFields(family: Family, c: Challan): string[] {
  const f = blank(FIELD_COUNTS[family].CD);
  f[2] = 'CD';
  f[3] = '1';
  f[4] = String(c.record);
  f[5] = String(c.deductees);
  f[6] = c.nil ? 'Y' : 'N';
  return f;
}

/** An amount field of the challan: a nil challan's amounts follow NIL_CHALLAN_AMOUNTS. */
function amountOf(c: Challan): (paise: number) => string {
  return c.nil && NIL_CHALLAN_AMOUNTS === 'empty' ? () => '' : formatPaise;
}

function legacyChallan(c: Challan): string {
  const f = challanFields('legacy', c);
  const amount = amountOf(c);
  f[12] = c.nil ? '' : c.serial; // bank challan number
  // 14: DDO serial number of Form 24G (book entry): the vendor's legacy workbooks have no book entries.
  f[16] = c.nil ? '' : c.bsr;
  f[18] = formatDdMmYyyy(c.date);
  f[22] = amount(c.incomeTax);
  f[23] = amount(c.surcharge);
  f[24] = amount(c.cess);
  f[25] = amount(c.interest);
  f[26] = amount(c.others);
  f[27] = amount(challanTotal(c)); // 22 + 23 + 24 + 25 + 26 + 39
  f[29] = amount(c.sumDeposited);
  f[30] = amount(c.sumIncomeTax);
  f[31] = amount(c.sumSurcharge);
  f[32] = amount(c.sumCess);
  f[33] = amount(c.sumDeducted);
  f[34] = amount(c.interest);
  f[35] = amount(c.others);
  f[37] = c.nil ? '' : 'N'; // by book entry / cash
  f[39] = amount(c.fee); // fee u/s 234E
  f[40] = c.nil ? '' : c.minorHead;
  return body(f);
}

function newChallan(c: Challan): string {
  const f = challanFields('new', c);
  const amount = amountOf(c);
  f[8] = amount(c.incomeTax); // total tax deducted (B)
  f[9] = amount(c.interest); // (C)
  f[10] = amount(c.fee); // (D)
  f[11] = amount(c.others); // (E)
  f[12] = amount(challanTotal(c)); // F = B + C + D + E
  f[13] = c.mode;
  f[15] = c.nil ? '' : c.bsr; // BSR code / Form 137 receipt number
  f[17] = c.nil ? '' : c.serial; // bank challan number / DDO serial number
  f[19] = formatDdMmYyyy(c.date);
  f[21] = amount(c.sumDeposited);
  f[22] = amount(c.sumDeducted);
  f[23] = c.minorHead;
  // 24/25: the challan's interest and others allocated to this statement (FVU 1.2: mandatory numbers, T_FV_6547/
  // T_FV_6549; 24 + 25 + fee + tax deposited <= the challan total, T_FV_6550). The whole interest and others of a
  // challan are this statement's (a challan is paid for one form and quarter). 26-29: fillers (T-FV-6392..6395).
  f[24] = amount(c.interest);
  f[25] = amount(c.others);
  return body(f);
}

export function challanRecord(family: Family, c: Challan): string {
  return family === 'legacy' ? legacyChallan(c) : newChallan(c);
}
