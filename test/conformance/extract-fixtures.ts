// Regenerates fixtures/vendor-examples.json and fixtures/pan-operations.json from the vendor's Postman collection
// and OpenAPI documents.
// Not part of `npm test` (tests never read ../shared): run it by hand when the reference copies change,
//   npx tsx test/conformance/extract-fixtures.ts [path/to/shared/reference]
// and review the diff. The scenario of each case (how our sandbox reproduces it) is decided here, by the rules
// in `scenarioOf`; the facts compared (status, JSON shape, @entity values, messages) come from the example.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shapeOf, valuesAt, type ExampleCase, type Json } from './support/facts.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REFERENCE = resolve(process.argv[2] ?? join(HERE, '../../../shared/reference'));
const POSTMAN = 'vendor-postman/in-co-sandbox-kyc.postman_collection.json';
const OPENAPI = ['vendor-openapi/auth.openapi.json', 'vendor-openapi/kyc.openapi.json', 'vendor-openapi/tds-tcs-reports.openapi.json'];

/** The spec's word substitution (service-spec.md, vendor-openapi/README.md). */
function ourWords(text: string): string {
  return text
    .replace(/in\.co\.sandbox\./g, 'in.co.service.')
    .replace(/org\.quicko\.drive\.file/g, 'org.service.drive.file')
    .replace(/digilocker/g, 'docvault')
    .replace(/entitylocker/g, 'entityvault');
}

/** Paths of the two operations another change adds (their cases live in fixtures/new-operations.json). */
const NEW_OPERATIONS = [/penniless-verify$/, /^POST \/kyc\/docvault\/user\/verify$/];
const IN_SCOPE = /^(POST \/authenticate|\w+ \/kyc\/(docvault|entityvault|aadhaar)|\w+ \/bank\/|\w+ \/(tds|tcs)\/reports)/;

function inScope(operation: string): boolean {
  return IN_SCOPE.test(operation) && !NEW_OPERATIONS.some((pattern) => pattern.test(operation));
}

/** PAN verification and PAN-Aadhaar link status: their cases go to fixtures/pan-operations.json. */
const PAN_OPERATIONS = /^POST \/kyc\/(pan\/verify|pan-aadhaar\/status)$/;
const isPanOperation = (operation: string): boolean => PAN_OPERATIONS.test(operation);

/** Postman bodies carry template variables outside strings ({{$timestamp}}000); they stand for numbers. */
function parseExampleBody(raw: string): Json {
  const cleaned = raw.replace(/(?<!")\{\{\$?[\w:-]+\}\}(0*)/g, '0');
  return JSON.parse(cleaned) as Json;
}

interface Draft {
  id: string;
  source: string;
  operation: string;
  status: number;
  body: Json;
  request?: Json;
}

function postmanDrafts(accept: (operation: string) => boolean = inScope): Draft[] {
  const collection = JSON.parse(readFileSync(join(REFERENCE, POSTMAN), 'utf8')) as { item: PostmanItem[] };
  const drafts: Draft[] = [];
  const walk = (items: PostmanItem[], trail: string[]): void => {
    for (const item of items) {
      if (item.item) {
        walk(item.item, [...trail, item.name]);
        continue;
      }
      const url = typeof item.request?.url === 'string' ? item.request.url : item.request?.url?.raw ?? '';
      const path = ourWords(url.replace(/^\{\{\w+\}\}/, '').split('?')[0]!.replace(/:(\w+)/g, '{$1}'));
      const operation = `${item.request?.method ?? 'GET'} ${path}`;
      if (!accept(operation)) continue;
      for (const example of item.response ?? []) {
        const raw = example.originalRequest?.body?.raw;
        drafts.push({
          id: `postman: ${[...trail, item.name, example.name].join(' > ')}`,
          source: `${POSTMAN}: ${[...trail, item.name].join(' > ')}, example "${example.name}"`,
          operation,
          status: example.code,
          body: parseExampleBody(example.body ?? 'null'),
          ...(raw ? { request: JSON.parse(ourWords(raw)) as Json } : {}),
        });
      }
    }
  };
  walk(collection.item, []);
  return drafts;
}

function openApiDrafts(accept: (operation: string) => boolean = inScope): Draft[] {
  const drafts: Draft[] = [];
  for (const file of OPENAPI) {
    const document = JSON.parse(readFileSync(join(REFERENCE, file), 'utf8')) as { paths: Record<string, Record<string, OpenApiOperation>> };
    for (const [rawPath, operations] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
        const operation = `${method.toUpperCase()} ${ourWords(rawPath)}`;
        if (!accept(operation)) continue;
        const requests = op.requestBody?.content?.['application/json']?.examples ?? {};
        const onlyRequest = Object.values(requests).length === 1 ? Object.values(requests)[0]!.value : undefined;
        for (const [status, response] of Object.entries(op.responses)) {
          const content = response.content?.['application/json'];
          const examples: [string, Json][] = Object.entries(content?.examples ?? {}).map(([name, e]) => [name, e.value]);
          if (content?.example !== undefined) examples.push(['example', content.example]);
          for (const [name, body] of examples) {
            // A request example belongs to the response example of the same name; a lone one only to a success.
            const request = requests[name]?.value ?? (status === '200' ? onlyRequest : undefined);
            drafts.push({
              id: `openapi: ${file.split('/')[1]} ${operation} ${status} "${name}"`,
              source: `${file}: paths["${rawPath}"].${method}.responses["${status}"], example "${name}"`,
              operation,
              status: Number(status),
              body,
              ...(request !== undefined ? { request: JSON.parse(ourWords(JSON.stringify(request))) as Json } : {}),
            });
          }
        }
      }
    }
  }
  return drafts;
}

const PENNY_DROP_ACCOUNTS: Record<string, string> = {
  'Bank Account details verified successfully.': 'valid',
  'Invalid account number or ifsc provided': 'invalidAccount',
  'Given account is an NRE account': 'nreAccount',
  'Account is blocked': 'blocked',
  'IFSC is invalid': 'invalidIfsc',
  'Source bank declined': 'sourceBankDeclined',
  'Beneficiary bank offline': 'beneficiaryBankOffline',
  'NPCI Unavailable': 'npciUnavailable',
  'IMPS Mode fail': 'impsModeFail',
  'Failed at beneficiary bank': 'beneficiaryBankDeclined',
  'Failed at bank': 'failedAtBank',
  'Transaction failed': 'connectionTimeout',
};

const OTP_VERIFY: Record<string, string> = {
  'Aadhaar Card Exists': 'otp.verify.valid',
  'Invalid OTP': 'otp.verify.wrong-otp',
  'OTP Expired': 'otp.verify.expired',
  'Request under process, please try after 30 seconds': 'otp.verify.pending',
  'Invalid Reference Id': 'otp.verify.unknown-reference',
};

interface Scenario {
  name: string;
  params?: Record<string, string>;
  /** Fields of the vendor's answer our reproduction cannot have, because it uses other test values. */
  omit?: string[];
}

/** How our sandbox reproduces the example: a scenario the conformance test implements. */
function scenarioOf(draft: Draft): Scenario {
  const { operation, status } = draft;
  const body = (typeof draft.body === 'object' && draft.body !== null && !Array.isArray(draft.body) ? draft.body : {}) as Record<string, Json>;
  const data = (body['data'] ?? {}) as Record<string, Json>;
  const message = String(body['message'] ?? data['message'] ?? '');
  const [method, path] = operation.split(' ') as [string, string];
  if (operation === 'POST /authenticate') return { name: 'auth.authenticate' };
  if (path.startsWith('/kyc/aadhaar/okyc/otp/verify')) {
    if (status === 422) return { name: message === 'OTP missing in request' ? 'otp.verify.otp-missing' : 'otp.verify.bad-reference' };
    if (status === 503) return { name: 'otp.verify.provider-down' };
    return { name: OTP_VERIFY[message] ?? 'unreproducible' };
  }
  if (path === '/kyc/aadhaar/okyc/otp') {
    if (status === 422) return { name: 'otp.send.bad-pattern' };
    if (status === 503) return { name: 'otp.send.provider-down' };
    if (message.startsWith('OTP generated for this aadhaar')) return { name: 'otp.send.repeat' };
    return { name: message === 'Invalid Aadhaar Card' ? 'otp.send.invalid-aadhaar' : 'otp.send.sent' };
  }
  const kyc = /^\/kyc\/(docvault|entityvault)(-sdk)?\//.exec(path);
  if (kyc) {
    const kind = kyc[1]!;
    const variant = kyc[2] ? 'sdk' : 'api';
    const params = { kind, variant };
    if (method === 'POST') return { name: status === 400 ? 'session.create.invalid-body' : 'session.create', params };
    if (status === 521) return { name: 'session.unknown', params: { ...params, doc_type: defaultDocType(kind) } };
    if (status === 523) return { name: 'session.created', params: { ...params, doc_type: defaultDocType(kind) } };
    if (status === 400) return { name: 'session.consent-missing', params: { ...params, doc_type: /Consent for (\w+)/.exec(message)?.[1] ?? defaultDocType(kind) } };
    const state = path.endsWith('/status') ? String(data['status'] ?? 'succeeded') : 'succeeded';
    return { name: `session.${state}`, params: { ...params, doc_type: defaultDocType(kind) } };
  }
  if (path === '/bank/{ifsc}') {
    if (status === 404) return { name: 'ifsc.unknown' };
    return { name: body['SWIFT'] === null ? 'ifsc.without-swift' : 'ifsc.with-swift' };
  }
  if (path.endsWith('/verify') && path.startsWith('/bank/')) {
    if (message === 'Invalid IFSC pattern') return { name: 'as-given', params: vendorParams(draft) };
    if (message === 'Please provide a valid bank account') return { name: 'pennydrop.provider-refuses-account' };
    if (message === 'Invalid IFSC provided') return { name: 'pennydrop.provider-refuses-ifsc' };
    if (status === 503) return { name: 'pennydrop.provider-down' };
    const account = PENNY_DROP_ACCOUNTS[message];
    return account ? { name: 'pennydrop.account', params: { account } } : { name: 'unreproducible' };
  }
  const jobs = /^\/(tds|tcs)\/reports\/txt(\/search)?$/.exec(path);
  if (jobs) {
    const params = { domain: jobs[1]! };
    if (jobs[2]) return { name: 'job.search', params };
    if (method === 'POST') return { name: status === 200 ? 'job.submit' : (draft.request ? 'as-given' : `job.submit.bad-tan`), params };
    if (status === 521) return { name: 'job.unknown', params };
    const state = String(data['status']);
    // One succeeded job carries a previous receipt number (the engine must handle it); the others are regular
    // statements of our sandbox workbook, so the vendor's receipt number is not expected back from them.
    if (state === 'succeeded') {
      return draft.id.endsWith('"200 - Job Succeeded"') && params.domain === 'tds'
        ? { name: 'job.succeeded.with-receipt', params }
        : { name: 'job.succeeded', params, omit: ['data.previous_receipt_number'] };
    }
    return { name: `job.${state}`, params };
  }
  return { name: 'unreproducible' };
}

function defaultDocType(kind: string): string {
  return kind === 'docvault' ? 'aadhaar' : 'company_master_details';
}

function vendorParams(draft: Draft): Record<string, string> {
  const match = /"ifsc":"([^"]*)"/.exec(JSON.stringify(draft.request ?? {}));
  return match ? { ifsc: match[1]! } : { ifsc: 'SX01745' };
}

function toCase(draft: Draft): ExampleCase {
  const scenario = scenarioOf(draft);
  const body = JSON.parse(ourWords(JSON.stringify(draft.body))) as Json;
  return {
    id: draft.id,
    source: draft.source,
    operation: draft.operation,
    scenario: scenario.name,
    ...(scenario.params ? { params: scenario.params } : {}),
    ...(scenario.name === 'as-given' && draft.request !== undefined ? { request: draft.request } : {}),
    ...(scenario.omit ? { omit: scenario.omit } : {}),
    expect: {
      status: draft.status,
      shape: shapeOf(body),
      entities: valuesAt(body, '@entity'),
      messages: valuesAt(body, 'message'),
    },
  };
}

/**
 * The OpenAPI documents repeat many examples of the collection: an example whose facts and reproduction are those
 * of an earlier case is listed under that case (`also_in`) rather than replayed twice. Ids are made unique.
 */
function merged(all: ExampleCase[]): ExampleCase[] {
  const byFacts = new Map<string, ExampleCase>();
  const seen = new Map<string, number>();
  for (const next of all) {
    const { id: _id, source: _source, ...facts } = next;
    const key = JSON.stringify(facts);
    const earlier = byFacts.get(key);
    if (earlier) {
      (earlier.also_in ??= []).push(next.source);
      continue;
    }
    const count = (seen.get(next.id) ?? 0) + 1;
    seen.set(next.id, count);
    byFacts.set(key, count === 1 ? next : { ...next, id: `${next.id} #${count}` });
  }
  return [...byFacts.values()];
}

const cases = merged([...postmanDrafts(), ...openApiDrafts()].map(toCase));
const out = {
  description: 'Facts of every in-scope example of the vendor\'s Postman collection and OpenAPI documents, in our words; '
    + 'generated by test/conformance/extract-fixtures.ts (see test/conformance/README.md).',
  sources: [POSTMAN, ...OPENAPI].map((file) => `shared/reference/${file}`),
  cases,
};
writeFileSync(join(HERE, 'fixtures/vendor-examples.json'), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${cases.length} cases written`);

/**
 * The PAN cases: every Postman example replayed as given (the vendor's sandbox PANs, which our sandbox answers),
 * its `@entity` left out where the example leaves it out (PAN verification takes that). An OpenAPI example with the same answer
 * (times and ids aside) as a Postman example is listed under it; the OpenAPI documents carry no request per
 * example, so one without a Postman twin could not be replayed (none is, today).
 */
function panCases(): ExampleCase[] {
  const answerKey = (draft: Draft): string => {
    const { timestamp: _t, transaction_id: _id, ...rest } = draft.body as Record<string, Json>;
    return `${draft.operation} ${draft.status} ${JSON.stringify(rest)}`;
  };
  const byAnswer = new Map<string, ExampleCase>();
  const cases: ExampleCase[] = [];
  for (const draft of postmanDrafts(isPanOperation)) {
    const request = draft.request as Record<string, Json>;
    const next = { ...toCase({ ...draft, request }), scenario: 'as-given', request };
    cases.push(next);
    if (!byAnswer.has(answerKey(draft))) byAnswer.set(answerKey(draft), next);
  }
  for (const draft of openApiDrafts(isPanOperation)) {
    const twin = byAnswer.get(answerKey(draft));
    if (!twin) throw new Error(`An OpenAPI PAN example without a Postman twin: ${draft.source}`);
    (twin.also_in ??= []).push(draft.source);
  }
  return cases;
}

const pan = panCases();
writeFileSync(join(HERE, 'fixtures/pan-operations.json'), `${JSON.stringify({
  description: 'Facts of the vendor\'s examples of PAN verification and PAN-Aadhaar link status (Postman collection, folder PAN, '
    + 'and the kyc OpenAPI document), in our words; generated by test/conformance/extract-fixtures.ts. Each case replays the '
    + 'example\'s own request as given (the vendor\'s sandbox PANs, which our sandbox answers; its 422 and 503 PAN '
    + 'verification examples send no @entity, and are answered on the merits).',
  sources: [POSTMAN, 'vendor-openapi/kyc.openapi.json'].map((file) => `shared/reference/${file}`),
  cases: pan,
}, null, 1)}\n`);
console.log(`${pan.length} PAN cases written`);

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method?: string; url?: string | { raw?: string } };
  response?: Array<{ name: string; code: number; body?: string; originalRequest?: { body?: { raw?: string } } }>;
}

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: Json }> }> };
  responses: Record<string, { content?: Record<string, { example?: Json; examples?: Record<string, { value: Json }> }> }>;
}
