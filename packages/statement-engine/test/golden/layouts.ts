/**
 * Test-side record layouts: field counts and field names per format family, written from the layout
 * tables of the format research (tds-txt-format.md §4, corrected by tds-gaps.md). The names exist so that
 * a failing comparison says "DD field 14 (income tax)" rather than "index 13". Nothing here is imported
 * from the engine: these tables are the independent reading the golden tests check the engine against.
 */

export type Family = 'legacy' | 'new';
export type RecordType = 'FH' | 'BH' | 'CD' | 'DD' | 'SD' | 'S16' | 'C6A' | '94P' | 'P16' | 'P6A';

/** Field count per record type and family (a record has one fewer caret than fields). */
export const FIELD_COUNTS: Record<Family, Partial<Record<RecordType, number>>> = {
  legacy: { FH: 18, BH: 72, CD: 41, DD: 54, SD: 88, S16: 8, C6A: 10, '94P': 28, P16: 8, P6A: 10 },
  new: { FH: 18, BH: 72, CD: 30, DD: 45 },
};

/** Builds a 1-based label table from sparse entries; unnamed positions become "filler / NA". */
function labels(count: number, named: Record<number, string>): readonly string[] {
  const out: string[] = [''];
  for (let field = 1; field <= count; field += 1) out.push(named[field] ?? 'filler / not applicable');
  return out;
}

const FH = labels(18, {
  1: 'line number', 2: 'record type', 3: 'file type', 4: 'upload type', 5: 'file creation date',
  6: 'file sequence no.', 7: 'uploader type', 8: 'TAN of deductor', 9: 'total no. of batches',
  10: 'name of return preparation utility', 11: 'record hash', 12: 'FVU version', 13: 'file hash',
  14: 'SAM version', 15: 'SAM hash', 16: 'SCM version', 17: 'SCM hash', 18: 'consolidated file hash',
});

const LEGACY_BH = labels(72, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'count of challan records', 5: 'form number',
  9: 'token no. of previous regular statement', 13: 'TAN of deductor', 15: 'PAN of deductor',
  16: 'assessment year', 17: 'financial year', 18: 'period', 19: 'name of deductor', 20: 'branch / division',
  21: 'deductor address 1', 22: 'deductor address 2', 23: 'deductor address 3', 24: 'deductor address 4',
  25: 'deductor address 5', 26: 'deductor state', 27: 'deductor PIN', 28: 'deductor email',
  29: 'deductor STD code', 30: 'deductor telephone', 31: 'deductor address changed', 32: 'deductor type',
  33: 'responsible person name', 34: 'responsible person designation', 35: 'RP address 1', 36: 'RP address 2',
  37: 'RP address 3', 38: 'RP address 4', 39: 'RP address 5', 40: 'RP state', 41: 'RP PIN', 42: 'RP email',
  43: 'RP mobile', 44: 'RP STD code', 45: 'RP telephone', 46: 'RP address changed',
  47: 'batch total of deposit amount as per challan', 48: 'unmatched challan count',
  49: 'count of salary detail records', 50: 'batch total gross total income (SD)', 51: 'AO approval',
  52: 'regular statement filed for earlier period', 54: 'state name', 55: 'PAO code', 56: 'DDO code',
  57: 'ministry name', 58: 'ministry name (others)', 59: 'PAN of responsible person',
  60: 'PAO registration no.', 61: 'DDO registration no.', 68: 'AIN of PAO/TO/CDDO', 69: 'GSTN',
  70: 'count of 194P detail records', 71: 'batch total GTI (194P)', 72: 'record hash',
});

const NEW_BH = labels(72, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'count of challan records', 5: 'form number',
  9: 'token no. of previous regular statement', 13: 'TAN of deductor', 15: 'PAN of deductor',
  16: 'assessment year', 17: 'tax year', 18: 'period', 19: 'name of deductor', 20: 'deductor country',
  21: 'deductor address 1 (flat/door/block)', 22: 'deductor address 2 (post office)',
  23: 'deductor address 3 (road/street)', 24: 'deductor address 4 (area/locality)',
  25: 'deductor address 5 (district)', 26: 'deductor state', 27: 'deductor PIN', 28: 'deductor email',
  29: 'deductor contact country code', 30: 'deductor contact number', 32: 'deductor type',
  33: 'responsible person name', 34: 'responsible person designation', 35: 'RP address 1', 36: 'RP address 2',
  37: 'RP address 3', 38: 'RP address 4', 39: 'RP address 5', 40: 'RP state', 41: 'RP PIN', 42: 'RP email',
  43: 'RP country', 44: 'RP contact country code', 45: 'RP contact number',
  47: 'batch total of deposit amount as per challan', 48: 'unmatched challan count',
  52: 'regular statement filed for earlier period', 54: 'state name', 57: 'ministry name',
  58: 'ministry name (others)', 59: 'PAN of responsible person', 68: 'AIN of PAO/TO/CDDO', 69: 'GSTN',
  72: 'record hash',
});

const LEGACY_CD = labels(41, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'challan detail record number',
  5: 'count of deductee records', 6: 'NIL challan indicator', 7: 'challan updation indicator',
  12: 'bank challan no.', 14: 'DDO serial no. (24G)', 16: 'BSR code', 18: 'date of challan', 21: 'section',
  22: 'OLTAS income tax', 23: 'OLTAS surcharge', 24: 'OLTAS cess', 25: 'OLTAS interest', 26: 'OLTAS others',
  27: 'total deposit as per challan', 29: 'total tax deposited as per deductee annexure',
  30: 'sum of DD income tax', 31: 'sum of DD surcharge', 32: 'sum of DD cess', 33: 'sum of DD total tax',
  34: 'interest', 35: 'others', 36: 'cheque / DD no.', 37: 'by book entry / cash', 38: 'remarks',
  39: 'fee u/s 234E', 40: 'minor head', 41: 'record hash',
});

const NEW_CD = labels(30, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'challan detail record number',
  5: 'count of deductee records', 6: 'NIL challan indicator', 7: 'challan updation indicator',
  8: 'total tax deducted', 9: 'total interest', 10: 'total fee', 11: 'total penalty / others',
  12: 'total of deposit amount as per challan', 13: 'mode of payment', 15: 'BSR code / 137 receipt no.',
  17: 'bank challan no. / DDO serial no.', 19: 'date of challan / transfer voucher',
  21: 'total tax deposited as per deductee annexure', 22: 'total tax deducted as per deductee annexure',
  23: 'minor head', 24: 'interest allocation (FVU 1.2)', 25: 'others allocation (FVU 1.2)',
  30: 'record hash',
});

const LEGACY_DD = labels(54, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'challan detail record number',
  5: 'deductee detail record number', 6: 'mode', 7: 'employee serial / reference no.', 8: 'deductee code',
  10: 'PAN', 12: 'PAN reference no.', 13: 'name', 14: 'income tax', 15: 'surcharge', 16: 'cess',
  17: 'total tax deducted', 19: 'total tax deposited', 21: 'total value of purchase',
  22: 'amount paid / credited', 23: 'date of payment / credit', 24: 'date of deduction / collection',
  25: 'date of deposit', 26: 'rate', 27: 'grossing-up indicator', 30: 'remark (reason code)',
  31: 'remark 2 (27EQ: collectee is non-resident)', 32: 'remark 3 (27EQ: permanent establishment)',
  33: 'section / collection code', 34: 'certificate no.',
  35: '27Q: IT Act (A) or DTAA (B) / 27EQ: liable to TDS', 36: '27Q: nature of remittance / 27EQ: challan no.',
  37: '27Q: 15CA acknowledgement / 27EQ: challan date', 38: '27Q: country of residence', 39: '27Q: email',
  40: '27Q: contact number', 41: '27Q: address', 42: '27Q: tax identification number',
  43: '194N cash withdrawal 1', 44: '194N cash withdrawal 2', 45: '194N cash withdrawal 3',
  46: '194N cash withdrawal 4', 47: '194N cash withdrawal 5', 48: '194N cash withdrawal 6',
  49: 'opting out of 115BAC', 54: 'record hash',
});

/** New DD: the Form 140 table, with the Form 143/144 items where FVU 1.2 reads them (its DD tokenizer, FORMAT_NOTES §7). */
const NEW_DD = labels(45, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'deductee detail record number',
  5: 'challan reference number', 6: 'mode', 8: 'PAN', 9: 'name', 11: '143: collectee is non-resident',
  12: '143/144: deductee / collectee code', 13: '143: permanent establishment in India',
  14: '143/144: opting out of taxation regime u/s 202(1)', 15: 'section code', 16: '144: nature of remittance',
  17: '144: country to which remittance is made',
  18: 'tax deducted has been deposited', 19: 'date of payment / credit', 20: 'amount paid / credited',
  21: '144: grossing-up indicator', 22: 'cash withdrawal > 1 crore', 23: 'cash withdrawal > 3 crore (co-op)',
  24: 'total tax deducted', 25: 'total tax deposited', 27: 'date of deduction', 28: 'rate',
  29: 'remark 9 (138: date of deposit)', 30: '144: rate as per the Act (A) or DTAA (B)', 31: 'Form 121 UIN',
  32: 'reason for non/lower/higher deduction', 33: 'certificate no. u/s 395',
  34: '143: payment liable to TDS u/s 394(5)', 35: '143: TDS challan number', 36: '143: TDS date of payment',
  37: '144: address in country of residence', 38: '144: email', 39: '144: contact number',
  41: '144: tax identification number', 45: 'record hash',
});

const SD = labels(88, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'salary detail record number', 5: 'mode',
  6: 'employee serial no.', 7: 'employee PAN', 8: 'PAN reference no.', 9: 'employee name',
  10: 'employee category', 11: 'employment from', 12: 'employment to', 13: 'total amount of salary',
  15: 'count of S16 records', 16: 'gross total of section 16 deductions', 17: 'income chargeable under salaries',
  18: 'income under other heads offered for TDS', 19: 'gross total income', 21: 'count of C6A records',
  22: 'gross total of Chapter VI-A deductions', 23: 'total taxable income', 24: 'income tax on total income',
  25: 'surcharge', 26: 'health and education cess', 27: 'relief u/s 89', 28: 'net tax payable',
  29: 'total tax deducted for the year', 30: 'shortfall / excess', 31: 'aggregate 80C/80CCC/80CCD(1)',
  34: 'taxable amount, current employer', 35: 'reported taxable amount, previous employers',
  36: 'TDS by current employer', 37: 'TDS by previous employers', 38: 'higher rate for non-PAN',
  39: 'rent paid above 1 lakh', 40: 'count of landlord PANs', 49: 'interest paid to lender',
  50: 'count of lender PANs', 59: 'superannuation fund repaid', 67: 'salary u/s 17(1)',
  68: 'perquisites u/s 17(2)', 69: 'profits in lieu of salary u/s 17(3)', 70: 'travel concession 10(5)',
  71: 'gratuity 10(10)', 72: 'commuted pension 10(10A)', 73: 'leave encashment 10(10AA)', 74: 'HRA 10(13A)',
  75: 'other exemption u/s 10', 76: 'total exemption u/s 10', 77: 'income from other sources offered for TDS',
  78: 'rebate u/s 87A', 79: 'opting out of 115BAC(1A)', 80: 'special allowances 10(14)',
  81: 'other TDS/TCS u/s 192(2B)', 88: 'record hash',
});

const S16 = labels(8, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'salary detail record number',
  5: 'S16 record number', 6: 'section id', 7: 'amount', 8: 'record hash',
});

const C6A = labels(10, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: 'salary detail record number',
  5: 'C6A record number', 6: 'section id', 7: 'deductible amount', 8: 'gross amount', 9: 'qualifying amount',
  10: 'record hash',
});

/** s.194P detail of a specified senior citizen (24Q Q4): the 28-field list of tds-txt-format §4.5. */
const P94 = labels(28, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: '194P detail record number', 5: 'mode',
  6: 'PAN', 7: 'name', 8: 'category', 9: 'opting out of 115BAC(1A)', 10: 'gross salary / pension',
  11: 'count of P16 records', 12: 'total of section 16 deductions', 13: 'income chargeable',
  14: 'income from other sources (bank interest)', 15: 'gross total income', 17: 'aggregate 80C/80CCC/80CCD(1)',
  18: 'count of P6A records', 19: 'total of Chapter VI-A deductions', 20: 'total taxable income',
  21: 'income tax', 22: 'rebate u/s 87A', 23: 'surcharge', 24: 'health and education cess',
  25: 'total tax payable', 26: 'relief u/s 89', 27: 'net tax payable', 28: 'record hash',
});

const P16 = labels(8, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: '194P detail record number',
  5: 'P16 record number', 6: 'section id', 7: 'amount', 8: 'record hash',
});

/** P6A: gross, qualifying, deductible (the one public writer's order, addendum §3). */
const P6A = labels(10, {
  1: 'line number', 2: 'record type', 3: 'batch number', 4: '194P detail record number',
  5: 'P6A record number', 6: 'section id', 7: 'gross amount', 8: 'qualifying amount', 9: 'deductible amount',
  10: 'record hash',
});

const NAMES: Record<Family, Partial<Record<RecordType, readonly string[]>>> = {
  legacy: { FH, BH: LEGACY_BH, CD: LEGACY_CD, DD: LEGACY_DD, SD, S16, C6A, '94P': P94, P16, P6A },
  new: { FH, BH: NEW_BH, CD: NEW_CD, DD: NEW_DD },
};

/** "DD field 14 (income tax)": how every golden assertion names the field it checks. */
export function fieldLabel(family: Family, type: RecordType, field: number): string {
  const name = NAMES[family][type]?.[field] ?? 'unknown field';
  return `${type} field ${field} (${name})`;
}

export function fieldCount(family: Family, type: RecordType): number {
  const count = FIELD_COUNTS[family][type];
  if (count === undefined) throw new Error(`no ${type} record in the ${family} family`);
  return count;
}
