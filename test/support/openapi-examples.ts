// The request examples of a served OpenAPI document, as the requests they stand for: the examples of one name
// across an operation's parameters and body make one request (packages/router/src/openapi.ts writes them so).

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  servers?: { url: string }[];
  components: { securitySchemes: Record<string, unknown> };
}

interface ExampleObject { summary?: string; description?: string; value: unknown; 'x-expected-status'?: number }

export interface OpenApiOperation {
  operationId: string;
  security: Record<string, unknown[]>[];
  parameters: { name: string; in: 'path' | 'query' | 'header'; required: boolean; examples?: Record<string, ExampleObject> }[];
  requestBody?: { content: { 'application/json': { examples?: Record<string, ExampleObject> } } };
  responses: Record<string, { description: string }>;
}

export interface ExampleRequest {
  /** `POST /tds/reports/txt`, the document's words. */
  operation: string;
  name: string;
  method: string;
  /** The path with the example's path values in it. */
  path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
  /** The status the example documents (`x-expected-status`), when it is not a success. */
  status?: number;
  /** Required parameters the example gives no value for (an incomplete example). */
  missing: string[];
}

export function operationsOf(document: OpenApiDocument): { operation: string; method: string; path: string; op: OpenApiOperation }[] {
  return Object.entries(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({
    operation: `${method.toUpperCase()} ${path}`, method, path, op,
  })));
}

export function exampleRequests(document: OpenApiDocument): ExampleRequest[] {
  return operationsOf(document).flatMap(({ operation, method, path, op }) => {
    const bodyExamples = op.requestBody?.content['application/json'].examples ?? {};
    const names = new Set([...Object.keys(bodyExamples), ...op.parameters.flatMap((p) => Object.keys(p.examples ?? {}))]);
    return [...names].map((name) => {
      const request: ExampleRequest = { operation, name, method: method.toUpperCase(), path, params: {}, query: {}, headers: {}, missing: [] };
      const statuses = new Set<number>();
      for (const parameter of op.parameters) {
        const example = parameter.examples?.[name];
        if (!example) {
          if (parameter.required) request.missing.push(parameter.name);
          continue;
        }
        if (example['x-expected-status'] !== undefined) statuses.add(example['x-expected-status']);
        if (parameter.in === 'path') {
          request.params[parameter.name] = example.value;
          request.path = request.path.replace(`{${parameter.name}}`, encodeURIComponent(String(example.value)));
        } else if (parameter.in === 'query') request.query[parameter.name] = example.value;
        else request.headers[parameter.name] = String(example.value);
      }
      const body = bodyExamples[name];
      if (body) {
        request.body = body.value;
        if (body['x-expected-status'] !== undefined) statuses.add(body['x-expected-status']);
      } else if (op.requestBody) request.missing.push('body');
      if (statuses.size > 1) throw new Error(`${operation} example ${name} documents two statuses: ${[...statuses].join(', ')}`);
      if (statuses.size === 1) request.status = [...statuses][0]!;
      return request;
    });
  });
}

/** Sends `example` to the API at `apiUrl` as the reference's Try-it-out would, with the given credentials. */
export async function sendExample(apiUrl: string, example: ExampleRequest, credentials: Record<string, string>): Promise<{ status: number; text: string }> {
  const query = new URLSearchParams(Object.entries(example.query).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await fetch(`${apiUrl}${example.path}${query.size > 0 ? `?${query}` : ''}`, {
    method: example.method,
    headers: { ...credentials, ...example.headers, ...(example.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(example.body !== undefined ? { body: JSON.stringify(example.body) } : {}),
  });
  return { status: response.status, text: await response.text() };
}
