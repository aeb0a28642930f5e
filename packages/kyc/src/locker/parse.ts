import { LockerError, type IssuedFileInfo, type LockerBusiness, type LockerGender, type LockerPerson } from './types.js';

/**
 * Reading the locker's JSON defensively: a missing or odd field is a `failed` LockerError naming the field
 * (never its value, which may be identity data).
 */

type Json = Record<string, unknown>;

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(what);
  return value as Json;
}

function text(source: Json, field: string, what: string): string {
  const value = source[field];
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number') return String(value);
  throw malformed(`${what}.${field}`);
}

function optionalText(source: Json, field: string): string | null {
  const value = source[field];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/**
 * A date as DDMMYYYY. The individual locker writes `dob` so (its partner API specification); the entity locker
 * writes `doi` as DD-MM-YYYY (the public entity-locker SDK's answers): both are read.
 */
function ddmmyyyy(source: Json, field: string, what: string): string {
  const value = text(source, field, what);
  const match = /^(\d{2})-?(\d{2})-?(\d{4})$/.exec(value);
  if (!match) throw malformed(`${what}.${field}`);
  return `${match[1]}${match[2]}${match[3]}`;
}

function malformed(what: string): LockerError {
  return new LockerError('failed', `The locker's answer has a missing or malformed ${what}`);
}

export function parsePerson(body: unknown): LockerPerson {
  const json = object(body, 'user');
  const gender = text(json, 'gender', 'user').toUpperCase();
  if (gender !== 'M' && gender !== 'F' && gender !== 'T') throw malformed('user.gender');
  return {
    id: text(json, 'digilockerid', 'user'),
    name: text(json, 'name', 'user'),
    dob: ddmmyyyy(json, 'dob', 'user'),
    gender: gender as LockerGender,
    // The partner API's specification spells it both ways (`eaadhar` in its properties, `eaadhaar` required).
    eaadhaar: (optionalText(json, 'eaadhaar') ?? optionalText(json, 'eaadhar'))?.toUpperCase() === 'Y',
    // The partner API's user answer has no mobile or email (its specification); the mobile comes with the token
    // answer and the service fills it in (LockerTokens.mobile).
    mobile: optionalText(json, 'mobile') ?? '',
    email: optionalText(json, 'email'),
  };
}

export function parseBusiness(body: unknown): LockerBusiness {
  const json = object(body, 'entity');
  return {
    id: text(json, 'entitylockerid', 'entity'),
    name: text(json, 'name', 'entity'),
    incorporatedOn: ddmmyyyy(json, 'doi', 'entity'),
    email: optionalText(json, 'email') ?? '',
    mobile: optionalText(json, 'mobile') ?? '',
    // The entity locker writes it upper case (`CIN`, `GSTIN`); our API's values are lower case.
    verifiedBy: (optionalText(json, 'verified_by') ?? '').toLowerCase(),
  };
}

export function parseIssuedFiles(body: unknown): IssuedFileInfo[] {
  const items = object(body, 'issued files')['items'];
  if (!Array.isArray(items)) throw malformed('issued files.items');
  return items.map((item) => {
    const json = object(item, 'issued file');
    const mime = json['mime'];
    return {
      uri: text(json, 'uri', 'issued file'),
      doctype: text(json, 'doctype', 'issued file'),
      name: optionalText(json, 'name') ?? '',
      description: optionalText(json, 'description') ?? '',
      issuer: optionalText(json, 'issuer') ?? '',
      issuerId: optionalText(json, 'issuerid') ?? '',
      date: optionalText(json, 'date') ?? '',
      mime: Array.isArray(mime) ? mime.filter((m): m is string => typeof m === 'string') : typeof mime === 'string' ? [mime] : [],
    };
  });
}
