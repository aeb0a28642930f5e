import { expect } from 'chai';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { KeySpace, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { CashfreePanProvider, IncomeTaxLinkStatusProvider, PanAadhaarLinkService, PanVerificationService, kycArea } from '@satyapan/kyc';
import {
  PAN_TEST_VALUES as PANS, startPanAadhaarLinkSimulator, startPanSimulator, type PanSimulator, type SimulatorControls,
} from '@satyapan/sandbox';
import { CLIENTS, startHarness, type Harness } from '../../router/test/support/harness.js';

const BANK_ONLY = CLIENTS.bankOnly;

describe('router: PAN routes (POST /kyc/pan/verify, POST /kyc/pan-aadhaar/status)', () => {
  let panSim: PanSimulator;
  let linkSim: SimulatorControls;
  let h: Harness;
  let redis: RedisConnection;
  let token: string;
  let pan: PanVerificationService;
  let link: PanAadhaarLinkService;

  before(async () => {
    [panSim, linkSim] = await Promise.all([startPanSimulator(), startPanAadhaarLinkSimulator()]);
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'pan-route-test' });
    await waitForRedis(redis);
    const keyPrefix = `test:${randomUUID()}`;
    const keys = new KeySpace(keyPrefix).child('kyc');
    pan = new PanVerificationService({
      provider: new CashfreePanProvider({ baseUrl: `${panSim.url}/verification`, clientId: panSim.clientId, clientSecret: panSim.clientSecret, timeoutMs: 2_000 }),
      redis, keys, keySecret: 'test-cache-key-secret',
    });
    link = new PanAadhaarLinkService({ provider: new IncomeTaxLinkStatusProvider({ baseUrl: linkSim.url, timeoutMs: 2_000 }), redis, keys, keySecret: 'test-cache-key-secret' });
    h = await startHarness({ keyPrefix, areas: [kycArea({ pan, panAadhaarLink: link })] });
    token = await h.token(CLIENTS.all);
  });
  after(async () => {
    pan.close();
    link.close();
    await h.close();
    redis.disconnect();
    await Promise.all([panSim.close(), linkSim.close()]);
  });

  const post = (path: string, body: object, client = CLIENTS.all, bearer?: string) =>
    request(h.app).post(`/api${path}`).set('authorization', bearer ?? token).set('x-api-key', client.apiKey).send(body);
  const verifyBody = (over: object = {}) => ({
    '@entity': 'in.co.service.kyc.pan_verification.request', pan: PANS.individual, name_as_per_pan: 'Anjali Rao', date_of_birth: '15/08/1990',
    consent: 'Y', reason: 'For onboarding customers', ...over,
  });
  const linkBody = (over: object = {}) => ({
    '@entity': 'in.co.service.kyc.pan_aadhaar.status', pan: PANS.individual, aadhaar_number: '234567890123', consent: 'y', reason: 'For Testing', ...over,
  });

  function expectError(res: request.Response, status: number, message: string): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.body).to.have.keys('code', 'timestamp', 'transaction_id', 'message');
    expect(res.body.message).to.equal(message);
  }

  it('verifies a PAN in the vendor\'s envelope and shape', async () => {
    const res = await post('/kyc/pan/verify', verifyBody());
    expect(res.status).to.equal(200);
    expect(res.body).to.have.keys('code', 'timestamp', 'transaction_id', 'data');
    expect(res.body.data).to.deep.equal({
      '@entity': 'in.co.service.kyc.pan_verification.response', pan: PANS.individual, category: 'individual', status: 'valid', remarks: null,
      name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'y',
    });
  });

  it('takes a verification body without @entity, as the vendor\'s examples send it, and answers on the merits', async () => {
    const { '@entity': _entity, ...bare } = verifyBody();
    const verified = await post('/kyc/pan/verify', bare);
    expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
    expect(verified.body.data).to.include({ '@entity': 'in.co.service.kyc.pan_verification.response', status: 'valid', name_as_per_pan_match: true });
    // The vendor's three examples without one: 422 Invalid PAN Pattern, 422 Consent Required, 503 Source Unavailable.
    expectError(await post('/kyc/pan/verify', { ...bare, pan: 'XXXPX123EE' }), 422, 'Invalid Pan pattern');
    expectError(await post('/kyc/pan/verify', { ...bare, consent: 'N' }), 422, 'Invalid parameter: Consent is required.');
    expectError(await post('/kyc/pan/verify', { ...bare, pan: PANS.sourceUnavailable }), 503, 'Source Unavailable');
    // The link status, whose examples all carry it, still requires it.
    const { '@entity': _linkEntity, ...bareLink } = linkBody();
    expectError(await post('/kyc/pan-aadhaar/status', bareLink), 400, 'Invalid request body: @entity is required');
  });

  it('answers the link status in the vendor\'s shape', async () => {
    const res = await post('/kyc/pan-aadhaar/status', linkBody());
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({
      '@entity': 'in.co.service.kyc.pan_aadhaar.status.response', aadhaar_seeding_status: 'y', message: 'Your PAN is linked to Aadhaar Number  XXXX XXXX 0123.',
    });
    expect((await post('/kyc/pan-aadhaar/status', linkBody({ pan: PANS.individualNotSeeded }))).body.data.message).to.equal('PAN not linked with Aadhaar');
  });

  it('honours x-accept-cache, and refuses a value other than true or false naming the header', async () => {
    const before = panSim.requests();
    await post('/kyc/pan/verify', verifyBody({ pan: PANS.individualNotSeeded, name_as_per_pan: 'Rahul Verma', date_of_birth: '01/02/1985' }));
    const cached = await post('/kyc/pan/verify', verifyBody({ pan: PANS.individualNotSeeded, name_as_per_pan: 'Rahul Verma', date_of_birth: '01/02/1985' })).set('x-accept-cache', 'true');
    expect(cached.status).to.equal(200);
    expect(cached.body.data).to.include({ aadhaar_seeding_status: 'n', name_as_per_pan_match: true });
    expect(panSim.requests() - before).to.equal(1);
    expectError(await post('/kyc/pan/verify', verifyBody()).set('x-accept-cache', 'maybe'), 400, 'Invalid parameter: x-accept-cache must be true or false');
    const linkBefore = linkSim.requests();
    await post('/kyc/pan-aadhaar/status', linkBody()).set('x-accept-cache', 'TRUE');
    expect(linkSim.requests() - linkBefore).to.equal(0);
  });

  it('answers an upstream failure with the 503 envelope', async () => {
    expectError(await post('/kyc/pan/verify', verifyBody({ pan: PANS.sourceUnavailable })), 503, 'Source Unavailable');
    linkSim.setDown(true);
    try {
      expectError(await post('/kyc/pan-aadhaar/status', linkBody({ pan: PANS.individualNotSeeded, aadhaar_number: '456789012345' })), 503, 'Source Unavailable');
    } finally {
      linkSim.setDown(false);
    }
  });

  it('answers bad input with 400 or 422 naming the field or with the vendor\'s message, never calling the upstream', async () => {
    const before = panSim.requests() + linkSim.requests();
    const { pan: _pan, ...withoutPan } = verifyBody();
    expectError(await post('/kyc/pan/verify', withoutPan), 400, 'Invalid request body: pan is required');
    expectError(await post('/kyc/pan/verify', verifyBody({ '@entity': 'nope' })), 400, 'Invalid request body: @entity must be "in.co.service.kyc.pan_verification.request"');
    expectError(await post('/kyc/pan/verify', verifyBody({ name_as_per_pan: 7 })), 400, 'Invalid request body: name_as_per_pan must be string');
    expectError(await post('/kyc/pan/verify', verifyBody({ pan: 'XXXPX123EE' })), 422, 'Invalid Pan pattern');
    expectError(await post('/kyc/pan/verify', verifyBody({ date_of_birth: '1990-08-15' })), 422, 'Invalid date_of_birth: must be a date as DD/MM/YYYY');
    expectError(await post('/kyc/pan/verify', verifyBody({ date_of_birth: '30/02/1990' })), 422, 'Invalid date_of_birth: must be a date as DD/MM/YYYY');
    expectError(await post('/kyc/pan/verify', verifyBody({ name_as_per_pan: '' })), 422, 'Invalid name_as_per_pan: must be 1 to 200 characters');
    expectError(await post('/kyc/pan/verify', verifyBody({ consent: 'N' })), 422, 'Invalid parameter: Consent is required.');
    expectError(await post('/kyc/pan/verify', verifyBody({ reason: ' ' })), 422, 'Reason cannot be empty');
    expectError(await post('/kyc/pan/verify', verifyBody({ reason: 'x'.repeat(300) })), 422, 'Invalid reason: must be at most 256 characters');
    expectError(await post('/kyc/pan-aadhaar/status', linkBody({ pan: 'XXPP45X' })), 422, 'Invalid PAN pattern');
    expectError(await post('/kyc/pan-aadhaar/status', linkBody({ pan: 'XXPCX2345X' })), 422, 'Individuals PAN is required');
    expectError(await post('/kyc/pan-aadhaar/status', linkBody({ aadhaar_number: '12345' })), 422, 'Invalid Aadhaar number pattern');
    expectError(await post('/kyc/pan-aadhaar/status', linkBody({ consent: 'n', reason: '' })), 422, 'Reason cannot be empty');
    expectError(await post('/kyc/pan-aadhaar/status', linkBody({ consent: 'n' })), 422, 'invalid parameter: Consent is required.');
    expect(panSim.requests() + linkSim.requests()).to.equal(before);
  });

  it('needs a token and the kyc product', async () => {
    expectError(await request(h.app).post('/api/kyc/pan/verify').set('x-api-key', CLIENTS.all.apiKey).send(verifyBody()), 403, 'Invalid access token');
    const bankToken = await h.token(BANK_ONLY);
    expectError(await post('/kyc/pan/verify', verifyBody(), BANK_ONLY, bankToken), 403, 'Insufficient privilege');
  });

  it('lists both operations in /openapi.json, with their bodies and answers', async () => {
    const res = await request(h.app).get('/api/openapi.json');
    expect(res.status).to.equal(200);
    const verify = res.body.paths['/kyc/pan/verify']?.post;
    const status = res.body.paths['/kyc/pan-aadhaar/status']?.post;
    expect(verify?.operationId).to.equal('verifyPan');
    expect(status?.operationId).to.equal('getPanAadhaarLinkStatus');
    expect(JSON.stringify(verify.requestBody)).to.contain('name_as_per_pan').and.contain('date_of_birth');
    expect(JSON.stringify(verify.responses['200'])).to.contain('name_as_per_pan_match');
    expect(Object.keys(verify.responses)).to.include.members(['200', '400', '422', '503']);
    expect(JSON.stringify(status.parameters ?? [])).to.contain('x-accept-cache');
  });
});
