import { expect } from 'chai';
import request from 'supertest';
import { createRouter } from '@satyapan/router';
import { kycArea } from '@satyapan/kyc';
import { AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, LOCKER_ENTITIES, LOCKER_INDIVIDUALS } from '@satyapan/sandbox';
import { CLIENTS, consentAtLocker, startKycStack, type ApiAnswer, type KycStack } from '../../kyc/test/support/stack.js';

const [ASHA, ROHAN, KIRAN] = LOCKER_INDIVIDUALS as [typeof LOCKER_INDIVIDUALS[0], typeof LOCKER_INDIVIDUALS[0], typeof LOCKER_INDIVIDUALS[0]];
const [COMPANY, LLP] = LOCKER_ENTITIES as [typeof LOCKER_ENTITIES[0], typeof LOCKER_ENTITIES[0]];
const REDIRECT = 'https://merchant.example/done';
const UNKNOWN = '2c7d5b1e-0000-4000-8000-000000000000';

function expectError(answer: ApiAnswer, status: number, message: string): void {
  expect([answer.status, answer.body['message']], JSON.stringify(answer.body)).to.deep.equal([status, message]);
  expect(answer.body).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
  expect(answer.body['code']).to.equal(status);
}

describe('router: kyc routes', function () {
  this.timeout(30_000);
  let s: KycStack;

  before(async () => {
    s = await startKycStack();
  });
  after(() => s.close());
  afterEach(() => s.lockers.resetSwitches());

  async function docvaultSession(user: string, documents: string[], consent = true): Promise<string> {
    const init = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar', 'pan', 'driving_license'],
    });
    if (consent) await consentAtLocker(init.body['data'].authorization_url, { user, documents });
    return init.body['data'].session_id;
  }

  async function entitySession(user: string, documents: string[], consent = true): Promise<string> {
    const init = await s.api('POST', '/kyc/entityvault/sessions/init', { '@entity': 'in.co.service.kyc.entityvault.session.request', flow: 'signin', redirect_url: REDIRECT });
    if (consent) await consentAtLocker(init.body['data'].authorization_url, { user, documents });
    return init.body['data'].session_id;
  }

  async function sdkSession(kind: 'docvault' | 'entityvault', docTypes: string[], consent?: { user: string; documents: string[] }): Promise<string> {
    const created = await s.api('POST', `/kyc/${kind}-sdk/sessions/create`, { '@entity': `in.co.service.kyc.${kind}.sdk.session.request`, flow: 'signin', doc_types: docTypes });
    const id = created.body['data'].id as string;
    if (consent) {
      const auth = await s.api('GET', `/kyc/${kind}-sdk/sessions/${id}/authorization_url`);
      await consentAtLocker(auth.body['data'].authorization_url, consent);
    }
    return id;
  }

  describe('validation and access', () => {
    const init = (body: Record<string, unknown>) => s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar'], ...body,
    });

    it('answers 400 for a wrong @entity or a missing field, and ignores an unknown field', async () => {
      expectError(await init({ '@entity': 'in.co.service.kyc.entityvault.session.request' }), 400, 'Invalid request body: @entity must be "in.co.service.kyc.docvault.session.request"');
      expectError(await s.api('POST', '/kyc/docvault/sessions/init', { '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT }), 400, 'Invalid request body: doc_types is required');
      expect((await init({ consent_valid_till: 1 })).status).to.equal(200);
    });

    it('answers 422 for rules: http redirect_url, unknown document type, consent expiry under an hour', async () => {
      expectError(await init({ redirect_url: 'http://merchant.example/done' }), 422, 'Invalid redirect_url: must be an https URL');
      expect((await init({ doc_types: ['passport'] })).status).to.equal(422);
      expectError(await init({ consent_expiry: s.clock.now() + 1000 }), 422, 'Invalid consent_expiry: must be at least 1 hour in the future');
      expectError(await init({ consent_expiry: 1e20 }), 422, 'Invalid consent_expiry: must be at most 365 days ahead');
      expect((await init({ options: { verified_mobile: '12345' } })).status).to.equal(422);
      expectError(await s.api('GET', `/kyc/entityvault/sessions/${UNKNOWN}/documents/aadhaar`), 422, 'Invalid doc_type: must be equal to one of the allowed values');
    });

    it('builds the locker callback URL from the configured public base URL, whatever Host the caller sends', async () => {
      const token = await s.h.token();
      const init = await request(s.h.app).post('/api/kyc/docvault/sessions/init').set('host', 'evil.example')
        .set('authorization', token).set('x-api-key', CLIENTS.all.apiKey)
        .send({ '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar'] });
      expect(init.status).to.equal(200);
      expect(new URL(init.body.data.authorization_url).searchParams.get('redirect_uri')).to.equal(`${s.h.baseUrl}/kyc/docvault/callback`);
    });

    it('refuses to start without a public base URL when a locker has no callback URL of its own', () => {
      expect(() => createRouter({
        redis: s.h.redis, storage: s.h.storage, clients: [CLIENTS.all], tokens: { secret: 'x'.repeat(32) }, areas: [kycArea(s.services)],
      })).to.throw(Error, /^No callback URL for the docvault and entityvault locker: configure the locker's callbackUrl or the router's publicBaseUrl$/);
    });

    it('needs the kyc product', async () => {
      expectError(await s.api('GET', `/kyc/docvault/sessions/${UNKNOWN}/status`, undefined, CLIENTS.bankOnly), 403, 'Insufficient privilege');
    });

    it('documents every kyc operation in the OpenAPI document, the OTP ones as deprecated', () => {
      const paths = s.h.router.openapi['paths'] as Record<string, Record<string, { deprecated?: boolean }>>;
      for (const path of [
        '/kyc/docvault/sessions/init', '/kyc/docvault/sessions/{session_id}/user/profile', '/kyc/docvault/sessions/{session_id}/status',
        '/kyc/docvault-sdk/sessions/{session_id}/user/profile', '/kyc/entityvault/sessions/{session_id}/documents/{doc_type}',
        '/kyc/entityvault/sessions/{session_id}/user/profile', '/kyc/entityvault/sessions/{session_id}/entity',
        '/kyc/entityvault/sessions/{session_id}/status', '/kyc/entityvault-sdk/sessions/{session_id}/status', '/kyc/aadhaar/okyc/otp',
        '/kyc/entityvault/sessions/init', '/kyc/docvault-sdk/sessions/create', '/kyc/entityvault-sdk/sessions/create',
        '/kyc/docvault-sdk/sessions/{session_id}/authorization_url', '/kyc/docvault/callback', '/kyc/entityvault/callback',
        '/kyc/docvault/sessions/{session_id}/documents/{doc_type}', '/kyc/aadhaar/okyc/otp/verify',
      ]) expect(paths, path).to.have.property(path);
      expect(paths['/kyc/aadhaar/okyc/otp']!['post']!.deprecated).to.equal(true);
      expect(paths['/kyc/aadhaar/okyc/otp/verify']!['post']!.deprecated).to.equal(true);
    });
  });

  describe('error matrix: every operation x every error of the spec table', () => {
    let dv: string;
    let dvCreated: string;
    let dvSdk: string;
    let dvSdkCreated: string;
    let ev: string;
    let evCreated: string;
    let evSdkAuthorized: string;

    before(async () => {
      dv = await docvaultSession(ASHA.id, ['ADHAR', 'PANCR']);
      dvCreated = await docvaultSession(ASHA.id, [], false);
      dvSdk = await sdkSession('docvault', ['aadhaar'], { user: ASHA.id, documents: ['ADHAR'] });
      dvSdkCreated = await sdkSession('docvault', ['aadhaar']);
      ev = await entitySession(COMPANY.user.id, ['CPMTD']);
      evCreated = await entitySession(COMPANY.user.id, [], false);
      evSdkAuthorized = await sdkSession('entityvault', ['gstn_details'], { user: COMPANY.user.id, documents: ['GSTND'] });
    });

    const ops = () => ({
      2: (id: string) => `/kyc/docvault/sessions/${id}/user/profile`,
      4: (id: string) => `/kyc/docvault-sdk/sessions/${id}/user/profile`,
      5: (id: string, docType = 'company_master_details') => `/kyc/entityvault/sessions/${id}/documents/${docType}`,
      6: (id: string) => `/kyc/entityvault/sessions/${id}/user/profile`,
      9: (id: string) => `/kyc/entityvault-sdk/sessions/${id}/status`,
    });

    it('operation 2 (docvault profile): 429, 500, 503, 521, 523', async () => {
      const path = ops()[2];
      s.lockers.setRateLimited(true);
      const limited = await s.api('GET', path(dv));
      expectError(limited, 429, 'Too Many Requests');
      expect(limited.headers.get('retry-after'), 'the locker\'s Retry-After is passed on').to.equal('30');
      s.lockers.resetSwitches();
      s.lockers.setFailing(true);
      expectError(await s.api('GET', path(dv)), 500, 'Failed to get user details');
      s.lockers.resetSwitches();
      s.lockers.setDown(true);
      expectError(await s.api('GET', path(dv)), 503, 'Source Unavailable');
      s.lockers.resetSwitches();
      expectError(await s.api('GET', path(UNKNOWN)), 521, `Data not found for: ${UNKNOWN}`);
      expectError(await s.api('GET', path(dvCreated)), 523, 'Invalid session status: created');
      expect((await s.api('GET', path(dv))).status).to.equal(200);
    });

    it('operation 4 (docvault SDK profile): 503, 521, 523', async () => {
      const path = ops()[4];
      s.lockers.setDown(true);
      expectError(await s.api('GET', path(dvSdk)), 503, 'Source Unavailable');
      s.lockers.resetSwitches();
      expectError(await s.api('GET', path(UNKNOWN)), 521, `Data not found for: ${UNKNOWN}`);
      expectError(await s.api('GET', path(dvSdkCreated)), 523, 'Invalid session status: created');
      expect((await s.api('GET', path(dvSdk))).body['data'].date_of_birth).to.equal('16/04/1995');
    });

    it('operation 5 (entity document): 400, 503, 521, 523', async () => {
      const path = ops()[5];
      expectError(await s.api('GET', path(ev, 'gstn_details')), 400, 'Consent for gstn_details not provided');
      s.lockers.setDown(true);
      expectError(await s.api('GET', path(ev)), 503, 'Source Unavailable');
      s.lockers.resetSwitches();
      expectError(await s.api('GET', path(UNKNOWN)), 521, `Data not found for: ${UNKNOWN}`);
      expectError(await s.api('GET', path(evCreated)), 523, 'Invalid session status: created');
      expect((await s.api('GET', path(ev))).status).to.equal(200);
    });

    it('operation 6 (entity profile): 503, 521, 523', async () => {
      const path = ops()[6];
      s.lockers.setDown(true);
      expectError(await s.api('GET', path(ev)), 503, 'Source Unavailable');
      s.lockers.resetSwitches();
      expectError(await s.api('GET', path(UNKNOWN)), 521, `Data not found for: ${UNKNOWN}`);
      expectError(await s.api('GET', path(evCreated)), 523, 'Invalid session status: created');
    });

    it('operation 9 (entity SDK status): 503 while the locker is down for an authorized session, 521', async () => {
      const path = ops()[9];
      s.lockers.setDown(true);
      expectError(await s.api('GET', path(evSdkAuthorized)), 503, 'Source Unavailable');
      s.lockers.resetSwitches();
      expectError(await s.api('GET', path(UNKNOWN)), 521, `Data not found for: ${UNKNOWN}`);
      expect((await s.api('GET', path(evSdkAuthorized))).body['data'].status).to.equal('succeeded');
    });

    it('operations 3, 7, 8 and the other reads answer 521 for unknown sessions and 523 before consent', async () => {
      for (const path of [`/kyc/docvault/sessions/${UNKNOWN}/status`, `/kyc/entityvault/sessions/${UNKNOWN}/status`, `/kyc/entityvault/sessions/${UNKNOWN}/entity`,
        `/kyc/docvault/sessions/${UNKNOWN}/documents/pan`, `/kyc/docvault-sdk/sessions/${UNKNOWN}/status`, `/kyc/docvault-sdk/sessions/${UNKNOWN}/authorization_url`]) {
        expectError(await s.api('GET', path), 521, `Data not found for: ${UNKNOWN}`);
      }
      expectError(await s.api('GET', `/kyc/entityvault/sessions/${evCreated}/entity`), 523, 'Invalid session status: created');
      expectError(await s.api('GET', `/kyc/docvault/sessions/${dvCreated}/documents/pan`), 523, 'Invalid session status: created');
    });

    it('SDK document reads, which the spec does not list, answer the vendor\'s 523 before consent', async () => {
      for (const kind of ['docvault', 'entityvault'] as const) {
        const docType = kind === 'docvault' ? 'pan' : 'gstn_details';
        const created = await s.api('POST', `/kyc/${kind}-sdk/sessions/create`, { '@entity': `in.co.service.kyc.${kind}.sdk.session.request`, flow: 'sign_in', doc_types: [docType] });
        expect(created.status, kind).to.equal(200);
        expectError(await s.api('GET', `/kyc/${kind}-sdk/sessions/${created.body['data'].id}/documents/${docType}`), 523, 'Cannot get document due to invalid session lifecycle');
      }
      const signUp = await s.api('POST', '/kyc/docvault-sdk/sessions/create', { '@entity': 'in.co.service.kyc.docvault.sdk.session.request', flow: 'sign_up', doc_types: ['pan'] });
      expect(signUp.status).to.equal(200);
      expect((await s.api('POST', '/kyc/docvault-sdk/sessions/create', { '@entity': 'in.co.service.kyc.docvault.sdk.session.request', flow: 'sign-up', doc_types: ['pan'] })).status).to.equal(422);
    });

    it('gives another API key 521 for every operation on a session it does not own', async () => {
      for (const path of [ops()[2](dv), ops()[4](dvSdk), ops()[5](ev), ops()[6](ev), `/kyc/entityvault/sessions/${ev}/entity`,
        `/kyc/docvault/sessions/${dv}/status`, `/kyc/entityvault/sessions/${ev}/status`, `/kyc/docvault/sessions/${dv}/documents/aadhaar`]) {
        const id = path.split('/')[4]!;
        expectError(await s.api('GET', path, undefined, CLIENTS.other), 521, `Data not found for: ${id}`);
      }
      expectError(await s.api('GET', ops()[9](evSdkAuthorized), undefined, CLIENTS.other), 521, `Data not found for: ${evSdkAuthorized}`);
    });
  });

  describe('state and upstream tokens', () => {
    it('refuses a replayed or a forged state at the callback with 403', async () => {
      const init = await s.api('POST', '/kyc/docvault/sessions/init', {
        '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['pan'],
      });
      const { callback, response } = await consentAtLocker(init.body['data'].authorization_url, { user: ROHAN.id, documents: ['PANCR'] });
      expect(response.status).to.equal(302);
      const replay = await fetch(callback, { redirect: 'manual' });
      expect(replay.status).to.equal(403);
      expect(((await replay.json()) as { message: string }).message).to.equal('Invalid or expired signature');
      const forged = new URL(callback);
      forged.searchParams.set('state', `${init.body['data'].session_id}.${'A'.repeat(22)}.${'B'.repeat(43)}`);
      expect((await fetch(forged, { redirect: 'manual' })).status).to.equal(403);
      const missing = new URL(callback);
      missing.searchParams.delete('state');
      expect((await fetch(missing, { redirect: 'manual' })).status).to.equal(403);
    });

    it('answers 523 Session expired when the user revoked the upstream grant', async () => {
      const dvRevoked = await docvaultSession(KIRAN.id, ['ADHAR']);
      const evRevoked = await entitySession(LLP.user.id, ['GSTND']);
      s.lockers.revokeUser(KIRAN.id);
      s.lockers.revokeUser(LLP.user.id);
      expectError(await s.api('GET', `/kyc/docvault/sessions/${dvRevoked}/user/profile`), 523, 'Session expired');
      expectError(await s.api('GET', `/kyc/entityvault/sessions/${evRevoked}/documents/gstn_details`), 523, 'Session expired');
      expect((await s.api('GET', `/kyc/docvault/sessions/${dvRevoked}/status`)).body['data'].status).to.equal('expired');
      expectError(await s.api('GET', `/kyc/entityvault/sessions/${evRevoked}/user/profile`), 523, 'Session expired');
    });
  });

  describe('Aadhaar OTP', () => {
    const otpBody = (aadhaar: string, extra: Record<string, unknown> = {}) => ({
      '@entity': 'in.co.service.kyc.aadhaar.okyc.otp.request', aadhaar_number: aadhaar, consent: 'Y', reason: 'Customer onboarding', ...extra,
    });

    function expectDeprecated(answer: ApiAnswer): void {
      expect(answer.headers.get('deprecation')).to.equal('true');
      expect(answer.headers.get('link')).to.equal(`<${s.h.baseUrl}/kyc/docvault/sessions/init>; rel="successor-version"`);
    }

    it('sends an OTP, then answers a repeat within 45 s with a top-level message', async () => {
      const sent = await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody(AADHAAR_TEST_NUMBERS.otpSent));
      expect(sent.status).to.equal(200);
      expectDeprecated(sent);
      expect(sent.body['data']).to.deep.include({ '@entity': 'in.co.service.kyc.aadhaar.okyc.otp.response', message: 'OTP sent successfully' });
      expect(sent.body['data'].reference_id).to.be.a('number');
      const again = await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody(AADHAAR_TEST_NUMBERS.otpSent));
      expect(again.status).to.equal(200);
      expectDeprecated(again);
      expect(again.body).to.have.all.keys('code', 'timestamp', 'transaction_id', 'message');
      expect(again.body).to.include({ code: 200, message: 'OTP generated for this aadhaar, please try after 45 sec' });

      const wrong = await s.api('POST', '/kyc/aadhaar/okyc/otp/verify', { '@entity': 'in.co.service.kyc.aadhaar.okyc.request', reference_id: String(sent.body['data'].reference_id), otp: '111111' });
      expect(wrong.body['data']).to.deep.equal({ '@entity': 'in.co.service.kyc.aadhaar.okyc', message: 'Invalid OTP' });
      const record = await s.api('POST', '/kyc/aadhaar/okyc/otp/verify', { '@entity': 'in.co.service.kyc.aadhaar.okyc.request', reference_id: sent.body['data'].reference_id, otp: AADHAAR_TEST_OTP });
      expectDeprecated(record);
      expect(record.body['data']).to.deep.include({ status: 'VALID', name: 'Anil Kumar Sharma', date_of_birth: '21-04-1985' });
    });

    it('answers business outcomes as 200 messages and rule failures as 422, with the deprecation headers', async () => {
      const invalid = await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody(AADHAAR_TEST_NUMBERS.invalidAadhaar));
      expect(invalid.body['data'].message).to.equal('Invalid Aadhaar Card');
      const notLinked = await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody(AADHAAR_TEST_NUMBERS.notLinkedToMobile));
      expect(notLinked.body['data'].message).to.equal('Aadhaar not linked to mobile number');
      const pattern = await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody('1234 5678 90'));
      expectError(pattern, 422, 'Invalid Aadhaar number pattern');
      expectDeprecated(pattern); // refused by the router's validation, before the service runs
      const checksum = await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody('499931110009'));
      expectError(checksum, 422, 'Invalid Aadhaar number pattern');
      expectDeprecated(checksum);
      expectError(await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody(AADHAAR_TEST_NUMBERS.otpSentSecond, { consent: 'N' })), 422, 'Consent is required');
      expectError(await s.api('POST', '/kyc/aadhaar/okyc/otp', otpBody(AADHAAR_TEST_NUMBERS.providerError)), 503, 'Source Unavailable');
      expectError(await s.api('POST', '/kyc/aadhaar/okyc/otp/verify', { '@entity': 'in.co.service.kyc.aadhaar.okyc.request', reference_id: '12' }), 422, 'OTP missing in request');
      // The vendor's own example: an old field name (`ref_id`, ignored) and an empty OTP.
      expectError(await s.api('POST', '/kyc/aadhaar/okyc/otp/verify', { '@entity': 'in.co.service.kyc.aadhaar.okyc.request', ref_id: '1234567', otp: '' }), 422, 'OTP missing in request');
      expectError(await s.api('POST', '/kyc/aadhaar/okyc/otp/verify', { '@entity': 'in.co.service.kyc.aadhaar.okyc.request', otp: '121212' }), 422, 'Invalid Reference Id');
    });
  });

  it('keeps sessions apart per API key even for the same locker user', async () => {
    const mine = await docvaultSession(ASHA.id, ['ADHAR']);
    const theirs = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar'],
    }, CLIENTS.other);
    expect(theirs.body['data'].session_id).not.to.equal(mine);
    expect((await s.api('GET', `/kyc/docvault/sessions/${theirs.body['data'].session_id}/status`, undefined, CLIENTS.other)).body['data'].status).to.equal('created');
    expectError(await s.api('GET', `/kyc/docvault/sessions/${theirs.body['data'].session_id}/status`), 521, `Data not found for: ${theirs.body['data'].session_id}`);
  });
});
