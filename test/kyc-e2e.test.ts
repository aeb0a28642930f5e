// End-to-end: the whole consent flows over HTTP, from the API client's init call through the locker
// simulator's consent page and our OAuth callback, to the documents downloaded through their pre-signed URLs.
import { expect } from 'chai';
import { LOCKER_ENTITIES, LOCKER_INDIVIDUALS } from '@satyapan/sandbox';
import { consentAtLocker, startKycStack, type KycStack } from '../packages/kyc/test/support/stack.js';

const ASHA = LOCKER_INDIVIDUALS[0]!;
const KIRAN = LOCKER_INDIVIDUALS[2]!;
const COMPANY = LOCKER_ENTITIES[0]!;
const REDIRECT = 'https://merchant.example/kyc/return';

describe('e2e: docvault and entityvault sessions through the router and the locker simulator', function () {
  this.timeout(30_000);
  let s: KycStack;

  beforeEach(async () => {
    s = await startKycStack();
  });
  afterEach(() => s.close());

  /** Follows our callback's redirect target and checks it is the caller's redirect_url with the outcome. */
  function expectReturnTo(response: Response, sessionId: string, status: string): void {
    expect(response.status).to.equal(302);
    const back = new URL(response.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).to.equal(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).to.deep.equal({ session_id: sessionId, status });
  }

  async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
    const response = await fetch(url); // no Authorization, no x-api-key: the URL is the credential
    return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  it('docvault: init, consent, callback, status, profile, and every consented document', async () => {
    const init = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT,
      doc_types: ['aadhaar', 'pan', 'driving_license'], consent_expiry: s.clock.now() + 2 * 3600_000,
    });
    expect(init.status).to.equal(200);
    expect(init.body).to.include({ code: 200 });
    const { session_id: id, authorization_url: url } = init.body['data'];
    expect(new URL(url).origin).to.equal(new URL(s.lockers.url).origin);

    const { callback, response } = await consentAtLocker(url, { user: ASHA.id, documents: ['ADHAR', 'PANCR', 'DRVLC'] });
    expect(`${callback.origin}${callback.pathname}`).to.equal(`${s.h.baseUrl}/kyc/docvault/callback`);
    expectReturnTo(response, id, 'succeeded');

    const status = await s.api('GET', `/kyc/docvault/sessions/${id}/status`);
    expect(status.body['data']).to.deep.include({ '@entity': 'in.co.service.kyc.docvault.session', id, status: 'succeeded', documents_consented: ['aadhaar', 'pan', 'driving_license'] });

    const profile = await s.api('GET', `/kyc/docvault/sessions/${id}/user/profile`);
    expect(profile.status).to.equal(200);
    expect(profile.body['data']).to.deep.equal({
      '@entity': 'in.co.service.kyc.docvault.user.profile', id: ASHA.id, name: ASHA.name, date_of_birth: Date.UTC(1995, 3, 16),
      // The mobile from the locker's token answer; no email, which its partner API does not give (VENDOR_COMPAT.md VC-17).
      mobile: ASHA.mobile, gender: 'female', eaadhaar: true,
    });

    const expected = { aadhaar: 'type="ADHAR"', pan: 'type="PANCR"', driving_license: 'type="DRVLC"' };
    for (const [docType, marker] of Object.entries(expected)) {
      const answer = await s.api('GET', `/kyc/docvault/sessions/${id}/documents/${docType}`);
      expect(answer.status, docType).to.equal(200);
      const [file] = answer.body['data'].files;
      expect(file['@entity']).to.equal('org.service.drive.file');
      expect(file.url.startsWith(`${s.h.baseUrl}/storage/`)).to.equal(true);
      const got = await download(file.url);
      expect(got.status).to.equal(200);
      expect(got.type).to.equal('application/xml');
      expect(got.bytes.length).to.equal(file.size);
      expect(got.bytes.toString()).to.include(marker);
    }
  });

  it('docvault: a user who withholds a document gets it refused with 400, and Deny ends in failed', async () => {
    const init = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar', 'driving_license'],
    });
    const id = init.body['data'].session_id;
    const { response } = await consentAtLocker(init.body['data'].authorization_url, { user: KIRAN.id, documents: ['DRVLC'] });
    expectReturnTo(response, id, 'succeeded');
    const refused = await s.api('GET', `/kyc/docvault/sessions/${id}/documents/aadhaar`);
    expect(refused.status).to.equal(400);
    expect(refused.body['message']).to.equal('Consent for aadhaar not provided');

    const second = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar'],
    });
    const denied = await consentAtLocker(second.body['data'].authorization_url, { user: ASHA.id, decision: 'deny' });
    expectReturnTo(denied.response, second.body['data'].session_id, 'failed');
    const status = await s.api('GET', `/kyc/docvault/sessions/${second.body['data'].session_id}/status`);
    expect(status.body['data'].status).to.equal('failed');
    expect(status.body['data']).not.to.have.property('documents_consented');
  });

  it('docvault: a session whose consent expiry passed before the user came back is expired', async () => {
    const init = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['pan'],
      consent_expiry: s.clock.now() + 3600_000,
    });
    const id = init.body['data'].session_id;
    s.clock.advance(3600_000 + 1);
    const status = await s.api('GET', `/kyc/docvault/sessions/${id}/status`);
    expect(status.body['data']).to.deep.include({ id, status: 'expired' });
    const profile = await s.api('GET', `/kyc/docvault/sessions/${id}/user/profile`);
    expect([profile.status, profile.body['message']]).to.deep.equal([523, 'Session expired']);
    const late = await consentAtLocker(init.body['data'].authorization_url, { user: ASHA.id, documents: ['PANCR'] });
    expectReturnTo(late.response, id, 'expired');
  });

  it('entityvault: init, the user picks documents, entity details, profile, status and the three documents', async () => {
    const init = await s.api('POST', '/kyc/entityvault/sessions/init', {
      '@entity': 'in.co.service.kyc.entityvault.session.request', flow: 'signin', redirect_url: REDIRECT,
    });
    expect(init.body['data']['@entity']).to.equal('in.co.service.kyc.entityvault.session.response');
    const id = init.body['data'].session_id;
    const { response } = await consentAtLocker(init.body['data'].authorization_url, { user: COMPANY.user.id, documents: ['CPMTD', 'GSTND', 'UDCER'] });
    expectReturnTo(response, id, 'succeeded');

    const entity = await s.api('GET', `/kyc/entityvault/sessions/${id}/entity`);
    expect(entity.body['data']).to.deep.equal({
      '@entity': 'in.co.service.kyc.entityvault.entity', id: COMPANY.id, name: COMPANY.name, date_of_incorporation: '16/01/2021',
      email: COMPANY.email, mobile: COMPANY.mobile, verified_by: 'cin',
    });
    const profile = await s.api('GET', `/kyc/entityvault/sessions/${id}/user/profile`);
    expect(profile.body['data']).to.deep.equal({
      '@entity': 'in.co.service.kyc.entityvault.user.profile', id: COMPANY.user.id, name: 'Meera Nair', date_of_birth: '28/01/1985',
      mobile: COMPANY.user.mobile, gender: 'female', eaadhaar: true,
    });
    const status = await s.api('GET', `/kyc/entityvault/sessions/${id}/status`);
    expect(status.body['data']).to.deep.include({
      '@entity': 'in.co.service.kyc.entityvault.session', status: 'succeeded',
      documents_consented: ['company_master_details', 'gstn_details', 'udhyam_certificate'],
    });
    for (const docType of ['company_master_details', 'gstn_details', 'udhyam_certificate']) {
      const answer = await s.api('GET', `/kyc/entityvault/sessions/${id}/documents/${docType}`);
      expect(answer.status, docType).to.equal(200);
      const [file] = answer.body['data'].files;
      expect(file.metadata.ContentType).to.equal('application/pdf');
      const got = await download(file.url);
      expect(got.type).to.equal('application/pdf');
      expect(got.bytes.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(got.bytes.length).to.equal(file.size);
    }
  });

  it('docvault SDK: create, authorization URL, consent, callback, status and profile with dd/mm/yyyy', async () => {
    const created = await s.api('POST', '/kyc/docvault-sdk/sessions/create', {
      '@entity': 'in.co.service.kyc.docvault.sdk.session.request', flow: 'signin', doc_types: ['aadhaar', 'pan'],
    });
    expect(created.body['data']).to.deep.include({ '@entity': 'in.co.service.kyc.docvault.sdk.session', status: 'created' });
    const id = created.body['data'].id;
    const auth = await s.api('GET', `/kyc/docvault-sdk/sessions/${id}/authorization_url`);
    expect((await s.api('GET', `/kyc/docvault-sdk/sessions/${id}/status`)).body['data'].status).to.equal('initialized');
    const { response } = await consentAtLocker(auth.body['data'].authorization_url, { user: ASHA.id, documents: ['ADHAR', 'PANCR'] });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ '@entity': 'in.co.service.kyc.docvault.sdk.session', id, status: 'authorized' });
    const status = await s.api('GET', `/kyc/docvault-sdk/sessions/${id}/status`);
    expect(status.body['data']).to.deep.include({ '@entity': 'in.co.service.kyc.docvault.sdk.session', status: 'succeeded', documents_consented: ['aadhaar', 'pan'] });
    const profile = await s.api('GET', `/kyc/docvault-sdk/sessions/${id}/user/profile`);
    expect(profile.body['data']).to.deep.include({ id: ASHA.id, date_of_birth: '16/04/1995', email: '', mobile: ASHA.mobile, gender: 'female' });
    const pan = await s.api('GET', `/kyc/docvault-sdk/sessions/${id}/documents/pan`);
    expect((await download(pan.body['data'].files[0].url)).bytes.toString()).to.include(ASHA.pan!);
  });

  it('SDK callback in a person\'s browser: an HTML page that says the outcome and carries it for the SDK', async () => {
    const created = await s.api('POST', '/kyc/docvault-sdk/sessions/create', {
      '@entity': 'in.co.service.kyc.docvault.sdk.session.request', flow: 'signin', doc_types: ['pan'],
    });
    const id = created.body['data'].id;
    const auth = await s.api('GET', `/kyc/docvault-sdk/sessions/${id}/authorization_url`);
    const { response } = await consentAtLocker(auth.body['data'].authorization_url, { user: ASHA.id, documents: ['PANCR'], accept: 'text/html,application/xhtml+xml' });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    const page = await response.text();
    expect(page).to.include('Consent recorded');
    expect(page).to.include(`"id":"${id}","status":"authorized"`);
  });

  it('entityvault SDK: create, authorization URL, consent, callback, status and documents', async () => {
    const created = await s.api('POST', '/kyc/entityvault-sdk/sessions/create', {
      '@entity': 'in.co.service.kyc.entityvault.sdk.session.request', flow: 'signin', doc_types: ['company_master_details', 'udhyam_certificate'],
    });
    const id = created.body['data'].id;
    const auth = await s.api('GET', `/kyc/entityvault-sdk/sessions/${id}/authorization_url`);
    const { response } = await consentAtLocker(auth.body['data'].authorization_url, { user: COMPANY.user.id, documents: ['CPMTD', 'UDCER'] });
    expect((await response.json() as { status: string }).status).to.equal('authorized');
    const status = await s.api('GET', `/kyc/entityvault-sdk/sessions/${id}/status`);
    expect(status.body['data']).to.deep.include({
      '@entity': 'in.co.service.kyc.entityvault.sdk.session', id, status: 'succeeded', documents_consented: ['company_master_details', 'udhyam_certificate'],
    });
    const udyam = await s.api('GET', `/kyc/entityvault-sdk/sessions/${id}/documents/udhyam_certificate`);
    const got = await download(udyam.body['data'].files[0].url);
    expect(got.bytes.subarray(0, 5).toString()).to.equal('%PDF-');
  });
});
