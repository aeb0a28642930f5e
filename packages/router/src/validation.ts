import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { serviceError, type ServiceError } from '@satyapan/core';
import type { JsonSchema } from './route-types.js';

export type InputPart = 'body' | 'query' | 'params' | 'headers';

/**
 * Keywords that say the request is malformed (400). Everything else (pattern, enum, format, ranges) says a
 * well-formed value breaks a rule (422), as docs/API.md decides.
 */
const STRUCTURAL = new Set(['required', 'type', 'additionalProperties', 'unevaluatedProperties', 'const', 'dependentRequired']);

/**
 * Schemas may carry `x-message`: the vendor's exact message for a rule failure on that value (e.g.
 * "Invalid IFSC pattern"). `{value}` in it is replaced by the offending value.
 */
const MESSAGE_KEYWORD = 'x-message';

/**
 * `coerce`: for query strings and path parameters, whose values arrive as strings. `dropUnknown`: for request
 * bodies, whose unknown fields are ignored as the vendor ignores them (its clients send older field names):
 * they are removed before the handler sees the body, never refused.
 */
export function createAjv(coerce = false, dropUnknown = false): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: false, verbose: true, strict: true, coerceTypes: coerce, useDefaults: true,
    ...(dropUnknown ? { removeAdditional: 'all' as const } : {}),
  });
  addFormats.default(ajv);
  ajv.addKeyword({ keyword: MESSAGE_KEYWORD, schemaType: 'string' });
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}

export class RequestValidator {
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();
  private readonly coercing = new Map<JsonSchema, ValidateFunction>();
  private readonly ajv = createAjv(false, true);
  private readonly coercingAjv = createAjv(true);

  /** Validates (and fills defaults into) `value`; throws the 400/422 ServiceError docs/API.md prescribes. */
  check(part: InputPart, schema: JsonSchema, value: unknown): void {
    const validate = part === 'body' ? this.compile(schema) : this.compileCoercing(schema);
    if (validate(value)) return;
    const error = validate.errors?.[0];
    throw error ? toServiceError(part, error) : serviceError('INVALID_REQUEST_BODY', part, 'is invalid');
  }

  /** Compiled once per schema object; compile at start-up so a bad schema fails fast. */
  compile(schema: JsonSchema): ValidateFunction {
    return cached(this.compiled, schema, () => this.ajv.compile(schema));
  }

  compileCoercing(schema: JsonSchema): ValidateFunction {
    return cached(this.coercing, schema, () => this.coercingAjv.compile(schema));
  }
}

function cached(cache: Map<JsonSchema, ValidateFunction>, schema: JsonSchema, make: () => ValidateFunction): ValidateFunction {
  let validate = cache.get(schema);
  if (!validate) {
    validate = make();
    cache.set(schema, validate);
  }
  return validate;
}

function toServiceError(part: InputPart, error: ErrorObject): ServiceError {
  const field = fieldName(error);
  if (STRUCTURAL.has(error.keyword)) {
    const reason = structuralReason(error);
    return part === 'body' ? serviceError('INVALID_REQUEST_BODY', field, reason) : serviceError('INVALID_PARAMETER', field, reason);
  }
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.[MESSAGE_KEYWORD];
  if (typeof custom === 'string') return serviceError('UNPROCESSABLE', custom.replace('{value}', String(error.data)));
  return serviceError('INVALID_FIELD', field, error.message ?? 'is invalid');
}

/** `doc_types[1]` style name of the value at fault (for `required`, the missing property). */
function fieldName(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), '');
  const params = error.params as Record<string, unknown>;
  const extra = (params['missingProperty'] ?? params['additionalProperty'] ?? params['unevaluatedProperty']) as string | undefined;
  if (extra !== undefined) return path ? `${path}.${extra}` : extra;
  return path || 'body';
}

function structuralReason(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required': return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties': return 'is not allowed';
    case 'const': return `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    default: return error.message ?? 'is invalid';
  }
}
