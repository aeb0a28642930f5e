// workbookTemplate(form): an empty workbook with the form's sheets, list keys and table headers, in the
// vendor's layout (our optional extension keys and columns are left out).

import { StatementEngineError } from './errors.js';
import { isFormName, workbookForForm } from './forms.js';
import type { FormName } from './types.js';
import { WORKBOOKS } from './workbook/dialects.js';
import type { BlockSpec } from './workbook/spec.js';

export interface TemplateList {
  name: string;
  '@entity': 'list';
  items: Array<Record<string, string | null>>;
}

export interface TemplateTable {
  name: string;
  '@entity': 'table';
  header: string[];
  rows: unknown[][];
}

export interface WorkbookTemplate {
  name: string;
  '@entity': 'workbook';
  sheets: Array<{ name: string; '@entity': 'sheet'; blocks: Array<TemplateList | TemplateTable> }>;
}

function block(spec: BlockSpec): TemplateList | TemplateTable {
  if (spec.kind === 'list') {
    return { name: spec.block, '@entity': 'list', items: spec.fields.filter((f) => !f.extension).map((f) => ({ [f.key]: f.nullable ? null : '' })) };
  }
  return { name: spec.block, '@entity': 'table', header: spec.columns.filter((c) => !c.extension).map((c) => c.key), rows: [] };
}

/** The empty workbook a form is filled in (24Q includes the Q4 salary detail sheet). */
export function workbookTemplate(form: FormName): WorkbookTemplate {
  const name = typeof form === 'string' ? form.trim().toUpperCase() : String(form);
  if (!isFormName(name)) throw new StatementEngineError('INVALID_FORM', `Invalid form type: ${name.slice(0, 20)} (expected 24Q/138, 26Q/140, 27Q/144 or 27EQ/143)`);
  const spec = WORKBOOKS[workbookForForm(name)];
  return {
    name: spec.name,
    '@entity': 'workbook',
    sheets: spec.sheets.map((sheet) => ({ name: sheet.name, '@entity': 'sheet', blocks: sheet.blocks.map(block) })),
  };
}
