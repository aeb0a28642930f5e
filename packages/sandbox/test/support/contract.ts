import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * What the contract tests share: the providers' own schemas and examples (fixtures/<provider>/, each with its
 * SOURCE.md), a validator built from them, and a loopback server that answers what a test scripts and records
 * what the adapter sent. Nothing here is our reading of a provider: the fixtures are the provider's words.
 */

type Json = Record<string, unknown>;

export function loadFixture<T = Json>(relativePath: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${relativePath}`, import.meta.url), 'utf8')) as T;
}

/**
 * Where the provider's own examples break its own schema, and only there, the validator gives way: `null` is
 * accepted for any declared value (its examples send `null` for absent ones, OpenAPI 3.0 without `nullable`),
 * and the fields named in `looseNumbers` take a number or a string (its examples send both). The tests check that
 * every example of the provider passes, so the leniency is no wider than its own examples need.
 */
export function providerSchema(schema: unknown, looseNumbers: readonly string[] = []): Json {
  const walk = (node: unknown, key: string | null): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, null));
    if (typeof node !== 'object' || node === null) return node;
    const copy: Json = {};
    for (const [name, value] of Object.entries(node as Json)) {
      if (name.startsWith('x-') || name === 'example' || name === 'description') continue;
      if (name === 'properties') {
        copy[name] = Object.fromEntries(Object.entries(value as Json).map(([prop, sub]) => [prop, walk(sub, prop)]));
      } else copy[name] = walk(value, null);
    }
    if (typeof copy['type'] === 'string') {
      const loose = key !== null && looseNumbers.includes(key) ? ['string', 'integer'] : [copy['type'] as string];
      copy['type'] = [...new Set([...loose, 'null'])];
    }
    return copy;
  };
  return walk(schema, null) as Json;
}

const ajv = new Ajv({ strict: false, allErrors: true });

export function validatorFor(schema: unknown, looseNumbers: readonly string[] = []): ValidateFunction {
  return ajv.compile(providerSchema(schema, looseNumbers));
}

/** The errors of a failed validation, as one line for an assertion message. */
export function errorsOf(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors ?? []);
}

export interface CapturedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface ScriptedAnswer {
  status: number;
  body: unknown;
  /** Default application/json; a string body is sent as is. */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface ContractServer {
  url: string;
  requests: CapturedRequest[];
  /** What the next requests get (the last one stays). */
  answer(next: ScriptedAnswer | ((request: CapturedRequest) => ScriptedAnswer)): void;
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records every request and answers what the test scripted. */
export async function startContractServer(): Promise<ContractServer> {
  const requests: CapturedRequest[] = [];
  let script: ScriptedAnswer | ((request: CapturedRequest) => ScriptedAnswer) = { status: 500, body: { scripted: false } };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = body === '' ? null : JSON.parse(body);
      } catch {
        json = null;
      }
      const captured: CapturedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      requests.push(captured);
      const answer = typeof script === 'function' ? script(captured) : script;
      const payload = typeof answer.body === 'string' || Buffer.isBuffer(answer.body) ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json', ...answer.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (next) => void (script = next),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** What an adapter makes of a provider's answer when it is not an answer about the account or person. */
export interface ExpectedError { error: { status: number; message: string } }

/**
 * Cashfree's answers every Verification operation shares (its `Response401`, `Response403`, `Response429`,
 * `Response500V2`, `Response500AllCases`, `Response502V2`), keyed `status example-name`, with what each of our
 * Cashfree adapters answers for it: our setup is a 500, Cashfree's limit a 429, its failures a 503.
 */
export const CASHFREE_SHARED_ANSWERS: Readonly<Record<string, ExpectedError>> = {
  '401 Invalid client ID and client secret combination': { error: { status: 500, message: 'Internal Server Error' } },
  '403 IP not whitelisted': { error: { status: 500, message: 'Internal Server Error' } },
  '429 Rate limit error per operation': { error: { status: 429, message: 'Too Many Requests' } },
  '429 Rate limit error per IP': { error: { status: 429, message: 'Too Many Requests' } },
  '500 Internal Server Error': { error: { status: 503, message: 'Source Unavailable' } },
  '500 Unknown Error Occured': { error: { status: 503, message: 'Source Unavailable' } },
  '500 Internal Server Error (all cases)': { error: { status: 503, message: 'Source Unavailable' } },
  '502 Bad Gateway': { error: { status: 503, message: 'Source Unavailable' } },
};

/**
 * What each documented example of an operation means: the operation's own table first, then the shared answers.
 * Throws for an example neither names, and for an entry of the operation's table that no example shows, so that
 * the tables and the provider's document cannot drift apart.
 */
export function meaningsOf<T>(examples: readonly { status: number; name: string }[], own: Readonly<Record<string, T>>): Map<string, T | ExpectedError> {
  const keys = examples.map((example) => `${example.status} ${example.name}`);
  const unknown = Object.keys(own).filter((key) => !keys.includes(key));
  if (unknown.length > 0) throw new Error(`meanings for answers the provider does not document: ${unknown.join(', ')}`);
  return new Map(keys.map((key) => {
    const meaning = own[key] ?? CASHFREE_SHARED_ANSWERS[key];
    if (meaning === undefined) throw new Error(`no meaning for the documented answer ${key}`);
    return [key, meaning];
  }));
}

/** A JSON POST to a simulator, its status and JSON answer. */
export async function postJson(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
