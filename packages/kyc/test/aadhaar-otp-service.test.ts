import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { KeySpace, createLogger, createRedisConnection, waitForRedis, type ServiceError } from '@satyapan/core';
import { AadhaarOtpService, HttpOtpProvider, OTP_THROTTLED_MESSAGE, type RedisClient } from '@satyapan/kyc';
import { AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, startAadhaarOtpSimulator, type AadhaarOtpSimulator } from '@satyapan/sandbox';
import { deleteKeys, rejection } from './support/harness.js';
import { keysMatching } from '../../../test/support/redis-cluster.js';

const OWNER = 'key_test_owner';
const REQUEST = { consent: 'y', reason: 'KYC of a new customer' };

describe('kyc: AadhaarOtpService against the OTP provider simulator and Redis', () => {
  let sim: AadhaarOtpSimulator;
  let redis: RedisClient;
  let keys: KeySpace;
  let logs: string;
  let service: AadhaarOtpService;

  before(async () => {
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'kyc-otp-test' });
    await waitForRedis(redis);
  });
  after(() => redis.disconnect());

  beforeEach(async () => {
    sim = await startAadhaarOtpSimulator();
    keys = new KeySpace(`test-otp-${process.pid}-${randomBytes(4).toString('hex')}`);
    logs = '';
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    service = new AadhaarOtpService({
      redis, keys, numberHashSecret: randomBytes(32), logger: createLogger({ stream, level: 'debug' }),
      provider: new HttpOtpProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret }),
    });
  });
  afterEach(async () => {
    await deleteKeys(redis, keys);
    await sim.close();
  });

  const send = (aadhaar: string, extra: Record<string, string> = {}) => service.sendOtp(OWNER, { aadhaar_number: aadhaar, ...REQUEST, ...extra });

  it('refuses numbers failing Verhoeff or starting with 0 or 1, and requests without consent, with 422', async () => {
    for (const bad of ['123456789012', '499931110009', '099931110008', '49993111000']) {
      expect(await rejection(send(bad))).to.deep.equal({ status: 422, code: 'UNPROCESSABLE', message: 'Invalid Aadhaar number pattern' });
    }
    expect(await rejection(send(AADHAAR_TEST_NUMBERS.otpSent, { consent: 'n' }))).to.deep.equal({ status: 422, code: 'UNPROCESSABLE', message: 'Consent is required' });
    expect(sim.otpRequests()).to.equal(0);
  });

  it('sends an OTP, throttles the same number for 45 s, and keeps the number out of Redis keys and logs', async () => {
    const sent = await send(AADHAAR_TEST_NUMBERS.otpSent, { consent: 'Y' });
    expect(sent.kind).to.equal('data');
    if (sent.kind !== 'data') return;
    expect(sent.data).to.deep.include({ '@entity': 'in.co.service.kyc.aadhaar.okyc.otp.response', message: 'OTP sent successfully' });
    expect(sent.data.reference_id).to.be.a('number');
    expect(await send(AADHAAR_TEST_NUMBERS.otpSent)).to.deep.equal({ kind: 'throttled', message: 'OTP generated for this aadhaar, please try after 45 sec' });
    expect(sim.otpRequests()).to.equal(1);
    const throttleKeys = await keysMatching(redis, `${keys.prefix}:otp-throttle:*`);
    expect(throttleKeys).to.have.length(1);
    const ttl = await redis.pttl(throttleKeys[0]!);
    expect(ttl).to.be.within(40_000, 45_000);
    const everything = (await keysMatching(redis, `${keys.prefix}:*`)).join(' ');
    expect(everything).not.to.include(AADHAAR_TEST_NUMBERS.otpSent);
    for (const key of await keysMatching(redis, `${keys.prefix}:*`)) expect(await redis.get(key)).not.to.include(AADHAAR_TEST_NUMBERS.otpSent);
    expect(logs).to.include('aadhaar otp requested');
    expect(logs).not.to.include(AADHAAR_TEST_NUMBERS.otpSent);
    // Another number is not held back.
    expect((await send(AADHAAR_TEST_NUMBERS.otpSentSecond)).kind).to.equal('data');
  });

  it('never logs the reason, free text that names people: only its length', async () => {
    const reason = 'Onboarding Priya Raman <priya.raman@example.com> for account 12';
    expect((await send(AADHAAR_TEST_NUMBERS.otpSent, { reason })).kind).to.equal('data');
    const line = logs.split('\n').filter(Boolean).map((text) => JSON.parse(text) as Record<string, unknown>).find((entry) => entry['message'] === 'aadhaar otp requested');
    expect(line).to.include({ outcome: 'sent', reason_length: reason.length });
    for (const part of ['Priya', 'Raman', 'priya.raman@example.com', 'Onboarding']) expect(logs).not.to.include(part);
  });

  it('does not reveal another client\'s OTP for the same number: within its 45 s the other client gets what a provider outage gives', async () => {
    expect((await send(AADHAAR_TEST_NUMBERS.otpSent)).kind).to.equal('data');
    const other = service.sendOtp('key_test_other', { aadhaar_number: AADHAAR_TEST_NUMBERS.otpSent, ...REQUEST });
    const refused = await other.catch((error: unknown) => error as ServiceError);
    sim.setDown(true);
    const outage = await send(AADHAAR_TEST_NUMBERS.otpSentSecond).catch((error: unknown) => error as ServiceError);
    sim.setDown(false);
    const seen = (error: ServiceError) => ({ status: error.status, code: error.code, message: error.message, headers: error.headers });
    expect(seen(refused as ServiceError)).to.deep.equal(seen(outage as ServiceError));
    expect(seen(refused as ServiceError)).to.include({ status: 503, message: 'Source Unavailable' });
    expect(sim.otpRequests()).to.equal(1); // the other client's attempt never reached the provider
    // The first client's own repeat still gets the provider's message, and its window is unchanged.
    expect(await send(AADHAAR_TEST_NUMBERS.otpSent)).to.deep.equal({ kind: 'throttled', message: OTP_THROTTLED_MESSAGE });
  });

  it('answers the provider business outcomes as data messages, without holding the number back', async () => {
    const invalid = await send(AADHAAR_TEST_NUMBERS.invalidAadhaar);
    expect(invalid).to.deep.include({ kind: 'data' });
    expect(invalid.kind === 'data' && invalid.data.message).to.equal('Invalid Aadhaar Card');
    const notLinked = await send(AADHAAR_TEST_NUMBERS.notLinkedToMobile);
    expect(notLinked.kind === 'data' && notLinked.data.message).to.equal('Aadhaar not linked to mobile number');
    expect((await send(AADHAAR_TEST_NUMBERS.invalidAadhaar)).kind).to.equal('data');
  });

  it('turns provider failures and outages into 503 Source Unavailable and lets the number retry', async () => {
    expect(await rejection(send(AADHAAR_TEST_NUMBERS.providerError))).to.deep.equal({ status: 503, code: 'SOURCE_UNAVAILABLE', message: 'Source Unavailable' });
    sim.setDown(true);
    expect(await rejection(send(AADHAAR_TEST_NUMBERS.otpSent))).to.include({ status: 503, message: 'Source Unavailable' });
    sim.setDown(false);
    expect((await send(AADHAAR_TEST_NUMBERS.otpSent)).kind).to.equal('data');
  });

  it('verifies an OTP into the e-KYC record; wrong OTP, foreign and unknown references are messages', async () => {
    const sent = await send(AADHAAR_TEST_NUMBERS.otpSent);
    const referenceId = sent.kind === 'data' ? sent.data.reference_id! : 0;
    expect(await service.verifyOtp(OWNER, { reference_id: String(referenceId), otp: '000000' }))
      .to.deep.equal({ '@entity': 'in.co.service.kyc.aadhaar.okyc', message: 'Invalid OTP' });
    expect(await service.verifyOtp('key_test_other', { reference_id: referenceId, otp: AADHAAR_TEST_OTP }))
      .to.deep.equal({ '@entity': 'in.co.service.kyc.aadhaar.okyc', message: 'Invalid Reference Id' });
    const record = await service.verifyOtp(OWNER, { reference_id: referenceId, otp: AADHAAR_TEST_OTP });
    expect(record).to.deep.include({
      '@entity': 'in.co.service.kyc.aadhaar.okyc', reference_id: referenceId, status: 'VALID', message: 'Aadhaar Card Exists',
      name: 'Anil Kumar Sharma', date_of_birth: '21-04-1985', year_of_birth: '1985', gender: 'M', care_of: 'S/O: Ramesh Sharma', share_code: '1234',
    });
    expect(record['full_address']).to.include('Bengaluru');
    expect(record['photo']).to.match(/^data:image\/png;base64,/);
    expect(record['address']).to.deep.equal({
      '@entity': 'in.co.service.kyc.aadhaar.okyc.address', country: 'India', district: 'Bengaluru Urban', house: 'Mangal Nivas, 12',
      landmark: 'Near Water Tank', pincode: '560011', post_office: 'Jayanagar', state: 'Karnataka', street: '9th Cross Road',
      subdistrict: 'Bengaluru South', vtc: 'Bengaluru',
    });
    expect(await service.verifyOtp(OWNER, { reference_id: referenceId, otp: AADHAAR_TEST_OTP }))
      .to.deep.equal({ '@entity': 'in.co.service.kyc.aadhaar.okyc', message: 'Invalid Reference Id' });
    expect(await rejection(service.verifyOtp(OWNER, { reference_id: referenceId, otp: '' }))).to.deep.include({ status: 422, message: 'OTP missing in request' });
    expect(await rejection(service.verifyOtp(OWNER, { reference_id: 'abc', otp: AADHAAR_TEST_OTP }))).to.deep.include({ status: 422, message: 'Invalid Reference Id' });
  });

  it('reports an expired OTP and a verification still in progress', async () => {
    const expires = await send(AADHAAR_TEST_NUMBERS.otpExpires);
    expect(await service.verifyOtp(OWNER, { reference_id: expires.kind === 'data' ? expires.data.reference_id! : 0, otp: AADHAAR_TEST_OTP }))
      .to.deep.equal({ '@entity': 'in.co.service.kyc.aadhaar.okyc', message: 'OTP Expired' });
    const pending = await send(AADHAAR_TEST_NUMBERS.verificationPending);
    expect(await service.verifyOtp(OWNER, { reference_id: pending.kind === 'data' ? pending.data.reference_id! : 0, otp: AADHAAR_TEST_OTP }))
      .to.deep.equal({ '@entity': 'in.co.service.kyc.aadhaar.okyc', message: 'Request under process, please try after 30 seconds' });
  });
});
