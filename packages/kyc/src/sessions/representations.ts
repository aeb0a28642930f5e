import type { LockerBusiness, LockerGender, LockerPerson } from '../locker/types.js';
import { ENTITY_PREFIX, type SessionRecord } from './model.js';

/**
 * The API's shapes (the service specification, "Resources and their fields"; docs/API.md) built from sessions and from the
 * locker's fields. Field for field, nothing else: a response never carries more than the spec lists.
 */

const GENDER_WORDS: Record<LockerGender, string> = { M: 'male', F: 'female', T: 'transgender' };

/** DDMMYYYY -> dd/mm/yyyy. */
export function slashDate(ddmmyyyy: string): string {
  return `${ddmmyyyy.slice(0, 2)}/${ddmmyyyy.slice(2, 4)}/${ddmmyyyy.slice(4, 8)}`;
}

/** DDMMYYYY -> Unix ms of that calendar day at 00:00 UTC. */
export function epochMillisOfDate(ddmmyyyy: string): number {
  return Date.UTC(Number(ddmmyyyy.slice(4, 8)), Number(ddmmyyyy.slice(2, 4)) - 1, Number(ddmmyyyy.slice(0, 2)));
}

export interface DocvaultProfile {
  '@entity': string;
  id: string;
  name: string;
  date_of_birth: number | string;
  mobile: string;
  gender: string;
  eaadhaar: boolean;
  email?: string;
}

/** Operation 2: integer date of birth; `email` left out when the locker has none. */
export function docvaultProfile(person: LockerPerson): DocvaultProfile {
  return {
    '@entity': `${ENTITY_PREFIX}.docvault.user.profile`,
    id: person.id, name: person.name, date_of_birth: epochMillisOfDate(person.dob), mobile: person.mobile,
    gender: GENDER_WORDS[person.gender], eaadhaar: person.eaadhaar,
    ...(person.email ? { email: person.email } : {}),
  };
}

/** Operation 4: `dd/mm/yyyy` date of birth; `email` always present, empty when the locker has none. */
export function docvaultSdkProfile(person: LockerPerson): DocvaultProfile {
  return {
    '@entity': `${ENTITY_PREFIX}.docvault.user.profile`,
    id: person.id, name: person.name, date_of_birth: slashDate(person.dob), mobile: person.mobile,
    gender: GENDER_WORDS[person.gender], eaadhaar: person.eaadhaar, email: person.email ?? '',
  };
}

/** Operation 6: the person who opened the entity locker (no e-mail). */
export function entityvaultProfile(person: LockerPerson): Record<string, unknown> {
  return {
    '@entity': `${ENTITY_PREFIX}.entityvault.user.profile`,
    id: person.id, name: person.name, date_of_birth: slashDate(person.dob), mobile: person.mobile,
    gender: GENDER_WORDS[person.gender], eaadhaar: person.eaadhaar,
  };
}

/** Operation 7. */
export function entityDetails(business: LockerBusiness): Record<string, unknown> {
  return {
    '@entity': `${ENTITY_PREFIX}.entityvault.entity`,
    id: business.id, name: business.name, date_of_incorporation: slashDate(business.incorporatedOn),
    email: business.email, mobile: business.mobile, verified_by: business.verifiedBy,
  };
}

export interface SessionStatusView {
  '@entity': string;
  id: string;
  status: string;
  created_at: number;
  updated_at?: number;
  documents_consented?: string[];
}

/** Status of any session: `updated_at` once it moved, `documents_consented` once it succeeded. */
export function sessionStatus(session: SessionRecord): SessionStatusView {
  const sdk = session.variant === 'sdk' ? '.sdk' : '';
  return {
    '@entity': `${ENTITY_PREFIX}.${session.kind}${sdk}.session`,
    id: session.id,
    status: session.status,
    created_at: session.createdAt,
    ...(session.updatedAt !== null ? { updated_at: session.updatedAt } : {}),
    ...(session.status === 'succeeded' ? { documents_consented: session.documentsConsented ?? [] } : {}),
  };
}

/** The answer to an SDK create-session call. */
export function sdkSessionCreated(session: SessionRecord): Record<string, unknown> {
  return {
    '@entity': `${ENTITY_PREFIX}.${session.kind}.sdk.session`,
    id: session.id, status: session.status, created_at: session.createdAt,
  };
}

export interface StoredFileView {
  '@entity': string;
  url: string;
  size: number;
  metadata: {
    ContentType: string;
    issuer_id: string;
    issuer: string;
    LastModified: string;
    description: string;
  };
}

/** DD-MM-YYYY (the locker's listing) -> dd/mm/yyyy; anything else is passed through. */
export function listingDate(date: string): string {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(date);
  return match ? `${match[1]}/${match[2]}/${match[3]}` : date;
}
