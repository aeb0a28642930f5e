// Writes the statement: FH, BH, then each CD followed by its DD records, then (24Q Q4) the salary groups.
// Line numbers run 1..n over the whole file; every line ends with CRLF.

import type { Statement } from './build/assembler.js';
import type { CivilDate } from './dates.js';
import type { ResolvedOptions } from './options.js';
import { challanRecord } from './records/challan.js';
import { line } from './records/fields.js';
import { fileHeader, statementBatchHeader } from './records/header.js';

function headerBodies(statement: Statement, options: ResolvedOptions, created: CivilDate): [string, string] {
  return [fileHeader(options.form, options.tan, created), statementBatchHeader(statement, options)];
}

export interface SyncRecords {
  deductees(challanRecord: number): Iterable<string>;
  salaryGroups(): Iterable<readonly string[]>;
}

export function* statementLines(statement: Statement, options: ResolvedOptions, created: CivilDate, records: SyncRecords): Generator<string> {
  let n = 0;
  for (const b of headerBodies(statement, options, created)) yield line(++n, b);
  for (const c of statement.challans) {
    yield line(++n, challanRecord(options.form.family, c));
    for (const b of records.deductees(c.record)) yield line(++n, b);
  }
  for (const group of records.salaryGroups()) for (const b of group) yield line(++n, b);
}
