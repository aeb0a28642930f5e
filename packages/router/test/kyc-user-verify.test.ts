import { expect } from 'chai';
import { LOCKER_INDIVIDUALS } from '@satyapan/sandbox';
import { createAjv } from '../src/validation.js';
import { startKycStack, type ApiAnswer, type KycStack } from '../../kyc/test/support/stack.js';

const ASHA = LOCKER_INDIVIDUALS[0]!;
const REQUEST = 'in.co.service.kyc.docvault.user.verification.request';
const RESPONSE = 'in.co.service.kyc.docvault.user.verification.response';

function expectError(answer: ApiAnswer, status: number, message: string): void {
  expect([answer.status, answer.body['message']], JSON.stringify(answer.body)).to.deep.equal([status, message]);
  expect(answer.body).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
}

describe('router: docvault account check (POST /kyc/docvault/user/verify)', function () {
  this.timeout(20_000);
  let s: KycStack;
  before(async () => { s = await startKycStack(); });
  after(() => s.close());
  afterEach(() => s.lockers.resetSwitches());

  const verify = (body: Record<string, unknown>): Promise<ApiAnswer> => s.api('POST', '/kyc/docvault/user/verify', body);

  it('answers user_exists in the vendor\'s envelope, by Aadhaar number or mobile, ignoring unknown fields', async () => {
    const byAadhaar = await verify({ '@entity': REQUEST, aadhaar_number: ASHA.aadhaarNumber });
    expect(byAadhaar.status).to.equal(200);
    expect(byAadhaar.body).to.have.all.keys('code', 'timestamp', 'data', 'transaction_id');
    expect(byAadhaar.body['data']).to.deep.equal({ '@entity': RESPONSE, user_exists: true });
    const schema = (s.h.router.openapi['paths'] as Record<string, any>)['/kyc/docvault/user/verify'].post.responses['200'].content['application/json'].schema;
    expect(createAjv().validate(schema, byAadhaar.body)).to.equal(true);
    expect((await verify({ '@entity': REQUEST, mobile: ASHA.mobile, reason: 'onboarding' })).body['data'].user_exists).to.equal(true);
    expect((await verify({ '@entity': REQUEST, mobile: '9000000001' })).body['data']).to.deep.equal({ '@entity': RESPONSE, user_exists: false });
    expect(s.lockers.requestCounts()['account']).to.equal(3);
  });

  it('validates: @entity and one of the numbers (400), the numbers\' patterns (422)', async () => {
    expectError(await verify({ '@entity': 'in.co.service.kyc.docvault.session.request', mobile: ASHA.mobile }), 400,
      `Invalid request body: @entity must be "${REQUEST}"`);
    expectError(await verify({ '@entity': REQUEST }), 400, 'Invalid request body: aadhaar_number or mobile is required');
    expectError(await verify({ '@entity': REQUEST, aadhaar_number: '1234 5678 9012' }), 422, 'Invalid Aadhaar number pattern');
    expectError(await verify({ '@entity': REQUEST, mobile: '+919876543210' }), 422, 'Invalid mobile: must be 10 digits');
    expectError(await verify({ '@entity': REQUEST, mobile: 9876543210 }), 400, 'Invalid request body: mobile must be string');
  });

  it('answers 503 Source Unavailable when the locker is down and 429 when it limits us', async () => {
    s.lockers.setDown(true);
    expectError(await verify({ '@entity': REQUEST, mobile: ASHA.mobile }), 503, 'Source Unavailable');
    s.lockers.resetSwitches();
    s.lockers.setRateLimited(true);
    expectError(await verify({ '@entity': REQUEST, mobile: ASHA.mobile }), 429, 'Too Many Requests');
  });

  it('is in the OpenAPI document with the vendor\'s request shape', () => {
    const operation = (s.h.router.openapi['paths'] as Record<string, any>)['/kyc/docvault/user/verify']?.post;
    expect(operation?.operationId).to.equal('verifyDocvaultUser');
    const body = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).to.deep.equal(['@entity', 'aadhaar_number', 'mobile']);
  });
});
