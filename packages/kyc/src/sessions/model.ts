import type { LockerKind } from '../locker/types.js';

/** API-side vocabulary of locker sessions (docs/API.md "Locker sessions"). */

export type SessionVariant = 'api' | 'sdk';

export type SessionStatus = 'created' | 'initialized' | 'authorized' | 'succeeded' | 'failed' | 'expired';

export type Flow = 'signin' | 'signup';

export const DOCVAULT_DOC_TYPES = ['aadhaar', 'pan', 'driving_license'] as const;
export const ENTITYVAULT_DOC_TYPES = ['company_master_details', 'gstn_details', 'udhyam_certificate'] as const;

export type DocvaultDocType = (typeof DOCVAULT_DOC_TYPES)[number];
export type EntityvaultDocType = (typeof ENTITYVAULT_DOC_TYPES)[number];
export type ApiDocType = DocvaultDocType | EntityvaultDocType;

/** Our document type names and the lockers' five-letter codes. */
const LOCKER_CODES: Record<ApiDocType, string> = {
  aadhaar: 'ADHAR',
  pan: 'PANCR',
  driving_license: 'DRVLC',
  company_master_details: 'CPMTD',
  gstn_details: 'GSTND',
  udhyam_certificate: 'UDCER',
};

export function docTypesOf(kind: LockerKind): readonly ApiDocType[] {
  return kind === 'docvault' ? DOCVAULT_DOC_TYPES : ENTITYVAULT_DOC_TYPES;
}

export function isDocTypeOf(kind: LockerKind, value: string): value is ApiDocType {
  return (docTypesOf(kind) as readonly string[]).includes(value);
}

export function lockerCodeOf(docType: ApiDocType): string {
  return LOCKER_CODES[docType];
}

/** The API document type of a locker code, within the given locker; null for codes we do not serve. */
export function apiDocTypeOf(kind: LockerKind, code: string): ApiDocType | null {
  return docTypesOf(kind).find((docType) => LOCKER_CODES[docType] === code) ?? null;
}

export interface SessionOptions {
  verification_method?: string[];
  pinless?: boolean;
  usernameless?: boolean;
  verified_mobile?: string;
}

/** A session as kept in Redis. Secrets (PKCE verifier, upstream tokens) are sealed strings. */
export interface SessionRecord {
  id: string;
  kind: LockerKind;
  variant: SessionVariant;
  owner: string;
  status: SessionStatus;
  flow: Flow;
  /** API sessions only: where the user goes back after the locker. */
  redirectUrl: string | null;
  /** Our callback URL given to the locker as redirect_uri (needed again at the code exchange). */
  callbackUrl: string | null;
  /** Requested types; null when the user picks at the locker (entityvault API sessions). */
  docTypes: ApiDocType[] | null;
  options: SessionOptions;
  consentExpiry: number;
  createdAt: number;
  updatedAt: number | null;
  documentsConsented: ApiDocType[] | null;
  sealedVerifier: string | null;
  sealedTokens: string | null;
  authorizationUrl: string | null;
}

/** The upstream tokens of a session, as sealed into `sealedTokens`. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Unix ms, by the service's clock; null when the locker gave no lifetime. */
  accessExpiresAt: number | null;
  /** The account's mobile number from the token answer (the locker's user answer has none); sealed with the tokens. */
  mobile?: string;
}

export const ENTITY_PREFIX = 'in.co.service.kyc';
