import { expect } from 'chai';
import { ManualClock } from '@satyapan/core';
import { AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, startAadhaarOtpSimulator, type AadhaarOtpSimulator } from '@satyapan/sandbox';

describe('sandbox: Aadhaar OTP provider simulator', () => {
  let sim: AadhaarOtpSimulator;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(Date.now());
    sim = await startAadhaarOtpSimulator({ clock });
  });
  afterEach(() => sim.close());

  async function call(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${sim.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-id': sim.clientId, 'x-client-secret': sim.clientSecret, ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const send = (aadhaar: string) => call('/verification/offline-aadhaar/otp', { aadhaar_number: aadhaar });
  const verify = (refId: unknown, otp: string) => call('/verification/offline-aadhaar/verify', { ref_id: refId, otp });

  it('sends an OTP and verifies it into the e-KYC record', async () => {
    const sent = await send(AADHAAR_TEST_NUMBERS.otpSent);
    expect(sent.status).to.equal(200);
    expect(sent.body).to.include({ status: 'SUCCESS', message: 'OTP sent successfully' });
    expect(sent.body['ref_id']).to.be.a('number');
    const wrong = await verify(sent.body['ref_id'], '000000');
    expect(wrong.status).to.equal(400);
    expect(wrong.body).to.include({ message: 'OTP entered is invalid', code: 'verification_failed', type: 'validation_error' });
    const record = await verify(String(sent.body['ref_id']), AADHAAR_TEST_OTP);
    expect(record.status).to.equal(200);
    expect(record.body).to.include({
      ref_id: String(sent.body['ref_id']), status: 'VALID', message: 'Aadhaar Card Exists', name: 'Anil Kumar Sharma', dob: '21-04-1985', gender: 'M', year_of_birth: 1985, share_code: '1234',
    });
    expect(record.body['split_address']).to.include({ state: 'Karnataka', pincode: '560011' });
    expect(record.body['photo_link']).to.match(/^data:image\/png;base64,/);
    expect(record.body['mobile_hash']).to.match(/^[0-9a-f]{64}$/);
    // A reference is verified once: after that its session is over.
    expect((await verify(sent.body['ref_id'], AADHAAR_TEST_OTP)).body).to.include({ code: 'verification_failed', message: 'Session expired, please generate a new OTP' });
  });

  it('has a known number for each outcome', async () => {
    expect((await send(AADHAAR_TEST_NUMBERS.invalidAadhaar)).body).to.include({ status: 'INVALID', message: 'Invalid Aadhaar Card' });
    expect((await send('234123412346')).body).to.include({ status: 'INVALID', message: 'Invalid Aadhaar Card' });
    expect((await send(AADHAAR_TEST_NUMBERS.notLinkedToMobile)).body).to.include({ message: 'Aadhaar not linked to mobile number' });
    expect((await send(AADHAAR_TEST_NUMBERS.providerError)).status).to.equal(500);
    const expires = await send(AADHAAR_TEST_NUMBERS.otpExpires);
    expect((await verify(expires.body['ref_id'], AADHAAR_TEST_OTP)).body).to.include({ code: 'verification_failed', message: 'Otp expired' });
    const pending = await send(AADHAAR_TEST_NUMBERS.verificationPending);
    const pendingAnswer = await verify(pending.body['ref_id'], AADHAAR_TEST_OTP);
    expect(pendingAnswer).to.deep.equal({ status: 409, body: { message: 'Processing request, please try after 30 sec', code: 'verification_pending', type: 'validation_error' } });
    expect((await verify(99, AADHAAR_TEST_OTP)).body['message']).to.equal('Session expired, please generate a new OTP');
  });

  it('lets an OTP expire after its lifetime', async () => {
    const sent = await send(AADHAAR_TEST_NUMBERS.otpSentSecond);
    clock.advance(601_000);
    expect((await verify(sent.body['ref_id'], AADHAAR_TEST_OTP)).body['message']).to.equal('Otp expired');
  });

  it('authenticates its clients, validates input and can be switched off', async () => {
    expect((await call('/verification/offline-aadhaar/otp', { aadhaar_number: AADHAAR_TEST_NUMBERS.otpSent }, { 'x-client-secret': 'wrong' })).status).to.equal(401);
    expect((await send('12345')).status).to.equal(400);
    sim.setDown(true);
    expect((await send(AADHAAR_TEST_NUMBERS.otpSent)).status).to.equal(500);
    sim.setDown(false);
    expect((await send(AADHAAR_TEST_NUMBERS.otpSent)).status).to.equal(200);
    expect(sim.otpRequests()).to.equal(1);
  });
});
