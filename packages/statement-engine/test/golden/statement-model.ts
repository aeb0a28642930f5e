/**
 * The meaning of a statement, independent of its encoding: challans in order, each with its deductee rows,
 * and the batch total. Built twice: from a parsed TXT (fromTxt) and from the workbook the TXT was made from
 * (from26qWorkbook / from140Workbook), so the property test can check that a conversion loses nothing.
 */
import { amountText, field, type ParsedStatement, type TxtRecord } from './txt-parser.js';
import { rowRecord, type Cell, type ReadWorkbook, type WorkbookTable } from './workbook-reader.js';

export interface DeducteeModel {
  readonly pan: string;
  readonly name: string;
  readonly section: string;
  readonly amountPaid: string;
  readonly paymentDate: string;
  readonly deductionDate: string;
  readonly taxDeducted: string;
  readonly taxDeposited: string;
  readonly remark: string;
  readonly certificate: string;
}

export interface ChallanModel {
  readonly serial: string;
  readonly bsr: string;
  readonly date: string;
  readonly minorHead: string;
  readonly tax: string;
  readonly interest: string;
  readonly fee: string;
  readonly others: string;
  readonly deductees: readonly DeducteeModel[];
}

export interface StatementModel {
  readonly challans: readonly ChallanModel[];
  readonly batchTotalDeposit: string;
}

// ---------------------------------------------------------------------------------------------------------
// From the TXT

function legacyDeductee(dd: TxtRecord): DeducteeModel {
  return {
    pan: field(dd, 10), name: field(dd, 13), section: field(dd, 33), amountPaid: field(dd, 22),
    paymentDate: field(dd, 23), deductionDate: field(dd, 24), taxDeducted: field(dd, 17),
    taxDeposited: field(dd, 19), remark: field(dd, 30), certificate: field(dd, 34),
  };
}

function newDeductee(dd: TxtRecord): DeducteeModel {
  return {
    pan: field(dd, 8), name: field(dd, 9), section: field(dd, 15), amountPaid: field(dd, 20),
    paymentDate: field(dd, 19), deductionDate: field(dd, 27), taxDeducted: field(dd, 24),
    taxDeposited: field(dd, 25), remark: field(dd, 32), certificate: field(dd, 33),
  };
}

/** Legacy challan tax is income tax + surcharge + cess (CD fields 22-24); new forms have one field (CD 8). */
function legacyChallan(cd: TxtRecord, deductees: DeducteeModel[]): ChallanModel {
  const tax = [22, 23, 24].reduce((sum, n) => sum + Math.round(Number(field(cd, n)) * 100), 0);
  return {
    serial: field(cd, 12), bsr: field(cd, 16), date: field(cd, 18), minorHead: field(cd, 40),
    tax: amountText(tax), interest: field(cd, 25), fee: field(cd, 39), others: field(cd, 26), deductees,
  };
}

function newChallan(cd: TxtRecord, deductees: DeducteeModel[]): ChallanModel {
  return {
    serial: field(cd, 17), bsr: field(cd, 15), date: field(cd, 19), minorHead: field(cd, 23),
    tax: field(cd, 8), interest: field(cd, 9), fee: field(cd, 10), others: field(cd, 11), deductees,
  };
}

export function fromTxt(statement: ParsedStatement): StatementModel {
  const batch = statement.batches[0];
  if (!batch) throw new Error('the TXT has no batch');
  const legacy = statement.family === 'legacy';
  const challans = batch.challans.map(({ cd, deductees }) => {
    const rows = deductees.map(legacy ? legacyDeductee : newDeductee);
    return legacy ? legacyChallan(cd, rows) : newChallan(cd, rows);
  });
  return { challans, batchTotalDeposit: field(batch.bh, 47) };
}

// ---------------------------------------------------------------------------------------------------------
// From the workbook

const IST_OFFSET_MS = 330 * 60 * 1000;

/** Epoch milliseconds to the Indian calendar day, ddmmyyyy (DECISIONS.md D-04). */
export function istDdmmyyyy(epochMs: number): string {
  const shifted = new Date(epochMs + IST_OFFSET_MS);
  const dd = String(shifted.getUTCDate()).padStart(2, '0');
  const mm = String(shifted.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}${mm}${shifted.getUTCFullYear()}`;
}

export function rupees(value: Cell): string {
  return amountText(Math.round(Number(value ?? 0) * 100));
}

export interface CodeTables {
  /** nature_of_payment token → section code; a function for the 194C tokens that split by payee. */
  readonly section: (token: string, payeePan: string) => string;
  readonly remark: Readonly<Record<string, string>>;
  readonly minorHead: Readonly<Record<string, string>>;
}

interface ColumnNames {
  readonly challanTax: readonly string[];
  readonly rowTax: readonly string[];
  readonly rowDeposited: readonly string[];
  readonly interest: string;
  readonly fee: string;
  readonly others: string;
  readonly reason: string;
}

const COLUMNS_26Q: ColumnNames = {
  challanTax: ['tds_amount', 'surcharge', 'health_and_education_cess'],
  rowTax: ['tds_amount', 'surcharge', 'health_and_education_cess'],
  rowDeposited: ['tds_amount', 'surcharge', 'health_and_education_cess'],
  interest: 'interest', fee: 'late_filing_fees', others: 'other_penalty', reason: 'reason_for_lower_deduction',
};

const COLUMNS_140: ColumnNames = {
  challanTax: ['total_tax_deducted'], rowTax: ['total_tax_deducted'], rowDeposited: ['total_tax_deposited'],
  interest: 'interest', fee: 'late_filing_fees', others: 'other_penalty', reason: 'reason_for_lower_deduction',
};

function sumColumns(record: Record<string, Cell>, columns: readonly string[]): string {
  return amountText(columns.reduce((sum, column) => sum + Math.round(Number(record[column] ?? 0) * 100), 0));
}

function table(workbook: ReadWorkbook, name: string): WorkbookTable {
  const found = workbook.tables.get(name);
  if (!found) throw new Error(`workbook has no ${name}`);
  return found;
}

function payeesBySerial(workbook: ReadWorkbook): Map<number, { pan: string; name: string }> {
  const payees = table(workbook, 'payee_table');
  return new Map(payees.rows.map((row) => {
    const record = rowRecord(payees, row);
    return [Number(record.sr_no), { pan: String(record.pan), name: String(record.name) }];
  }));
}

function deducteeOf(
  record: Record<string, Cell>, payee: { pan: string; name: string }, codes: CodeTables, columns: ColumnNames,
): DeducteeModel {
  const taxDeducted = sumColumns(record, columns.rowTax);
  const hasTax = taxDeducted !== '0.00';
  const reason = record[columns.reason];
  return {
    pan: payee.pan, name: payee.name, section: codes.section(String(record.nature_of_payment), payee.pan),
    amountPaid: rupees(record.payment_amount ?? null), paymentDate: istDdmmyyyy(Number(record.payment_date_epoch)),
    deductionDate: hasTax ? istDdmmyyyy(Number(record.deduction_date_epoch)) : '',
    taxDeducted, taxDeposited: sumColumns(record, columns.rowDeposited),
    remark: typeof reason === 'string' ? (codes.remark[reason] ?? `?${reason}`) : '',
    certificate: typeof record.certificate_number === 'string' ? record.certificate_number : '',
  };
}

function fromWorkbook(workbook: ReadWorkbook, codes: CodeTables, columns: ColumnNames): StatementModel {
  const payees = payeesBySerial(workbook);
  const challanTable = table(workbook, 'challan_table');
  const payments = table(workbook, 'payment_table');
  const paymentRecords = payments.rows.map((row) => rowRecord(payments, row));
  let batchTotal = 0;
  const challans = challanTable.rows.map((row) => {
    const challan = rowRecord(challanTable, row);
    const mine = paymentRecords.filter((p) => p.challan_serial === challan.challan_serial && p.bsr_code === challan.bsr_code);
    const tax = sumColumns(challan, columns.challanTax);
    const [interest, fee, others] = [columns.interest, columns.fee, columns.others].map((c) => rupees(challan[c] ?? 0)) as [string, string, string];
    batchTotal += [tax, interest, fee, others].reduce((sum, text) => sum + Math.round(Number(text) * 100), 0);
    return {
      serial: String(challan.challan_serial), bsr: String(challan.bsr_code),
      date: istDdmmyyyy(Number(challan.paid_date_epoch)), minorHead: codes.minorHead[String(challan.minor_head)] ?? '?',
      tax, interest, fee, others,
      deductees: mine.map((p) => deducteeOf(p, payees.get(Number(p.payee_sr_no)) ?? { pan: '?', name: '?' }, codes, columns)),
    };
  });
  return { challans, batchTotalDeposit: amountText(batchTotal) };
}

export function from26qWorkbook(workbook: ReadWorkbook, codes: CodeTables): StatementModel {
  return fromWorkbook(workbook, codes, COLUMNS_26Q);
}

export function from140Workbook(workbook: ReadWorkbook, codes: CodeTables): StatementModel {
  return fromWorkbook(workbook, codes, COLUMNS_140);
}

/** Deductee rows in a canonical order, so the comparison does not depend on how the engine orders rows. */
export function canonical(model: StatementModel): StatementModel {
  const key = (d: DeducteeModel): string => JSON.stringify(d);
  return {
    batchTotalDeposit: model.batchTotalDeposit,
    challans: model.challans.map((c) => ({ ...c, deductees: [...c.deductees].sort((a, b) => key(a).localeCompare(key(b))) })),
  };
}
