import { ERROR_REGISTRY, documentedError, parseAcceptCache, type JsonSchema, type RouteDefinition, type RouteRequest } from '@satyapan/core';
import { PAN_AADHAAR_STATUS_ENTITY, PAN_VERIFICATION_ENTITY, type PanAadhaarLinkService, type PanVerificationService } from './service.js';
import { KYC_EXAMPLES } from '../examples.js';
import { AADHAAR_NUMBER_PATTERN, DATE_OF_BIRTH_PATTERN, PAN_CATEGORIES, PAN_NAME_MAX, PAN_PATTERN, REASON_MAX, VALIDATION } from './rules.js';

const PREFIX = 'in.co.service.kyc';

const consent = (code: 'PAN_CONSENT_REQUIRED' | 'LINK_CONSENT_REQUIRED'): JsonSchema => ({
  type: 'string', enum: ['Y', 'y'], 'x-message': ERROR_REGISTRY[code].message(),
  description: 'The end user\'s consent to this check: `Y` or `y`',
});

/** Reason before consent: the vendor answers an empty reason first when both are wrong. */
const REASON: JsonSchema = {
  type: 'string',
  allOf: [
    { minLength: 1, pattern: '\\S', 'x-message': ERROR_REGISTRY.REASON_EMPTY.message() },
    { maxLength: REASON_MAX, 'x-message': VALIDATION.reasonLength },
  ],
  description: 'Why the check is made (kept by the caller for audit); not empty',
};

/**
 * `@entity` may be left out, as three of the vendor's own examples of this operation do (its 422 and 503 ones) and
 * its service answers them on the merits; a wrong one is still a 400 (docs/API.md).
 */
const VERIFY_BODY: JsonSchema = {
  type: 'object',
  required: ['pan', 'name_as_per_pan', 'date_of_birth', 'consent', 'reason'],
  properties: {
    '@entity': { const: `${PREFIX}.pan_verification.request`, description: 'Optional here, as the vendor\'s examples show; when sent it must be this value' },
    pan: { type: 'string', pattern: PAN_PATTERN.source, 'x-message': ERROR_REGISTRY.INVALID_PAN_PATTERN.message(), description: 'The PAN to verify (upper case)' },
    name_as_per_pan: { type: 'string', minLength: 1, maxLength: PAN_NAME_MAX, pattern: '\\S', 'x-message': VALIDATION.nameAsPerPan, description: 'The holder\'s name as the caller has it' },
    date_of_birth: { type: 'string', pattern: DATE_OF_BIRTH_PATTERN.source, 'x-message': VALIDATION.dateOfBirth, description: 'Date of birth, or of incorporation for a business: DD/MM/YYYY' },
    reason: REASON,
    consent: consent('PAN_CONSENT_REQUIRED'),
  },
};

const VERIFY_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'pan', 'category', 'status', 'remarks', 'name_as_per_pan_match', 'date_of_birth_match', 'aadhaar_seeding_status'],
  properties: {
    '@entity': { const: PAN_VERIFICATION_ENTITY },
    pan: { type: 'string' },
    category: { enum: Object.values(PAN_CATEGORIES), description: 'From the PAN\'s 4th character' },
    status: { enum: ['valid', 'invalid'] },
    remarks: { type: ['string', 'null'], description: 'A status remark when the provider gives one (e.g. Holder is Deceased); null otherwise' },
    name_as_per_pan_match: { type: 'boolean', description: 'name_as_per_pan against the registered name, by @satyapan/name-match at the deployment\'s threshold' },
    date_of_birth_match: { type: 'boolean' },
    aadhaar_seeding_status: { enum: ['y', 'n', 'na'], description: '`na` for a business or an invalid PAN' },
  },
};

const LINK_BODY: JsonSchema = {
  type: 'object',
  required: ['@entity', 'pan', 'aadhaar_number', 'consent', 'reason'],
  properties: {
    '@entity': { const: `${PREFIX}.pan_aadhaar.status` },
    pan: { type: 'string', pattern: PAN_PATTERN.source, 'x-message': ERROR_REGISTRY.INVALID_LINK_PAN_PATTERN.message(), description: 'An individual\'s PAN (4th character P)' },
    aadhaar_number: { type: 'string', pattern: AADHAAR_NUMBER_PATTERN.source, 'x-message': VALIDATION.aadhaarNumber, description: '12 digits, no spaces' },
    reason: REASON,
    consent: consent('LINK_CONSENT_REQUIRED'),
  },
};

const LINK_RESPONSE: JsonSchema = {
  type: 'object',
  required: ['@entity', 'aadhaar_seeding_status', 'message'],
  properties: {
    '@entity': { const: PAN_AADHAAR_STATUS_ENTITY },
    aadhaar_seeding_status: { enum: ['y', 'n'] },
    message: {
      type: 'string',
      description: '`Your PAN is linked to Aadhaar Number  XXXX XXXX <last 4>.`, `PAN not linked with Aadhaar`, '
        + '`Your Aadhaar Number is linked to some other PAN`, `Your PAN is linked to some other Aadhaar Number`, `PAN does not exist`, '
        + '`Please enter a valid Aadhaar Number`',
    },
  },
};

const ACCEPT_CACHE: JsonSchema = {
  type: 'object',
  properties: { 'x-accept-cache': { type: 'string', description: '`true`: answer from the cache when present; `false` or absent: ask the source' } },
};

const route = (spec: Omit<RouteDefinition, 'tag' | 'product' | 'auth'>): RouteDefinition => ({ ...spec, tag: 'kyc', product: 'kyc', auth: 'jwt' });

interface VerifyBody { pan: string; name_as_per_pan: string; date_of_birth: string; consent: string; reason: string }
interface LinkBody { pan: string; aadhaar_number: string; consent: string; reason: string }

/** `POST /kyc/pan/verify` and `POST /kyc/pan-aadhaar/status`, each mounted when its service is configured. */
export function panRoutes(pan: PanVerificationService | undefined, link: PanAadhaarLinkService | undefined): RouteDefinition[] {
  const routes: RouteDefinition[] = [];
  const cacheOf = (req: RouteRequest): boolean => parseAcceptCache(req.headers['x-accept-cache']);
  if (pan) {
    routes.push(route({
      method: 'post', path: '/kyc/pan/verify', operationId: 'verifyPan',
      summary: 'Verify a PAN: validity, category, whether name and date of birth match the records, Aadhaar seeding. Header x-accept-cache: true answers from the cache when it can.',
      schemas: { headers: ACCEPT_CACHE, body: VERIFY_BODY, response: VERIFY_RESPONSE },
      // The service checks the body's rules again (for direct callers) with the schema's messages.
      errors: [
        'INVALID_PAN_PATTERN', documentedError('UNPROCESSABLE', VALIDATION.nameAsPerPan), documentedError('UNPROCESSABLE', VALIDATION.dateOfBirth),
        'REASON_EMPTY', documentedError('UNPROCESSABLE', VALIDATION.reasonLength), 'PAN_CONSENT_REQUIRED', 'TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE',
      ],
      examples: KYC_EXAMPLES.verifyPan,
      handler: async (req) => {
        const body = req.body as VerifyBody;
        return {
          data: await pan.verifyPan({
            apiKey: req.client.apiKey, pan: body.pan, nameAsPerPan: body.name_as_per_pan, dateOfBirth: body.date_of_birth,
            consent: body.consent, reason: body.reason, acceptCache: cacheOf(req),
          }, req.logger),
        };
      },
    }));
  }
  if (link) {
    routes.push(route({
      method: 'post', path: '/kyc/pan-aadhaar/status', operationId: 'getPanAadhaarLinkStatus',
      summary: 'Whether an individual\'s PAN is linked to the Aadhaar number. Header x-accept-cache: true answers from the cache when it can.',
      schemas: { headers: ACCEPT_CACHE, body: LINK_BODY, response: LINK_RESPONSE },
      errors: [
        'INVALID_LINK_PAN_PATTERN', 'INDIVIDUAL_PAN_REQUIRED', documentedError('UNPROCESSABLE', VALIDATION.aadhaarNumber), 'REASON_EMPTY',
        documentedError('UNPROCESSABLE', VALIDATION.reasonLength), 'LINK_CONSENT_REQUIRED', 'TOO_MANY_REQUESTS', 'SOURCE_UNAVAILABLE',
      ],
      examples: KYC_EXAMPLES.getPanAadhaarLinkStatus,
      handler: async (req) => {
        const body = req.body as LinkBody;
        return {
          data: await link.linkStatus({
            apiKey: req.client.apiKey, pan: body.pan, aadhaarNumber: body.aadhaar_number, consent: body.consent, reason: body.reason,
            acceptCache: cacheOf(req),
          }, req.logger),
        };
      },
    }));
  }
  return routes;
}
