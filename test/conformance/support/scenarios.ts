// How each vendor example is reproduced against our sandbox: the same operation, with our sandbox's test values
// (accounts, Aadhaar numbers, locker users, workbooks) in place of the vendor's, and the state the example needs
// (a session in some status, a job in some status) built first through the API itself.
import { randomUUID } from 'node:crypto';
import { AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, LOCKER_ENTITIES, LOCKER_INDIVIDUALS, PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC } from '@satyapan/sandbox';
import { consentAtLocker } from '../../../packages/kyc/test/support/stack.js';
import { eventually } from '../../../packages/statement-queue/test/support/env.js';
import { workbook26Q, workbook27EQ } from '../../../packages/statement-queue/test/support/workbooks.js';
import type { ExampleCase, Json } from './facts.js';
import type { Answer, ConformanceStack } from './stack.js';
import { deleteKeysMatching } from '../../support/redis-cluster.js';

type Scenario = (stack: ConformanceStack, c: ExampleCase) => Promise<Answer>;

/** Thrown for an example our sandbox has no way to produce; the test reports it as `unreproducible`. */
export class Unreproducible extends Error {}

const REDIRECT = 'https://merchant.example/kyc/return';
const ENTITY = 'in.co.service';
/** Locker document codes of our API doc types (the locker simulator speaks the locker's codes). */
const LOCKER_CODES: Record<string, string> = {
  aadhaar: 'ADHAR', pan: 'PANCR', driving_license: 'DRVLC',
  company_master_details: 'CPMTD', gstn_details: 'GSTND', udhyam_certificate: 'UDCER',
};
const DOC_TYPES: Record<string, string[]> = {
  docvault: ['aadhaar', 'pan', 'driving_license'],
  entityvault: ['company_master_details', 'gstn_details', 'udhyam_certificate'],
};
const LOCKER_USER: Record<string, string> = { docvault: LOCKER_INDIVIDUALS[0]!.id, entityvault: LOCKER_ENTITIES[0]!.user.id };
/** Sessions (API and SDK) expire a day after creation unless a consent expiry says otherwise. */
const PAST_CONSENT_EXPIRY_MS = 24 * 3600_000 + 1000;

function param(c: ExampleCase, name: string): string {
  const value = c.params?.[name];
  if (value === undefined) throw new Error(`case ${c.id} has no ${name} parameter`);
  return value;
}

function dataOf(answer: Answer): Record<string, any> {
  const data = (answer.body as Record<string, any> | null)?.['data'];
  if (answer.status !== 200 || !data) throw new Error(`set-up call failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return data as Record<string, any>;
}

// ---- locker sessions -------------------------------------------------------------------------------------

function prefix(kind: string, variant: string): string {
  return `/kyc/${kind}${variant === 'sdk' ? '-sdk' : ''}`;
}

function createBody(kind: string, variant: string, docTypes: string[]): Json {
  if (variant === 'sdk') return { '@entity': `${ENTITY}.kyc.${kind}.sdk.session.request`, flow: 'signin', doc_types: docTypes };
  return {
    '@entity': `${ENTITY}.kyc.${kind}.session.request`, flow: 'signin', redirect_url: REDIRECT,
    ...(kind === 'docvault' ? { doc_types: docTypes } : {}),
  };
}

async function createSession(stack: ConformanceStack, kind: string, variant: string, docTypes = DOC_TYPES[kind]!): Promise<{ id: string; authorizationUrl: () => Promise<string> }> {
  const path = `${prefix(kind, variant)}/sessions/${variant === 'sdk' ? 'create' : 'init'}`;
  const data = dataOf(await stack.call('POST', path, createBody(kind, variant, docTypes)));
  if (variant === 'api') return { id: data['session_id'], authorizationUrl: async () => data['authorization_url'] };
  const id = data['id'] as string;
  return { id, authorizationUrl: async () => dataOf(await stack.call('GET', `${prefix(kind, 'sdk')}/sessions/${id}/authorization_url`))['authorization_url'] };
}

/** A session whose user consented to `consented`; an SDK session reaches succeeded on its next status read. */
async function consentedSession(stack: ConformanceStack, kind: string, variant: string, consented: string[]): Promise<string> {
  const session = await createSession(stack, kind, variant);
  await consentAtLocker(await session.authorizationUrl(), { user: LOCKER_USER[kind]!, documents: consented.map((d) => LOCKER_CODES[d]!) });
  if (variant === 'sdk') dataOf(await stack.call('GET', `${prefix(kind, 'sdk')}/sessions/${session.id}/status`));
  return session.id;
}

/** The read the example shows, on session `id`: status, profile, entity or document, from the operation's path. */
function readSession(stack: ConformanceStack, c: ExampleCase, id: string): Promise<Answer> {
  const path = c.operation.split(' ')[1]!.replace('{session_id}', id).replace('{doc_type}', c.params?.['doc_type'] ?? '');
  return stack.call('GET', path);
}

const sessionScenarios: Record<string, Scenario> = {
  'session.create': (stack, c) => stack.call('POST', c.operation.split(' ')[1]!, createBody(param(c, 'kind'), param(c, 'variant'), DOC_TYPES[param(c, 'kind')]!)),
  // A body the operation cannot accept: no doc_types.
  'session.create.invalid-body': (stack, c) => stack.call('POST', c.operation.split(' ')[1]!, { '@entity': `${ENTITY}.kyc.${param(c, 'kind')}.sdk.session.request`, flow: 'signin' }),
  'session.created': async (stack, c) => readSession(stack, c, (await createSession(stack, param(c, 'kind'), param(c, 'variant'))).id),
  'session.expired': async (stack, c) => {
    const { id } = await createSession(stack, param(c, 'kind'), param(c, 'variant'));
    stack.kyc.clock.advance(PAST_CONSENT_EXPIRY_MS);
    return readSession(stack, c, id);
  },
  'session.succeeded': async (stack, c) => readSession(stack, c, await consentedSession(stack, param(c, 'kind'), param(c, 'variant'), DOC_TYPES[param(c, 'kind')]!)),
  'session.consent-missing': async (stack, c) => {
    const kind = param(c, 'kind');
    const withheld = param(c, 'doc_type');
    return readSession(stack, c, await consentedSession(stack, kind, param(c, 'variant'), DOC_TYPES[kind]!.filter((d) => d !== withheld)));
  },
  'session.unknown': (stack, c) => readSession(stack, c, randomUUID()),
};

// ---- Aadhaar OTP -----------------------------------------------------------------------------------------

const OTP_PATH = '/kyc/aadhaar/okyc/otp';
const otpBody = (aadhaar: string): Json => ({ '@entity': `${ENTITY}.kyc.aadhaar.okyc.otp.request`, aadhaar_number: aadhaar, consent: 'y', reason: 'For KYC' });
const verifyBody = (referenceId: Json, otp: string): Json => ({ '@entity': `${ENTITY}.kyc.aadhaar.okyc.request`, reference_id: referenceId, otp });

/**
 * Sends an OTP for `aadhaar` as if the 45 s since the last one had passed: the wait is kept in Redis with a
 * real-time expiry, which the test's clock cannot move, so the wait's key is removed instead.
 */
async function sendOtp(stack: ConformanceStack, aadhaar: string): Promise<Answer> {
  await deleteKeysMatching(stack.kyc.h.redis, `${stack.kyc.h.keyPrefix}*otp-throttle*`);
  return stack.call('POST', OTP_PATH, otpBody(aadhaar));
}

async function referenceFor(stack: ConformanceStack, aadhaar: string): Promise<string> {
  return String(dataOf(await sendOtp(stack, aadhaar))['reference_id']);
}

async function withOtpProviderDown(stack: ConformanceStack, call: () => Promise<Answer>): Promise<Answer> {
  stack.kyc.otp.setDown(true);
  try {
    return await call();
  } finally {
    stack.kyc.otp.setDown(false);
  }
}

const otpScenarios: Record<string, Scenario> = {
  'otp.send.sent': (stack) => sendOtp(stack, AADHAAR_TEST_NUMBERS.otpSent),
  'otp.send.invalid-aadhaar': (stack) => sendOtp(stack, AADHAAR_TEST_NUMBERS.invalidAadhaar),
  'otp.send.repeat': async (stack) => {
    await sendOtp(stack, AADHAAR_TEST_NUMBERS.otpSentSecond);
    return stack.call('POST', OTP_PATH, otpBody(AADHAAR_TEST_NUMBERS.otpSentSecond));
  },
  'otp.send.provider-down': (stack) => sendOtp(stack, AADHAAR_TEST_NUMBERS.providerError),
  // The vendor's own bodies: ten digits; an old field name (`ref_id`) with an empty OTP; a reference with letters.
  'otp.send.bad-pattern': (stack) => stack.call('POST', OTP_PATH, otpBody('1234567890')),
  'otp.verify.otp-missing': (stack) => stack.call('POST', `${OTP_PATH}/verify`, { '@entity': `${ENTITY}.kyc.aadhaar.okyc.request`, ref_id: '1234567', otp: '' }),
  'otp.verify.bad-reference': (stack) => stack.call('POST', `${OTP_PATH}/verify`, verifyBody('123XX66', AADHAAR_TEST_OTP)),
  'otp.verify.valid': async (stack) => stack.call('POST', `${OTP_PATH}/verify`, verifyBody(await referenceFor(stack, AADHAAR_TEST_NUMBERS.otpSent), AADHAAR_TEST_OTP)),
  'otp.verify.wrong-otp': async (stack) => stack.call('POST', `${OTP_PATH}/verify`, verifyBody(await referenceFor(stack, AADHAAR_TEST_NUMBERS.otpSent), '000000')),
  'otp.verify.expired': async (stack) => stack.call('POST', `${OTP_PATH}/verify`, verifyBody(await referenceFor(stack, AADHAAR_TEST_NUMBERS.otpExpires), AADHAAR_TEST_OTP)),
  'otp.verify.pending': async (stack) => stack.call('POST', `${OTP_PATH}/verify`, verifyBody(await referenceFor(stack, AADHAAR_TEST_NUMBERS.verificationPending), AADHAAR_TEST_OTP)),
  'otp.verify.unknown-reference': (stack) => stack.call('POST', `${OTP_PATH}/verify`, verifyBody('1234566', AADHAAR_TEST_OTP)),
  'otp.verify.provider-down': async (stack) => {
    const reference = await referenceFor(stack, AADHAAR_TEST_NUMBERS.otpSent);
    return withOtpProviderDown(stack, () => stack.call('POST', `${OTP_PATH}/verify`, verifyBody(reference, AADHAAR_TEST_OTP)));
  },
};

// ---- bank ------------------------------------------------------------------------------------------------

/** A branch of the shipped sample directory; the sample carries no SWIFT codes (see docs/VENDOR_COMPAT.md). */
const SAMPLE_IFSC = 'ABNA0100310';
const verifyPath = (ifsc: string, account: string): string => `/bank/${ifsc}/accounts/${account}/verify`;

const bankScenarios: Record<string, Scenario> = {
  'ifsc.with-swift': (stack) => stack.call('GET', `/bank/${SAMPLE_IFSC}`),
  'ifsc.without-swift': (stack) => stack.call('GET', `/bank/${SAMPLE_IFSC}`),
  'ifsc.unknown': (stack) => stack.call('GET', '/bank/HDFX0001707'),
  'pennydrop.account': (stack, c) => stack.call('GET', verifyPath(PENNY_DROP_TEST_IFSC, PENNY_DROP_TEST_ACCOUNTS[param(c, 'account') as keyof typeof PENNY_DROP_TEST_ACCOUNTS])),
  // Both pass our own checks and are refused by the provider: an account shorter than it takes, an IFSC whose
  // fifth character is not 0.
  'pennydrop.provider-refuses-account': (stack) => stack.call('GET', verifyPath(PENNY_DROP_TEST_IFSC, '12345')),
  'pennydrop.provider-refuses-ifsc': (stack) => stack.call('GET', verifyPath('KKBK1000131', PENNY_DROP_TEST_ACCOUNTS.valid)),
  'pennydrop.provider-down': async (stack) => {
    stack.pennyDrop.setDown(true);
    try {
      return await stack.call('GET', verifyPath(PENNY_DROP_TEST_IFSC, PENNY_DROP_TEST_ACCOUNTS.valid));
    } finally {
      stack.pennyDrop.setDown(false);
    }
  },
};

// ---- statement jobs --------------------------------------------------------------------------------------

// The last digit is the first 14 digits mod 7, as the FVU checks BH 9 (T-FV-2232).
const RECEIPT = '123456789012340';

/** A statement of our sandbox workbooks (TAN PNEG01234C, FY 2025-26). */
function jobRequest(domain: string, receipt: boolean): Json {
  const base: Record<string, Json> = domain === 'tds'
    ? { '@entity': `${ENTITY}.tds.reports.request`, tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' }
    : { '@entity': `${ENTITY}.tcs.reports.request`, tan: 'PNEG01234C', quarter: 'Q3', financial_year: 'FY 2025-26' };
  return receipt ? { ...base, previous_receipt_number: RECEIPT } : base;
}

async function submit(stack: ConformanceStack, domain: string, receipt: boolean): Promise<Record<string, any>> {
  return dataOf(await stack.call('POST', `/${domain}/reports/txt`, jobRequest(domain, receipt)));
}

async function upload(job: Record<string, any>, workbook: unknown): Promise<void> {
  const response = await fetch(job['json_url'] as string, { method: 'PUT', body: JSON.stringify(workbook), headers: { 'content-type': 'application/json' } });
  if (!response.ok) throw new Error(`upload failed: ${response.status}`);
}

const poll = (stack: ConformanceStack, domain: string, jobId: string): Promise<Answer> => stack.call('GET', `/${domain}/reports/txt?job_id=${jobId}`);

async function pollUntil(stack: ConformanceStack, domain: string, jobId: string, statuses: string[]): Promise<Answer> {
  return eventually(async () => {
    const answer = await poll(stack, domain, jobId);
    return statuses.includes(dataOf(answer)['status']) ? answer : null;
  }, 30_000, 100);
}

async function finishedJob(stack: ConformanceStack, domain: string, receipt: boolean, workbook: unknown): Promise<Answer> {
  const job = await submit(stack, domain, receipt);
  await upload(job, workbook);
  return pollUntil(stack, domain, job['job_id'], ['succeeded', 'failed']);
}

const goodWorkbook = (domain: string): unknown => (domain === 'tds' ? workbook26Q() : workbook27EQ());
/** A workbook the engine refuses: a payee PAN of the wrong shape (TDS), a deductor TAN of the wrong shape (TCS). */
const failingWorkbook = (domain: string): unknown => (domain === 'tds' ? workbook26Q({ badPanRows: [0] }) : workbook27EQ({ tan: 'BAD' }));

const jobScenarios: Record<string, Scenario> = {
  'job.submit': (stack, c) => stack.call('POST', `/${param(c, 'domain')}/reports/txt`, jobRequest(param(c, 'domain'), true)),
  'job.submit.bad-tan': (stack, c) => stack.call('POST', `/${param(c, 'domain')}/reports/txt`, { ...(jobRequest(param(c, 'domain'), true) as object), tan: 'DABC2345DD' }),
  'job.created': async (stack, c) => poll(stack, param(c, 'domain'), (await submit(stack, param(c, 'domain'), true))['job_id']),
  'job.queued': async (stack, c) => {
    const domain = param(c, 'domain');
    // No worker runs meanwhile, so the uploaded job stays queued until it is read.
    await stack.stopWorker();
    try {
      const job = await submit(stack, domain, true);
      await upload(job, goodWorkbook(domain));
      return await pollUntil(stack, domain, job['job_id'], ['queued']);
    } finally {
      await stack.startWorker();
    }
  },
  'job.succeeded': (stack, c) => finishedJob(stack, param(c, 'domain'), false, goodWorkbook(param(c, 'domain'))),
  'job.succeeded.with-receipt': (stack, c) => finishedJob(stack, param(c, 'domain'), true, goodWorkbook(param(c, 'domain'))),
  'job.failed': (stack, c) => finishedJob(stack, param(c, 'domain'), true, failingWorkbook(param(c, 'domain'))),
  'job.unknown': (stack, c) => poll(stack, param(c, 'domain'), randomUUID()),
  // Pages of two over at least three jobs, the newest a created one and a failed one: the answer lists jobs in
  // both states and carries a cursor to the next page, as the vendor's does.
  'job.search': async (stack, c) => {
    const domain = param(c, 'domain');
    await submit(stack, domain, true);
    await finishedJob(stack, domain, true, failingWorkbook(domain));
    await submit(stack, domain, true);
    return stack.call('POST', `/${domain}/reports/txt/search`, { '@entity': `${ENTITY}.${domain}.reports.jobs.search`, page_size: 2 });
  },
};

// ---- the rest --------------------------------------------------------------------------------------------

const otherScenarios: Record<string, Scenario> = {
  'auth.authenticate': async (stack) => {
    const response = await fetch(`${stack.kyc.h.baseUrl}/authenticate`, { method: 'POST', headers: { 'x-api-key': 'key_test_all', 'x-api-secret': 'secret_test_all' } });
    return { status: response.status, body: (await response.json()) as Json };
  },
  /** The vendor's own request, in our words (bodies and path values that need no test value of ours). */
  'as-given': (stack, c) => {
    const [method, template] = c.operation.split(' ') as [string, string];
    const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => c.params?.[name] ?? (name === 'account_number' ? PENNY_DROP_TEST_ACCOUNTS.valid : name));
    return stack.call(method, path, method === 'GET' ? undefined : c.request ?? {});
  },
  unreproducible: async () => {
    throw new Unreproducible();
  },
};

export const SCENARIOS: Record<string, Scenario> = {
  ...sessionScenarios, ...otpScenarios, ...bankScenarios, ...jobScenarios, ...otherScenarios,
};
