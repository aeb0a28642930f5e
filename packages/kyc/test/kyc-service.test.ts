import { expect } from 'chai';
import { LOCKER_ENTITIES, LOCKER_INDIVIDUALS } from '@satyapan/sandbox';
import type { InitSessionResponse } from '@satyapan/kyc';
import { SessionStore } from '../src/sessions/session-store.js';
import { answerConsent, rejection, startHarness, type Harness } from './support/harness.js';
import { keysMatching } from '../../../test/support/redis-cluster.js';

const OWNER = 'key_test_owner';
const OTHER = 'key_test_other';
const ASHA = LOCKER_INDIVIDUALS[0]!;
const ROHAN = LOCKER_INDIVIDUALS[1]!;
const COMPANY = LOCKER_ENTITIES[0]!;
const REDIRECT = 'https://merchant.example/kyc/done?order=42';

describe('kyc: KycService against the locker simulator, Redis and storage', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(() => h.close());

  async function initDocvault(docTypes = ['aadhaar', 'pan', 'driving_license'], extra: Record<string, unknown> = {}): Promise<InitSessionResponse> {
    return h.service.initSession(OWNER, 'docvault', { flow: 'signin', redirect_url: REDIRECT, doc_types: docTypes, ...extra });
  }

  async function consentedDocvault(user = ASHA.id, documents = ['ADHAR', 'PANCR']): Promise<string> {
    const init = await initDocvault();
    const query = await answerConsent(init.authorization_url, { user, documents });
    const outcome = await h.service.handleCallback('docvault', query);
    expect(outcome.status).to.equal('succeeded');
    return init.session_id;
  }

  it('initiates a docvault session whose authorization URL carries PKCE, a signed state and the mapped options', async () => {
    const expiry = h.clock.now() + 2 * 3600_000;
    const init = await initDocvault(['aadhaar', 'driving_license'], {
      flow: 'signup', consent_expiry: expiry,
      options: { pinless: true, usernameless: true, verification_method: ['aadhaar', 'mobile'], verified_mobile: '9876543210' },
    });
    expect(init['@entity']).to.equal('in.co.service.kyc.docvault.session.response');
    expect(init.session_id).to.match(/^[0-9a-f-]{36}$/);
    const url = new URL(init.authorization_url);
    expect(`${url.origin}${url.pathname}`).to.equal(`${h.sim.docvaultBaseUrl}/oauth2/1/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).to.include({
      response_type: 'code', client_id: 'kyc-service-test', redirect_uri: h.callbackUrl('docvault'), code_challenge_method: 'S256',
      req_doctype: 'ADHAR,DRVLC', consent_valid_till: String(Math.floor(expiry / 1000)), dl_flow: 'signup', pla: 'Y',
      plsignup: 'Y', amr: 'aadhaar+mobile', verified_mobile: '9876543210',
    });
    expect(params['code_challenge']).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(params['state']).to.match(new RegExp(`^${init.session_id}\\.`));
    const status = await h.service.status(OWNER, 'docvault', 'api', init.session_id);
    expect(status).to.deep.equal({ '@entity': 'in.co.service.kyc.docvault.session', id: init.session_id, status: 'created', created_at: h.clock.now() });
  });

  it('refuses a consent expiry less than an hour ahead', async () => {
    const error = await rejection(initDocvault(['aadhaar'], { consent_expiry: h.clock.now() + 3599_000 }));
    expect(error).to.deep.equal({ status: 422, code: 'INVALID_FIELD', message: 'Invalid consent_expiry: must be at least 1 hour in the future' });
  });

  it('reads consent_expiry as Unix seconds (10 digits, the vendor collection\'s example) or milliseconds', async () => {
    const seconds = Math.floor(h.clock.now() / 1000) + 2 * 3600;
    for (const value of [seconds, seconds * 1000]) {
      const init = await initDocvault(['aadhaar'], { consent_expiry: value });
      expect(new URL(init.authorization_url).searchParams.get('consent_valid_till')).to.equal(String(seconds));
    }
  });

  it('refuses a consent expiry beyond 365 days, or not a Unix time, with 422 naming the field and no session left behind', async () => {
    const day = 86_400_000;
    const tooFar = [h.clock.now() + 366 * day, Math.floor((h.clock.now() + 366 * day) / 1000), 1e20, 2 ** 53, Date.UTC(2343, 0, 1), Date.UTC(2343, 0, 1) / 1000];
    for (const value of tooFar) {
      const error = await rejection(initDocvault(['aadhaar'], { consent_expiry: value }));
      expect(error, String(value)).to.deep.equal({ status: 422, code: 'INVALID_FIELD', message: 'Invalid consent_expiry: must be at most 365 days ahead' });
    }
    for (const value of [1.5e12 + 0.5, Number.NaN, -1]) {
      const error = await rejection(initDocvault(['aadhaar'], { consent_expiry: value }));
      expect(error, String(value)).to.deep.equal({ status: 422, code: 'INVALID_FIELD', message: 'Invalid consent_expiry: must be a Unix time in seconds or milliseconds' });
    }
    expect(await keysMatching(h.redis, `${h.keys.prefix}:*session*`)).to.deep.equal([]);
    const atLimit = await initDocvault(['aadhaar'], { consent_expiry: h.clock.now() + 365 * day });
    expect(await h.redis.pttl(`${h.keys.prefix}:{${atLimit.session_id}}:session`)).to.be.above(365 * day);
  });

  it('writes a session and its TTL in one step: a refused TTL leaves no key behind', async () => {
    const store = new SessionStore(h.redis, h.keys);
    const record = { id: '2c7d5b1e-0000-4000-8000-000000000001', kind: 'docvault', variant: 'api', owner: OWNER, status: 'created', flow: 'signin',
      redirectUrl: null, callbackUrl: null, docTypes: null, options: {}, consentExpiry: 0, createdAt: 0, updatedAt: null,
      documentsConsented: null, sealedVerifier: null, sealedTokens: null, authorizationUrl: null } as const;
    for (const ttl of [1e20, 0, Number.NaN, 2.5]) {
      let failed = false;
      await store.create({ ...record, docTypes: null }, 'nonce', ttl).catch(() => { failed = true; });
      expect(failed, String(ttl)).to.equal(true);
      expect(await keysMatching(h.redis, `${h.keys.prefix}:{${record.id}}:*`), String(ttl)).to.deep.equal([]);
    }
  });

  it('walks the docvault flow: consent, callback redirect, status, profile, documents through pre-signed URLs', async () => {
    const init = await initDocvault();
    const query = await answerConsent(init.authorization_url, { user: ASHA.id, documents: ['ADHAR', 'PANCR'] });
    const outcome = await h.service.handleCallback('docvault', query);
    const back = new URL(outcome.redirectUrl!);
    expect(`${back.origin}${back.pathname}`).to.equal('https://merchant.example/kyc/done');
    expect(Object.fromEntries(back.searchParams)).to.deep.equal({ order: '42', session_id: init.session_id, status: 'succeeded' });

    const status = await h.service.status(OWNER, 'docvault', 'api', init.session_id);
    expect(status).to.include({ status: 'succeeded' });
    expect(status.documents_consented).to.deep.equal(['aadhaar', 'pan']);
    expect(status.updated_at).to.be.a('number');

    expect(await h.service.profile(OWNER, 'docvault', 'api', init.session_id)).to.deep.equal({
      '@entity': 'in.co.service.kyc.docvault.user.profile', id: ASHA.id, name: 'Asha Verma',
      // The mobile from the token answer; no email, which the locker's partner API does not give.
      date_of_birth: Date.UTC(1995, 3, 16), mobile: ASHA.mobile, gender: 'female', eaadhaar: true,
    });

    const { files } = await h.service.documents(OWNER, 'docvault', 'api', init.session_id, 'aadhaar');
    expect(files).to.have.length(1);
    const [file] = files;
    expect(file).to.deep.include({ '@entity': 'org.service.drive.file' });
    expect(file!.metadata).to.deep.equal({
      ContentType: 'application/xml', issuer_id: 'in.gov.uidai', issuer: 'Unique Identification Authority of India (UIDAI)',
      LastModified: '09/05/2025', description: 'Aadhaar Card',
    });
    const download = await fetch(file!.url);
    expect(download.status).to.equal(200);
    const xml = await download.text();
    expect(xml).to.include('<Poi dob="16-04-1995" gender="F" name="Asha Verma"/>');
    expect(Buffer.byteLength(xml)).to.equal(file!.size);
    expect(new URL(file!.url).searchParams.get('X-Expires')).to.equal(String(Math.floor(h.clock.now() / 1000) + 3600));

    const pan = await h.service.documents(OWNER, 'docvault', 'api', init.session_id, 'pan');
    expect(await (await fetch(pan.files[0]!.url)).text()).to.include('type="PANCR"');
    expect(await rejection(h.service.documents(OWNER, 'docvault', 'api', init.session_id, 'driving_license')))
      .to.deep.equal({ status: 400, code: 'CONSENT_NOT_PROVIDED', message: 'Consent for driving_license not provided' });
  });

  it('keeps upstream tokens and the PKCE verifier sealed in Redis', async () => {
    const id = await consentedDocvault();
    const hash = await h.redis.hgetall(h.keys.tagged(id, 'session'));
    expect(hash['sealedTokens']).to.match(/^v1\.k1\./);
    expect(hash['sealedVerifier']).to.equal('');
    // The simulator's tokens are `at_` / `rt_` and 32 base64url characters; the sealed values are base64url too,
    // so `at_` turns up inside them by chance (once in a few hundred runs): a token only counts standing alone.
    expect(JSON.stringify(hash)).not.to.match(/(?<![A-Za-z0-9_.-])(?:at|rt)_[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/);
    expect(await h.redis.pttl(h.keys.tagged(id, 'session'))).to.be.above(24 * 3600_000);
  });

  it('opens a session\'s sealed tokens only for that session, even after they were opened (and remembered) for it', async () => {
    const first = await consentedDocvault();
    const second = await consentedDocvault();
    expect((await h.service.profile(OWNER, 'docvault', 'api', first))['id']).to.equal(ASHA.id);
    expect((await h.service.profile(OWNER, 'docvault', 'api', second))['id']).to.equal(ASHA.id);
    // The first session's sealed tokens, moved into the second session's record: they are bound to the first.
    const moved = await h.redis.hget(h.keys.tagged(first, 'session'), 'sealedTokens');
    await h.redis.hset(h.keys.tagged(second, 'session'), 'sealedTokens', moved!);
    const refused = await h.service.profile(OWNER, 'docvault', 'api', second).then(() => null, (error: unknown) => error);
    expect(refused).to.be.instanceOf(Error);
    expect((await h.service.profile(OWNER, 'docvault', 'api', first))['id']).to.equal(ASHA.id);
  });

  it('deletes the stored copies of documents after 60 minutes', async () => {
    const id = await consentedDocvault();
    const { files } = await h.service.documents(OWNER, 'docvault', 'api', id, 'aadhaar');
    const key = decodeURIComponent(new URL(files[0]!.url).pathname.replace(/^\/storage\//, ''));
    expect(await h.storage.exists(key)).to.equal(true);
    h.clock.advance(59 * 60_000);
    expect(await h.service.purgeExpiredDocuments()).to.equal(0);
    h.clock.advance(60_001);
    expect(await h.service.purgeExpiredDocuments()).to.equal(1);
    expect(await h.storage.exists(key)).to.equal(false);
    expect((await fetch(files[0]!.url)).status).to.equal(403); // the URL has expired as well
  });

  it('marks a denied consent as failed and refuses reads with 523', async () => {
    const init = await initDocvault();
    const query = await answerConsent(init.authorization_url, { user: ASHA.id, decision: 'deny' });
    const outcome = await h.service.handleCallback('docvault', query);
    expect(new URL(outcome.redirectUrl!).searchParams.get('status')).to.equal('failed');
    expect((await h.service.status(OWNER, 'docvault', 'api', init.session_id)).status).to.equal('failed');
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', init.session_id)))
      .to.deep.equal({ status: 523, code: 'INVALID_SESSION_STATUS', message: 'Invalid session status: failed' });
  });

  it('answers 523 for reads before consent and expires a session whose consent expiry passed', async () => {
    const init = await initDocvault();
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', init.session_id)))
      .to.deep.equal({ status: 523, code: 'INVALID_SESSION_STATUS', message: 'Invalid session status: created' });
    h.clock.advance(24 * 3600_000 + 1);
    expect((await h.service.status(OWNER, 'docvault', 'api', init.session_id)).status).to.equal('expired');
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', init.session_id)))
      .to.deep.equal({ status: 523, code: 'SESSION_EXPIRED', message: 'Session expired' });
    // The user arriving late changes nothing.
    const query = await answerConsent(init.authorization_url, { user: ASHA.id, documents: ['ADHAR'] });
    expect((await h.service.handleCallback('docvault', query)).status).to.equal('expired');
  });

  it('gives another API key, an unknown id and a malformed id the same 521', async () => {
    const id = await consentedDocvault();
    for (const [owner, sessionId] of [[OTHER, id], [OWNER, '00000000-0000-4000-8000-000000000000'], [OWNER, 'not-a-session']] as const) {
      expect(await rejection(h.service.profile(owner, 'docvault', 'api', sessionId)))
        .to.deep.equal({ status: 521, code: 'DATA_NOT_FOUND', message: `Data not found for: ${sessionId}` });
      expect(await rejection(h.service.status(owner, 'docvault', 'api', sessionId))).to.include({ status: 521 });
    }
    // An API session is not reachable through the SDK path group, nor through the other locker's.
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'sdk', id))).to.include({ status: 521 });
    expect(await rejection(h.service.status(OWNER, 'entityvault', 'api', id))).to.include({ status: 521 });
  });

  it('refuses a replayed, a forged and a cross-locker state', async () => {
    const init = await initDocvault();
    const query = await answerConsent(init.authorization_url, { user: ASHA.id, documents: ['ADHAR'] });
    const state = query.get('state')!;
    const forged = new URLSearchParams(query);
    forged.set('state', `${state.slice(0, -2)}${state.endsWith('AA') ? 'AB' : 'AA'}`);
    expect(await rejection(h.service.handleCallback('docvault', forged))).to.deep.equal({ status: 403, code: 'INVALID_SIGNATURE', message: 'Invalid or expired signature' });
    expect(await rejection(h.service.handleCallback('entityvault', query))).to.include({ status: 403 });
    expect((await h.service.handleCallback('docvault', query)).status).to.equal('succeeded');
    expect(await rejection(h.service.handleCallback('docvault', query))).to.include({ status: 403, code: 'INVALID_SIGNATURE' });
    const noState = new URLSearchParams({ code: query.get('code')! });
    expect(await rejection(h.service.handleCallback('docvault', noState))).to.include({ status: 403 });
  });

  it('refreshes an access token that expired upstream without the caller noticing', async () => {
    const id = await consentedDocvault();
    h.sim.expireAccessTokens();
    expect((await h.service.profile(OWNER, 'docvault', 'api', id))['id']).to.equal(ASHA.id);
    // The service also refreshes by itself once the token's lifetime is over by its own clock.
    h.clock.advance(3601_000);
    const tokensBefore = h.sim.requestCounts()['token'] ?? 0;
    expect((await h.service.profile(OWNER, 'docvault', 'api', id))['id']).to.equal(ASHA.id);
    expect(h.sim.requestCounts()['token']).to.equal(tokensBefore + 1);
  });

  it('answers 523 Session expired once the user revoked the upstream grant, and the session becomes expired', async () => {
    const id = await consentedDocvault();
    h.sim.revokeUser(ASHA.id);
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', id))).to.deep.equal({ status: 523, code: 'SESSION_EXPIRED', message: 'Session expired' });
    expect((await h.service.status(OWNER, 'docvault', 'api', id)).status).to.equal('expired');
    expect(await rejection(h.service.documents(OWNER, 'docvault', 'api', id, 'aadhaar'))).to.include({ status: 523, message: 'Session expired' });
  });

  it('passes locker rate limiting, outages and failures on as 429, 503 and 500', async () => {
    const id = await consentedDocvault();
    h.sim.setRateLimited(true);
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', id))).to.deep.equal({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Too Many Requests' });
    h.sim.resetSwitches();
    h.sim.setDown(true);
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', id))).to.deep.equal({ status: 503, code: 'SOURCE_UNAVAILABLE', message: 'Source Unavailable' });
    expect(await rejection(h.service.documents(OWNER, 'docvault', 'api', id, 'aadhaar'))).to.include({ status: 503 });
    h.sim.resetSwitches();
    h.sim.setFailing(true);
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'api', id))).to.deep.equal({ status: 500, code: 'USER_DETAILS_FAILED', message: 'Failed to get user details' });
    expect(await rejection(h.service.documents(OWNER, 'docvault', 'api', id, 'aadhaar'))).to.deep.equal({ status: 500, code: 'INTERNAL', message: 'Internal Server Error' });
    h.sim.resetSwitches();
    expect((await h.service.status(OWNER, 'docvault', 'api', id)).status).to.equal('succeeded');
  });

  it('marks a session failed when the locker is down at the callback', async () => {
    const init = await initDocvault();
    const query = await answerConsent(init.authorization_url, { user: ASHA.id, documents: ['ADHAR'] });
    h.sim.setDown(true);
    expect((await h.service.handleCallback('docvault', query)).status).to.equal('failed');
  });

  it('walks the entityvault flow: the user picks documents; entity details, profile and the three documents', async () => {
    const init = await h.service.initSession(OWNER, 'entityvault', { flow: 'signin', redirect_url: REDIRECT });
    expect(init['@entity']).to.equal('in.co.service.kyc.entityvault.session.response');
    expect(new URL(init.authorization_url).searchParams.has('req_doctype')).to.equal(false);
    const query = await answerConsent(init.authorization_url, { user: COMPANY.user.id, documents: ['CPMTD', 'GSTND', 'UDCER'] });
    expect((await h.service.handleCallback('entityvault', query)).status).to.equal('succeeded');
    const status = await h.service.status(OWNER, 'entityvault', 'api', init.session_id);
    expect(status['@entity']).to.equal('in.co.service.kyc.entityvault.session');
    expect(status.documents_consented).to.deep.equal(['company_master_details', 'gstn_details', 'udhyam_certificate']);
    expect(await h.service.entity(OWNER, 'api', init.session_id)).to.deep.equal({
      '@entity': 'in.co.service.kyc.entityvault.entity', id: COMPANY.id, name: COMPANY.name, date_of_incorporation: '16/01/2021',
      email: COMPANY.email, mobile: COMPANY.mobile, verified_by: 'cin',
    });
    expect(await h.service.profile(OWNER, 'entityvault', 'api', init.session_id)).to.deep.equal({
      '@entity': 'in.co.service.kyc.entityvault.user.profile', id: COMPANY.user.id, name: 'Meera Nair', date_of_birth: '28/01/1985',
      mobile: COMPANY.user.mobile, gender: 'female', eaadhaar: true,
    });
    const expected = {
      company_master_details: ['in.gov.mca', 'Company Master Details', '19/12/2024'],
      gstn_details: ['in.gov.gstn', 'GSTN Details', '07/01/2025'],
      udhyam_certificate: ['in.gov.msme', 'Udyam Certificate', '14/08/2024'],
    } as const;
    for (const [docType, [issuerId, description, lastModified]] of Object.entries(expected)) {
      const { files } = await h.service.documents(OWNER, 'entityvault', 'api', init.session_id, docType);
      expect(files[0]!.metadata).to.deep.include({ ContentType: 'application/pdf', issuer_id: issuerId, description, LastModified: lastModified });
      const pdf = Buffer.from(await (await fetch(files[0]!.url)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(pdf.length).to.equal(files[0]!.size);
    }
  });

  it('answers 400 naming the document when an entity document was not consented', async () => {
    const init = await h.service.initSession(OWNER, 'entityvault', { flow: 'signin', redirect_url: REDIRECT });
    const query = await answerConsent(init.authorization_url, { user: COMPANY.user.id, documents: ['CPMTD'] });
    await h.service.handleCallback('entityvault', query);
    expect(await rejection(h.service.documents(OWNER, 'entityvault', 'api', init.session_id, 'udhyam_certificate')))
      .to.deep.equal({ status: 400, code: 'CONSENT_NOT_PROVIDED', message: 'Consent for udhyam_certificate not provided' });
  });

  it('runs a docvault SDK session: created, initialized, authorized, succeeded; profile with a dd/mm/yyyy date', async () => {
    const created = await h.service.createSdkSession(OWNER, 'docvault', { flow: 'signin', doc_types: ['aadhaar', 'pan'] });
    expect(created).to.deep.include({ '@entity': 'in.co.service.kyc.docvault.sdk.session', status: 'created', created_at: h.clock.now() });
    const id = created['id'] as string;
    expect(await rejection(h.service.profile(OWNER, 'docvault', 'sdk', id))).to.include({ status: 523, message: 'Invalid session status: created' });
    const first = await h.service.sdkAuthorizationUrl(OWNER, 'docvault', id);
    expect(first['@entity']).to.equal('in.co.service.kyc.docvault.sdk.authorization_url');
    expect(await h.service.sdkAuthorizationUrl(OWNER, 'docvault', id)).to.deep.equal(first);
    expect((await h.service.status(OWNER, 'docvault', 'sdk', id)).status).to.equal('initialized');
    const query = await answerConsent(first['authorization_url'] as string, { user: ROHAN.id, documents: ['ADHAR', 'PANCR'] });
    const outcome = await h.service.handleCallback('docvault', query);
    expect(outcome).to.deep.equal({ sessionId: id, status: 'authorized', redirectUrl: null });
    const status = await h.service.status(OWNER, 'docvault', 'sdk', id);
    expect(status).to.deep.include({ '@entity': 'in.co.service.kyc.docvault.sdk.session', status: 'succeeded', documents_consented: ['aadhaar', 'pan'] });
    expect(await h.service.profile(OWNER, 'docvault', 'sdk', id)).to.deep.equal({
      '@entity': 'in.co.service.kyc.docvault.user.profile', id: ROHAN.id, name: 'Rohan Iyer', date_of_birth: '02/11/1988',
      mobile: ROHAN.mobile, gender: 'male', eaadhaar: false, email: '',
    });
    expect(await rejection(h.service.sdkAuthorizationUrl(OWNER, 'docvault', id))).to.include({ status: 523, message: 'Invalid session status: succeeded' });
  });

  it('runs an entityvault SDK session; a locker outage while it is authorized gives 503 on status', async () => {
    const created = await h.service.createSdkSession(OWNER, 'entityvault', { flow: 'signin', doc_types: ['company_master_details', 'gstn_details'] });
    const id = created['id'] as string;
    const url = (await h.service.sdkAuthorizationUrl(OWNER, 'entityvault', id))['authorization_url'] as string;
    expect(new URL(url).searchParams.get('req_doctype')).to.equal('CPMTD,GSTND');
    const query = await answerConsent(url, { user: COMPANY.user.id, documents: ['CPMTD', 'GSTND'] });
    expect((await h.service.handleCallback('entityvault', query)).status).to.equal('authorized');
    h.sim.setDown(true);
    expect(await rejection(h.service.status(OWNER, 'entityvault', 'sdk', id))).to.deep.equal({ status: 503, code: 'SOURCE_UNAVAILABLE', message: 'Source Unavailable' });
    h.sim.resetSwitches();
    const status = await h.service.status(OWNER, 'entityvault', 'sdk', id);
    expect(status).to.deep.include({ '@entity': 'in.co.service.kyc.entityvault.sdk.session', status: 'succeeded', documents_consented: ['company_master_details', 'gstn_details'] });
    expect((await h.service.documents(OWNER, 'entityvault', 'sdk', id, 'gstn_details')).files).to.have.length(1);
  });
});
