// Where built records wait until the file is written. convert() keeps them in memory; the streaming path
// spills them to temporary files so memory does not grow with the number of rows.

import type { RecordFieldCheck } from '../layouts/field-check.js';
import type { SalaryDetail, SeniorCitizenDetail } from '../records/salary.js';
import { StringFieldWriter, type FieldWriter } from '../records/field-writer.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import type { Problem } from '../types.js';

/** DD records (without line numbers), grouped by challan record number, in arrival order. */
export interface DeducteeStore {
  /** A writer for the challan's next record; the record is stored when the writer's end() is called. */
  record(challanRecord: number): FieldWriter;
}

/** The parsed record a salary group is written from: an SD (with S16/C6A) or a 94P (with P16/P6A). */
export type SalarySource = { kind: 'SD'; detail: SalaryDetail } | { kind: '94P'; detail: SeniorCitizenDetail };

/** SD records with their S16/C6A children, one group per employee, in order. */
export interface SalaryStore {
  /** `source` is the record the group was written from: kept only by stores that need it (salaryAnnexure()). */
  append(group: readonly string[], source: SalarySource): void;
}

/**
 * Where each record of the statement comes from: the challan sheet row of each challan record and the payment
 * sheet rows of each challan's deductee records, in record order. correct() uses it to report a refused change
 * at its workbook row; for an .xlsx workbook the reader sets `annotate`, which adds the Excel cells.
 */
export class RowTrail {
  private readonly challans = new Map<number, number>();
  private readonly deductees = new Map<number, number[]>();
  annotate: ((problems: Problem[]) => void) | null = null;

  challan(record: number, row: number): void {
    this.challans.set(record, row);
  }

  deductee(challanRecord: number, row: number): void {
    let rows = this.deductees.get(challanRecord);
    if (!rows) this.deductees.set(challanRecord, (rows = []));
    rows.push(row);
  }

  challanRow(record: number): number | null {
    return this.challans.get(record) ?? null;
  }

  /** The payment row of the challan's `index`-th deductee record (0-based). */
  deducteeRow(challanRecord: number, index: number): number | null {
    return this.deductees.get(challanRecord)?.[index] ?? null;
  }
}

/** Rows that arrived before the tables they refer to (only possible when streaming an unusual key order). */
export interface LateRows {
  push(layout: TableLayout, row: TableRow): void;
  drain(handle: (layout: TableLayout, row: TableRow) => void): void;
}

export class MemoryDeducteeStore implements DeducteeStore {
  private readonly byChallan = new Map<number, string[]>();
  private target = 0;
  private readonly writer: StringFieldWriter;

  /**
   * @param fieldCount fields of a DD record in the statement's family
   * @param check the layout self-check of each record as it is written
   */
  constructor(
    fieldCount: number,
    private readonly check: RecordFieldCheck | null = null,
  ) {
    this.writer = new StringFieldWriter(fieldCount, (body) => this.append(this.target, body), check);
  }

  record(challanRecord: number): FieldWriter {
    this.target = challanRecord;
    this.check?.start(challanRecord);
    return this.writer;
  }

  private append(challanRecord: number, recordBody: string): void {
    let list = this.byChallan.get(challanRecord);
    if (!list) {
      list = [];
      this.byChallan.set(challanRecord, list);
    }
    list.push(recordBody);
  }

  bodies(challanRecord: number): readonly string[] {
    return this.byChallan.get(challanRecord) ?? [];
  }
}

export class MemorySalaryStore implements SalaryStore {
  readonly groups: Array<readonly string[]> = [];

  append(group: readonly string[]): void {
    this.groups.push(group);
  }
}

export class MemoryLateRows implements LateRows {
  private rows: Array<[TableLayout, TableRow]> = [];

  push(layout: TableLayout, row: TableRow): void {
    this.rows.push([layout, row]);
  }

  drain(handle: (layout: TableLayout, row: TableRow) => void): void {
    const rows = this.rows;
    this.rows = [];
    for (const [layout, row] of rows) handle(layout, row);
  }
}
