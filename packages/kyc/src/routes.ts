import { DOCVAULT_DOC_TYPES, ENTITYVAULT_DOC_TYPES, type SessionVariant } from './sessions/model.js';
import type { AadhaarOtpService, OtpRequest, OtpVerifyRequest } from './aadhaar/aadhaar-otp-service.js';
import type { InitSessionRequest, KycService, SdkSessionRequest, UserVerificationRequest } from './sessions/kyc-service.js';
import type { LockerKind } from './locker/types.js';
import type { PanAadhaarLinkService, PanVerificationService } from './pan/service.js';
import { panRoutes } from './pan/routes.js';
import { KYC_EXAMPLES } from './examples.js';
import { checkThreshold, matchNames, nameLimitExceeded, NAME_MATCH_PROPERTIES_SCHEMA, type NameKind } from '@satyapan/name-match';
import { ERROR_REGISTRY, documentedError, serviceError, type Area, type OperationError, type JsonSchema, type RouteContext, type RouteDefinition, type RouteRequest, type RouteResult } from '@satyapan/core';

/** The services of the kyc area; each is optional, so a host can serve the lockers without Aadhaar OTP. */
export interface KycAreaServices {
  /** `new KycService(...)`: docvault and entityvault sessions (API and SDK variants). */
  kyc?: KycService;
  /** `new AadhaarOtpService(...)`: the deprecated Aadhaar OTP e-KYC. */
  aadhaarOtp?: AadhaarOtpService;
  /** `new PanVerificationService(...)`: `POST /kyc/pan/verify`, mounted when given. */
  pan?: PanVerificationService;
  /** `new PanAadhaarLinkService(...)`: `POST /kyc/pan-aadhaar/status`, mounted when given. */
  panAadhaarLink?: PanAadhaarLinkService;
  /** Decision threshold (0..1) of `POST /kyc/name-match`; default @satyapan/name-match's 0.85. The operation needs no upstream and is always mounted. */
  nameMatchThreshold?: number;
}

/** The kyc area for `createRouter({ areas })`. */
export function kycArea(services: KycAreaServices): Area {
  return { name: 'kyc', routes: (ctx) => kycRoutes(ctx, services) };
}

/**
 * Operations 1-10 of the service specification and the operations docs/API.md adds: entityvault init, SDK create-session and
 * authorization URL, our OAuth callbacks, docvault documents, OTP verify. Handlers only translate HTTP to the
 * services; the rules live in @satyapan/kyc.
 */
function kycRoutes(ctx: RouteContext, services: KycAreaServices): RouteDefinition[] {
  const routes: RouteDefinition[] = [];
  const kyc = services.kyc;
  if (kyc) {
    const unconfigured = kyc.lockersWithoutCallbackUrl();
    if (!ctx.publicBaseUrl && unconfigured.length > 0) {
      throw new Error(`No callback URL for the ${unconfigured.join(' and ')} locker: configure the locker's callbackUrl or the router's publicBaseUrl`);
    }
    routes.push(...lockerRoutes(kyc, 'docvault', ctx), ...lockerRoutes(kyc, 'entityvault', ctx));
  }
  const otp = services.aadhaarOtp;
  if (otp) routes.push(...otpRoutes(otp, ctx));
  routes.push(...panRoutes(services.pan, services.panAadhaarLink));
  routes.push(nameMatchRoute(services.nameMatchThreshold === undefined ? undefined : checkThreshold(services.nameMatchThreshold)));
  return routes;
}

// ---- schemas ---------------------------------------------------------------------------------------------

const PREFIX = 'in.co.service.kyc';
const DOC_TYPES: Record<LockerKind, readonly string[]> = { docvault: DOCVAULT_DOC_TYPES, entityvault: ENTITYVAULT_DOC_TYPES };
const VERIFICATION_METHODS = ['aadhaar', 'pan', 'driving_license', 'email', 'username', 'mobile', 'other'];

const FLOW: JsonSchema = { enum: ['signin', 'signup'], description: '`signin` for an existing locker user, `signup` to create an account' };

/** The vendor's SDK OpenAPI example spells the flows `sign_in` / `sign_up`; both spellings are accepted there. */
const SDK_FLOW: JsonSchema = { enum: ['signin', 'signup', 'sign_in', 'sign_up'], description: `${FLOW['description'] as string}; \`sign_in\` / \`sign_up\` too` };

const REDIRECT_URL: JsonSchema = {
  type: 'string', maxLength: 2048, format: 'uri', pattern: '^https://', 'x-message': 'Invalid redirect_url: must be an https URL',
  description: 'HTTPS URL the user is sent back to, with `session_id` and `status` added to its query',
};

const OPTIONS: JsonSchema = {
  type: 'object',
  properties: {
    verification_method: { type: 'array', minItems: 1, items: { enum: VERIFICATION_METHODS } },
    pinless: { type: 'boolean', description: 'Sign in with an OTP instead of the locker PIN (signin flow)' },
    usernameless: { type: 'boolean', description: 'Skip creating a username (signup flow)' },
    verified_mobile: { type: 'string', pattern: '^[6-9][0-9]{9}$', description: 'Mobile number the caller already verified' },
  },
};

const CONSENT_EXPIRY: JsonSchema = {
  type: 'integer',
  description: 'Unix time in seconds (10 digits) or milliseconds, 1 hour to 365 days ahead; default 24 hours ahead',
};

const docTypeList = (kind: LockerKind): JsonSchema => ({ type: 'array', minItems: 1, items: { enum: [...DOC_TYPES[kind]] } });

function initBody(kind: LockerKind): JsonSchema {
  const docvault = kind === 'docvault';
  return {
    type: 'object',
    required: ['@entity', 'flow', 'redirect_url', ...(docvault ? ['doc_types'] : [])],
    properties: {
      '@entity': { const: `${PREFIX}.${kind}.session.request` },
      flow: FLOW,
      redirect_url: REDIRECT_URL,
      ...(docvault ? { doc_types: docTypeList(kind) } : {}),
      options: OPTIONS,
      consent_expiry: CONSENT_EXPIRY,
    },
  };
}

const sdkCreateBody = (kind: LockerKind): JsonSchema => ({
  type: 'object',
  required: ['@entity', 'flow', 'doc_types'],
  properties: { '@entity': { const: `${PREFIX}.${kind}.sdk.session.request` }, flow: SDK_FLOW, doc_types: docTypeList(kind) },
});

const SESSION_PARAMS: JsonSchema = {
  type: 'object', required: ['session_id'], properties: { session_id: { type: 'string', minLength: 1, maxLength: 64 } },
};

const documentParams = (kind: LockerKind): JsonSchema => ({
  type: 'object',
  required: ['session_id', 'doc_type'],
  properties: { session_id: { type: 'string', minLength: 1, maxLength: 64 }, doc_type: { enum: [...DOC_TYPES[kind]] } },
});

const CALLBACK_QUERY: JsonSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, state: { type: 'string' }, error: { type: 'string' }, error_description: { type: 'string' } },
};

const entityConst = (value: string): JsonSchema => ({ const: value });

const INIT_RESPONSE = (kind: LockerKind): JsonSchema => ({
  type: 'object',
  required: ['@entity', 'session_id', 'authorization_url'],
  properties: {
    '@entity': entityConst(`${PREFIX}.${kind}.session.response`),
    session_id: { type: 'string', format: 'uuid' },
    authorization_url: { type: 'string', format: 'uri', description: 'Send the user here to give consent at the locker' },
  },
});

const statusResponse = (entity: string, kind: LockerKind): JsonSchema => ({
  type: 'object',
  required: ['@entity', 'id', 'status', 'created_at'],
  properties: {
    '@entity': entityConst(entity),
    id: { type: 'string' },
    status: { enum: ['created', 'initialized', 'authorized', 'succeeded', 'failed', 'expired'] },
    created_at: { type: 'integer' },
    updated_at: { type: 'integer' },
    documents_consented: { type: 'array', items: { enum: [...DOC_TYPES[kind]] }, description: 'Present once succeeded' },
  },
});

const SDK_CREATED = (kind: LockerKind): JsonSchema => ({
  type: 'object',
  required: ['@entity', 'id', 'status', 'created_at'],
  properties: { '@entity': entityConst(`${PREFIX}.${kind}.sdk.session`), id: { type: 'string' }, status: { const: 'created' }, created_at: { type: 'integer' } },
});

const SDK_AUTHORIZATION = (kind: LockerKind): JsonSchema => ({
  type: 'object',
  required: ['@entity', 'id', 'authorization_url'],
  properties: { '@entity': entityConst(`${PREFIX}.${kind}.sdk.authorization_url`), id: { type: 'string' }, authorization_url: { type: 'string', format: 'uri' } },
});

function profileResponse(entity: string, dateOfBirth: JsonSchema, email: 'optional' | 'required' | 'none'): JsonSchema {
  return {
    type: 'object',
    required: ['@entity', 'id', 'name', 'date_of_birth', 'mobile', 'gender', 'eaadhaar', ...(email === 'required' ? ['email'] : [])],
    properties: {
      '@entity': entityConst(entity),
      id: { type: 'string', description: 'Locker user id' },
      name: { type: 'string' },
      date_of_birth: dateOfBirth,
      mobile: { type: 'string' },
      gender: { enum: ['male', 'female', 'transgender'] },
      eaadhaar: { type: 'boolean' },
      ...(email === 'none' ? {} : { email: { type: 'string' } }),
    },
  };
}

const DOB_MS: JsonSchema = { type: 'integer', description: 'Unix ms of the date of birth (00:00 UTC)' };
const DOB_TEXT: JsonSchema = { type: 'string', pattern: '^\\d{2}/\\d{2}/\\d{4}$', description: 'dd/mm/yyyy' };

const ENTITY_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'id', 'name', 'date_of_incorporation', 'email', 'mobile', 'verified_by'],
  properties: {
    '@entity': entityConst(`${PREFIX}.entityvault.entity`),
    id: { type: 'string' }, name: { type: 'string' }, date_of_incorporation: DOB_TEXT, email: { type: 'string' },
    mobile: { type: 'string' }, verified_by: { type: 'string', description: 'Identifier kind the entity was verified with, e.g. cin' },
  },
};

const FILES_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['files'],
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['@entity', 'url', 'size', 'metadata'],
        properties: {
          '@entity': entityConst('org.service.drive.file'),
          url: { type: 'string', format: 'uri', description: 'Pre-signed download URL, valid 1 hour; the copy is deleted after 60 minutes' },
          size: { type: 'integer', description: 'Bytes' },
          metadata: {
            type: 'object',
            required: ['ContentType', 'issuer_id', 'issuer', 'LastModified', 'description'],
            properties: {
              ContentType: { type: 'string' }, issuer_id: { type: 'string' }, issuer: { type: 'string' },
              LastModified: DOB_TEXT, description: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

const USER_VERIFY_BODY: JsonSchema = {
  type: 'object',
  required: ['@entity'],
  description: 'At least one of aadhaar_number and mobile.',
  properties: {
    '@entity': { const: `${PREFIX}.docvault.user.verification.request` },
    aadhaar_number: { type: 'string', pattern: '^[0-9]{12}$', 'x-message': 'Invalid Aadhaar number pattern', description: '12 digits, no spaces' },
    mobile: { type: 'string', pattern: '^[0-9]{10}$', 'x-message': 'Invalid mobile: must be 10 digits', description: '10 digits, no country code' },
  },
};

const USER_VERIFY_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'user_exists'],
  properties: {
    '@entity': { const: `${PREFIX}.docvault.user.verification.response` },
    user_exists: { type: 'boolean', description: 'Whether a docvault account exists for the Aadhaar number or mobile number' },
  },
};

// ---- locker routes ---------------------------------------------------------------------------------------

type Handler = RouteDefinition['handler'];

interface Spec {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  schemas: RouteDefinition['schemas'];
  errors?: readonly OperationError[];
  examples?: RouteDefinition['examples'];
  handler: Handler;
}

// What the locker operations answer besides the router's errors (KycService): an unknown session, a session in
// the wrong status, and a locker call that failed (its rate limit, an outage, a grant that is gone).
const UNKNOWN_SESSION = documentedError('DATA_NOT_FOUND', '{session_id}');
const NOT_SUCCEEDED: readonly OperationError[] = ['SESSION_EXPIRED', documentedError('INVALID_SESSION_STATUS', '{status}')];
const LOCKER_CALL: readonly OperationError[] = ['TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE', 'SESSION_EXPIRED', 'EXPIRE_SESSION_FAILED'];
const NOT_CONSENTED = documentedError('CONSENT_NOT_PROVIDED', '{doc_type}');

const route = (spec: Spec): RouteDefinition => ({ ...spec, tag: 'kyc', product: 'kyc', auth: 'jwt' });

function lockerRoutes(kyc: KycService, kind: LockerKind, ctx: RouteContext): RouteDefinition[] {
  const api = `/kyc/${kind}`;
  const sdk = `/kyc/${kind}-sdk`;
  const Kind = kind === 'docvault' ? 'Docvault' : 'Entityvault';
  // Used only when the locker has no configured callback URL; from configuration, never from the request.
  const callbackUrl = ctx.publicBaseUrl ? `${ctx.publicBaseUrl}${api}/callback` : undefined;
  const sessionId = (req: RouteRequest): string => (req.params as { session_id: string }).session_id;
  const status = (variant: SessionVariant): Handler => async (req) => ({ data: await kyc.status(req.client.id, kind, variant, sessionId(req)) });
  const documents = (variant: SessionVariant): Handler => async (req) => {
    const { session_id, doc_type } = req.params as { session_id: string; doc_type: string };
    return { data: await kyc.documents(req.client.id, kind, variant, session_id, doc_type) };
  };

  const routes: RouteDefinition[] = [
    route({
      method: 'post', path: `${api}/sessions/init`, operationId: `init${Kind}Session`,
      summary: kind === 'docvault'
        ? 'Initiate an individual locker session; send the user to authorization_url to consent to the documents.'
        : 'Initiate an entity locker session; the user picks the documents to share at the locker.',
      schemas: { body: initBody(kind), response: INIT_RESPONSE(kind) },
      examples: KYC_EXAMPLES[`init${Kind}Session`],
      handler: async (req) => ({ data: await kyc.initSession(req.client.id, kind, initRequest(req.body), callbackUrl ? { callbackUrl } : {}) }),
    }),
    route({
      method: 'get', path: `${api}/sessions/:session_id/status`, operationId: `get${Kind}SessionStatus`,
      summary: 'Latest status of the session, with the consented document types once it succeeded.',
      schemas: { params: SESSION_PARAMS, response: statusResponse(`${PREFIX}.${kind}.session`, kind) },
      errors: [UNKNOWN_SESSION], handler: status('api'),
    }),
    route({
      method: 'get', path: `${api}/sessions/:session_id/user/profile`, operationId: `get${Kind}UserProfile`,
      summary: kind === 'docvault'
        ? 'Profile of the locker user (date of birth as Unix ms).'
        : 'Profile of the person who opened the entity locker.',
      schemas: {
        params: SESSION_PARAMS,
        response: kind === 'docvault'
          ? profileResponse(`${PREFIX}.docvault.user.profile`, DOB_MS, 'optional')
          : profileResponse(`${PREFIX}.entityvault.user.profile`, DOB_TEXT, 'none'),
      },
      errors: [UNKNOWN_SESSION, ...NOT_SUCCEEDED, ...LOCKER_CALL, 'USER_DETAILS_FAILED'],
      handler: async (req) => ({ data: await kyc.profile(req.client.id, kind, 'api', sessionId(req)) }),
    }),
    route({
      method: 'get', path: `${api}/sessions/:session_id/documents/:doc_type`, operationId: `get${Kind}Document`,
      summary: 'A consented document, copied from the locker; returned as a pre-signed URL valid 1 hour.',
      schemas: { params: documentParams(kind), response: FILES_RESPONSE },
      errors: [UNKNOWN_SESSION, ...NOT_SUCCEEDED, NOT_CONSENTED, ...LOCKER_CALL], handler: documents('api'),
    }),
    route({
      method: 'post', path: `${sdk}/sessions/create`, operationId: `create${Kind}SdkSession`,
      summary: 'Create a session for the SDK; get its authorization URL with the authorization_url operation.',
      schemas: { body: sdkCreateBody(kind), response: SDK_CREATED(kind) },
      examples: KYC_EXAMPLES[`create${Kind}SdkSession`],
      handler: async (req) => ({ data: await kyc.createSdkSession(req.client.id, kind, sdkRequest(req.body)) }),
    }),
    route({
      method: 'get', path: `${sdk}/sessions/:session_id/authorization_url`, operationId: `get${Kind}SdkAuthorizationUrl`,
      summary: 'The locker authorization URL of an SDK session (moves it to initialized; the same URL on every call).',
      schemas: { params: SESSION_PARAMS, response: SDK_AUTHORIZATION(kind) },
      errors: [UNKNOWN_SESSION, ...NOT_SUCCEEDED],
      handler: async (req) => ({ data: await kyc.sdkAuthorizationUrl(req.client.id, kind, sessionId(req), callbackUrl ? { callbackUrl } : {}) }),
    }),
    route({
      method: 'get', path: `${sdk}/sessions/:session_id/status`, operationId: `get${Kind}SdkSessionStatus`,
      summary: 'Status of an SDK session; an authorized session has its documents listed at the locker first.',
      schemas: { params: SESSION_PARAMS, response: statusResponse(`${PREFIX}.${kind}.sdk.session`, kind) },
      errors: [UNKNOWN_SESSION, ...LOCKER_CALL], handler: status('sdk'),
    }),
    route({
      method: 'get', path: `${sdk}/sessions/:session_id/documents/:doc_type`, operationId: `get${Kind}SdkDocument`,
      summary: 'A consented document of an SDK session, as a pre-signed URL valid 1 hour.',
      schemas: { params: documentParams(kind), response: FILES_RESPONSE },
      errors: [UNKNOWN_SESSION, 'INVALID_SESSION_LIFECYCLE', NOT_CONSENTED, ...LOCKER_CALL], handler: documents('sdk'),
    }),
    {
      method: 'get', path: `${api}/callback`, operationId: `${kind}Callback`, tag: 'kyc', product: null, auth: 'none',
      summary: 'OAuth 2.0 redirect target of the locker (not called by API clients). Sends the user on to the '
        + 'caller\'s redirect_url with session_id and status; SDK sessions get the session status as JSON.',
      schemas: { query: CALLBACK_QUERY },
      errors: ['INVALID_SIGNATURE'],
      handler: async (req) => callbackResult(await kyc.handleCallback(kind, callbackQuery(req.query)), kind, wantsHtml(req)),
    },
  ];
  if (kind === 'docvault') {
    routes.push(route({
      method: 'post', path: `${api}/user/verify`, operationId: 'verifyDocvaultUser',
      summary: 'Whether a docvault account exists for this Aadhaar number or mobile number (pick flow signin or signup).',
      schemas: { body: USER_VERIFY_BODY, response: USER_VERIFY_RESPONSE },
      errors: ['TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE'],
      examples: KYC_EXAMPLES.verifyDocvaultUser,
      handler: async (req) => {
        const { '@entity': _entity, ...request } = req.body as UserVerificationRequest & { '@entity': string };
        return { data: await kyc.verifyUser(request) };
      },
    }));
    routes.push(route({
      method: 'get', path: `${sdk}/sessions/:session_id/user/profile`, operationId: 'getDocvaultSdkUserProfile',
      summary: 'Profile of the locker user of an SDK session (date of birth as dd/mm/yyyy, email always present).',
      schemas: { params: SESSION_PARAMS, response: profileResponse(`${PREFIX}.docvault.user.profile`, DOB_TEXT, 'required') },
      errors: [UNKNOWN_SESSION, ...NOT_SUCCEEDED, ...LOCKER_CALL, 'USER_DETAILS_FAILED'],
      handler: async (req) => ({ data: await kyc.profile(req.client.id, 'docvault', 'sdk', sessionId(req)) }),
    }));
  } else {
    routes.push(route({
      method: 'get', path: `${api}/sessions/:session_id/entity`, operationId: 'getEntityvaultEntity',
      summary: 'Details of the entity whose locker was opened.',
      schemas: { params: SESSION_PARAMS, response: ENTITY_RESPONSE },
      errors: [UNKNOWN_SESSION, ...NOT_SUCCEEDED, ...LOCKER_CALL],
      handler: async (req) => ({ data: await kyc.entity(req.client.id, 'api', sessionId(req)) }),
    }));
  }
  return routes;
}

function initRequest(body: unknown): InitSessionRequest {
  const { '@entity': _entity, ...request } = body as InitSessionRequest & { '@entity': string };
  return request;
}

function sdkRequest(body: unknown): SdkSessionRequest {
  const { flow, doc_types } = body as { flow: string; doc_types: string[] };
  return { flow: flow.replace('_', '') as SdkSessionRequest['flow'], doc_types };
}

/** Repeated parameters are refused by taking none of them: a callback carries each once. */
function callbackQuery(query: Record<string, unknown>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (typeof value === 'string') params.set(key, value);
  return params;
}

/** A browser that lands on the SDK callback gets a page; the SDK's own fetch (Accept: JSON or any) gets JSON. */
function wantsHtml(req: RouteRequest): boolean {
  const accept = req.headers['accept'];
  return typeof accept === 'string' && accept.includes('text/html');
}

function callbackResult(outcome: Awaited<ReturnType<KycService['handleCallback']>>, kind: LockerKind, html: boolean): RouteResult {
  if (outcome.redirectUrl) return { kind: 'redirect', location: outcome.redirectUrl, status: 302 };
  // SDK sessions have no redirect_url: the SDK's window reads the outcome.
  const body = { '@entity': `${PREFIX}.${kind}.sdk.session`, id: outcome.sessionId, status: outcome.status };
  if (!html) return { kind: 'raw', body };
  const done = outcome.status === 'authorized' || outcome.status === 'succeeded';
  const text = done ? 'Consent recorded. You can close this window and return to the app.' : 'Consent was not given. You can close this window and return to the app.';
  return {
    kind: 'html',
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${done ? 'Consent recorded' : 'Consent not given'}</title></head>`
      + `<body><main><h1>${done ? 'Thank you' : 'No consent given'}</h1><p>${text}</p>`
      + `<script type="application/json" id="session">${JSON.stringify(body).replace(/</g, '\\u003c')}</script></main></body></html>`,
  };
}

// ---- name match ------------------------------------------------------------------------------------------

/** Longer than any name in a KYC record; bounds the work of one request. */
const NAME_MATCH_MAX = 200;

const nameField = (field: string): JsonSchema => ({
  type: 'string', minLength: 1, maxLength: NAME_MATCH_MAX, 'x-message': `Invalid ${field}: must be 1 to ${NAME_MATCH_MAX} characters`,
});

const NAME_MATCH_BODY: JsonSchema = {
  type: 'object',
  required: ['@entity', 'name_1', 'name_2'],
  properties: {
    '@entity': { const: `${PREFIX}.name_match.request` },
    name_1: { ...nameField('name_1'), description: 'A person\'s or business\'s name as one record has it (e.g. the PAN)' },
    name_2: { ...nameField('name_2'), description: 'The name as another record has it (e.g. the bank account)' },
    kind: { enum: ['person', 'business'], description: 'Inferred when absent: `business` when either name carries a legal form such as PVT LTD or LLP' },
  },
};

const NAME_MATCH_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'score', 'result', 'reasons'],
  properties: { '@entity': entityConst(`${PREFIX}.name_match.response`), ...NAME_MATCH_PROPERTIES_SCHEMA },
};

/**
 * The schema's 200 characters count the name as written; one character can normalise to six (U+33AF), so the
 * name-match limits (length once normalised, 16 words) are checked here, as a 422 naming the field.
 */
function assertNameWithinLimits(field: string, name: string): void {
  const problem = nameLimitExceeded(name);
  if (problem !== undefined) throw serviceError('INVALID_FIELD', field, problem);
}

function nameMatchRoute(threshold: number | undefined): RouteDefinition {
  return route({
    method: 'post', path: '/kyc/name-match', operationId: 'matchNames',
    summary: 'Compare two Indian person or business names: a score, a decision and the reasons (honorifics, initials, order, spellings, legal forms).',
    schemas: { body: NAME_MATCH_BODY, response: NAME_MATCH_RESPONSE },
    examples: KYC_EXAMPLES.matchNames,
    handler: async (req) => {
      const { name_1, name_2, kind } = req.body as { name_1: string; name_2: string; kind?: NameKind };
      assertNameWithinLimits('name_1', name_1);
      assertNameWithinLimits('name_2', name_2);
      const { score, result, reasons } = matchNames(name_1, name_2, { ...(kind ? { kind } : {}), ...(threshold === undefined ? {} : { threshold }) });
      return { data: { '@entity': `${PREFIX}.name_match.response`, score, result, reasons } };
    },
  });
}

// ---- Aadhaar OTP -----------------------------------------------------------------------------------------

const OTP_BODY: JsonSchema = {
  type: 'object',
  required: ['@entity', 'aadhaar_number', 'reason'],
  properties: {
    '@entity': { const: `${PREFIX}.aadhaar.okyc.otp.request` },
    aadhaar_number: { type: 'string', pattern: '^[0-9]{12}$', 'x-message': 'Invalid Aadhaar number pattern', description: '12 digits, no spaces' },
    consent: { type: 'string', description: '`Y` or `y`; anything else is 422 Consent is required' },
    reason: { type: 'string', minLength: 1, maxLength: 256, description: 'Purpose of the verification, for audit' },
  },
};

const OTP_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'message'],
  properties: {
    '@entity': entityConst(`${PREFIX}.aadhaar.okyc.otp.response`),
    reference_id: { type: 'integer' },
    message: { enum: ['OTP sent successfully', 'Invalid Aadhaar Card', 'Aadhaar not linked to mobile number'] },
  },
};

const VERIFY_BODY: JsonSchema = {
  type: 'object',
  required: ['@entity'],
  properties: {
    '@entity': { const: `${PREFIX}.aadhaar.okyc.request` },
    reference_id: { anyOf: [{ type: 'string' }, { type: 'integer' }], 'x-message': ERROR_REGISTRY.INVALID_REFERENCE_ID.message(), description: 'From the OTP response; missing or malformed is 422 Invalid Reference Id' },
    otp: { type: 'string', description: '6 digits; missing, empty or malformed is 422 OTP missing in request (checked before reference_id)' },
  },
};

const text = { type: 'string' };
const VERIFY_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'message'],
  description: 'On success the e-KYC record with status VALID; otherwise only `message` (Invalid OTP, OTP Expired, Invalid Reference Id, ...)',
  properties: {
    '@entity': entityConst(`${PREFIX}.aadhaar.okyc`),
    reference_id: { type: 'integer' }, status: { const: 'VALID' }, message: text, care_of: text, full_address: text,
    date_of_birth: { type: 'string', description: 'dd-mm-yyyy' }, year_of_birth: text, gender: text, name: text,
    email_hash: text, mobile_hash: text, photo: { type: 'string', description: 'data: URI' }, share_code: text,
    address: {
      type: 'object',
      properties: Object.fromEntries(['@entity', 'country', 'district', 'house', 'landmark', 'pincode', 'post_office', 'state', 'street', 'subdistrict', 'vtc'].map((f) => [f, text])),
    },
  },
};

/** Every answer of the OTP operations, errors included, points callers to the docvault flow (docs/API.md). */
const DEPRECATED_FOR_DOCVAULT = { deprecated: true, successor: '/kyc/docvault/sessions/init' } as const;

function otpRoutes(otp: AadhaarOtpService, ctx: RouteContext): RouteDefinition[] {
  return [
    {
      ...route({
        method: 'post', path: '/kyc/aadhaar/okyc/otp', operationId: 'sendAadhaarOtp',
        summary: 'Send an OTP to the mobile number linked to an Aadhaar number. Deprecated upstream: use the docvault flow.',
        schemas: { body: OTP_BODY, response: OTP_RESPONSE },
        errors: [documentedError('UNPROCESSABLE', 'Consent is required'), 'TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE'],
        examples: KYC_EXAMPLES.sendAadhaarOtp,
        handler: async (req) => {
          const answer = await otp.sendOtp(req.client.id, req.body as OtpRequest);
          if (answer.kind === 'data') return { data: answer.data };
          // A repeat within 45 s: 200 with a top-level message and no data, as the vendor answers it.
          return { kind: 'raw', body: { code: 200, timestamp: ctx.clock.now(), transaction_id: req.transactionId, message: answer.message } };
        },
      }),
      ...DEPRECATED_FOR_DOCVAULT,
    },
    {
      ...route({
        method: 'post', path: '/kyc/aadhaar/okyc/otp/verify', operationId: 'verifyAadhaarOtp',
        summary: 'Verify the OTP and get the Aadhaar e-KYC record. Deprecated upstream: use the docvault flow.',
        schemas: { body: VERIFY_BODY, response: VERIFY_RESPONSE },
        errors: ['OTP_MISSING', 'INVALID_REFERENCE_ID', 'TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE'],
        examples: KYC_EXAMPLES.verifyAadhaarOtp,
        handler: async (req) => ({ data: await otp.verifyOtp(req.client.id, req.body as OtpVerifyRequest) }),
      }),
      ...DEPRECATED_FOR_DOCVAULT,
    },
  ];
}

