import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Ajv, type ValidateFunction } from 'ajv';
import { createLogger, isServiceError, type Logger } from '@satyapan/core';

/**
 * What the contract tests share: the providers' own schemas and examples (fixtures/<provider>/, each with its
 * SOURCE.md), a validator built from them, and a loopback server that answers what a test scripts and records
 * what the adapter sent, and the one loop that serves each documented example to an adapter. Nothing here is our
 * reading of a provider: the fixtures are the provider's words, the tables of meanings are each test's own.
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

/** One documented answer of a provider's operation (`component`: the schema component it illustrates, when known). */
export interface ProviderExample {
  status: number;
  name: string;
  value: Record<string, unknown>;
  component?: string;
}

/** What an adapter makes of a provider's answer when it is not an answer about the account or person. */
export interface ExpectedError { error: { status: number; message: string } }

/** What an adapter makes of a documented answer: an answer (compared whole, or in part) or one of our errors. */
export type Expected<T> = { answer: T } | ExpectedError;

/** The provider cannot answer now (its outage, its limit on our standing): 503. */
export const SOURCE_UNAVAILABLE: ExpectedError = { error: { status: 503, message: 'Source Unavailable' } };
/** The provider refused our setup: the caller can do nothing about it, 500. */
export const OUR_SETUP: ExpectedError = { error: { status: 500, message: 'Internal Server Error' } };

interface CashfreeExample extends ProviderExample { operation: string; component: string }
interface CashfreeFixture {
  schemas: Record<string, Record<string, unknown> & { 'x-documented-values'?: Record<string, string[]> }>;
  operations: Record<string, { responses: Record<string, string> }>;
  examples: CashfreeExample[];
}

/** Cashfree's Verification OpenAPI (2023-12-18) as fixtures/cashfree holds it, read once. */
export const CASHFREE_FIXTURE = loadFixture<CashfreeFixture>('cashfree/verification-openapi.json');

/** The documented examples of one Cashfree operation (`POST /bank-account/sync`, ...). */
export function cashfreeExamples(operation: string): CashfreeExample[] {
  return CASHFREE_FIXTURE.examples.filter((example) => example.operation === operation);
}

/**
 * Cashfree's answers every Verification operation shares (its `Response401`, `Response403`, `Response429`,
 * `Response500V2`, `Response500AllCases`, `Response502V2`), keyed `status example-name`, with what each of our
 * Cashfree adapters answers for it: our setup is a 500, Cashfree's limit a 429, its failures a 503.
 */
export const CASHFREE_SHARED_ANSWERS: Readonly<Record<string, ExpectedError>> = {
  '401 Invalid client ID and client secret combination': OUR_SETUP,
  '403 IP not whitelisted': OUR_SETUP,
  '429 Rate limit error per operation': { error: { status: 429, message: 'Too Many Requests' } },
  '429 Rate limit error per IP': { error: { status: 429, message: 'Too Many Requests' } },
  '500 Internal Server Error': SOURCE_UNAVAILABLE,
  '500 Unknown Error Occured': SOURCE_UNAVAILABLE,
  '500 Internal Server Error (all cases)': SOURCE_UNAVAILABLE,
  '502 Bad Gateway': SOURCE_UNAVAILABLE,
};

/**
 * What each documented example of an operation means: the operation's own table first, then the answers the
 * provider's operations share (Cashfree's by default; a provider without shared answers passes {}). Throws for an
 * example neither names, and for an entry of the operation's table that no example shows, so that the tables and
 * the provider's document cannot drift apart.
 */
export function meaningsOf<T>(
  examples: readonly { status: number; name: string }[],
  own: Readonly<Record<string, Expected<T>>>,
  shared: Readonly<Record<string, ExpectedError>> = CASHFREE_SHARED_ANSWERS,
): Map<string, Expected<T>> {
  const keys = examples.map((example) => `${example.status} ${example.name}`);
  const unknown = Object.keys(own).filter((key) => !keys.includes(key));
  if (unknown.length > 0) throw new Error(`meanings for answers the provider does not document: ${unknown.join(', ')}`);
  return new Map(keys.map((key) => {
    const meaning = own[key] ?? shared[key];
    if (meaning === undefined) throw new Error(`no meaning for the documented answer ${key}`);
    return [key, meaning];
  }));
}

export interface ReadEachExample<T> {
  /** Whose examples they are, for the test titles ("as Cashfree means it"). */
  provider: string;
  examples: readonly ProviderExample[];
  meanings: ReadonlyMap<string, Expected<T>>;
  /** The loopback server of the current test (made in a beforeEach). */
  server: () => ContractServer;
  /** The one adapter call each example is read by. */
  call: () => Promise<T>;
  /** `include` when the adapter's answer may carry more than the table says; `equal` by default. */
  match?: 'equal' | 'include';
  /** Before each title, for a test that reads several operations ("send: "). */
  prefix?: string;
}

/** An adapter under test, the loopback server it calls and the log it writes, made anew for each test. */
export interface AdapterRig<P> {
  readonly server: ContractServer;
  readonly logs: ReturnType<typeof capturedLogger>;
  readonly adapter: P;
}

/**
 * Registers the hooks that give each test a fresh contract server, a captured logger and the adapter `make` builds
 * on them (closed after the test when it has `close`); call it inside `describe`.
 */
export function adapterRig<P extends object>(make: (serverUrl: string, logger: Logger) => P): AdapterRig<P> {
  let current: { server: ContractServer; logs: ReturnType<typeof capturedLogger>; adapter: P } | undefined;
  beforeEach(async () => {
    const server = await startContractServer();
    const logs = capturedLogger();
    current = { server, logs, adapter: make(server.url, logs.logger) };
  });
  afterEach(async () => {
    (current?.adapter as { close?(): unknown } | undefined)?.close?.();
    await current?.server.close();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('the adapter rig is used outside a test');
    return current;
  };
  return { get server() { return now().server; }, get logs() { return now().logs; }, get adapter() { return now().adapter; } };
}

/**
 * One test per documented example: the loopback server answers it (a 429 with `Retry-After: 2`), the adapter is
 * called, and its answer or its error is what the table says (a 429 passes the provider's Retry-After on).
 */
export function itReadsEachExample<T>(options: ReadEachExample<T>): void {
  for (const example of options.examples) {
    const key = `${example.status} ${example.name}`;
    const component = example.component ? ` (${example.component})` : '';
    it(`${options.prefix ?? ''}reads ${example.status} "${example.name}"${component} as ${options.provider} means it`, async () => {
      options.server().answer({ status: example.status, body: example.value, headers: example.status === 429 ? { 'retry-after': '2' } : {} });
      const expected = options.meanings.get(key)!;
      const attempt = options.call();
      if ('answer' in expected) {
        if (options.match === 'include') expect(await attempt).to.deep.include(expected.answer);
        else expect(await attempt).to.deep.equal(expected.answer);
        return;
      }
      const error = await failure(attempt);
      expect(error).to.deep.include(expected.error);
      if (expected.error.status === 429) expect(error.headers).to.include({ 'Retry-After': '2' });
    });
  }
}

/** An RSA key pair for Cashfree's request signature, made once per run (2048-bit keys take a while). */
let keyPair: { publicKey: string; privateKey: string } | undefined;
export function testKeyPair(): { publicKey: string; privateKey: string } {
  keyPair ??= generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return keyPair;
}

/** A logger whose lines the test can read back. */
export function capturedLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger({ stream, level: 'debug' }), text: () => lines.join('') };
}

/** The ServiceError a promise rejects with, as status, message and headers. */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string; headers: Record<string, string> }> {
  try {
    await promise;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { status: error.status, message: error.message, headers: { ...error.headers } };
  }
  throw new Error('expected a ServiceError');
}

/** A JSON POST to a simulator, its status and JSON answer. */
export async function postJson(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
