import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { ManualClock } from '@satyapan/core';
import { LOCKER_ENTITIES, LOCKER_INDIVIDUALS, answerConsentPage, startLockerSimulator, type LockerSimulator } from '@satyapan/sandbox';
import { errorsOf, loadFixture, validatorFor } from './support/contract.js';

const CLIENT = { clientId: 'test-client', clientSecret: 'test-secret', name: 'Test Fintech Pvt Ltd', redirectUris: ['https://app.example/callback'] };
const REDIRECT = 'https://app.example/callback';
const ASHA = LOCKER_INDIVIDUALS[0]!;
const ROHAN = LOCKER_INDIVIDUALS[1]!;
const COMPANY = LOCKER_ENTITIES[0]!;

interface Pkce {
  verifier: string;
  challenge: string;
}

function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(base: string, p: Pkce, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    response_type: 'code', client_id: CLIENT.clientId, redirect_uri: REDIRECT, state: 'st-1',
    code_challenge: p.challenge, code_challenge_method: 'S256', ...extra,
  });
  return `${base}/oauth2/1/authorize?${params.toString()}`;
}

/** Opens the consent page and submits the form as a browser without JavaScript would. */
async function consent(base: string, p: Pkce, answer: { user: string; decision: 'allow' | 'deny'; documents?: string[] }, extra: Record<string, string> = {}): Promise<URL> {
  const response = await answerConsentPage(authorizeUrl(base, p, extra), answer);
  expect(response.status).to.equal(302);
  return new URL(response.headers.get('location')!);
}

async function token(base: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/oauth2/1/token`, {
    method: 'POST', body: new URLSearchParams({ client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, ...form }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function getJson(url: string, accessToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function signIn(base: string, user: string, documents: string[], extra: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const p = pkce();
  const back = await consent(base, p, { user, decision: 'allow', documents }, extra);
  const result = await token(base, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: p.verifier });
  expect(result.status).to.equal(200);
  return result.body;
}

describe('sandbox: locker simulator', () => {
  let sim: LockerSimulator;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(Date.now());
    sim = await startLockerSimulator({ clients: [CLIENT], clock });
  });
  afterEach(() => sim.close());

  it('serves a consent page that names the client and the documents and works without JavaScript', async () => {
    const response = await fetch(authorizeUrl(sim.docvaultBaseUrl, pkce(), { req_doctype: 'ADHAR,PANCR' }));
    const html = await response.text();
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(html).to.include('Test Fintech Pvt Ltd');
    expect(html).to.include('Aadhaar Card (ADHAR)').and.include('PAN Verification Record (PANCR)');
    expect(html).not.to.include('Driving License');
    expect(html).to.match(/<button type="submit" name="decision" value="allow"/);
    expect(html).to.match(/<button type="submit" name="decision" value="deny"/);
    expect(html).not.to.match(/<script/i);
  });

  it('refuses an authorize request without PKCE S256 or with an unregistered redirect_uri, without redirecting', async () => {
    const p = pkce();
    const noPkce = await fetch(authorizeUrl(sim.docvaultBaseUrl, p, { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(noPkce.status).to.equal(400);
    expect(await noPkce.text()).to.include('code_challenge');
    const badRedirect = await fetch(authorizeUrl(sim.docvaultBaseUrl, p, { redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    expect(badRedirect.status).to.equal(400);
    expect(badRedirect.headers.get('location')).to.equal(null);
    const unknownClient = await fetch(authorizeUrl(sim.docvaultBaseUrl, p, { client_id: 'nobody' }), { redirect: 'manual' });
    expect(unknownClient.status).to.equal(400);
  });

  it('runs the authorization code flow with PKCE and returns the user fields with the tokens', async () => {
    const p = pkce();
    const back = await consent(sim.docvaultBaseUrl, p, { user: ASHA.id, decision: 'allow', documents: ['ADHAR', 'PANCR'] }, { req_doctype: 'ADHAR,PANCR,DRVLC', consent_valid_till: String(Math.floor(clock.now() / 1000) + 7200) });
    expect(`${back.origin}${back.pathname}`).to.equal(REDIRECT);
    expect(back.searchParams.get('state')).to.equal('st-1');
    const code = back.searchParams.get('code')!;
    const wrong = await token(sim.docvaultBaseUrl, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: pkce().verifier });
    expect(wrong).to.deep.include({ status: 400 });
    expect(wrong.body['error']).to.equal('invalid_grant');
    // The failed attempt burnt the code: a correct verifier no longer helps.
    const replay = await token(sim.docvaultBaseUrl, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: p.verifier });
    expect(replay.body['error']).to.equal('invalid_grant');

    const tokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR', 'PANCR']);
    expect(tokens).to.include({ token_type: 'Bearer', expires_in: 3600, digilockerid: ASHA.id, name: 'Asha Verma', dob: '16041995', gender: 'F', eaadhaar: 'Y' });
    expect(tokens['access_token']).to.be.a('string');
    expect(tokens['refresh_token']).to.be.a('string');
  });

  it('checks the redirect_uri and the client secret at the token endpoint', async () => {
    const p = pkce();
    const back = await consent(sim.docvaultBaseUrl, p, { user: ASHA.id, decision: 'allow', documents: ['ADHAR'] });
    const otherRedirect = await token(sim.docvaultBaseUrl, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: 'https://app.example/other', code_verifier: p.verifier });
    expect(otherRedirect.body['error']).to.equal('invalid_grant');
    const badSecret = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/token`, {
      method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: CLIENT.clientId, client_secret: 'nope' }),
    });
    expect(badSecret.status).to.equal(401);
    expect(((await badSecret.json()) as { error: string }).error).to.equal('invalid_client');
  });

  it('answers a malformed Basic authorization at the token endpoint with a 401 JSON error, never a 500 page', async () => {
    for (const header of ['Basic %ff', `Basic ${Buffer.from('%E0%A4%A:secret').toString('base64')}`, `Basic ${Buffer.from('test-client:%zz').toString('base64')}`]) {
      const response = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/token`, {
        method: 'POST', headers: { authorization: header }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }),
      });
      expect(response.status, header).to.equal(401);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      const text = await response.text();
      expect(JSON.parse(text)).to.deep.equal({ error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    // Anything else the simulator cannot read is a JSON error too, without a stack trace.
    const undecodable = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/file/%E0%A4%A`);
    expect(undecodable.status).to.equal(400);
    expect(await undecodable.json()).to.deep.equal({ error: 'invalid_request', error_description: 'The request could not be read' });
  });

  it('keeps the consent page out of frames and refuses a decision posted without the page\'s CSRF token and cookie', async () => {
    const page = await fetch(authorizeUrl(sim.docvaultBaseUrl, pkce()));
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
    expect(page.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    const html = await page.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csrf).to.have.length.above(20);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(page.headers.get('set-cookie')).to.match(/HttpOnly/i).and.match(/SameSite=Strict/i);
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) => fetch(`${sim.docvaultBaseUrl}/oauth2/1/authorize`, {
      method: 'POST', body: new URLSearchParams({ request_id: requestId, user: ASHA.id, decision: 'allow', ...form }), headers, redirect: 'manual',
    });
    // A cross-site form post knows the request id at best: no token, no cookie.
    const forged = await post({});
    expect(forged.status).to.equal(403);
    expect(forged.headers.get('location')).to.equal(null);
    // The decision was refused, not taken: the real page can still answer.
    expect((await post({ csrf_token: csrf })).status).to.equal(403);
    expect((await post({ csrf_token: 'x'.repeat(csrf.length) }, { cookie })).status).to.equal(403);
    const allowed = await post({ csrf_token: csrf }, { cookie });
    expect(allowed.status).to.equal(302);
    expect(new URL(allowed.headers.get('location')!).searchParams.get('code')).to.be.a('string');
  });

  it('redirects a denial with error=access_denied and the state', async () => {
    const back = await consent(sim.docvaultBaseUrl, pkce(), { user: ASHA.id, decision: 'deny' });
    expect(back.searchParams.get('error')).to.equal('access_denied');
    expect(back.searchParams.get('state')).to.equal('st-1');
    expect(back.searchParams.get('code')).to.equal(null);
  });

  it('serves the user, the consented issued files and their documents', async () => {
    const tokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR', 'DRVLC'], { req_doctype: 'ADHAR,PANCR,DRVLC' });
    const at = tokens['access_token'] as string;
    const user = await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, at);
    // As the partner API specifies its user answer (fixtures/digilocker): no mobile or email (the token answer carries the mobile).
    const accountDetails = validatorFor(loadFixture<{ schemas: Record<string, unknown> }>('digilocker/authpartner.json').schemas['AccountDetails']);
    expect(accountDetails(user.body), errorsOf(accountDetails)).to.equal(true);
    expect(user.body).to.deep.equal({ digilockerid: ASHA.id, name: 'Asha Verma', dob: '16041995', gender: 'F', eaadhaar: 'Y' });
    expect(tokens).to.include({ mobile: ASHA.mobile });
    const files = await getJson(`${sim.docvaultBaseUrl}/oauth2/2/files/issued`, at);
    const items = files.body['items'] as Array<Record<string, unknown>>;
    expect(items.map((i) => i['doctype'])).to.deep.equal(['ADHAR', 'DRVLC']);
    const dl = items[1]!;
    expect(dl).to.include({ issuerid: 'in.gov.transport', description: 'Driving License', date: '03-02-2025' });
    const xml = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/xml/${dl['uri'] as string}`, { headers: { authorization: `Bearer ${at}` } });
    expect(xml.headers.get('content-type'), 'as the lockers send XML in practice').to.match(/^text\/plain/);
    const body = await xml.text();
    expect(body).to.include('type="DRVLC"').and.include(ASHA.drivingLicence!);
    expect(Buffer.byteLength(body)).to.equal(Number(dl['size']));
    const aadhaar = await fetch(`${sim.docvaultBaseUrl}/oauth2/3/xml/eaadhaar`, { headers: { authorization: `Bearer ${at}` } });
    expect(await aadhaar.text()).to.include('uid="xxxxxxxx2346"').and.include('dob="16-04-1995"');
    // A document the user did not share is not reachable, even by its URI.
    const pan = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/xml/in.gov.pan-PANCR-${ASHA.pan!}`, { headers: { authorization: `Bearer ${at}` } });
    expect(pan.status).to.equal(404);
  });

  it('answers the e-Aadhaar endpoint with aadhaar_not_linked when Aadhaar was not shared', async () => {
    const tokens = await signIn(sim.docvaultBaseUrl, ROHAN.id, ['PANCR']);
    const aadhaar = await getJson(`${sim.docvaultBaseUrl}/oauth2/3/xml/eaadhaar`, tokens['access_token'] as string);
    expect(aadhaar).to.deep.equal({ status: 404, body: { error: 'aadhaar_not_linked', error_description: 'Aadhaar is not linked to the account' } });
    const user = await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, tokens['access_token'] as string);
    expect(user.body).not.to.have.property('email');
  });

  it('serves the entity locker: entity details, the signed-in person and the company documents as PDFs', async () => {
    const tokens = await signIn(sim.entityvaultBaseUrl, COMPANY.user.id, ['CPMTD', 'GSTND', 'UDCER']);
    const at = tokens['access_token'] as string;
    expect(tokens['entitylockerid']).to.equal(COMPANY.id);
    const entity = await getJson(`${sim.entityvaultBaseUrl}/oauth2/1/entity`, at);
    expect(entity.body).to.include({ entitylockerid: COMPANY.id, name: COMPANY.name, doi: '16-01-2021', verified_by: 'CIN' });
    const user = await getJson(`${sim.entityvaultBaseUrl}/oauth2/1/user`, at);
    expect(user.body).to.include({ digilockerid: COMPANY.user.id, name: 'Meera Nair' });
    const files = await getJson(`${sim.entityvaultBaseUrl}/oauth2/2/entity/files/issued`, at);
    const items = files.body['items'] as Array<Record<string, string>>;
    expect(items.map((i) => i['doctype'])).to.deep.equal(['CPMTD', 'GSTND', 'UDCER']);
    for (const item of items) {
      const pdf = await fetch(`${sim.entityvaultBaseUrl}/oauth2/1/entity/file/${item['uri']!}`, { headers: { authorization: `Bearer ${at}` } });
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(pdf.headers.get('content-type'), 'as the lockers send files in practice').to.equal('application/octet-stream');
      expect(bytes.subarray(0, 8).toString('latin1')).to.equal('%PDF-1.4');
      expect(bytes.subarray(-6).toString('latin1')).to.equal('%%EOF\n');
      // The cross-reference offset must point at the xref table for the PDF to open.
      const startxref = Number(/startxref\n(\d+)\n/.exec(bytes.toString('latin1'))?.[1]);
      expect(bytes.subarray(startxref, startxref + 4).toString('latin1')).to.equal('xref');
    }
    // A docvault token is no good at the entity locker and the other way round.
    const docvaultTokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR']);
    expect((await getJson(`${sim.entityvaultBaseUrl}/oauth2/1/entity`, docvaultTokens['access_token'] as string)).status).to.equal(401);
  });

  it('refreshes access tokens, and revocation by the user ends both tokens', async () => {
    const tokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR']);
    sim.expireAccessTokens();
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, tokens['access_token'] as string)).status).to.equal(401);
    const refreshed = await token(sim.docvaultBaseUrl, { grant_type: 'refresh_token', refresh_token: tokens['refresh_token'] as string });
    expect(refreshed.status).to.equal(200);
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, refreshed.body['access_token'] as string)).status).to.equal(200);

    expect(sim.revokeUser(ASHA.id)).to.equal(1);
    const afterRevoke = await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, refreshed.body['access_token'] as string);
    expect(afterRevoke).to.deep.include({ status: 401 });
    expect(afterRevoke.body['error']).to.equal('invalid_token');
    const refreshAgain = await token(sim.docvaultBaseUrl, { grant_type: 'refresh_token', refresh_token: tokens['refresh_token'] as string });
    expect(refreshAgain.body['error']).to.equal('invalid_grant');
  });

  it('revokes a refresh token through the revocation endpoint', async () => {
    const tokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR']);
    const revoked = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/revoke`, {
      method: 'POST', body: new URLSearchParams({ token: tokens['refresh_token'] as string, token_type_hint: 'refresh_token', client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret }),
    });
    expect(revoked.status).to.equal(200);
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, tokens['access_token'] as string)).status).to.equal(401);
  });

  it('stops honouring tokens once consent_valid_till has passed', async () => {
    const validTill = Math.floor(clock.now() / 1000) + 7200;
    const tokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR'], { consent_valid_till: String(validTill) });
    expect(tokens['consent_valid_till']).to.equal(validTill);
    clock.advance(7201_000);
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, tokens['access_token'] as string)).status).to.equal(401);
    expect((await token(sim.docvaultBaseUrl, { grant_type: 'refresh_token', refresh_token: tokens['refresh_token'] as string })).body['error']).to.equal('invalid_grant');
  });

  it('has switches for rate limiting (429), outage (503) and server errors (500)', async () => {
    const tokens = await signIn(sim.docvaultBaseUrl, ASHA.id, ['ADHAR']);
    const at = tokens['access_token'] as string;
    sim.setRateLimited(true);
    const limited = await fetch(`${sim.docvaultBaseUrl}/oauth2/1/user`, { headers: { authorization: `Bearer ${at}` } });
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('retry-after')).to.equal('30');
    expect((await token(sim.docvaultBaseUrl, { grant_type: 'refresh_token', refresh_token: tokens['refresh_token'] as string })).status).to.equal(429);
    sim.setRateLimited(false);
    sim.setDown(true);
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, at)).status).to.equal(503);
    expect((await fetch(authorizeUrl(sim.docvaultBaseUrl, pkce()))).status).to.equal(503);
    sim.resetSwitches();
    sim.setFailing(true);
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, at)).status).to.equal(500);
    sim.resetSwitches();
    expect((await getJson(`${sim.docvaultBaseUrl}/oauth2/1/user`, at)).status).to.equal(200);
    // Refused requests are not counted as served.
    expect(sim.requestCounts()['user']).to.equal(1);
  });
});
