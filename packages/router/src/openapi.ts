import { ERROR_REGISTRY } from '@satyapan/core';
import type { JsonSchema, RouteDefinition } from './route-types.js';

export interface OpenApiInfo {
  title?: string;
  version?: string;
  serverUrl?: string;
}

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['code', 'timestamp', 'message', 'transaction_id'],
  properties: {
    code: { type: 'integer', description: 'HTTP status' },
    timestamp: { type: 'integer', description: 'Unix milliseconds' },
    message: { type: 'string' },
    transaction_id: { type: 'string', format: 'uuid' },
  },
};

function successEnvelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'timestamp', 'data', 'transaction_id'],
    properties: {
      code: { type: 'integer' },
      timestamp: { type: 'integer', description: 'Unix milliseconds' },
      data,
      transaction_id: { type: 'string', format: 'uuid' },
    },
  };
}

/** One description per status, from the error registry, so the document never drifts from the code. */
function errorDescription(status: number): string {
  const messages = Object.values(ERROR_REGISTRY)
    .filter((spec) => spec.status === status && spec.hostPagesOnly !== true)
    .map((spec) => (spec.message as (...a: string[]) => string)('<value>', '<reason>'));
  return [...new Set(messages)].join(' | ') || 'Error';
}

/** Express `/a/:b/*c` to OpenAPI `/a/{b}/{c}`. */
export function openApiPath(path: string): string {
  return path.replace(/[:*]([A-Za-z_]\w*)/g, '{$1}');
}

function parameters(route: RouteDefinition): JsonSchema[] {
  const out: JsonSchema[] = [];
  const sources = { path: route.schemas.params, query: route.schemas.query, header: route.schemas.headers };
  for (const location of ['path', 'query', 'header'] as const) {
    const schema = sources[location];
    const properties = (schema?.['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.['required'] ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      out.push({ name, in: location, required: location === 'path' || required.has(name), schema: property });
    }
  }
  if (route.auth === 'jwt') {
    out.push({ name: 'x-api-version', in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+){0,2}$' } });
  }
  return out;
}

function operation(route: RouteDefinition): JsonSchema {
  const responseSchema = route.schemas.response ?? { type: 'object' };
  const responses: Record<string, JsonSchema> = {
    '200': {
      description: route.raw ? 'OK (not enveloped)' : 'OK',
      content: { 'application/json': { schema: route.raw ? responseSchema : successEnvelope(responseSchema) } },
    },
  };
  const statuses = new Set<number>([...(route.errors ?? []), 500]);
  if (route.auth === 'jwt') [400, 401, 403, 429].forEach((status) => statuses.add(status));
  if (route.schemas.body) [400, 413, 422].forEach((status) => statuses.add(status));
  for (const status of [...statuses].sort()) {
    responses[String(status)] = {
      description: errorDescription(status),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    ...(route.auth === 'jwt' ? { security: [{ accessToken: [], apiKey: [] }] } : { security: [] }),
    parameters: parameters(route),
    ...(route.schemas.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.schemas.body } } } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the mounted routes, built from the very schemas the router validates with. */
export function buildOpenApi(routes: readonly RouteDefinition[], info: OpenApiInfo = {}): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    (paths[path] as Record<string, JsonSchema>)[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title ?? 'Satyapan API', version: info.version ?? '1.0.0' },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    paths,
    components: {
      schemas: { ErrorEnvelope: ERROR_ENVELOPE },
      securitySchemes: {
        accessToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'bare JWT from POST /authenticate' },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      },
    },
  };
}
