import { expect } from 'chai';
import request from 'supertest';
import { kycArea } from '@satyapan/kyc';
import { createAjv } from '../src/validation.js';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';

const REQUEST = 'in.co.service.kyc.name_match.request';
const RESPONSE = 'in.co.service.kyc.name_match.response';

describe('router: name match (POST /kyc/name-match)', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    // No locker or OTP service: the operation needs no upstream and is mounted all the same.
    h = await startHarness({ areas: [kycArea({})] });
    token = await h.token();
  });
  after(() => h.close());

  const match = (body: Record<string, unknown>, app = h.app, bearer = token, client = CLIENTS.all) =>
    request(app).post('/api/kyc/name-match').set('authorization', bearer).set('x-api-key', client.apiKey).send(body);

  function expectError(res: request.Response, status: number, message: string): void {
    expect([res.status, res.body.message], res.text).to.deep.equal([status, message]);
    expect(res.body).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
  }

  it('answers score, result and reasons in the envelope, valid against its OpenAPI schema', async () => {
    const res = await match({ '@entity': REQUEST, name_1: 'Shri R. K. Sharma', name_2: 'SHARMA RAJESH KUMAR' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.have.all.keys('code', 'timestamp', 'data', 'transaction_id');
    expect(Object.keys(res.body.data)).to.deep.equal(['@entity', 'score', 'result', 'reasons']);
    expect(res.body.data).to.deep.include({ '@entity': RESPONSE, result: 'match' });
    expect(res.body.data.score).to.be.within(0.85, 1);
    expect(res.body.data.reasons).to.deep.include.members([
      { code: 'honorific_dropped', detail: 'shri' }, { code: 'initial_matched', detail: 'r ~ rajesh' }, { code: 'initial_matched', detail: 'k ~ kumar' },
    ]);
    const schema = (h.router.openapi['paths'] as Record<string, any>)['/kyc/name-match'].post.responses['200'].content['application/json'].schema;
    expect(createAjv().validate(schema, res.body), JSON.stringify(createAjv().errors)).to.equal(true);
  });

  it('tells different people apart and takes kind business for company names', async () => {
    const people = await match({ '@entity': REQUEST, name_1: 'Amit Kumar', name_2: 'Sumit Kumar' });
    expect(people.body.data).to.deep.include({ result: 'no_match' });
    expect(people.body.data.reasons[0].code).to.equal('token_mismatch');
    const companies = await match({ '@entity': REQUEST, name_1: 'Sai Enterprises (P) Ltd', name_2: 'SAI ENTERPRISES PRIVATE LIMITED', kind: 'business' });
    expect(companies.body.data).to.deep.equal({
      '@entity': RESPONSE, score: 1, result: 'match', reasons: [{ code: 'legal_form_normalised', detail: 'private limited' }],
    });
  });

  it('validates the body: @entity and both names (400), empty or long names and an unknown kind (422)', async () => {
    expectError(await match({ name_1: 'A', name_2: 'B' }), 400, 'Invalid request body: @entity is required');
    expectError(await match({ '@entity': REQUEST, name_1: 'Anjali Rao' }), 400, 'Invalid request body: name_2 is required');
    expectError(await match({ '@entity': REQUEST, name_1: 42, name_2: 'Anjali Rao' }), 400, 'Invalid request body: name_1 must be string');
    expectError(await match({ '@entity': REQUEST, name_1: '', name_2: 'Anjali Rao' }), 422, 'Invalid name_1: must be 1 to 200 characters');
    expectError(await match({ '@entity': REQUEST, name_1: 'Anjali Rao', name_2: 'x'.repeat(201) }), 422, 'Invalid name_2: must be 1 to 200 characters');
    expectError(await match({ '@entity': REQUEST, name_1: 'Anjali Rao', name_2: 'Anjali Rao', kind: 'trust' }), 422,
      'Invalid kind: must be equal to one of the allowed values');
  });

  it('refuses 200 x U+33AF (1,200 characters, 400 words once normalised) and a name of 17 words with 422 naming the field', async () => {
    expectError(await match({ '@entity': REQUEST, name_1: '\u33AF'.repeat(200), name_2: 'Anjali Rao' }), 422,
      'Invalid name_1: must be at most 200 characters once normalised (NFKD)');
    const words = Array.from({ length: 17 }, (_, i) => `Rao${String.fromCharCode(97 + i)}`).join(' ');
    expectError(await match({ '@entity': REQUEST, name_1: 'Anjali Rao', name_2: words }), 422, 'Invalid name_2: must have at most 16 words');
    expect((await match({ '@entity': REQUEST, name_1: 'Anjali Rao', name_2: words.split(' ').slice(0, 16).join(' ') })).status).to.equal(200);
  });

  it('needs the kyc product', async () => {
    const bearer = await h.token(CLIENTS.bankOnly);
    expectError(await match({ '@entity': REQUEST, name_1: 'Anjali Rao', name_2: 'Anjali Rao' }, h.app, bearer, CLIENTS.bankOnly), 403, 'Insufficient privilege');
  });

  it('decides at the host\'s threshold; a threshold outside 0..1 is refused when the area is built', async () => {
    const strict = await startHarness({ areas: [kycArea({ nameMatchThreshold: 0.99 })] });
    try {
      const res = await match({ '@entity': REQUEST, name_1: 'Rajesh Sharma', name_2: 'Rajesh Kumar Sharma' }, strict.app, await strict.token());
      const loose = await match({ '@entity': REQUEST, name_1: 'Rajesh Sharma', name_2: 'Rajesh Kumar Sharma' });
      expect([res.body.data.result, loose.body.data.result]).to.deep.equal(['no_match', 'match']);
      expect(res.body.data.score).to.equal(loose.body.data.score);
    } finally {
      await strict.close();
    }
    await startHarness({ areas: [kycArea({ nameMatchThreshold: 85 })] }).then(
      async (unexpected) => { await unexpected.close(); expect.fail('a threshold of 85 was accepted'); },
      (error: unknown) => expect(String(error)).to.match(/threshold must be between 0 and 1/));
  });
});
