// Consumes the reader's records in any order and builds the statement: parties, payees, challans, deductee
// records (handed to a store as they are built) and the control totals. Nothing here does I/O.

import { GOVERNMENT_CATEGORIES } from '../codes/deductor.js';
import { IN_KIND_SECTIONS } from '../codes/sections.js';
import { formatForPeople } from '../dates.js';
import { formatPaise } from '../money.js';
import { writeDeducteeRecord } from '../records/deductee.js';
import type { Place } from '../problems.js';
import type { ListRecord, TableLayout, TableRow } from '../workbook/records.js';
import type { WorkbookSink } from '../workbook/reader.js';
import { CsiCheck } from '../csi/check.js';
import { buildChallan, challanIdentityOf, challanKeyReadable, challanTotal } from './challans.js';
import { col } from './columns.js';
import type { BuildContext } from './context.js';
import { buildDeductee, namedChallans } from './deductees.js';
import type { Challan, Contact, Deductee, Deductor, Payee, ResponsiblePerson } from './models.js';
import { buildDeductor, buildResponsiblePerson } from './parties.js';
import { buildPayee, payeeNumber } from './payees.js';
import { SalaryBuilder, type SalaryTotals } from './salary.js';
import type { DeducteeStore, LateRows, RowTrail, SalaryStore } from './stores.js';

/** Everything the writers need besides the stored records. */
export interface Statement {
  deductor: Deductor;
  responsible: ResponsiblePerson;
  challans: readonly Challan[];
  batchDeposit: number;
  /** Legacy 24Q Q4 only. */
  salary: SalaryTotals | null;
}

/** A party whose list is missing (already reported): empty fields, so the rest of the statement can be checked. */
function emptyContact(): Contact {
  return { name: '', pan: '', address: ['', '', '', '', ''], state: '', pin: '', email: '', country: '', callingCode: '', contactNumber: '' };
}

function emptyDeductor(): Deductor {
  return { ...emptyContact(), tan: '', branch: '', category: '', governmentState: '', ministry: '', ministryOther: '', ain: '', gstin: '' };
}

function emptyResponsible(): ResponsiblePerson {
  return { ...emptyContact(), designation: '' };
}

/** Payees by serial number: a dense array for the usual 1..n numbering, a map for anything else. */
class PayeeIndex {
  private readonly dense: Array<Payee | undefined> = [];
  private readonly sparse = new Map<number, Payee>();

  get(srNo: number): Payee | undefined {
    return Number.isInteger(srNo) && srNo >= 0 && srNo < 1e7 ? this.dense[srNo] : this.sparse.get(srNo);
  }

  has(srNo: number): boolean {
    return this.get(srNo) !== undefined;
  }

  set(srNo: number, payee: Payee): void {
    if (Number.isInteger(srNo) && srNo >= 0 && srNo < 1e7) {
      while (this.dense.length < srNo) this.dense.push(undefined);
      this.dense[srNo] = payee;
    } else {
      this.sparse.set(srNo, payee);
    }
  }
}

export class StatementAssembler implements WorkbookSink {
  private deductor: Deductor | null = null;
  private responsible: ResponsiblePerson | null = null;
  private readonly payees = new PayeeIndex();
  private readonly challans: Challan[] = [];
  /** By CIN (serial, BSR code and date): what makes two challan rows the same challan. */
  private readonly challanByIdentity = new Map<string, Challan>();
  /** serial -> BSR -> challan(s): payment rows name a challan by serial and BSR only, so several challans of
   *  different dates can answer (the payment's challan date then decides); no key string is built per row. */
  private readonly challanBySerial = new Map<string, Map<string, Challan | Challan[]>>();
  private payeesRead = false;
  private challansRead = false;
  private readonly salary: SalaryBuilder;
  private readonly lookups = {
    payee: (srNo: number) => this.payees.get(srNo),
    challan: (serial: string, bsr: string) => this.challanBySerial.get(serial)?.get(bsr),
    // A payee or challan row whose number or key could not be read (already reported) may be the one a
    // payment names: "unknown payee/challan" would then be a finding derived from that one bad cell.
    payeesUnreadable: false,
    challansUnreadable: false,
  };

  private readonly csi: CsiCheck | null;

  constructor(
    private readonly ctx: BuildContext,
    private readonly deductees: DeducteeStore,
    salaryStore: SalaryStore,
    private readonly late: LateRows,
    private readonly trail: RowTrail | null = null,
  ) {
    this.salary = new SalaryBuilder(ctx, salaryStore);
    this.csi = ctx.options.csi ? new CsiCheck(ctx, ctx.options.csi) : null;
  }

  list(record: ListRecord): void {
    if (record.spec.block === 'payer_list') this.deductor = buildDeductor(this.ctx, record);
    else this.responsible = buildResponsiblePerson(this.ctx, record);
  }

  tableStart(): void {}

  tableEnd(layout: TableLayout): void {
    if (layout.spec.sheet === 'payee_sheet') this.payeesRead = true;
    if (layout.spec.sheet === 'challan_sheet') this.challansRead = true;
  }

  row(layout: TableLayout, row: TableRow): void {
    switch (layout.spec.sheet) {
      case 'payee_sheet':
        return this.payeeRow(layout, row);
      case 'challan_sheet':
        return this.challanRow(layout, row);
      case 'payment_sheet':
        if (this.payeesRead && this.challansRead) return this.paymentRow(layout, row);
        return this.late.push(layout, row);
      case 'salary_detail_sheet':
        if (this.payeesRead) return this.salary.row(layout, row, (n) => this.payees.get(n));
        return this.late.push(layout, row);
    }
  }

  private payeeRow(layout: TableLayout, row: TableRow): void {
    const srNo = payeeNumber(row, layout);
    if (srNo === null) {
      if (row.damaged) this.lookups.payeesUnreadable = true;
      return;
    }
    if (this.payees.has(srNo)) {
      this.ctx.report('DUPLICATE_PAYEE', layout.place(row.number, col(layout.spec, 'sr_no')), `Payee number ${srNo} is already used in row ${this.payees.get(srNo)!.row}`);
      return;
    }
    const payee = buildPayee(this.ctx, layout, row);
    if (payee) this.payees.set(srNo, payee);
  }

  private challanRow(layout: TableLayout, row: TableRow): void {
    if (!challanKeyReadable(layout, row)) {
      this.lookups.challansUnreadable = true;
      return;
    }
    const identity = challanIdentityOf(layout, row);
    const existing = this.challanByIdentity.get(identity);
    if (existing) {
      this.ctx.report('DUPLICATE_CHALLAN', layout.place(row.number, 0), `This challan (serial, BSR code and date) is already in row ${existing.row}`);
      return;
    }
    const challan = buildChallan(this.ctx, layout, row, this.challans.length + 1);
    this.challans.push(challan);
    this.challanByIdentity.set(identity, challan);
    let byBsr = this.challanBySerial.get(challan.serial);
    if (!byBsr) {
      byBsr = new Map();
      this.challanBySerial.set(challan.serial, byBsr);
    }
    const same = byBsr.get(challan.bsr);
    if (same === undefined) byBsr.set(challan.bsr, challan);
    else if (Array.isArray(same)) same.push(challan);
    else byBsr.set(challan.bsr, [same, challan]);
  }

  private paymentRow(layout: TableLayout, row: TableRow): void {
    const d = buildDeductee(this.ctx, layout, row, this.lookups);
    if (d) {
      this.add(d);
      return;
    }
    // The row's problems are reported; its challan's totals now miss it, so they are not compared (all the
    // challans it may name, when its serial and BSR are shared).
    for (const challan of namedChallans(layout, row, this.lookups)) challan.incomplete = true;
  }

  private add(d: Deductee): void {
    const c = d.challan;
    c.deductees++;
    c.sumIncomeTax += d.incomeTax;
    c.sumSurcharge += d.surcharge;
    c.sumCess += d.cess;
    c.sumDeducted += d.deducted;
    c.sumDeposited += d.deposited;
    if (d.paymentDate < c.earliestPayment) c.earliestPayment = d.paymentDate;
    if (c.minorHead === '100' && heldToOnePan(this.ctx, d)) {
      if (c.rowPan === '') c.rowPan = d.payee.pan;
      if (d.payee.panKind !== 'valid' || d.payee.pan !== c.rowPan) c.rowPansDiffer = true;
    }
    writeDeducteeRecord(this.deductees.record(c.record), this.ctx.family, this.ctx.kind, d, c.deductees);
    this.trail?.deductee(c.record, d.row);
  }

  /** Runs rows that came early, then the checks that need the whole workbook. */
  finish(): Statement {
    this.payeesRead = true;
    this.challansRead = true;
    this.late.drain((layout, row) => this.row(layout, row));
    const deductor = this.deductor ?? emptyDeductor();
    const responsible = this.responsible ?? emptyResponsible();
    if (this.deductor && this.responsible && deductor.email === '' && responsible.email === '') {
      this.ctx.report('EMAIL_REQUIRED', { sheet: 'payer_sheet', row: null, column: 'payer_list.email' }, 'Give an email address for the deductor or the responsible person');
    }
    let batchDeposit = 0;
    for (const c of this.challans) {
      this.trail?.challan(c.record, c.row);
      if (!c.damaged) this.checkChallan(c, deductor);
      batchDeposit += challanTotal(c);
    }
    this.csi?.check(this.challans, this.deductor ? deductor.name : '');
    if (!Number.isSafeInteger(batchDeposit)) this.ctx.report('TOTAL_TOO_LARGE', { sheet: 'challan_sheet', row: null, column: null }, 'The batch total of challan deposits is too large');
    return { deductor, responsible, challans: this.challans, batchDeposit, salary: this.salary.finish() };
  }

  private checkChallan(c: Challan, deductor: Deductor): void {
    const place = { sheet: 'challan_sheet', row: c.row, column: null };
    const taxPlace = { ...place, column: c.taxColumn };
    // When a payment row naming the challan could not be read, its totals are partial and are not compared.
    if (!c.incomplete) this.compareTotals(c, place, taxPlace);
    if (c.minorHead === '100' && c.deductees > 0) {
      const p = this.ctx.period;
      if (c.date < p.quarterStart || c.date > p.quarterEnd || c.date > c.earliestPayment) {
        this.ctx.report('MINOR_HEAD_100_DATE', place, `A minor head 100 challan must be dated within the quarter and on or before ${formatForPeople(c.earliestPayment)}`);
      }
      // The tax a deductee pays himself (minor head 100) is one person's: the FVU wants one valid PAN on every row (T_FV_6307).
      if (c.rowPansDiffer) this.ctx.report('MINOR_HEAD_100_PAN', place, 'Every row under a minor head 100 challan must have the same PAN, and a valid one (not PANNOTAVBL, PANAPPLIED or PANINVALID)');
    }
    if (c.hasInKindSection && c.mode !== 'C') this.ctx.report('IN_KIND_REQUIRES_CHALLAN_MODE', place, 'Deductee rows in in-kind sections need a challan paid in mode C');
    if (c.mode === 'B' && deductor.category !== '' && !GOVERNMENT_CATEGORIES.has(deductor.category)) {
      this.ctx.report('BOOK_ENTRY_NOT_ALLOWED', place, `Book adjustment is only for government deductors, not category ${deductor.category}`);
    }
    if (!Number.isSafeInteger(c.sumDeposited) || !Number.isSafeInteger(c.sumDeducted)) this.ctx.report('TOTAL_TOO_LARGE', place, 'The challan totals are too large');
  }

  /** The challan's tax against the tax its deductee rows deposit, and whether it has any. */
  private compareTotals(c: Challan, place: Place, taxPlace: Place): void {
    if (c.nil) {
      // A nil challan deposits nothing: its rows are reported one by one when they carry tax (NIL_CHALLAN_ROW).
      if (c.deductees === 0) this.ctx.report('NIL_CHALLAN_WITHOUT_DEDUCTEES', place, 'A nil challan must carry the deductee rows it stands for, each with a remark for no deduction');
      return;
    }
    const tax = c.incomeTax + c.surcharge + c.cess;
    if (tax < c.sumDeposited) {
      this.ctx.report('CHALLAN_SHORT', taxPlace, `Challan tax ${formatPaise(tax)} is less than the ${formatPaise(c.sumDeposited)} its deductee rows say was deposited`);
    } else if (tax - c.sumDeposited >= 100 && !(c.minorHead === '100' && c.hasInKindSection)) {
      // (A minor head 100 challan pays the tax of in-kind rows, which show 0.00 deposited by rule.)
      this.ctx.report('CHALLAN_EXCESS', taxPlace, `Challan tax ${formatPaise(tax)} exceeds the ${formatPaise(c.sumDeposited)} its deductee rows deposit`);
    }
    if (c.deductees === 0) {
      if (c.minorHead === '100') this.ctx.report('MINOR_HEAD_100_EMPTY', place, 'A minor head 100 challan needs at least one deductee row');
      else this.ctx.report('CHALLAN_WITHOUT_DEDUCTEES', place, 'No payment row uses this challan');
    }
  }
}

/**
 * Rows the FVU holds to one valid PAN per minor-head-100 challan (T_FV_6307 / T_FV_6309): FVU 9.4 every row of 26Q and
 * 27Q; FVU 1.2 the in-kind rows of Form 140 (1034, 1038, 1059, 1061) and of Form 144 (1059, 1061). Read from their
 * FormValidator; FORMAT_NOTES.md §16.
 */
function heldToOnePan(ctx: BuildContext, d: Deductee): boolean {
  const form = ctx.form.formNumber;
  if (ctx.isLegacy) return form === '26Q' || form === '27Q';
  if (form === '140') return IN_KIND_SECTIONS.has(d.section);
  return form === '144' && (d.section === '1059' || d.section === '1061');
}
