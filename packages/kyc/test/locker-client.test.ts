import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { LockerError, OpenIdLockerClient, requiresInsecureTransport, type LockerKind } from '@satyapan/kyc';
import { OptionError } from '@satyapan/core';
import { LOCKER_ENTITIES, LOCKER_INDIVIDUALS, answerConsentPage, startLockerSimulator, type LockerSimulator } from '@satyapan/sandbox';

const CALLBACK = 'http://127.0.0.1:1/kyc/callback';
const CLIENT = { clientId: 'kyc-client', clientSecret: 'kyc-secret', name: 'KYC client test', redirectUris: [CALLBACK] };
const ASHA = LOCKER_INDIVIDUALS[0]!;
const COMPANY = LOCKER_ENTITIES[0]!;

/** Submits the simulator's consent form for the authorization URL and returns the callback query. */
async function approve(url: URL, user: string, documents: string[], decision: 'allow' | 'deny' = 'allow'): Promise<URLSearchParams> {
  const answer = await answerConsentPage(url.toString(), { user, documents, decision });
  const location = new URL(answer.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).to.equal(CALLBACK);
  return location.searchParams;
}

async function failureOf(promise: Promise<unknown>): Promise<LockerError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(LockerError);
    return error as LockerError;
  }
  throw new Error('expected a LockerError');
}

describe('kyc: locker client (openid-client) against the locker simulator', () => {
  let sim: LockerSimulator;
  const clientFor = (kind: LockerKind) => new OpenIdLockerClient({
    kind, baseUrl: kind === 'docvault' ? sim.docvaultBaseUrl : sim.entityvaultBaseUrl,
    clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret, callbackUrl: CALLBACK,
  });

  async function signIn(kind: LockerKind, user: string, documents: string[], docTypes?: string[]) {
    const client = clientFor(kind);
    const verifier = randomPKCECodeVerifier();
    const url = client.authorizationUrl({
      redirectUri: CALLBACK, state: 'state-1', codeChallenge: await calculatePKCECodeChallenge(verifier), consentValidTill: Math.floor(Date.now() / 1000) + 7200,
      signup: false, ...(docTypes ? { docTypes } : {}),
    });
    const query = await approve(url, user, documents);
    return { client, tokens: await client.exchangeCode(query, 'state-1', verifier, CALLBACK) };
  }

  before(async () => {
    sim = await startLockerSimulator({ clients: [CLIENT] });
  });
  afterEach(() => sim.resetSwitches());
  after(() => sim.close());

  it('builds the authorize URL with PKCE S256 and the locker parameters', async () => {
    const url = clientFor('docvault').authorizationUrl({
      redirectUri: CALLBACK, state: 's', codeChallenge: 'c'.repeat(43), docTypes: ['ADHAR', 'PANCR'], consentValidTill: 1_900_000_000, signup: true,
      pinless: true, usernameless: true, verificationMethods: ['aadhaar', 'mobile'], verifiedMobile: '9876543210',
    });
    expect(url.origin + url.pathname).to.equal(`${sim.docvaultBaseUrl}/oauth2/1/authorize`);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      response_type: 'code', client_id: 'kyc-client', redirect_uri: CALLBACK, state: 's', code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256', consent_valid_till: '1900000000', req_doctype: 'ADHAR,PANCR', dl_flow: 'signup',
      pla: 'Y', plsignup: 'Y', amr: 'aadhaar+mobile', verified_mobile: '9876543210',
    });
  });

  it('exchanges the code, reads the person and the issued files, and downloads them', async () => {
    const { client, tokens } = await signIn('docvault', ASHA.id, ['ADHAR', 'PANCR'], ['ADHAR', 'PANCR', 'DRVLC']);
    expect(tokens.refreshToken).to.be.a('string');
    expect(tokens.expiresInSeconds).to.equal(3600);
    // The user answer has no mobile or email; the mobile comes with the token answer.
    expect(await client.person(tokens.accessToken)).to.deep.equal({
      id: ASHA.id, name: 'Asha Verma', dob: '16041995', gender: 'F', eaadhaar: true, mobile: '', email: null,
    });
    expect(tokens.mobile).to.equal(ASHA.mobile);
    const files = await client.issuedFiles(tokens.accessToken);
    expect(files.map((f) => f.doctype)).to.deep.equal(['ADHAR', 'PANCR']);
    const aadhaar = await client.download(tokens.accessToken, files[0]!);
    expect(aadhaar.contentType).to.equal('application/xml');
    expect(aadhaar.body.toString()).to.include('<KycRes');
    const pan = await client.download(tokens.accessToken, files[1]!);
    expect(pan.body.toString()).to.include(`num="${ASHA.pan!}"`);
  });

  it('reads entity details, the person and PDF documents from the entity locker', async () => {
    const { client, tokens } = await signIn('entityvault', COMPANY.user.id, ['CPMTD', 'UDCER']);
    expect(await client.business(tokens.accessToken)).to.deep.equal({
      id: COMPANY.id, name: COMPANY.name, incorporatedOn: '16012021', email: COMPANY.email, mobile: COMPANY.mobile, verifiedBy: 'cin',
    });
    expect((await client.person(tokens.accessToken)).name).to.equal('Meera Nair');
    const files = await client.issuedFiles(tokens.accessToken);
    expect(files.map((f) => f.doctype)).to.deep.equal(['CPMTD', 'UDCER']);
    const pdf = await client.download(tokens.accessToken, files[0]!);
    expect(pdf.contentType).to.equal('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).to.equal('%PDF-');
  });

  it('refuses a callback whose state is not the expected one, and a denial, before calling the token endpoint', async () => {
    const client = clientFor('docvault');
    const verifier = randomPKCECodeVerifier();
    const url = client.authorizationUrl({ redirectUri: CALLBACK, state: 'state-2', codeChallenge: await calculatePKCECodeChallenge(verifier), consentValidTill: Math.floor(Date.now() / 1000) + 7200, signup: false });
    const query = await approve(url, ASHA.id, ['ADHAR']);
    const tokenCalls = sim.requestCounts()['token'] ?? 0;
    expect((await failureOf(client.exchangeCode(query, 'another-state', verifier, CALLBACK))).failure).to.equal('failed');
    expect(sim.requestCounts()['token'] ?? 0).to.equal(tokenCalls);
    const denied = await approve(url, ASHA.id, [], 'deny');
    expect((await failureOf(client.exchangeCode(denied, 'state-2', verifier, CALLBACK))).failure).to.equal('denied');
  });

  it('refreshes, revokes, and reports dead tokens as token_invalid', async () => {
    const { client, tokens } = await signIn('docvault', ASHA.id, ['ADHAR']);
    sim.expireAccessTokens();
    expect((await failureOf(client.person(tokens.accessToken))).failure).to.equal('token_invalid');
    const fresh = await client.refresh(tokens.refreshToken!);
    expect((await client.person(fresh.accessToken)).id).to.equal(ASHA.id);
    await client.revoke(tokens.refreshToken!, 'refresh_token');
    expect((await failureOf(client.person(fresh.accessToken))).failure).to.equal('token_invalid');
    expect((await failureOf(client.refresh(tokens.refreshToken!))).failure).to.equal('token_invalid');
  });

  it('maps 429, 503, 500 and an unreachable locker to distinct failures', async () => {
    const { client, tokens } = await signIn('docvault', ASHA.id, ['ADHAR']);
    sim.setRateLimited(true);
    const limited = await failureOf(client.person(tokens.accessToken));
    expect(limited.failure).to.equal('rate_limited');
    // The locker's Retry-After travels with the failure (the router passes it on to the caller).
    expect(limited.retryAfter).to.match(/^\d+$/);
    expect((await failureOf(client.refresh(tokens.refreshToken!))).failure).to.equal('rate_limited');
    sim.resetSwitches();
    sim.setDown(true);
    const down = await failureOf(client.issuedFiles(tokens.accessToken));
    expect(down.failure).to.equal('unavailable');
    expect(down.status).to.equal(503);
    sim.resetSwitches();
    sim.setFailing(true);
    expect((await failureOf(client.person(tokens.accessToken))).failure).to.equal('failed');
    const nowhere = new OpenIdLockerClient({ kind: 'docvault', baseUrl: 'http://127.0.0.1:9/public', clientId: 'x', clientSecret: 'y', callbackUrl: CALLBACK });
    expect((await failureOf(nowhere.person('token'))).failure).to.equal('unavailable');
  });

  it('gives up on a locker that does not answer within the timeout, as unavailable', async () => {
    const silent = createServer(() => undefined); // accepts the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const client = new OpenIdLockerClient({ kind: 'docvault', baseUrl: `http://127.0.0.1:${port}/public`, clientId: 'x', clientSecret: 'y', callbackUrl: CALLBACK, timeoutSeconds: 1 });
    try {
      const started = Date.now();
      expect((await failureOf(client.person('token'))).failure).to.equal('unavailable');
      expect((await failureOf(client.refresh('refresh'))).failure).to.equal('unavailable');
      expect(Date.now() - started).to.be.below(4_000);
    } finally {
      client.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  describe('account check (partner API Verify Account)', () => {
    it('finds a locker account by Aadhaar number, by mobile, or by both, and says when there is none', async () => {
      const client = clientFor('docvault');
      try {
        expect(await client.accountExists({ aadhaarNumber: ASHA.aadhaarNumber })).to.equal(true);
        expect(await client.accountExists({ mobile: ASHA.mobile })).to.equal(true);
        expect(await client.accountExists({ aadhaarNumber: ASHA.aadhaarNumber, mobile: ASHA.mobile })).to.equal(true);
        expect(await client.accountExists({ aadhaarNumber: ASHA.aadhaarNumber, mobile: LOCKER_INDIVIDUALS[1]!.mobile })).to.equal(false);
        expect(await client.accountExists({ mobile: '9000000001' })).to.equal(false);
        expect(await client.accountExists({ aadhaarNumber: '234123412346' })).to.equal(false);
        expect(sim.requestCounts()['account']).to.be.at.least(6);
      } finally {
        client.close();
      }
    });

    it('reports the locker\'s faults as failures the service can map, and has no account check on the entity locker', async () => {
      const client = clientFor('docvault');
      try {
        sim.setDown(true);
        expect((await failureOf(client.accountExists({ mobile: ASHA.mobile }))).failure).to.equal('unavailable');
        sim.setDown(false);
        sim.setRateLimited(true);
        expect((await failureOf(client.accountExists({ mobile: ASHA.mobile }))).failure).to.equal('rate_limited');
        sim.setRateLimited(false);
        const stranger = new OpenIdLockerClient({ kind: 'docvault', baseUrl: sim.docvaultBaseUrl, clientId: 'nobody', clientSecret: 'x', callbackUrl: CALLBACK });
        const refused = await failureOf(stranger.accountExists({ mobile: ASHA.mobile }));
        expect(refused.status).to.equal(401);
        expect(refused.message).to.not.contain(ASHA.mobile);
        stranger.close();
        expect((await failureOf(clientFor('entityvault').accountExists({ mobile: ASHA.mobile }))).failure).to.equal('failed');
      } finally {
        client.close();
      }
    });
  });

  it('allows plain http only on loopback', () => {
    expect(requiresInsecureTransport('https://locker.example.gov.in/public')).to.equal(false);
    expect(requiresInsecureTransport('http://127.0.0.1:8080/public')).to.equal(true);
    expect(requiresInsecureTransport('http://localhost:8080/public')).to.equal(true);
    expect(requiresInsecureTransport('http://[::1]:8080/public')).to.equal(true);
    expect(() => new OpenIdLockerClient({ kind: 'docvault', baseUrl: 'http://locker.example.gov.in/public', clientId: 'x', clientSecret: 'y', callbackUrl: CALLBACK }))
      .to.throw(OptionError, /loopback/);
  });
});
