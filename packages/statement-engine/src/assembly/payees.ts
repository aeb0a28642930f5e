// payee_table rows -> Payee.

import { COUNTRY_ALIASES, COUNTRY_CODES } from '../codes/countries.js';
import { EMAIL_PATTERN, panKind } from '../codes/identifiers.js';
import { DEDUCTEE_CODE_PAN_LETTERS, deducteeCodeFromPan, deducteeType, deducteeTypeFromPan, employeeCategory } from '../codes/misc.js';
import type { TableLayout, TableRow } from '../workbook/records.js';
import { cell, col } from './columns.js';
import type { BuildContext } from './context.js';
import type { Payee } from './models.js';
import { fieldWidth } from '../layouts/compile.js';
import type { Place } from '../problems.js';
import { readIdentifier, readText } from './values.js';

export function countryCode(name: string): string | null {
  const upper = name.trim().toUpperCase();
  return COUNTRY_CODES.get(upper) ?? COUNTRY_CODES.get(COUNTRY_ALIASES.get(upper) ?? '') ?? (/^\d{1,3}$/.test(upper) ? upper.padStart(2, '0') : null);
}

function emptyPayee(srNo: number, row: number): Payee {
  return {
    srNo,
    row,
    pan: '',
    panKind: 'invalid',
    name: '',
    deducteeType: 'other',
    deducteeCode: '',
    damaged: true,
    newRegime: null,
    employeeCategory: '',
    countryCode: '',
    email: '',
    contactNumber: '',
    address: '',
    taxId: '',
    nonResident: null,
    permanentEstablishment: null,
  };
}

function optionalBoolean(cells: readonly unknown[], layout: TableLayout, key: string): boolean | null {
  const v = cell(cells, layout.spec, key);
  return typeof v === 'boolean' ? v : null;
}

/** Payee number of a row (also for damaged rows, so payments to it do not cascade), or null. */
export function payeeNumber(row: TableRow, layout: TableLayout): number | null {
  const v = row.cells[col(layout.spec, 'sr_no')];
  return typeof v === 'number' && Number.isInteger(v) ? v : null;
}

/**
 * Legacy forms identify a payee without PAN by a reference number (DD field 12; 24Q also field 7): the payee's
 * number, which must then fit the field.
 */
function checkReferenceNumber(ctx: BuildContext, srNo: number, place: () => Place): void {
  if (!ctx.isLegacy) return;
  const width = fieldWidth(ctx.family, ctx.form.formNumber, 'DD', 12);
  if (String(srNo).length > width) {
    ctx.report('FIELD_TOO_LONG', place, `A payee without PAN is identified in the TXT by its number, which can have at most ${width} digits`);
  }
}

export function buildPayee(ctx: BuildContext, layout: TableLayout, row: TableRow): Payee | null {
  const srNo = payeeNumber(row, layout);
  if (srNo === null) return null;
  const c = row.cells;
  const spec = layout.spec;
  // A damaged row's unreadable cells are empty here (their problems are reported). Without its PAN the payee
  // is known by number only; any other bad cell (a mobile, a flag) leaves the rest of the payee to check.
  if (row.damaged && cell(c, spec, 'pan') === null) return emptyPayee(srNo, row.number);
  const at = (key: string) => () => layout.place(row.number, col(layout.spec, key));
  if (srNo < 1) ctx.report('CELL_TYPE', at('sr_no'), 'sr_no must be 1 or more');
  const pan = readIdentifier(ctx, cell(c, spec, 'pan'), at('pan'), `Payee ${srNo} PAN`);
  const kind = panKind(pan);
  if (kind === 'invalid') ctx.report('INVALID_PAN', at('pan'), 'PAN is not a valid PAN, PANAPPLIED, PANINVALID or PANNOTAVBL');
  else if (kind !== 'valid') checkReferenceNumber(ctx, srNo, at('sr_no'));
  const payee: Payee = {
    ...emptyPayee(srNo, row.number),
    damaged: false,
    pan,
    panKind: kind,
    name: readText(ctx, cell(c, spec, 'name'), at('name'), 'Payee name', { max: fieldWidth(ctx.family, ctx.form.formNumber, 'DD', ctx.isLegacy ? 13 : 9), name: true }),
    deducteeType: kind === 'valid' ? deducteeTypeFromPan(pan) : 'other',
  };
  const typeToken = cell(c, spec, 'deductee_type');
  let typeCode: number | null = null;
  if (typeof typeToken === 'string' && typeToken.trim() !== '') {
    const t = deducteeType(typeToken);
    if (t === null) ctx.report('INVALID_DEDUCTEE_TYPE', at('deductee_type'), 'deductee_type is not one of the vendor deductee types');
    else [payee.deducteeType, typeCode] = [t.type, t.code];
  }
  payee.deducteeCode = deducteeCodeOf(ctx, payee, { token: typeof typeToken === 'string' ? typeToken.trim() : '', code: typeCode }, at);
  readSalaryColumns(ctx, payee, layout, row, at);
  readNonResidentColumns(ctx, payee, layout, row, at);
  payee.nonResident = optionalBoolean(c, layout, 'nri');
  payee.permanentEstablishment = optionalBoolean(c, layout, 'permanent_establishment_in_india');
  // Form 143 DD 13 (FVU 1.2 T_FV_6421): mandatory for a non-resident collectee, empty for a resident.
  if (!ctx.isLegacy && ctx.kind === 'tcs' && payee.nonResident === true && payee.permanentEstablishment === null) {
    ctx.report('PERMANENT_ESTABLISHMENT_REQUIRED', at('permanent_establishment_in_india'), `Payee ${srNo} is non-resident: say whether it has a permanent establishment in India`);
  }
  return payee;
}

/**
 * The deductee code. Legacy DD 8: 26Q (and 27Q/27EQ before FY 2023-24) `1` company, `2` other; 27Q/27EQ from
 * FY 2023-24 the vendor's code 1 to 10, which FVU 9.4 checks against a valid PAN's 4th letter (T-FV-4056). Forms
 * 143/144 DD 12 (FVU 1.2 T_FV_6417, mandatory): the same codes. The code is deductee_type's when given, else the
 * PAN's letter's; a type the PAN cannot have is refused, and a new-form payee without PAN needs the type.
 */
function deducteeCodeOf(ctx: BuildContext, payee: Payee, type: { token: string; code: number | null }, at: (k: string) => () => Place): string {
  const legacyTwo = payee.deducteeType === 'company' ? '1' : '2';
  if (ctx.kind === 'salary' || (!ctx.isLegacy && ctx.kind !== 'tcs' && ctx.kind !== 'nonresident')) return '';
  if (ctx.isLegacy && !usesDeducteeCodeList(ctx)) return legacyTwo;
  if (payee.panKind !== 'valid') {
    if (type.code !== null) return String(type.code);
    if (ctx.isLegacy) return legacyTwo;
    // An unknown token is already reported (INVALID_DEDUCTEE_TYPE); a missing one is reported here.
    if (type.token === '') ctx.report('VALUE_REQUIRED', at('pan'), `Payee ${payee.srNo}: Form ${ctx.form.formNumber} needs the deductee type of a payee whose PAN does not give it (DD 12): add a deductee_type column`);
    return '';
  }
  if (type.code === null) return String(deducteeCodeFromPan(payee.pan));
  const letters = DEDUCTEE_CODE_PAN_LETTERS.get(type.code)!;
  if (!letters.includes(payee.pan.charAt(3))) {
    ctx.report('DEDUCTEE_TYPE_PAN_MISMATCH', at('deductee_type'), `deductee_type '${type.token}' (code ${type.code}) needs a PAN whose 4th letter is ${[...letters].join(' or ')}; PAN ${payee.pan} has ${payee.pan.charAt(3)}`);
  }
  return String(type.code);
}

/** 27Q and 27EQ from FY 2023-24 take the ten deductee codes (FVU 9.4: BH 17 >= 202324). */
function usesDeducteeCodeList(ctx: BuildContext): boolean {
  return (ctx.form.formNumber === '27Q' || ctx.form.formNumber === '27EQ') && ctx.period.startYear >= 2023;
}

function readSalaryColumns(ctx: BuildContext, payee: Payee, layout: TableLayout, row: TableRow, at: (k: string) => () => ReturnType<TableLayout['place']>): void {
  payee.newRegime = optionalBoolean(row.cells, layout, 'opting_new_regime');
  const optingOut = optionalBoolean(row.cells, layout, 'opting_out_of_taxation_regime_under_section_202_1');
  if (optingOut !== null) payee.newRegime = !optingOut;
  const category = cell(row.cells, layout.spec, 'employee_category');
  if (typeof category === 'string' && category.trim() !== '') {
    payee.employeeCategory = employeeCategory(category) ?? '';
    if (payee.employeeCategory === '') ctx.report('INVALID_EMPLOYEE_CATEGORY', at('employee_category'), 'employee_category must be general, women, senior_citizen or super_senior_citizen');
  }
}

function readNonResidentColumns(ctx: BuildContext, payee: Payee, layout: TableLayout, row: TableRow, at: (k: string) => () => ReturnType<TableLayout['place']>): void {
  const spec = layout.spec;
  if (col(spec, 'country') < 0) return;
  const c = row.cells;
  const country = String(cell(c, spec, 'country') ?? '');
  if (country.trim() !== '') {
    payee.countryCode = countryCode(country) ?? '';
    if (payee.countryCode === '') ctx.report('INVALID_COUNTRY', at('country'), 'country is not in the country list');
  }
  const email = String(cell(c, spec, 'email') ?? '').trim();
  if (email !== '' && (email.length > fieldWidth(ctx.family, ctx.form.formNumber, 'DD', ctx.isLegacy ? 39 : 38) || !EMAIL_PATTERN.test(email))) ctx.report('INVALID_EMAIL', at('email'), 'Payee email address is not valid');
  payee.email = email;
  const isd = cell(c, spec, 'isd_code');
  const mobile = cell(c, spec, 'mobile');
  if (typeof mobile === 'number' || typeof mobile === 'string') {
    const digits = `${typeof isd === 'number' ? String(isd) : ''}${String(mobile)}`;
    if (!/^[0-9]{1,15}$/.test(digits)) ctx.report('INVALID_CONTACT_NUMBER', at('mobile'), 'Payee contact number (ISD code + mobile) must be at most 15 digits');
    payee.contactNumber = digits;
  }
  payee.taxId = readText(ctx, cell(c, spec, 'tax_identification_number'), at('tax_identification_number'), 'Tax identification number', { max: fieldWidth(ctx.family, ctx.form.formNumber, 'DD', ctx.isLegacy ? 42 : 41) });
  const parts =
    col(spec, 'address_in_country_of_residence') >= 0
      ? [cell(c, spec, 'address_in_country_of_residence')]
      : ['street', 'area', 'city', 'state', 'postal_code'].map((k) => cell(c, spec, k));
  const joined = parts
    .filter((p) => p !== null && String(p).trim() !== '')
    .map(String)
    .join(', ');
  payee.address = readText(ctx, joined, at(col(spec, 'address_in_country_of_residence') >= 0 ? 'address_in_country_of_residence' : 'street'), 'Payee address', { max: fieldWidth(ctx.family, ctx.form.formNumber, 'DD', ctx.isLegacy ? 41 : 37) });
}
