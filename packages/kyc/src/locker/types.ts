/**
 * The port to a national document locker (individual: docvault, entity: entityvault), in the locker's own
 * terms. The service maps these to the API's shapes; nothing here knows the API.
 */

export type LockerKind = 'docvault' | 'entityvault';

export interface LockerClientConfig {
  kind: LockerKind;
  /** Base of the partner API, e.g. `https://<locker host>/public`; the OAuth and resource paths hang off it. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /**
   * Our OAuth callback, registered at the locker as the client's redirect_uri. When absent, the service uses
   * the callback URL of the router the request came in on.
   */
  callbackUrl?: string;
  /** Seconds before an upstream call is abandoned (default 10). */
  timeoutSeconds?: number;
}

export interface LockerTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Lifetime of the access token in seconds, when the locker said. */
  expiresInSeconds: number | null;
  /** The account's mobile number, which the locker gives with the token answer (its user answer has none). */
  mobile: string | null;
}

export type LockerGender = 'M' | 'F' | 'T';

/** The person behind the locker account (`GET /oauth2/1/user`). */
export interface LockerPerson {
  id: string;
  name: string;
  /** DDMMYYYY. */
  dob: string;
  gender: LockerGender;
  eaadhaar: boolean;
  mobile: string;
  email: string | null;
}

/** The business of an entity locker (`GET /oauth2/1/entity`). */
export interface LockerBusiness {
  id: string;
  name: string;
  /** DDMMYYYY. */
  incorporatedOn: string;
  email: string;
  mobile: string;
  verifiedBy: string;
}

/** One entry of the issued-files list. */
export interface IssuedFileInfo {
  uri: string;
  /** Five-letter document type (ADHAR, PANCR, DRVLC, CPMTD, GSTND, UDCER, ...). */
  doctype: string;
  name: string;
  description: string;
  issuer: string;
  issuerId: string;
  /** As the locker lists it, DD-MM-YYYY. */
  date: string;
  mime: string[];
}

export interface DownloadedFile {
  body: Buffer;
  contentType: string;
}

/** What the authorize request asks for beyond the OAuth parameters. */
export interface AuthorizationRequest {
  /** Our callback; the same value must be given to {@link LockerPort.exchangeCode}. */
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** Five-letter document types to ask consent for; omitted for the entity locker (the user picks). */
  docTypes?: string[];
  /** Unix seconds. */
  consentValidTill: number;
  signup: boolean;
  pinless?: boolean;
  usernameless?: boolean;
  verificationMethods?: string[];
  verifiedMobile?: string;
}

/** Whose locker account to look for: an Aadhaar number, a mobile number, or both. */
export interface AccountQuery {
  aadhaarNumber?: string;
  mobile?: string;
}

export interface LockerPort {
  readonly kind: LockerKind;
  /** The callback URL configured for this locker, if any; it wins over one derived from a request. */
  readonly callbackUrl: string | null;
  authorizationUrl(request: AuthorizationRequest): URL;
  /** Exchanges the code of a callback (its query string) for tokens, checking state and PKCE. */
  exchangeCode(callbackQuery: URLSearchParams, expectedState: string, codeVerifier: string, redirectUri: string): Promise<LockerTokens>;
  refresh(refreshToken: string): Promise<LockerTokens>;
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void>;
  person(accessToken: string): Promise<LockerPerson>;
  business(accessToken: string): Promise<LockerBusiness>;
  issuedFiles(accessToken: string): Promise<IssuedFileInfo[]>;
  download(accessToken: string, file: IssuedFileInfo): Promise<DownloadedFile>;
  /** Whether a locker account exists for the Aadhaar or mobile number (individual locker only; a partner call, no user token). */
  accountExists(query: AccountQuery): Promise<boolean>;
  /** Releases connections, if the implementation keeps any. */
  close?(): void;
}

/**
 * Why a locker call failed, in the terms the service needs to pick an answer:
 * - `rate_limited`: the locker said 429;
 * - `unavailable`: 502/503/504, timeouts, refused connections;
 * - `token_invalid`: the access or refresh token is expired, revoked or unknown;
 * - `denied`: the user refused consent (error=access_denied on the callback);
 * - `not_found`: the resource does not exist for this user;
 * - `failed`: anything else (500, malformed answers, protocol violations).
 */
export type LockerFailure = 'rate_limited' | 'unavailable' | 'token_invalid' | 'denied' | 'not_found' | 'failed';

export class LockerError extends Error {
  override readonly name = 'LockerError';
  /** The locker's Retry-After header, when it sent one (429, 503). */
  readonly retryAfter: string | null;

  constructor(
    readonly failure: LockerFailure,
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown; retryAfter?: string | null },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfter = options?.retryAfter ?? null;
  }
}

export function isLockerError(value: unknown): value is LockerError {
  return value instanceof LockerError;
}
