import type { Family } from './period.js';
import type { FormName } from './types.js';

/** What a statement is about; the family then decides the form number and file layouts. */
export type FormKind = 'salary' | 'nonsalary' | 'nonresident' | 'tcs';

export type WorkbookName =
  | 'form24q_workbook'
  | 'form26q_workbook'
  | 'form27q_workbook'
  | 'form27eq_workbook'
  | 'form138_workbook'
  | 'form140_workbook'
  | 'form144_workbook'
  | 'form143_workbook';

export interface FormSpec {
  kind: FormKind;
  family: Family;
  /** BH field 5. */
  formNumber: FormName;
  /** FH field 3: SL1 salary, NS1 non-salary, TC1 collection. */
  fileType: 'SL1' | 'NS1' | 'TC1';
  workbook: WorkbookName;
}

export const FORM_KIND: Readonly<Record<FormName, FormKind>> = {
  '24Q': 'salary',
  '138': 'salary',
  '26Q': 'nonsalary',
  '140': 'nonsalary',
  '27Q': 'nonresident',
  '144': 'nonresident',
  '27EQ': 'tcs',
  '143': 'tcs',
};

const BY_KIND: Readonly<Record<FormKind, Record<Family, { formNumber: FormName; workbook: WorkbookName }>>> = {
  salary: { legacy: { formNumber: '24Q', workbook: 'form24q_workbook' }, new: { formNumber: '138', workbook: 'form138_workbook' } },
  nonsalary: { legacy: { formNumber: '26Q', workbook: 'form26q_workbook' }, new: { formNumber: '140', workbook: 'form140_workbook' } },
  nonresident: { legacy: { formNumber: '27Q', workbook: 'form27q_workbook' }, new: { formNumber: '144', workbook: 'form144_workbook' } },
  tcs: { legacy: { formNumber: '27EQ', workbook: 'form27eq_workbook' }, new: { formNumber: '143', workbook: 'form143_workbook' } },
};

const FILE_TYPE: Readonly<Record<FormKind, FormSpec['fileType']>> = {
  salary: 'SL1',
  nonsalary: 'NS1',
  nonresident: 'NS1',
  tcs: 'TC1',
};

export function formSpec(kind: FormKind, family: Family): FormSpec {
  const { formNumber, workbook } = BY_KIND[kind][family];
  return { kind, family, formNumber, fileType: FILE_TYPE[kind], workbook };
}

/** The workbook a form name is filled in, whichever family the name belongs to. */
export function workbookForForm(form: FormName): WorkbookName {
  const kind = FORM_KIND[form];
  const family: Family = /^\d+$/.test(form) ? 'new' : 'legacy';
  return BY_KIND[kind][family].workbook;
}

export function isFormName(value: string): value is FormName {
  return Object.prototype.hasOwnProperty.call(FORM_KIND, value);
}
