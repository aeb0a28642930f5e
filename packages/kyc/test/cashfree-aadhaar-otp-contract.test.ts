import { expect } from 'chai';
import { HttpOtpProvider, type OtpSendResult, type OtpVerifyResult } from '@satyapan/kyc';
import { AADHAAR_TEST_NUMBERS, startAadhaarOtpSimulator } from '@satyapan/sandbox';
import {
  CASHFREE_FIXTURE, OUR_SETUP, SOURCE_UNAVAILABLE, adapterRig, cashfreeExamples, errorsOf, failure,
  itReadsEachExample, meaningsOf, testKeyPair, validatorFor, type Expected,
} from '../../sandbox/test/support/contract.js';

/**
 * Cashfree offline Aadhaar OTP against Cashfree's own published answers (fixtures/cashfree, its Verification
 * OpenAPI 2023-12-18): each documented example of `POST /offline-aadhaar/otp` and `/verify` is served by a
 * loopback server and read by the adapter, and what the adapter sends is checked against Cashfree's request
 * schemas. (The signature and the base URL convention are core's: packages/core/test/cashfree.test.ts.)
 */
const SEND = cashfreeExamples('POST /offline-aadhaar/otp');
const VERIFY = cashfreeExamples('POST /offline-aadhaar/verify');

const SEND_OWN: Record<string, Expected<OtpSendResult>> = {
  '200 OTP Generated': { answer: { outcome: 'sent', referenceId: 21637861 } },
  '200 Mobile Not Linked': { answer: { outcome: 'not_linked', referenceId: 21637861 } },
  '200 Invalid Aadhaar': { answer: { outcome: 'invalid_aadhaar', referenceId: 208 } },
  '409 Request for same aadhaar within 30s': { answer: { outcome: 'throttled', referenceId: null } },
  '400 Aadhaar Number Invalid': { answer: { outcome: 'invalid_aadhaar', referenceId: null } },
  '400 Client ID/Client Secret Missing': OUR_SETUP,
  '400 Using Test Credentials In Prod': OUR_SETUP,
  '422 Insufficient balance': SOURCE_UNAVAILABLE,
};

const VERIFY_OWN: Record<string, Expected<OtpVerifyResult['outcome']>> = {
  '200 VALID': { answer: 'valid' },
  '400 Session Expired': { answer: 'invalid_reference' },
  '400 Invalid Aadhaar': { answer: 'invalid_reference' },
  '400 Aadhaar Not Linked To Mobile Number': { answer: 'invalid_reference' },
  '400 OTP Expired': { answer: 'expired' },
  '400 OTP Format Invalid': { answer: 'invalid_otp' },
  '400 OTP Empty': { answer: 'invalid_otp' },
  '400 OTP Invalid': { answer: 'invalid_otp' },
  '409 Conflict Error': { answer: 'in_progress' },
  '400 Client ID/Client Secret Missing': OUR_SETUP,
  '400 Using Test Credentials In Prod': OUR_SETUP,
};

/** What Cashfree means by each documented answer of the two operations (the shared ones: contract.ts). */
const SEND_MEANING = meaningsOf(SEND, SEND_OWN);
const VERIFY_MEANING = meaningsOf(VERIFY, VERIFY_OWN);

describe('kyc: Cashfree offline Aadhaar OTP against Cashfree\'s published contract', () => {
  const rig = adapterRig((url, logger) => new HttpOtpProvider({ baseUrl: `${url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', logger: logger }));

  itReadsEachExample({
    provider: 'Cashfree', prefix: 'send: ', examples: SEND, meanings: SEND_MEANING, server: () => rig.server,
    call: () => rig.adapter.sendOtp('655675523712'),
  });

  itReadsEachExample({
    provider: 'Cashfree', prefix: 'verify: ', examples: VERIFY, meanings: VERIFY_MEANING, server: () => rig.server,
    call: async () => (await rig.adapter.verifyOtp('70471', '267987')).outcome,
  });

  it('reads the e-KYC record of the documented VALID answer, its string ref_id and numeric year and PIN included', async () => {
    rig.server.answer({ status: 200, body: VERIFY.find((example) => example.name === 'VALID')!.value });
    const answer = await rig.adapter.verifyOtp('70471', '267987');
    if (answer.outcome !== 'valid') throw new Error('expected a record');
    expect(answer.record).to.deep.include({ referenceId: 70471, name: 'Mallesh Fakkirappa Dollin', dob: '02-02-1995', yearOfBirth: '1995', gender: 'M', shareCode: '1234' });
    expect(answer.record.address).to.include({ pincode: '581115', district: 'Haveri', state: 'Karnataka' });
  });

  it('reads a ref_id sent as a string on send, and logs an unknown verification_failed message instead of guessing', async () => {
    rig.server.answer({ status: 200, body: { status: 'SUCCESS', message: 'OTP sent successfully', ref_id: '21637861' } });
    expect(await rig.adapter.sendOtp('655675523712')).to.deep.equal({ outcome: 'sent', referenceId: 21637861 });
    rig.server.answer({ status: 400, body: { type: 'validation_error', code: 'verification_failed', message: 'Something new' } });
    expect(await failure(rig.adapter.verifyOtp('1', '123456'))).to.deep.include({ status: 503 });
    expect(rig.logs.text()).to.contain('unknown message').and.not.contain('Something new');
  });

  it('sends requests that Cashfree\'s request schemas accept, to the documented paths', async () => {
    const sendSchema = validatorFor(CASHFREE_FIXTURE.schemas['OfflineAadhaarSendOtpRequestSchema']);
    const verifySchema = validatorFor(CASHFREE_FIXTURE.schemas['OfflineAadhaarVerifyOtpRequestSchema']);
    rig.server.answer({ status: 200, body: SEND[0]!.value });
    await rig.adapter.sendOtp('655675523712');
    await rig.adapter.verifyOtp('21637861', '267987').catch(() => undefined);
    const [send, verify] = rig.server.requests;
    expect([send!.path, verify!.path]).to.deep.equal(['/verification/offline-aadhaar/otp', '/verification/offline-aadhaar/verify']);
    expect(sendSchema(send!.json), errorsOf(sendSchema)).to.equal(true);
    expect(verifySchema(verify!.json), errorsOf(verifySchema)).to.equal(true);
    for (const request of rig.server.requests) expect(request.headers).to.include({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret' });
  });

  it('signs its calls when given Cashfree\'s public key, and the signing simulator accepts them', async () => {
    const keys = testKeyPair();
    const sim = await startAadhaarOtpSimulator({ signature: { privateKeyPem: keys.privateKey } });
    const signing = new HttpOtpProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, publicKeyPem: keys.publicKey });
    const unsigned = new HttpOtpProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, logger: rig.logs.logger });
    try {
      expect(await signing.sendOtp(AADHAAR_TEST_NUMBERS.otpSent)).to.include({ outcome: 'sent' });
      expect(await failure(unsigned.sendOtp(AADHAAR_TEST_NUMBERS.otpSent))).to.deep.include({ status: 500 });
      expect(rig.logs.text()).to.contain('egress IP is not whitelisted');
      expect(sim.otpRequests()).to.equal(1);
    } finally {
      signing.close();
      unsigned.close();
      await sim.close();
    }
  });
});
