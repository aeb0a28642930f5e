// Deductor (payer_list) and responsible person (responsible_person_list) -> the BH fields.

import { CENTRAL_MINISTRY_CATEGORIES, categoryFromPan, deductorCategory, GOVERNMENT_CATEGORIES, STATE_GOVERNMENT_CATEGORIES } from '../codes/deductor.js';
import { AIN_PATTERN, DEDUCTOR_PAN_NOT_REQUIRED, EMAIL_PATTERN, GSTIN_PATTERN, PAN_PATTERN, PIN_PATTERN, isValidTan } from '../codes/identifiers.js';
import { stateCode } from '../codes/states.js';
import { wrapWords } from '../text.js';
import type { ListRecord } from '../workbook/records.js';
import type { BuildContext } from './context.js';
import type { Address, Contact, Deductor, ResponsiblePerson } from './models.js';
import { readIdentifier, readText } from './values.js';
import { fieldWidth } from '../layouts/compile.js';

const ADDRESS_LINE = 25;

function text(ctx: BuildContext, list: ListRecord, key: string, label: string, max: number, name = false): string {
  return readText(ctx, list.get(key), () => list.place(key), label, { max, name });
}

/**
 * Legacy-style keys (street/area/city): street fills address lines 1-3 (wrapped at word boundaries when
 * longer than 25), area is line 4 (area/locality), city is line 5 (town/city/district).
 */
function legacyAddress(ctx: BuildContext, list: ListRecord, who: string): Address {
  const street = readText(ctx, list.get('street'), () => list.place('street'), `${who} street`, { max: 75 });
  let lines = wrapWords(street, ADDRESS_LINE, 3);
  if (!lines) {
    ctx.report('FIELD_TOO_LONG', () => list.place('street'), `${who} street does not fit in three address lines of 25 characters`);
    lines = [street.slice(0, ADDRESS_LINE)];
  }
  const area = text(ctx, list, 'area', `${who} area`, ADDRESS_LINE);
  const city = text(ctx, list, 'city', `${who} city`, ADDRESS_LINE);
  return [lines[0] ?? '', lines[1] ?? '', lines[2] ?? '', area, city];
}

/** New-style keys, one per address line. */
function structuredAddress(ctx: BuildContext, list: ListRecord, who: string): Address {
  const keys = ['flat_door_block_number', 'post_office', 'road_street_block_sector', 'area_locality', 'district'] as const;
  return keys.map((k) => text(ctx, list, k, `${who} ${k.replace(/_/g, ' ')}`, ADDRESS_LINE)) as Address;
}

function address(ctx: BuildContext, list: ListRecord, who: string): Address {
  return list.declares('flat_door_block_number') ? structuredAddress(ctx, list, who) : legacyAddress(ctx, list, who);
}

function state(ctx: BuildContext, list: ListRecord, who: string): string {
  if (!list.has('state')) return '';
  const code = stateCode(String(list.get('state')));
  if (code === null) ctx.report('INVALID_STATE', () => list.place('state'), `${who} state is not a known state or state code`);
  return code ?? '';
}

function pin(ctx: BuildContext, list: ListRecord, who: string): string {
  if (!list.has('postal_code')) return '';
  const value = String(list.get('postal_code')).trim();
  if (!PIN_PATTERN.test(value)) ctx.report('INVALID_PINCODE', () => list.place('postal_code'), `${who} PIN code must be 6 digits`);
  return value;
}

function email(ctx: BuildContext, list: ListRecord, who: string): string {
  if (!list.has('email')) return '';
  const value = String(list.get('email')).trim();
  if (value.length > fieldWidth(ctx.family, ctx.form.formNumber, 'BH', 28) || !EMAIL_PATTERN.test(value)) ctx.report('INVALID_EMAIL', () => list.place('email'), `${who} email address is not valid`);
  return value;
}

function callingCode(ctx: BuildContext, list: ListRecord, key: string, who: string): string {
  if (!list.has(key)) return '91';
  const value = String(list.get(key)).trim().replace(/^\+/, '');
  if (!/^[0-9]{1,5}$/.test(value)) ctx.report('INVALID_COUNTRY_CODE', () => list.place(key), `${who} calling code must be 1-5 digits`);
  return value;
}

/** A contact number for a 10-character field; a leading calling code is dropped when the rest is 10 digits. */
function contactNumber(ctx: BuildContext, list: ListRecord, key: string, who: string, calling: string): string {
  if (!list.has(key)) return '';
  let value = String(list.get(key)).trim().replace(/[\s-]/g, '');
  if (value.length > 10 && value.startsWith(calling) && value.length - calling.length === 10) value = value.slice(calling.length);
  const valid = calling === '91' ? /^[1-9][0-9]{9}$/.test(value) : /^[0-9]{1,10}$/.test(value);
  if (!valid) ctx.report('INVALID_CONTACT_NUMBER', () => list.place(key), `${who} contact number must be ${calling === '91' ? '10 digits' : 'at most 10 digits'}`);
  return value;
}

/** Address lines, state, PIN and email: read alike for the deductor and the responsible person. */
function postal(ctx: BuildContext, list: ListRecord, who: string): Pick<Contact, 'address' | 'state' | 'pin' | 'email'> {
  return { address: address(ctx, list, who), state: state(ctx, list, who), pin: pin(ctx, list, who), email: email(ctx, list, who) };
}

/** The calling code's key: contact_country_code in the new lists, country_code in Form 140's. */
function callingCodeOf(ctx: BuildContext, list: ListRecord, who: string): string {
  return callingCode(ctx, list, list.declares('contact_country_code') ? 'contact_country_code' : 'country_code', who);
}

/** The phone number's key: contact_number in the new lists, mobile in the legacy and Form 140 ones. */
function contactNumberOf(ctx: BuildContext, list: ListRecord, who: string, calling: string): string {
  return contactNumber(ctx, list, list.declares('contact_number') ? 'contact_number' : 'mobile', who, calling);
}

function country(ctx: BuildContext, list: ListRecord, who: string): string {
  if (!list.has('country')) return 'INDIA';
  return text(ctx, list, 'country', `${who} country`, ADDRESS_LINE).toUpperCase();
}

function category(ctx: BuildContext, list: ListRecord, pan: string): string {
  if (list.has('deductor_type')) {
    const letter = deductorCategory(String(list.get('deductor_type')));
    if (letter === null) ctx.report('INVALID_DEDUCTOR_TYPE', () => list.place('deductor_type'), 'Deductor type is not an Annexure 4 category');
    return letter ?? '';
  }
  const derived = PAN_PATTERN.test(pan) ? categoryFromPan(pan) : null;
  if (derived === null) {
    ctx.report('DEDUCTOR_TYPE_REQUIRED', () => list.place('deductor_type'), "The deductor category cannot be derived from the PAN; give 'deductor_type'");
    return '';
  }
  return derived;
}

function governmentDetails(ctx: BuildContext, list: ListRecord, cat: string): Pick<Deductor, 'governmentState' | 'ministry' | 'ministryOther'> {
  let governmentState = '';
  if (list.has('government_state_code')) {
    governmentState = stateCode(String(list.get('government_state_code'))) ?? '';
    if (governmentState === '') ctx.report('INVALID_STATE', () => list.place('government_state_code'), 'Government state is not a known state or state code');
  } else if (STATE_GOVERNMENT_CATEGORIES.has(cat)) {
    ctx.report('GOVERNMENT_DETAILS_REQUIRED', () => list.place('government_state_code'), `Deductor category ${cat} needs 'government_state_code'`);
  }
  let ministry = '';
  if (list.has('ministry_code')) {
    ministry = String(list.get('ministry_code')).trim().padStart(2, '0');
    if (!/^[0-9]{2}$/.test(ministry)) ctx.report('INVALID_MINISTRY_CODE', () => list.place('ministry_code'), 'Ministry code must be a 2-digit Annexure 3 code');
  } else if (CENTRAL_MINISTRY_CATEGORIES.has(cat)) {
    ctx.report('GOVERNMENT_DETAILS_REQUIRED', () => list.place('ministry_code'), `Deductor category ${cat} needs 'ministry_code'`);
  }
  const ministryOther = ministry === '99' ? text(ctx, list, 'ministry_name_other', 'Ministry name', 150) : '';
  if (ministry === '99' && ministryOther === '') {
    ctx.report('GOVERNMENT_DETAILS_REQUIRED', () => list.place('ministry_name_other'), "Ministry code 99 needs 'ministry_name_other'");
  }
  return { governmentState, ministry, ministryOther };
}

/** Legacy BH 20 (branch/division) is mandatory for the FVU (T_FV_6054); the new forms have no such field. */
function branchOf(ctx: BuildContext, list: ListRecord): string {
  const branch = list.declares('branch') ? text(ctx, list, 'branch', 'Deductor branch', fieldWidth(ctx.family, ctx.form.formNumber, 'BH', 20)) : '';
  if (ctx.isLegacy && branch === '') ctx.report('VALUE_REQUIRED', () => list.place('branch'), "Deductor 'branch' (branch or division) is mandatory in a legacy statement (FVU T_FV_6054)");
  return branch;
}

export function buildDeductor(ctx: BuildContext, list: ListRecord): Deductor {
  const tan = readIdentifier(ctx, list.get('tan'), () => list.place('tan'), 'Deductor TAN');
  if (tan !== '' && !isValidTan(tan)) ctx.report('INVALID_TAN', () => list.place('tan'), 'Deductor TAN is not a TAN the FVU accepts (city code, a letter, 5 digits, their check letter; T-FV-1010)');
  else if (tan !== '' && tan !== ctx.options.tan) ctx.report('TAN_MISMATCH', () => list.place('tan'), 'The TAN in the payer list differs from the TAN this statement is for');
  const pan = readIdentifier(ctx, list.get('pan'), () => list.place('pan'), 'Deductor PAN');
  const validPan = PAN_PATTERN.test(pan);
  if (pan !== '' && !validPan && pan !== DEDUCTOR_PAN_NOT_REQUIRED) ctx.report('INVALID_PAN', () => list.place('pan'), 'Deductor PAN is not a valid PAN (or PANNOTREQD)');
  const cat = category(ctx, list, pan);
  if (pan === DEDUCTOR_PAN_NOT_REQUIRED && cat !== '' && !GOVERNMENT_CATEGORIES.has(cat)) {
    ctx.report('PAN_NOT_ALLOWED', () => list.place('pan'), 'PANNOTREQD is only for government deductors');
  }
  const calling = callingCodeOf(ctx, list, 'Deductor');
  const gstin = list.has('gstin') ? readIdentifier(ctx, list.get('gstin'), () => list.place('gstin'), 'GSTIN') : '';
  if (gstin !== '' && !GSTIN_PATTERN.test(gstin)) ctx.report('INVALID_GSTIN', () => list.place('gstin'), 'GSTIN is not a valid GSTIN');
  const ain = list.has('account_office_identification_number') ? String(list.get('account_office_identification_number')).trim() : '';
  if (ain !== '' && !AIN_PATTERN.test(ain)) ctx.report('INVALID_AIN', () => list.place('account_office_identification_number'), 'AIN must be 7 letters or digits');
  return {
    tan,
    pan,
    name: text(ctx, list, 'name', 'Deductor name', fieldWidth(ctx.family, ctx.form.formNumber, 'BH', 19), true),
    branch: branchOf(ctx, list),
    ...postal(ctx, list, 'Deductor'),
    country: ctx.isLegacy ? '' : country(ctx, list, 'Deductor'),
    callingCode: calling,
    // The legacy BH has deductor STD code + telephone, which the vendor's legacy payer list does not carry.
    contactNumber: ctx.isLegacy ? '' : contactNumberOf(ctx, list, 'Deductor', calling),
    category: cat,
    ...governmentDetails(ctx, list, cat),
    ain,
    gstin,
  };
}

export function buildResponsiblePerson(ctx: BuildContext, list: ListRecord): ResponsiblePerson {
  const pan = readIdentifier(ctx, list.get('pan'), () => list.place('pan'), 'Responsible person PAN');
  if (pan !== '' && !PAN_PATTERN.test(pan)) ctx.report('INVALID_PAN', () => list.place('pan'), 'Responsible person PAN is not a valid PAN');
  const calling = callingCodeOf(ctx, list, 'Responsible person');
  return {
    name: text(ctx, list, 'name', 'Responsible person name', fieldWidth(ctx.family, ctx.form.formNumber, 'BH', 33), true),
    designation: text(ctx, list, 'designation', 'Responsible person designation', fieldWidth(ctx.family, ctx.form.formNumber, 'BH', 34), true),
    pan,
    ...postal(ctx, list, 'Responsible person'),
    country: ctx.isLegacy ? '' : country(ctx, list, 'Responsible person'),
    callingCode: calling,
    contactNumber: contactNumberOf(ctx, list, 'Responsible person', ctx.isLegacy ? '91' : calling),
  };
}
