// FH, the file header: 18 fields in both families (tds-txt-format.md §4.1).

import type { Family } from '../period.js';
import type { FormName } from '../types.js';
import { field as f, layout, na, type RecordLayout } from './types.js';

/** FH field 3 per form: SL1 salary, NS1 non-salary, TC1 collection (§4.1; T-FV-1004). */
const FILE_TYPES = { other: ['NS1'], '24Q': ['SL1'], '138': ['SL1'], '27EQ': ['TC1'], '143': ['TC1'] } as const;

export function fileHeader(family: Family, version: string, forms: readonly FormName[]): RecordLayout {
  return layout({
    family,
    recordType: 'FH',
    version,
    source: 'tds-txt-format.md §4.1 (Form 140 v1.0 extraction, Odoo, legacy Java comments, FVU error list); 18 fields per §2 rule 9',
    forms,
    numbering: { counts: [{ field: 9, child: 'BH' }] },
    count: 18,
    fields: [
      f(1, 'Line Number', 'INT', 9, 'M'),
      f(2, 'Record Type', 'CHAR', 2, 'M', { values: ['FH'] }),
      f(3, 'File Type', 'CHAR', 3, 'M', { values: FILE_TYPES }),
      f(4, 'Upload Type', 'CHAR', 1, 'M', {
        values: ['R'],
        note: 'the regular formats say "Value should be R"',
        correction: { values: ['C'], note: 'C for a correction (T-FV-1005; tds-corrections.md §1.1)' },
      }),
      f(5, 'File Creation Date', 'DATE', 8, 'M'),
      f(6, 'File Sequence No.', 'INT', 9, 'M', { note: 'Form 140 marks it O, T-FV-1015 makes it mandatory for deductor uploads' }),
      f(7, 'Uploader Type', 'CHAR', 1, 'M', { values: ['D'] }),
      f(8, 'TAN of Deductor / Collector', 'CHAR', 10, 'M', { format: 'TAN' }),
      f(9, 'Total No. of Batches', 'INT', 9, 'M', {
        values: ['1'],
        note: 'a regular statement has one batch (T-FV-1012)',
        correction: { values: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'], note: 'a correction has one batch per correction type, at most 10 (T-FV-1008)' },
      }),
      f(10, 'Name of Return Preparation Utility', 'CHAR', 75, 'M'),
      na(11, 'Record Hash', 'T-FV-1017/1022'),
      na(12, 'FVU Version'),
      na(13, 'File Hash'),
      na(14, 'SAM Version'),
      na(15, 'SAM Hash'),
      na(16, 'SCM Version'),
      na(17, 'SCM Hash'),
      {
        ...na(18, 'Consolidated file hash'),
        correction: {
          type: 'CHAR',
          width: 100,
          presence: 'O',
          note: 'a correction copies the hash of the conso file (EY generateHeader, one implementation: tds-corrections.md §2.1); size not in the sources',
        },
      },
    ],
  });
}
