// Feeds a parsed workbook object to the reader: envelope check, name check, then sheets in the order the
// builder prefers (payer, payee, challan, payment, salary), so nothing has to wait for a later table.

import type { ProblemCollector } from '../problems.js';
import type { WorkbookReader } from './reader.js';
import { validateEnvelope, type ErrorObject } from './schemas.js';

const SHEET_ORDER = ['payer_sheet', 'payee_sheet', 'challan_sheet', 'payment_sheet', 'salary_detail_sheet'];

interface BlockObject {
  name: string;
  '@entity'?: string;
  items?: unknown[];
  header?: unknown[];
  rows?: unknown[];
}

interface SheetObject {
  name: string;
  blocks: BlockObject[];
}

function describeEnvelopeError(error: ErrorObject, workbook: { sheets?: unknown }): string {
  const parts = error.instancePath.split('/').slice(1);
  let where = 'workbook';
  if (parts[0] === 'sheets' && parts[1] !== undefined) {
    const sheet = Array.isArray(workbook.sheets) ? (workbook.sheets[Number(parts[1])] as { name?: unknown } | undefined) : undefined;
    where = `sheet ${typeof sheet?.name === 'string' ? `'${sheet.name}'` : `#${Number(parts[1]) + 1}`}`;
    if (parts[2] === 'blocks' && parts[3] !== undefined) where += ` block #${Number(parts[3]) + 1}`;
    if (parts.length > 4) where += ` ${parts.slice(4).join('.')}`;
  } else if (parts.length > 0) {
    where = `workbook ${parts.join('.')}`;
  }
  if (error.keyword === 'oneOf') return `${where}: a block needs either 'items' (a list) or 'header' and 'rows' (a table)`;
  return `${where} ${error.message ?? 'is not valid'}`;
}

/** False when the workbook could not be read at all (problems are already reported). */
export function walkWorkbook(workbook: unknown, reader: WorkbookReader, problems: ProblemCollector, expectedFor: string): boolean {
  const nowhere = { sheet: null, row: null, column: null };
  if (workbook === null || typeof workbook !== 'object' || Array.isArray(workbook)) {
    problems.add('WORKBOOK_NOT_OBJECT', nowhere, 'The workbook must be a JSON object with name and sheets');
    return false;
  }
  const errors = validateEnvelope(workbook);
  if (errors.length > 0) {
    for (const error of errors.slice(0, 20)) problems.add('WORKBOOK_SHAPE', nowhere, describeEnvelopeError(error, workbook));
    return false;
  }
  const wb = workbook as { name: unknown; sheets: SheetObject[] };
  if (!reader.checkName(wb.name, expectedFor)) return false;
  const rank = (name: string) => {
    const i = SHEET_ORDER.indexOf(name);
    return i < 0 ? SHEET_ORDER.length : i;
  };
  const sheets = wb.sheets.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s.name) - rank(b.s.name) || a.i - b.i);
  for (const { s } of sheets) {
    if (!reader.sheet(s.name)) continue;
    for (const block of s.blocks) {
      if (block.items !== undefined) {
        reader.list(s.name, block.name, block.items);
      } else {
        const receiver = reader.table(s.name, block.name, block.header ?? []);
        const rows = block.rows ?? [];
        for (let i = 0; i < rows.length; i++) receiver.row(i, rows[i]);
        receiver.end();
      }
    }
  }
  reader.finish();
  return true;
}
