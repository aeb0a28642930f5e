/**
 * Test-side reader for FVU statement TXT files. It turns a TXT back into batches, challans, deductees and
 * salary records so that golden and property tests can compare what the engine wrote with what the
 * workbook said, and it recomputes every control total from the detail records. It is deliberately
 * independent of the engine: it only knows the layout tables in ./layouts.ts.
 */
import { FIELD_COUNTS, fieldCount, fieldLabel, type Family, type RecordType } from './layouts.js';

export interface TxtRecord {
  /** Physical line in the file, 1-based. */
  readonly physicalLine: number;
  readonly type: RecordType;
  /** Field values, 0-based storage; read them with field(record, n) using the layout's 1-based numbers. */
  readonly values: readonly string[];
}

export interface ParsedChallan {
  readonly cd: TxtRecord;
  readonly deductees: TxtRecord[];
}

export interface ParsedSalary {
  readonly sd: TxtRecord;
  readonly s16: TxtRecord[];
  readonly c6a: TxtRecord[];
}

export interface ParsedBatch {
  readonly bh: TxtRecord;
  readonly challans: ParsedChallan[];
  readonly salaries: ParsedSalary[];
  /** 24Q Q4 s.194P details: a 94P record (in `sd`) with its P16 (`s16`) and P6A (`c6a`) children. */
  readonly seniors: ParsedSalary[];
}

export interface ParsedStatement {
  readonly family: Family;
  readonly records: readonly TxtRecord[];
  readonly fh: TxtRecord;
  readonly batches: ParsedBatch[];
}

export class TxtShapeError extends Error {}

/** 1-based field access, as the layout tables number fields. */
export function field(record: TxtRecord, n: number): string {
  const value = record.values[n - 1];
  if (value === undefined) throw new TxtShapeError(`${record.type} on line ${record.physicalLine} has no field ${n}`);
  return value;
}

const KNOWN_TYPES = new Set<string>(['FH', 'BH', 'CD', 'DD', 'SD', 'S16', 'C6A', '94P', 'P16', 'P6A']);

/** Splits on CRLF and refuses bare CR/LF, a missing final CRLF and non-ASCII bytes. */
export function splitCrlfLines(txt: string): string[] {
  if (!txt.endsWith('\r\n')) throw new TxtShapeError('the file does not end with CRLF');
  const lines = txt.slice(0, -2).split('\r\n');
  lines.forEach((line, index) => {
    if (/[\r\n]/.test(line)) throw new TxtShapeError(`line ${index + 1} contains a bare CR or LF`);
    if (/[^\x20-\x7e]/.test(line)) throw new TxtShapeError(`line ${index + 1} contains a non-printable or non-ASCII character`);
  });
  return lines;
}

function toRecord(line: string, physicalLine: number, family: Family): TxtRecord {
  const values = line.split('^');
  const type = values[1] ?? '';
  if (!KNOWN_TYPES.has(type) || FIELD_COUNTS[family][type as RecordType] === undefined) {
    throw new TxtShapeError(`line ${physicalLine}: unknown record type '${type}' for the ${family} family`);
  }
  const record: TxtRecord = { physicalLine, type: type as RecordType, values };
  const expected = fieldCount(family, record.type);
  if (values.length !== expected) {
    throw new TxtShapeError(`line ${physicalLine}: ${type} has ${values.length} fields, the ${family} layout has ${expected}`);
  }
  return record;
}

/** Which DD field points at the challan: legacy field 4; new forms field 5 (see DECISIONS.md, D-02). */
export function challanRefField(family: Family): number {
  return family === 'legacy' ? 4 : 5;
}

export function deducteeNoField(family: Family): number {
  return family === 'legacy' ? 5 : 4;
}

interface Cursor { batch?: ParsedBatch; challan?: ParsedChallan; salary?: ParsedSalary }

/** The parent record type of each salary child record. */
const PARENT: Partial<Record<RecordType, RecordType>> = { S16: 'SD', C6A: 'SD', P16: '94P', P6A: '94P' };

function place(statement: ParsedStatement, cursor: Cursor, record: TxtRecord): void {
  const where = `line ${record.physicalLine}`;
  switch (record.type) {
    case 'FH':
      throw new TxtShapeError(`${where}: a second FH record`);
    case 'BH':
      cursor.batch = { bh: record, challans: [], salaries: [], seniors: [] };
      cursor.challan = undefined;
      cursor.salary = undefined;
      statement.batches.push(cursor.batch);
      return;
    case 'CD':
      if (!cursor.batch) throw new TxtShapeError(`${where}: CD before any BH`);
      if (cursor.batch.salaries.length + cursor.batch.seniors.length > 0) throw new TxtShapeError(`${where}: CD after the salary records`);
      cursor.challan = { cd: record, deductees: [] };
      cursor.batch.challans.push(cursor.challan);
      return;
    case 'DD':
      if (!cursor.challan || cursor.salary) throw new TxtShapeError(`${where}: DD not directly under a CD`);
      cursor.challan.deductees.push(record);
      return;
    case 'SD':
      if (!cursor.batch) throw new TxtShapeError(`${where}: SD before any BH`);
      if (cursor.batch.seniors.length > 0) throw new TxtShapeError(`${where}: SD after the 94P records`);
      cursor.salary = { sd: record, s16: [], c6a: [] };
      cursor.batch.salaries.push(cursor.salary);
      return;
    case '94P':
      if (!cursor.batch) throw new TxtShapeError(`${where}: 94P before any BH`);
      cursor.salary = { sd: record, s16: [], c6a: [] };
      cursor.batch.seniors.push(cursor.salary);
      return;
    case 'S16':
    case 'P16': {
      const parent = cursor.salary;
      if (!parent || parent.sd.type !== PARENT[record.type] || parent.c6a.length > 0) throw new TxtShapeError(`${where}: ${record.type} not under its ${PARENT[record.type]}, or after its deduction rows`);
      parent.s16.push(record);
      return;
    }
    case 'C6A':
    case 'P6A': {
      const parent = cursor.salary;
      if (!parent || parent.sd.type !== PARENT[record.type]) throw new TxtShapeError(`${where}: ${record.type} not under its ${PARENT[record.type]}`);
      parent.c6a.push(record);
      return;
    }
  }
}

/** Parses a whole TXT; throws TxtShapeError on anything a layout table forbids structurally. */
export function parseTxt(txt: string, family: Family): ParsedStatement {
  const lines = splitCrlfLines(txt);
  const records = lines.map((line, index) => toRecord(line, index + 1, family));
  const first = records[0];
  if (!first || first.type !== 'FH') throw new TxtShapeError('the first record is not FH');
  const statement: ParsedStatement = { family, records, fh: first, batches: [] };
  const cursor: Cursor = {};
  for (const record of records.slice(1)) place(statement, cursor, record);
  return statement;
}

// ---------------------------------------------------------------------------------------------------------
// Number formats

const AMOUNT = /^\d{1,15}\.\d{2}$/;
const RATE = /^\d{1,3}\.\d{4}$/;

/** Amount text to paise; the format is the one the layouts require (2 decimals, no sign, no padding). */
export function paise(text: string, label: string): number {
  if (!AMOUNT.test(text)) throw new TxtShapeError(`${label}: '${text}' is not an amount with 2 decimals`);
  const [rupees, fraction] = text.split('.') as [string, string];
  return Number(rupees) * 100 + Number(fraction);
}

/** Paise back to amount text. */
export function amountText(valuePaise: number): string {
  const sign = valuePaise < 0 ? '-' : '';
  const abs = Math.abs(valuePaise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function isRate(text: string): boolean {
  return RATE.test(text);
}

/** ddmmyyyy that names a real calendar day. */
export function isDdmmyyyy(text: string): boolean {
  const match = /^(\d{2})(\d{2})(\d{4})$/.exec(text);
  if (!match) return false;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// ---------------------------------------------------------------------------------------------------------
// Control totals, recomputed from the detail records

type Problems = string[];

function expectEqual(problems: Problems, label: string, actual: string, expected: string): void {
  if (actual !== expected) problems.push(`${label}: is '${actual}', the records give '${expected}'`);
}

function sumField(records: readonly TxtRecord[], n: number, family: Family): number {
  return records.reduce((total, record) => {
    const text = field(record, n);
    return total + (text === '' ? 0 : paise(text, fieldLabel(family, record.type, n)));
  }, 0);
}

function amountOf(record: TxtRecord, n: number, family: Family): number {
  const text = field(record, n);
  return text === '' ? 0 : paise(text, fieldLabel(family, record.type, n));
}

function checkLegacyChallan(problems: Problems, challan: ParsedChallan): void {
  const { cd, deductees } = challan;
  const label = (n: number): string => `${fieldLabel('legacy', 'CD', n)} on line ${cd.physicalLine}`;
  const oltas = [22, 23, 24, 25, 26, 39].reduce((total, n) => total + amountOf(cd, n, 'legacy'), 0);
  expectEqual(problems, label(27), field(cd, 27), amountText(oltas));
  expectEqual(problems, label(29), field(cd, 29), amountText(sumField(deductees, 19, 'legacy')));
  for (const [cdField, ddField] of [[30, 14], [31, 15], [32, 16], [33, 17]] as const) {
    expectEqual(problems, label(cdField), field(cd, cdField), amountText(sumField(deductees, ddField, 'legacy')));
  }
  expectEqual(problems, label(34), field(cd, 34), field(cd, 25));
  expectEqual(problems, label(35), field(cd, 35), field(cd, 26));
  for (const dd of deductees) {
    const parts = [14, 15, 16].reduce((total, n) => total + amountOf(dd, n, 'legacy'), 0);
    expectEqual(problems, `${fieldLabel('legacy', 'DD', 17)} on line ${dd.physicalLine}`, field(dd, 17), amountText(parts));
  }
}

function checkNewChallan(problems: Problems, challan: ParsedChallan): void {
  const { cd, deductees } = challan;
  const label = (n: number): string => `${fieldLabel('new', 'CD', n)} on line ${cd.physicalLine}`;
  const deposit = [8, 9, 10, 11].reduce((total, n) => total + amountOf(cd, n, 'new'), 0);
  expectEqual(problems, label(12), field(cd, 12), amountText(deposit));
  expectEqual(problems, label(21), field(cd, 21), amountText(sumField(deductees, 25, 'new')));
  expectEqual(problems, label(22), field(cd, 22), amountText(sumField(deductees, 24, 'new')));
}

function checkNumbering(problems: Problems, statement: ParsedStatement): void {
  statement.records.forEach((record, index) => {
    expectEqual(problems, `${fieldLabel(statement.family, record.type, 1)} on line ${index + 1}`, field(record, 1), String(index + 1));
  });
  const family = statement.family;
  statement.batches.forEach((batch, batchIndex) => {
    const batchNo = String(batchIndex + 1);
    expectEqual(problems, fieldLabel(family, 'BH', 3), field(batch.bh, 3), batchNo);
    batch.challans.forEach((challan, challanIndex) => {
      const challanNo = String(challanIndex + 1);
      expectEqual(problems, `${fieldLabel(family, 'CD', 3)} on line ${challan.cd.physicalLine}`, field(challan.cd, 3), batchNo);
      expectEqual(problems, `${fieldLabel(family, 'CD', 4)} on line ${challan.cd.physicalLine}`, field(challan.cd, 4), challanNo);
      challan.deductees.forEach((dd, ddIndex) => {
        const at = `on line ${dd.physicalLine}`;
        expectEqual(problems, `${fieldLabel(family, 'DD', 3)} ${at}`, field(dd, 3), batchNo);
        expectEqual(problems, `${fieldLabel(family, 'DD', challanRefField(family))} ${at}`, field(dd, challanRefField(family)), challanNo);
        expectEqual(problems, `${fieldLabel(family, 'DD', deducteeNoField(family))} ${at}`, field(dd, deducteeNoField(family)), String(ddIndex + 1));
      });
    });
    batch.salaries.forEach((salary, sdIndex) => checkSalaryNumbering(problems, salary, batchNo, String(sdIndex + 1)));
    batch.seniors.forEach((senior, index) => checkSalaryNumbering(problems, senior, batchNo, String(index + 1)));
  });
}

function checkSalaryNumbering(problems: Problems, salary: ParsedSalary, batchNo: string, sdNo: string): void {
  const at = (record: TxtRecord): string => `on line ${record.physicalLine}`;
  expectEqual(problems, `${fieldLabel('legacy', salary.sd.type, 3)} ${at(salary.sd)}`, field(salary.sd, 3), batchNo);
  expectEqual(problems, `${fieldLabel('legacy', salary.sd.type, 4)} ${at(salary.sd)}`, field(salary.sd, 4), sdNo);
  for (const children of [salary.s16, salary.c6a]) {
    children.forEach((child, index) => {
      expectEqual(problems, `${fieldLabel('legacy', child.type, 3)} ${at(child)}`, field(child, 3), batchNo);
      expectEqual(problems, `${fieldLabel('legacy', child.type, 4)} ${at(child)}`, field(child, 4), sdNo);
      expectEqual(problems, `${fieldLabel('legacy', child.type, 5)} ${at(child)}`, field(child, 5), String(index + 1));
    });
  }
}

function checkSalaryTotals(problems: Problems, salary: ParsedSalary): void {
  const sd = salary.sd;
  const label = (n: number): string => `${fieldLabel('legacy', 'SD', n)} on line ${sd.physicalLine}`;
  expectEqual(problems, label(15), field(sd, 15), String(salary.s16.length));
  expectEqual(problems, label(16), field(sd, 16), amountText(sumField(salary.s16, 7, 'legacy')));
  expectEqual(problems, label(21), field(sd, 21), String(salary.c6a.length));
  expectEqual(problems, label(22), field(sd, 22), amountText(sumField(salary.c6a, 7, 'legacy')));
}

/** 94P: 11/12 count and total of its P16 rows; 18/19 count and deductible total (P6A field 9) of its P6A rows. */
function checkSeniorTotals(problems: Problems, senior: ParsedSalary): void {
  const p = senior.sd;
  const label = (n: number): string => `${fieldLabel('legacy', '94P', n)} on line ${p.physicalLine}`;
  expectEqual(problems, label(11), field(p, 11), String(senior.s16.length));
  expectEqual(problems, label(12), field(p, 12), amountText(sumField(senior.s16, 7, 'legacy')));
  expectEqual(problems, label(18), field(p, 18), String(senior.c6a.length));
  expectEqual(problems, label(19), field(p, 19), amountText(sumField(senior.c6a, 9, 'legacy')));
}

function checkBatchTotals(problems: Problems, batch: ParsedBatch, family: Family, isSalaryQ4: boolean): void {
  const bh = batch.bh;
  expectEqual(problems, fieldLabel(family, 'BH', 4), field(bh, 4), String(batch.challans.length));
  const depositField = family === 'legacy' ? 27 : 12;
  const deposits = batch.challans.map((challan) => challan.cd);
  expectEqual(problems, fieldLabel(family, 'BH', 47), field(bh, 47), amountText(sumField(deposits, depositField, family)));
  for (const challan of batch.challans) {
    expectEqual(problems, `${fieldLabel(family, 'CD', 5)} on line ${challan.cd.physicalLine}`, field(challan.cd, 5), String(challan.deductees.length));
    if (family === 'legacy') checkLegacyChallan(problems, challan);
    else checkNewChallan(problems, challan);
  }
  if (isSalaryQ4) {
    expectEqual(problems, fieldLabel(family, 'BH', 49), field(bh, 49), String(batch.salaries.length));
    expectEqual(problems, fieldLabel(family, 'BH', 50), field(bh, 50), amountText(sumField(batch.salaries.map((s) => s.sd), 19, family)));
    batch.salaries.forEach((salary) => checkSalaryTotals(problems, salary));
    expectEqual(problems, fieldLabel(family, 'BH', 70), field(bh, 70), String(batch.seniors.length));
    expectEqual(problems, fieldLabel(family, 'BH', 71), field(bh, 71), amountText(sumField(batch.seniors.map((s) => s.sd), 15, family)));
    batch.seniors.forEach((senior) => checkSeniorTotals(problems, senior));
  }
}

/**
 * Running numbers of §3: line numbers 1..N, batch numbers, challan record numbers 1..n, the DD challan
 * reference and the deductee number restarting at 1 under each challan (DECISIONS.md D-03), SD/S16/C6A numbers.
 */
export function numberingProblems(statement: ParsedStatement): string[] {
  const problems: Problems = [];
  checkNumbering(problems, statement);
  return problems;
}

/**
 * Every control total of §5, recomputed from the detail records. Returns the list of disagreements (empty
 * when the file is consistent).
 */
export function controlTotalProblems(statement: ParsedStatement, options: { salaryQ4?: boolean } = {}): string[] {
  const problems: Problems = [];
  expectEqual(problems, fieldLabel(statement.family, 'FH', 9), field(statement.fh, 9), String(statement.batches.length));
  for (const batch of statement.batches) checkBatchTotals(problems, batch, statement.family, options.salaryQ4 ?? false);
  return problems;
}
