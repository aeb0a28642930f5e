// A test suite written against the vendor's sandbox, run against our demo unchanged: the vendor's documented
// test values (accounts, IFSCs, Aadhaar numbers, reference ids, OTPs) and the answers its examples show.
// Source of every value and expectation: the vendor's Postman collection (shared reference
// vendor-postman/in-co-sandbox-kyc.postman_collection.json), folders Bank (IFSC Verification, Penny-Drop,
// Penny-Less), Aadhaar (Generate OTP, Verify OTP) and PAN (Verify PAN Details, PAN Aadhaar Link Status);
// example names are quoted per case. `@entity` values use
// our word `service` for the vendor's segment, as docs/API.md says.
import { expect } from 'chai';
import { closeStartedDemo, startDemoApi, type DemoApi } from './support/spawn-program.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

interface Answer { status: number; body: any }

const PENNY_LESS = '@in.co.service.bank.account.penny_less_verification_response';
const PENNY_DROP = '@in.co.service.bank.account.penny_drop_verification_response';
const OTP_RESPONSE = 'in.co.service.kyc.aadhaar.okyc.otp.response';
const OKYC = 'in.co.service.kyc.aadhaar.okyc';

describe('the vendor\'s sandbox test values against the demo', function () {
  this.timeout(60_000);
  let starting: Promise<DemoApi> | undefined;
  let demo: DemoApi;
  let headers: Record<string, string>;

  // The demo is a process of its own: how long it takes to start and to stop follows the machine's load.
  before(async function () {
    this.timeout(loadScaled(60_000));
    starting = startDemoApi('vendor_suite');
    demo = await starting;
    headers = { ...demo.headers, 'x-api-version': '1.0' };
  });
  after(async function () {
    this.timeout(loadScaled(60_000));
    // Nothing to close when the demo never came up (`before` failed and says why).
    const code = await closeStartedDemo(starting);
    if (code !== undefined) expect(code).to.equal(0);
  });

  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${demo.api}${path}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, body: await response.json() };
  };
  const expectError = (answer: Answer, status: number, message: string): void => {
    expect([answer.status, answer.body.message], JSON.stringify(answer.body)).to.deep.equal([status, message]);
    expect(answer.body).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
  };
  const expectData = (answer: Answer, data: Record<string, unknown>): void => {
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.have.all.keys('code', 'timestamp', 'data', 'transaction_id');
    expect(answer.body.data).to.deep.equal(data);
  };

  describe('Bank Account Verification [Penny-Less]', () => {
    const verify = (ifsc: string, account: string): Promise<Answer> => call('GET', `/bank/${ifsc}/accounts/${account}/penniless-verify`);
    const cases: [string, string, string, Record<string, unknown>][] = [
      ['200 - Success', 'SBIN0021745', '60100123456781', { '@entity': PENNY_LESS, account_exists: true, name_at_bank: 'JOHN DOE' }],
      ['Success 2', 'SBIN0021746', '60100123456787', { '@entity': PENNY_LESS, account_exists: true, name_at_bank: 'JANE DOE' }],
      ['200 - Success Business', 'SBIN0021745', '60100123400123', { '@entity': PENNY_LESS, account_exists: true, name_at_bank: 'JOHN DOE PVT LTD' }],
      ['Success Business 2', 'HDFC0009595', '780312749124122', { '@entity': PENNY_LESS, account_exists: true, name_at_bank: 'JAKE INCORPORATED' }],
      ['200 - Invalid Account or IFSC', 'SBIN0021745', '60100123456789', { '@entity': PENNY_LESS, message: 'Invalid account number or ifsc provided', account_exists: false }],
    ];
    for (const [example, ifsc, account, data] of cases) {
      it(example, async () => expectData(await verify(ifsc, account), data));
    }
    it('422 - Invalid IFSC pattern', async () => expectError(await verify('SBIN745', '60100123456787'), 422, 'Invalid IFSC pattern'));
    it('503 - Source Unavailable', async () => expectError(await verify('SBIN0021745', '60100123456791'), 503, 'Source Unavailable'));
    // Setu, the penny-less upstream, documents no bank-offline, blocked or NRE answer, so the simulator (which
    // answers only what Setu documents) gives Setu's answer for an account it cannot find (docs/VENDOR_COMPAT.md).
    it('200 - Beneficiary Bank Offline: not simulated, answered as an unknown account', async () => {
      expectData(await verify('SBIN0021744', '60100123456444'), { '@entity': PENNY_LESS, message: 'Invalid account number or ifsc provided', account_exists: false });
    });
    // The IFSCs of these two are in neither the shipped sample nor the vendor's IFSC examples, so the demo's
    // directory check refuses them before the provider is asked (VC-15).
    for (const [example, ifsc, account] of [['200 - Account Blocked', 'SBIN0071744', '60100123456777'], ['200 - NRE Account', 'SBIN0061746', '60100123456666']] as const) {
      it(`${example}: not simulated, its IFSC refused as unknown`, async () => expectError(await verify(ifsc, account), 422, 'Invalid IFSC provided'));
    }
  });

  describe('Bank Account Verification [Penny-Drop]', () => {
    const verify = (ifsc: string, account: string): Promise<Answer> => call('GET', `/bank/${ifsc}/accounts/${account}/verify`);
    it('200 - Success', async () => {
      const answer = await verify('SBIN0021745', '40100123456781');
      expect(answer.status).to.equal(200);
      expect(answer.body.data).to.include({
        '@entity': PENNY_DROP, message: 'Bank Account details verified successfully.', account_exists: true, name_at_bank: 'John Doe', amount_deposited: '1',
      });
      expect(answer.body.data.utr).to.match(/^\d{12}$/);
    });
    const answers: [string, string, string, Record<string, unknown>][] = [
      ['200 - Invalid account number or ifsc provided', 'SBIN0021745', '40100123456784', { message: 'Invalid account number or ifsc provided', account_exists: false }],
      ['200 - Given account is an NRE account', 'SBIN0021745', '40100123456785', { message: 'Given account is an NRE account', account_exists: true }],
      ['200 - Account is blocked', 'SBIN0021745', '40100123456786', { message: 'Account is blocked', account_exists: true }],
      ['200 - IFSC is invalid', 'SBIN0000002', '40100123456787', { message: 'IFSC is invalid' }],
      ['200 - Source bank declined', 'SBIN0021746', '40100123456788', { message: 'Source bank declined' }],
      ['200 - Beneficiary bank offline', 'SBIN0021745', '40100123456789', { message: 'Beneficiary bank offline' }],
      ['200 - NPCI Unavailable', 'SBIN0021745', '40100123456790', { message: 'NPCI Unavailable' }],
      ['200 - IMPS Mode fail', 'SBIN0021745', '40100123456791', { message: 'IMPS Mode fail' }],
      ['200 - Failed at beneficiary bank', 'SBIN0021745', '40100123456792', { message: 'Failed at beneficiary bank' }],
    ];
    for (const [example, ifsc, account, data] of answers) {
      it(example, async () => expectData(await verify(ifsc, account), { '@entity': PENNY_DROP, ...data }));
    }
    const errors: [string, string, string, number, string][] = [
      ['422 - Invalid IFSC pattern', 'SX01745', '40100123456796', 422, 'Invalid IFSC pattern'],
      ['422 - Please provide a valid bank account', 'SBIN0021745', '40100123456798', 422, 'Please provide a valid bank account'],
      ['422 - Invalid IFSC provided', 'SBIN0000003', '40100123456800', 422, 'Invalid IFSC provided'],
      ['500 - Failed at bank', 'SBIN0021745', '40100123456803', 500, 'Failed at bank'],
      ['500 - Transaction failed', 'SBIN0021745', '40100123456804', 500, 'Transaction failed'],
      ['503 - Source Unavailable', 'SBIN0021745', '40100123456806', 503, 'Source Unavailable'],
    ];
    for (const [example, ifsc, account, status, message] of errors) {
      it(example, async () => expectError(await verify(ifsc, account), status, message));
    }
    // No answer Cashfree documents for its sync verification produces the vendor's 422 "Invalid bank account number
    // or ifsc provided", so the simulator, which answers only what Cashfree documents, cannot either (VENDOR_COMPAT.md);
    // its IFSC is not in the demo's directory, so the demo refuses it as unknown before the provider is asked.
    it('422 - Invalid bank account number or ifsc provided: not simulated, its IFSC refused as unknown', async () => {
      expectError(await verify('SBIN0000004', '40100123456801'), 422, 'Invalid IFSC provided');
    });
  });

  describe('IFSC Verification', () => {
    const branches: [string, Record<string, unknown>][] = [
      ['HDFC0001234', { BRANCH: 'PARK STREET', CITY: 'JAIPUR', MICR: '302240007', SWIFT: 'HDFCINBB', BANKCODE: 'HDFC', ISO3166: 'IN-RJ' }],
      ['SBIN0021744', { SWIFT: null, BRANCH: 'ABOOPUR', CITY: 'GHAZIABAD', MICR: '110002688', BANK: 'State Bank of India', ISO3166: 'IN-UP' }],
      ['SBIN0021745', { BRANCH: 'BOMMASANDRA', CITY: 'BANGALORE URBAN', MICR: '560002356', CONTACT: '+918027839267' }],
      ['SBIN0021746', { BRANCH: 'YELAHANKA', CITY: 'BANGALORE', MICR: '560002355', CONTACT: '' }],
      ['HDFC0009595', { BRANCH: 'BANDRA KURLA COMPLEX', CITY: 'MUMBAI', CENTRE: 'GREATER BOMBAY', MICR: '400240218' }],
      ['SBIN0000002', { BRANCH: 'AGARTALA', CITY: 'AGARTALA', SWIFT: 'SBININBB476', ISO3166: 'IN-TR' }],
    ];
    for (const [ifsc, fields] of branches) {
      it(`success: ${ifsc}`, async () => {
        const answer = await call('GET', `/bank/${ifsc}`);
        expect(answer.status).to.equal(200);
        expect(answer.body).to.include({ IFSC: ifsc, ...fields, UPI: true, RTGS: true, NEFT: true, IMPS: true });
      });
    }
  });

  describe('Aadhaar Offline e-KYC (Generate OTP, then Verify OTP with the examples\' reference ids)', () => {
    const send = (aadhaar: string): Promise<Answer> => call('POST', '/kyc/aadhaar/okyc/otp', {
      '@entity': 'in.co.service.kyc.aadhaar.okyc.otp.request', aadhaar_number: aadhaar, consent: 'y', reason: 'For KYC',
    });
    const verify = (reference: string, otp: string): Promise<Answer> => call('POST', '/kyc/aadhaar/okyc/otp/verify', {
      '@entity': 'in.co.service.kyc.aadhaar.okyc.request', reference_id: reference, otp,
    });

    it('Generate OTP: sent, invalid card, already generated, bad pattern, source unavailable', async () => {
      const sent: [string, number][] = [['123456789012', 1234567], ['123456789015', 1234568], ['123456789016', 1234569], ['123456789017', 1234566], ['123456789018', 1234570]];
      for (const [aadhaar, reference] of sent) {
        expectData(await send(aadhaar), { '@entity': OTP_RESPONSE, reference_id: reference, message: 'OTP sent successfully' });
      }
      expectData(await send('123456789013'), { '@entity': OTP_RESPONSE, reference_id: 78829, message: 'Invalid Aadhaar Card' });
      const throttled = await send('123456789014');
      expect(throttled.status).to.equal(200);
      expect(throttled.body).to.not.have.property('data');
      expect(throttled.body.message).to.match(/^OTP generated for this aadhaar, please try after 45 sec/);
      expectError(await send('1234567890'), 422, 'Invalid Aadhaar number pattern');
      expectError(await send('123456789011'), 503, 'Source Unavailable');
    });

    it('Verify OTP: each example reference answers as the vendor\'s example', async () => {
      expectData(await verify('1234568', '121211'), { '@entity': OKYC, message: 'Invalid OTP' });
      expectData(await verify('1234569', '121711'), { '@entity': OKYC, message: 'OTP Expired' });
      expectData(await verify('1234570', '121811'), { '@entity': OKYC, message: 'Request under process, please try after 30 seconds' });
      expectData(await verify('1234566', '121212'), { '@entity': OKYC, message: 'Invalid Reference Id' });
      expectError(await verify('123XX66', '121212'), 422, 'Invalid Reference Id');
      // The 503 example before the success: a reference verifies once, here as at the identity authority.
      expectError(await verify('1234567', '121213'), 503, 'Source Unavailable');
      const success = await verify('1234567', '121212');
      expect(success.status).to.equal(200);
      expect(success.body.data).to.include({
        '@entity': OKYC, reference_id: 1234567, status: 'VALID', message: 'Aadhaar Card Exists', care_of: 'S/O: Johnny Doe',
        date_of_birth: '21-04-1985', gender: 'M', name: 'John Doe', share_code: '1234',
      });
      expect(success.body.data.address).to.include({ '@entity': `${OKYC}.address`, district: 'Bengaluru', pincode: '581615', state: 'Karnataka' });
    });
  });

  describe('PAN (Verify PAN Details, PAN Aadhaar Link Status)', () => {
    const VERIFY = 'in.co.service.kyc.pan_verification.response';
    const LINK = 'in.co.service.kyc.pan_aadhaar.status.response';
    const verify = (pan: string, name: string, dateOfBirth: string, consent = 'Y'): Promise<Answer> => call('POST', '/kyc/pan/verify', {
      '@entity': 'in.co.service.kyc.pan_verification.request', pan, name_as_per_pan: name, date_of_birth: dateOfBirth, consent, reason: 'For onboarding customers',
    });
    const link = (pan: string, aadhaar: string, consent = 'y', reason = 'For Testing'): Promise<Answer> => call('POST', '/kyc/pan-aadhaar/status', {
      '@entity': 'in.co.service.kyc.pan_aadhaar.status', pan, aadhaar_number: aadhaar, consent, reason,
    });
    // `remarks` is null where the vendor's examples carry a remark: our upstream reports none (VENDOR_COMPAT.md VC-13).
    const cases: [string, string, string, string, Record<string, unknown>][] = [
      ['200 - Sucess Individual', 'XXXPX1234A', 'John Ronald Doe', '11/11/2001', { category: 'individual', status: 'valid', name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'y' }],
      ['Success Individual 2', 'XXXPX1234H', 'Tony Duck', '10/11/1999', { category: 'individual', status: 'valid', name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'n' }],
      ['Success Individual 3', 'XXXPX1234O', 'James Hope', '10/11/1999', { category: 'individual', status: 'valid', name_as_per_pan_match: true, date_of_birth_match: false, aadhaar_seeding_status: 'n' }],
      ['Success Individual 4', 'XXXPX1234L', 'James Hope Jr', '10/11/1999', { category: 'individual', status: 'valid', name_as_per_pan_match: false, date_of_birth_match: false, aadhaar_seeding_status: 'n' }],
      ['200 - Success PAN Trust', 'XXXTX1234P', 'Acme Trust', '10/11/1999', { category: 'trust', status: 'valid', name_as_per_pan_match: true, date_of_birth_match: false, aadhaar_seeding_status: 'na' }],
      ['200 - Success PAN Company', 'XXXCX1234B', 'Ron Doe Private Limited', '10/11/1969', { category: 'company', status: 'valid', name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'na' }],
      ['200 - Success PAN AOP', 'XXXAX2345A', 'Doe Associations', '08/12/1991', { category: 'association_of_persons', status: 'valid', name_as_per_pan_match: false, date_of_birth_match: false, aadhaar_seeding_status: 'na' }],
      ['200 - Success PAN BOI', 'XXXBX3456B', 'Doe Industries', '08/12/1991', { category: 'body_of_individuals', status: 'valid', name_as_per_pan_match: false, date_of_birth_match: true, aadhaar_seeding_status: 'na' }],
      ['200 - Invalid PAN', 'XXXFX1234J', 'Tom Wells', '10/11/1999', { category: 'firm', status: 'invalid', name_as_per_pan_match: false, date_of_birth_match: false, aadhaar_seeding_status: 'na' }],
    ];
    for (const [example, pan, name, dateOfBirth, data] of cases) {
      it(`Verify PAN: ${example}`, async () => expectData(await verify(pan, name, dateOfBirth), { '@entity': VERIFY, pan, remarks: null, ...data }));
    }
    it('Verify PAN: 422 - Invalid PAN Pattern, 422 - Consent Required, 503 - Source Unavailable', async () => {
      expectError(await verify('XXXPX123EE', 'Bob Hope', '10/11/1999'), 422, 'Invalid Pan pattern');
      expectError(await verify('XXXPX1234K', 'Bruce Wells', '10/11/1999', 'N'), 422, 'Invalid parameter: Consent is required.');
      expectError(await verify('XXXPX1234G', 'Harriosn Allens', '10/11/1999'), 503, 'Source Unavailable');
    });
    it('PAN Aadhaar Link Status: each example answers as the vendor\'s', async () => {
      // The portal says "linked to given Aadhaar": the last four are the number sent's (docs/VENDOR_COMPAT.md VC-16).
      expectData(await link('XXXPX1234A', '123456789012'), { '@entity': LINK, aadhaar_seeding_status: 'y', message: 'Your PAN is linked to Aadhaar Number  XXXX XXXX 9012.' });
      expectData(await link('XXXPX1234X', '999999999999'), { '@entity': LINK, aadhaar_seeding_status: 'n', message: 'PAN not linked with Aadhaar' });
      // "200 - Invalid Aadhaar" sends this same request; one request has one answer (VENDOR_COMPAT.md VC-14).
      expectData(await link('XXXPX3456X', '999999999999'), { '@entity': LINK, aadhaar_seeding_status: 'n', message: 'PAN does not exist' });
      expectData(await link('XXPPX2345X', '666666666666'), { '@entity': LINK, aadhaar_seeding_status: 'n', message: 'Your Aadhaar Number is linked to some other PAN' });
      expectError(await link('XXPCX2345X', '666666666666'), 422, 'Individuals PAN is required');
      expectError(await link('XXPP45X', '666666666666'), 422, 'Invalid PAN pattern');
      expectError(await link('XXPPX2345X', '666666666666', 'n'), 422, 'invalid parameter: Consent is required.');
      expectError(await link('XXPPX2345X', '666666666666', 'n', ''), 422, 'Reason cannot be empty');
    });
  });
});
