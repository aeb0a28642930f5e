// CD: challan detail. Legacy 41 fields, new 30 fields. Totals over deductee rows come from the builder.

import { challanTotal } from '../build/challans.js';
import type { Challan } from '../build/models.js';
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

function legacyChallan(c: Challan): string {
  const f = challanFields('legacy', c);
  f[12] = c.nil ? '' : c.serial; // bank challan number
  // 14: DDO serial number of Form 24G (book entry): the vendor's legacy workbooks have no book entries.
  f[16] = c.nil ? '' : c.bsr;
  f[18] = formatDdMmYyyy(c.date);
  f[22] = formatPaise(c.incomeTax);
  f[23] = formatPaise(c.surcharge);
  f[24] = formatPaise(c.cess);
  f[25] = formatPaise(c.interest);
  f[26] = formatPaise(c.others);
  f[27] = formatPaise(challanTotal(c)); // 22 + 23 + 24 + 25 + 26 + 39
  f[29] = formatPaise(c.sumDeposited);
  f[30] = formatPaise(c.sumIncomeTax);
  f[31] = formatPaise(c.sumSurcharge);
  f[32] = formatPaise(c.sumCess);
  f[33] = formatPaise(c.sumDeducted);
  f[34] = formatPaise(c.interest);
  f[35] = formatPaise(c.others);
  f[37] = c.nil ? '' : 'N'; // by book entry / cash
  f[39] = formatPaise(c.fee); // fee u/s 234E
  f[40] = c.nil ? '' : c.minorHead;
  return body(f);
}

function newChallan(c: Challan): string {
  const f = challanFields('new', c);
  f[8] = formatPaise(c.incomeTax); // total tax deducted (B)
  f[9] = formatPaise(c.interest); // (C)
  f[10] = formatPaise(c.fee); // (D)
  f[11] = formatPaise(c.others); // (E)
  f[12] = formatPaise(challanTotal(c)); // F = B + C + D + E
  f[13] = c.mode;
  f[15] = c.bsr; // BSR code / Form 137 receipt number
  f[17] = c.serial; // bank challan number / DDO serial number
  f[19] = formatDdMmYyyy(c.date);
  f[21] = formatPaise(c.sumDeposited);
  f[22] = formatPaise(c.sumDeducted);
  f[23] = c.minorHead;
  // 24-29 fillers (v1.2 interest/others allocation columns: position unverified, left empty).
  return body(f);
}

export function challanRecord(family: Family, c: Challan): string {
  return family === 'legacy' ? legacyChallan(c) : newChallan(c);
}
