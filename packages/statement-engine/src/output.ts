// Writes the statement: FH, BH, then each CD followed by its DD records, then (24Q Q4) the salary groups.
// Line numbers run 1..n over the whole file; every line ends with CRLF.

import type { Statement } from './assembly/assembler.js';
import type { CivilDate } from './dates.js';
import type { ResolvedOptions } from './options.js';
import { challanRecord } from './records/challan.js';
import type { RecordFieldCheck } from './layouts/field-check.js';
import { selfCheckFor } from './layouts/index.js';
import { line } from './records/fields.js';
import { fileHeader, statementBatchHeader } from './records/header.js';

function headerBodies(statement: Statement, options: ResolvedOptions, created: CivilDate): [string, string] {
  return [fileHeader(options.form, options.tan, created), statementBatchHeader(statement, options)];
}

export interface SyncRecords {
  deductees(challanRecord: number): Iterable<string>;
  salaryGroups(): Iterable<readonly string[]>;
  /** The check that saw the deductee records' fields as they were written; without it they are checked here. */
  checked?: RecordFieldCheck;
}

/**
 * The TXT line by line, each checked against the published layout before it is given out (layouts/check.ts);
 * deductee records whose fields were checked as they were written are checked for their place in the file.
 */
export function* statementLines(statement: Statement, options: ResolvedOptions, created: CivilDate, records: SyncRecords): Generator<string> {
  const check = selfCheckFor(options);
  records.checked?.raise(statement.challans);
  const checked = (l: string) => {
    check.text(l);
    return l;
  };
  let n = 0;
  for (const b of headerBodies(statement, options, created)) yield checked(line(++n, b));
  for (const c of statement.challans) {
    yield checked(line(++n, challanRecord(options.form.family, c)));
    for (const b of records.deductees(c.record)) {
      const l = line(++n, b);
      if (records.checked) check.placedText(l);
      else check.text(l);
      yield l;
    }
  }
  for (const group of records.salaryGroups()) for (const b of group) yield checked(line(++n, b));
  check.finish();
}
