import type { RequestHandler } from 'express';
import type { DocumentedError } from '@satyapan/core';
import { operationErrors } from './openapi-errors.js';
import type { JsonSchema, RouteDefinition, RouteExample } from './route-types.js';

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

/**
 * How callers identify themselves. `/authenticate` takes the key and the secret; every other operation the key
 * and the token it returned. An API reference's Try-it-out sends what the operation's requirement names.
 */
const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  accessToken: {
    type: 'apiKey', in: 'header', name: 'Authorization',
    description: 'The access token from POST /authenticate, bare (no `Bearer`); valid 24 hours.',
  },
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your API key.' },
  apiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret', description: 'Your API secret: sent to POST /authenticate only.' },
};

function security(route: RouteDefinition): JsonSchema[] {
  if (route.auth === 'jwt') return [{ accessToken: [], apiKey: [] }];
  if (route.security?.length) return [Object.fromEntries(route.security.map((scheme) => [scheme, []]))];
  return [];
}

/** The messages of one status, one per line; `{name}` marks what varies. */
function errorDescription(errors: readonly DocumentedError[]): string {
  return errors.map((error) => `- ${error.message}`).join('\n');
}

/** Express `/a/:b/*c` to OpenAPI `/a/{b}/{c}`. */
export function openApiPath(path: string): string {
  return path.replace(/[:*]([A-Za-z_]\w*)/g, '{$1}');
}

/** An Example Object for one part of `example` (the same name on every part it fills). */
function exampleObject(example: RouteExample, value: unknown): JsonSchema {
  return {
    summary: example.summary, description: `Source: ${example.source}`, value,
    ...(example.status !== undefined ? { 'x-expected-status': example.status } : {}),
  };
}

/** The examples that give `part[name]`, keyed by example name; undefined when none does. */
function parameterExamples(route: RouteDefinition, part: 'params' | 'query' | 'headers', name: string): JsonSchema | undefined {
  const entries = (route.examples ?? [])
    .filter((example) => example[part]?.[name] !== undefined)
    .map((example) => [example.name, exampleObject(example, example[part]![name])]);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function parameters(route: RouteDefinition): JsonSchema[] {
  const out: JsonSchema[] = [];
  const sources = { path: route.schemas.params, query: route.schemas.query, header: route.schemas.headers };
  const parts = { path: 'params', query: 'query', header: 'headers' } as const;
  for (const location of ['path', 'query', 'header'] as const) {
    const schema = sources[location];
    const properties = (schema?.['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.['required'] ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const examples = parameterExamples(route, parts[location], name);
      // A property marked `deprecated` (a JSON Schema annotation) is a deprecated parameter: still read, shown struck out.
      const deprecated = property['deprecated'] === true ? { deprecated: true } : {};
      out.push({ name, in: location, required: location === 'path' || required.has(name), ...deprecated, schema: property, ...(examples ? { examples } : {}) });
    }
  }
  out.push({ name: 'x-api-version', in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+){0,2}$' } });
  return out;
}

function requestBody(route: RouteDefinition): JsonSchema | undefined {
  const schema = route.schemas.body;
  if (!schema) return undefined;
  const examples = (route.examples ?? []).filter((example) => example.body !== undefined);
  const media: JsonSchema = { schema };
  if (examples.length > 0) media['examples'] = Object.fromEntries(examples.map((example) => [example.name, exampleObject(example, example.body)]));
  return { required: true, content: { 'application/json': media } };
}

/** Error responses by status, each listing only this operation's messages. */
function errorResponses(route: RouteDefinition): Record<string, JsonSchema> {
  const byStatus = new Map<number, DocumentedError[]>();
  for (const error of operationErrors(route)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const out: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    out[String(status)] = {
      description: errorDescription(byStatus.get(status)!),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return out;
}

function operation(route: RouteDefinition): JsonSchema {
  const responseSchema = route.schemas.response ?? { type: 'object' };
  const body = requestBody(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security: security(route),
    parameters: parameters(route),
    ...(body ? { requestBody: body } : {}),
    responses: {
      '200': {
        description: route.raw ? 'OK (not enveloped)' : 'OK',
        content: { 'application/json': { schema: route.raw ? responseSchema : successEnvelope(responseSchema) } },
      },
      ...errorResponses(route),
    },
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
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** Mount paths remembered per router; past this, the document is serialized per request (a router has a few). */
const MOUNT_PATHS_KEPT = 8;

/**
 * `GET /openapi.json`. A document without `servers` gets the mount path the request came through
 * (`req.baseUrl`, e.g. `/api`): a relative server URL resolves against the document's own URL, so tools that
 * read it call the API where it is mounted, not the host's root (OpenAPI's default `/`).
 */
export function openApiHandler(document: JsonSchema): RequestHandler {
  if (document['servers']) {
    const json = JSON.stringify(document);
    return (_req, res) => void res.type('json').send(json);
  }
  const byMount = new Map<string, string>();
  return (req, res) => {
    const mount = req.baseUrl || '/';
    let json = byMount.get(mount);
    if (json === undefined) {
      json = JSON.stringify({ ...document, servers: [{ url: mount }] });
      if (byMount.size < MOUNT_PATHS_KEPT) byMount.set(mount, json);
    }
    res.type('json').send(json);
  };
}
