import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { HttpOtpProvider, type OtpSendResult, type OtpVerifyResult } from '@satyapan/kyc';
import { AADHAAR_TEST_NUMBERS, startAadhaarOtpSimulator } from '@satyapan/sandbox';
import { capturedLogger, failure } from '../../bank/test/support/observe.js';
import { errorsOf, loadFixture, meaningsOf, startContractServer, validatorFor, type ContractServer } from '../../sandbox/test/support/contract.js';

/**
 * Cashfree offline Aadhaar OTP against Cashfree's own published answers (fixtures/cashfree, its Verification
 * OpenAPI 2023-12-18): each documented example of `POST /offline-aadhaar/otp` and `/verify` is served by a
 * loopback server and read by the adapter, and what the adapter sends is checked against Cashfree's request schemas.
 */
interface Example { operation: string; status: number; name: string; component: string; value: Record<string, unknown> }
const fixture = loadFixture<{ schemas: Record<string, unknown>; examples: Example[] }>('cashfree/verification-openapi.json');
const SEND = 'POST /offline-aadhaar/otp';
const VERIFY = 'POST /offline-aadhaar/verify';

type Expected<T> = { result: T } | { error: { status: number; message: string } };
const unavailable = { error: { status: 503, message: 'Source Unavailable' } };
const ours = { error: { status: 500, message: 'Internal Server Error' } };

const SEND_OWN: Record<string, Expected<OtpSendResult>> = {
  '200 OTP Generated': { result: { outcome: 'sent', referenceId: 21637861 } },
  '200 Mobile Not Linked': { result: { outcome: 'not_linked', referenceId: 21637861 } },
  '200 Invalid Aadhaar': { result: { outcome: 'invalid_aadhaar', referenceId: 208 } },
  '409 Request for same aadhaar within 30s': { result: { outcome: 'throttled', referenceId: null } },
  '400 Aadhaar Number Invalid': { result: { outcome: 'invalid_aadhaar', referenceId: null } },
  '400 Client ID/Client Secret Missing': ours,
  '400 Using Test Credentials In Prod': ours,
  '422 Insufficient balance': unavailable,
};

const VERIFY_OWN: Record<string, Expected<OtpVerifyResult['outcome']>> = {
  '200 VALID': { result: 'valid' },
  '400 Session Expired': { result: 'invalid_reference' },
  '400 Invalid Aadhaar': { result: 'invalid_reference' },
  '400 Aadhaar Not Linked To Mobile Number': { result: 'invalid_reference' },
  '400 OTP Expired': { result: 'expired' },
  '400 OTP Format Invalid': { result: 'invalid_otp' },
  '400 OTP Empty': { result: 'invalid_otp' },
  '400 OTP Invalid': { result: 'invalid_otp' },
  '409 Conflict Error': { result: 'in_progress' },
  '400 Client ID/Client Secret Missing': ours,
  '400 Using Test Credentials In Prod': ours,
};

const examplesOf = (operation: string): Example[] => fixture.examples.filter((example) => example.operation === operation);
const key = (example: Example): string => `${example.status} ${example.name}`;
/** What Cashfree means by each documented answer of the two operations (the shared ones: contract.ts). */
const SEND_MEANING = meaningsOf(examplesOf(SEND), SEND_OWN);
const VERIFY_MEANING = meaningsOf(examplesOf(VERIFY), VERIFY_OWN);

describe('kyc: Cashfree offline Aadhaar OTP against Cashfree\'s published contract', () => {
  let server: ContractServer;
  let logs: ReturnType<typeof capturedLogger>;
  let provider: HttpOtpProvider;

  beforeEach(async () => {
    server = await startContractServer();
    logs = capturedLogger();
    provider = new HttpOtpProvider({ baseUrl: `${server.url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', logger: logs.logger });
  });
  afterEach(() => server.close());

  for (const example of examplesOf(SEND)) {
    it(`send: reads ${key(example)} (${example.component}) as Cashfree means it`, async () => {
      server.answer({ status: example.status, body: example.value });
      const expected = SEND_MEANING.get(key(example))!;
      const attempt = provider.sendOtp('655675523712');
      if ('result' in expected) expect(await attempt).to.deep.equal(expected.result);
      else expect(await failure(attempt)).to.deep.include(expected.error);
    });
  }

  for (const example of examplesOf(VERIFY)) {
    it(`verify: reads ${key(example)} (${example.component}) as Cashfree means it`, async () => {
      server.answer({ status: example.status, body: example.value });
      const expected = VERIFY_MEANING.get(key(example))!;
      const attempt = provider.verifyOtp('70471', '267987');
      if ('result' in expected) expect((await attempt).outcome).to.equal(expected.result);
      else expect(await failure(attempt)).to.deep.include(expected.error);
    });
  }

  it('reads the e-KYC record of the documented VALID answer, its string ref_id and numeric year and PIN included', async () => {
    server.answer({ status: 200, body: examplesOf(VERIFY).find((example) => example.name === 'VALID')!.value });
    const answer = await provider.verifyOtp('70471', '267987');
    if (answer.outcome !== 'valid') throw new Error('expected a record');
    expect(answer.record).to.deep.include({ referenceId: 70471, name: 'Mallesh Fakkirappa Dollin', dob: '02-02-1995', yearOfBirth: '1995', gender: 'M', shareCode: '1234' });
    expect(answer.record.address).to.include({ pincode: '581115', district: 'Haveri', state: 'Karnataka' });
  });

  it('reads a ref_id sent as a string on send, and logs an unknown verification_failed message instead of guessing', async () => {
    server.answer({ status: 200, body: { status: 'SUCCESS', message: 'OTP sent successfully', ref_id: '21637861' } });
    expect(await provider.sendOtp('655675523712')).to.deep.equal({ outcome: 'sent', referenceId: 21637861 });
    server.answer({ status: 400, body: { type: 'validation_error', code: 'verification_failed', message: 'Something new' } });
    expect(await failure(provider.verifyOtp('1', '123456'))).to.deep.include({ status: 503 });
    expect(logs.text()).to.contain('unknown message').and.not.contain('Something new');
  });

  it('sends requests that Cashfree\'s request schemas accept, to the documented paths', async () => {
    const sendSchema = validatorFor(fixture.schemas['OfflineAadhaarSendOtpRequestSchema']);
    const verifySchema = validatorFor(fixture.schemas['OfflineAadhaarVerifyOtpRequestSchema']);
    server.answer({ status: 200, body: examplesOf(SEND)[0]!.value });
    await provider.sendOtp('655675523712');
    await provider.verifyOtp('21637861', '267987').catch(() => undefined);
    const [send, verify] = server.requests;
    expect([send!.path, verify!.path]).to.deep.equal(['/verification/offline-aadhaar/otp', '/verification/offline-aadhaar/verify']);
    expect(sendSchema(send!.json), errorsOf(sendSchema)).to.equal(true);
    expect(verifySchema(verify!.json), errorsOf(verifySchema)).to.equal(true);
    for (const request of server.requests) expect(request.headers).to.include({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret' });
  });

  it('reaches the same operations with the base URL of before (without /verification)', async () => {
    const hostOnly = new HttpOtpProvider({ baseUrl: server.url, clientId: 'cf-id', clientSecret: 'cf-secret' });
    server.answer({ status: 200, body: examplesOf(SEND)[0]!.value });
    await hostOnly.sendOtp('655675523712');
    expect(server.requests[0]!.path).to.equal('/verification/offline-aadhaar/otp');
  });

  it('signs its calls when given Cashfree\'s public key, and the signing simulator accepts them', async () => {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    const sim = await startAadhaarOtpSimulator({ signature: { privateKeyPem: keys.privateKey } });
    try {
      const signing = new HttpOtpProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, publicKeyPem: keys.publicKey });
      expect(await signing.sendOtp(AADHAAR_TEST_NUMBERS.otpSent)).to.include({ outcome: 'sent' });
      const unsigned = new HttpOtpProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, logger: logs.logger });
      expect(await failure(unsigned.sendOtp(AADHAAR_TEST_NUMBERS.otpSent))).to.deep.include({ status: 500 });
      expect(logs.text()).to.contain('egress IP is not whitelisted');
      expect(sim.otpRequests()).to.equal(1);
    } finally {
      await sim.close();
    }
  });
});
