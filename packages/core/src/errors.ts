import { isRedisUnavailableError } from './redis.js';

/**
 * The one registry of coded errors. Every error a caller can see is listed here with its HTTP status and the
 * exact message the API promises (the service specification and docs/API.md). Code elsewhere raises errors by code, never by
 * building status/message pairs of its own, so a message can only change in one place.
 */
type MessageOf<A extends unknown[]> = (...args: A) => string;

interface ErrorSpec<A extends unknown[] = never[]> {
  readonly status: number;
  readonly message: MessageOf<A>;
  /** Answered by a host's own pages (`hostPages` of the router), never by the API: left out of its OpenAPI document. */
  readonly hostPagesOnly?: true;
}

function spec<A extends unknown[]>(status: number, message: MessageOf<A>): ErrorSpec<A> {
  return { status, message };
}

export const ERROR_REGISTRY = {
  // 400: the request could not be read or is incomplete
  INVALID_REQUEST_BODY: spec(400, (field: string, reason: string) => `Invalid request body: ${field} ${reason}`.trim()),
  MALFORMED_JSON: spec(400, () => 'Invalid request body: malformed JSON'),
  UNSUPPORTED_API_VERSION: spec(400, (version: string) => `Unsupported API version: ${version}`),
  INVALID_PARAMETER: spec(400, (name: string, reason: string) => `Invalid parameter: ${name} ${reason}`),
  CONSENT_NOT_PROVIDED: spec(400, (docType: string) => `Consent for ${docType} not provided`),
  // 401 / 403: who is calling, as the vendor's errors page sorts them: a bad or missing API key or secret is
  // 401; anything wrong with the access token, or what the key may do, is 403 (messages from that page).
  UNAUTHORIZED: spec(401, () => 'Unauthorized'),
  INVALID_ACCESS_TOKEN: spec(403, () => 'Invalid access token'),
  TOKEN_EXPIRED: spec(403, () => 'Access token has expired'),
  ACCESS_REVOKED: spec(403, () => 'Access revoked'),
  INSUFFICIENT_PRIVILEGE: spec(403, () => 'Insufficient privilege'),
  INVALID_SIGNATURE: spec(403, () => 'Invalid or expired signature'),
  /** A state-changing request to a host's page (the queue dashboard) sent from another site's page. */
  CROSS_SITE_REQUEST: { ...spec(403, () => 'Cross-site request refused'), hostPagesOnly: true },
  // 404 / 409 / 413 / 415 / 422
  ROUTE_NOT_FOUND: spec(404, (method: string, path: string) => `Route not found: ${method} ${path}`),
  IFSC_NOT_FOUND: spec(404, (ifsc: string) => `IFSC not found: ${ifsc}`),
  OBJECT_NOT_FOUND: spec(404, () => 'Object not found'),
  CONFLICT: spec(409, (reason: string) => reason),
  PAYLOAD_TOO_LARGE: spec(413, (limit: string) => `Payload too large: the limit is ${limit}`),
  UNSUPPORTED_MEDIA_TYPE: spec(415, (expected: string) => `Unsupported media type: expected ${expected}`),
  UNPROCESSABLE: spec(422, (message: string) => message),
  INVALID_FIELD: spec(422, (field: string, reason: string) => `Invalid ${field}: ${reason}`),
  // 422 messages exactly as the vendor's examples show them (docs/VENDOR_COMPAT.md)
  OTP_MISSING: spec(422, () => 'OTP missing in request'),
  INVALID_REFERENCE_ID: spec(422, () => 'Invalid Reference Id'),
  PHONE_NOT_NUMERIC: spec(422, () => 'Phone should be numeric'),
  INVALID_PHONE: spec(422, () => 'Please provide a valid phone number'),
  /** A well-formed IFSC the branch directory does not know: refused before a paid penny drop or penny-less call. */
  UNKNOWN_IFSC: spec(422, () => 'Invalid IFSC provided'),
  INVALID_TDS_TAN: spec(422, () => 'Invalid TAN pattern'),
  INVALID_TCS_TAN: spec(422, () => 'Invalid Tan pattern'),
  /**
   * A bulk job's row whose paid check was in flight when its worker died: the call may have been made (and paid
   * for), so it is not repeated; the row is reported with this code instead (docs/API.md "Bulk verification jobs").
   */
  BULK_ROW_INTERRUPTED: spec(409, () => 'The check was in flight when its worker stopped; it was not repeated, so that it is not paid for twice'),
  /**
   * Bulk CSV limits (docs/OPERATIONS.md "Limits"): a job whose file breaks one fails with the code (a header too
   * wide, too many rows); a data line too long or with a cell too long is that row's `invalid` outcome.
   */
  BULK_TOO_MANY_COLUMNS: spec(422, (columns: number, limit: number) => `Too many columns in the header: ${columns}; the limit is ${limit}`),
  BULK_TOO_MANY_ROWS: spec(422, (limit: number) => `Too many rows: more than ${limit}; the limit is ${limit}`),
  BULK_LINE_TOO_LONG: spec(422, (line: number, limit: number) => `Line ${line} is too long: the limit is ${limit} bytes`),
  BULK_CELL_TOO_LONG: spec(422, (where: string, limit: number) => `${where}: the cell is too long; the limit is ${limit} characters`),
  /** Per-client fairness (docs/OPERATIONS.md "Limits"): the caller waits for its own jobs, then submits again. */
  BULK_JOBS_LIMIT: spec(429, (jobs: number, limit: number) => `This client already has ${jobs} bulk jobs waiting or running; the limit is ${limit}`),
  BULK_ROW_BUDGET: spec(429, (usage: string, limit: string) => `Bulk row budget exceeded: ${usage}; the limit is ${limit}`),
  STATEMENT_JOBS_LIMIT: spec(429, (jobs: number, limit: number) => `This client already has ${jobs} statement jobs waiting or running; the limit is ${limit}`),
  // PAN verification and PAN-Aadhaar link status: the vendor's two operations spell these differently
  INVALID_PAN_PATTERN: spec(422, () => 'Invalid Pan pattern'),
  INVALID_LINK_PAN_PATTERN: spec(422, () => 'Invalid PAN pattern'),
  INDIVIDUAL_PAN_REQUIRED: spec(422, () => 'Individuals PAN is required'),
  PAN_CONSENT_REQUIRED: spec(422, () => 'Invalid parameter: Consent is required.'),
  LINK_CONSENT_REQUIRED: spec(422, () => 'invalid parameter: Consent is required.'),
  REASON_EMPTY: spec(422, () => 'Reason cannot be empty'),
  // 429 / 5xx
  TOO_MANY_REQUESTS: spec(429, () => 'Too Many Requests'),
  /**
   * The credential lockout (router README "Credential guessing"): too many failed `/authenticate` or `/authorize`
   * attempts (or logins of a host's page) from one source address, or for one API key. Not the rate limit of
   * calls: the operator clears it with `clearCredentialLockout` or `satyapan-admin clear-lockout`.
   */
  CREDENTIAL_LOCKOUT: spec(429, (seconds: number) => `Too many failed credential attempts from this address; retry after ${seconds} s`),
  API_KEY_LOCKOUT: spec(429, (seconds: number) => `Too many failed credential attempts for this API key; retry after ${seconds} s`),
  INTERNAL: spec(500, () => 'Internal Server Error'),
  /** The bank or the payment rails failed the penny-drop credit: the vendor answers these with a 500 envelope. */
  BANK_TRANSFER_FAILED: spec(500, (message: string) => message),
  USER_DETAILS_FAILED: spec(500, () => 'Failed to get user details'),
  EXPIRE_SESSION_FAILED: spec(500, () => 'Failed to expire session'),
  SOURCE_UNAVAILABLE: spec(503, () => 'Source Unavailable'),
  SERVICE_UNAVAILABLE: spec(503, () => 'Service Unavailable'),
  DATA_NOT_FOUND: spec(521, (id: string) => `Data not found for: ${id}`),
  JOB_NOT_FOUND: spec(521, (id: string) => `Data not found: ${id}`),
  INVALID_SESSION_STATUS: spec(523, (status: string) => `Invalid session status: ${status}`),
  /** The SDK document reads, which the spec does not list, answer the vendor's own message. */
  INVALID_SESSION_LIFECYCLE: spec(523, () => 'Cannot get document due to invalid session lifecycle'),
  SESSION_EXPIRED: spec(523, () => 'Session expired'),
} as const;

export type ErrorCode = keyof typeof ERROR_REGISTRY;
type ArgsOf<C extends ErrorCode> = (typeof ERROR_REGISTRY)[C] extends ErrorSpec<infer A> ? A : never;

export interface ServiceErrorOptions {
  /** Extra response headers, e.g. Retry-After on 429. */
  headers?: Record<string, string>;
  /** The underlying failure; logged (redacted), never sent to the caller. */
  cause?: unknown;
}

/** An error whose status, code and message are safe to send to the caller as they are. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_REGISTRY[code].status;
    this.headers = options.headers ?? {};
  }
}

/**
 * An error as an operation documents it (its OpenAPI error responses): the registry's code, status and message,
 * with `{name}` where the message varies (`IFSC not found: {ifsc}`).
 */
export interface DocumentedError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
}

/** A message's arguments, each also a `{placeholder}`. */
type Placeheld<A extends unknown[]> = { [K in keyof A]: A[K] | `{${string}}` };

/** Codes whose message takes no argument: an operation lists them by code alone. */
export type FixedMessageCode = { [C in ErrorCode]: ArgsOf<C> extends [] ? C : never }[ErrorCode];

/** What a route lists among the errors it can answer: a fixed-message code, or {@link documentedError}. */
export type OperationError = FixedMessageCode | DocumentedError;

/**
 * The registered error for `code` as documentation: each argument is the value the message shows, or a
 * `{placeholder}` for a part that varies (`documentedError('IFSC_NOT_FOUND', '{ifsc}')`).
 */
export function documentedError<C extends ErrorCode>(code: C, ...args: Placeheld<ArgsOf<C>>): DocumentedError {
  const message = (ERROR_REGISTRY[code].message as (...a: unknown[]) => string)(...args);
  return { code, status: ERROR_REGISTRY[code].status, message };
}

/** A route's listed error as documentation. */
export function describeError(error: OperationError): DocumentedError {
  return typeof error === 'string' ? documentedError(error as FixedMessageCode) : error;
}

/** Builds the registered error for `code`; the arguments fill the message template. */
export function serviceError<C extends ErrorCode>(code: C, ...args: ArgsOf<C>): ServiceError {
  const message = (ERROR_REGISTRY[code].message as (...a: unknown[]) => string)(...args);
  return new ServiceError(code, message);
}

/** Same as {@link serviceError} with headers or a cause attached. */
export function serviceErrorWith<C extends ErrorCode>(
  options: ServiceErrorOptions,
  code: C,
  ...args: ArgsOf<C>
): ServiceError {
  const message = (ERROR_REGISTRY[code].message as (...a: unknown[]) => string)(...args);
  return new ServiceError(code, message, options);
}

/**
 * Also true for a ServiceError from another copy of this package (a host may end up with two in node_modules):
 * the name and a registered code identify it.
 */
export function isServiceError(value: unknown): value is ServiceError {
  if (value instanceof ServiceError) return true;
  const candidate = value as { name?: unknown; code?: unknown; status?: unknown } | null;
  return candidate?.name === 'ServiceError' && typeof candidate.code === 'string' && candidate.code in ERROR_REGISTRY
    && typeof candidate.status === 'number';
}

/**
 * Anything thrown that is not a ServiceError becomes a 500 whose message reveals nothing, except Redis being
 * unreachable, which is a 503: the caller may retry.
 */
export function toServiceError(value: unknown): ServiceError {
  if (isServiceError(value)) return value;
  if (isRedisUnavailableError(value)) return new ServiceError('SERVICE_UNAVAILABLE', ERROR_REGISTRY.SERVICE_UNAVAILABLE.message(), { cause: value });
  return new ServiceError('INTERNAL', ERROR_REGISTRY.INTERNAL.message(), { cause: value });
}
