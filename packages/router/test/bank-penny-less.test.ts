import { expect } from 'chai';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { KeySpace, createRedisConnection, waitForRedis } from '@satyapan/core';
import { SetuPennyLessProvider, bankArea, createBankService, type BankService, type RedisClient } from '@satyapan/bank';
import { PENNY_DROP_TEST_IFSC as IFSC, PENNY_LESS_TEST_ACCOUNTS as ACCOUNTS, startPennyLessSimulator, type PennyLessSimulator } from '@satyapan/sandbox';
import { createAjv } from '../src/validation.js';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';

const ENTITY = '@in.co.service.bank.account.penny_less_verification_response';
const PATH = '/bank/{ifsc}/accounts/{account_number}/penniless-verify';

/** A bank service with penny-less verification only, as a host builds it, under the router's Redis prefix. */
async function pennyLessBank(sim: PennyLessSimulator, keyPrefix: string, opened: RedisClient[]): Promise<BankService> {
  const redis = createRedisConnection({ flavour: 'producer', connectionName: 'penny-less-route-test' });
  opened.push(redis);
  await waitForRedis(redis);
  return createBankService({
    pennyLess: {
      provider: new SetuPennyLessProvider({
        baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, productInstanceId: sim.productInstanceId, timeoutMs: 2_000,
      }),
      redis,
      keys: new KeySpace(keyPrefix).child('bank'), keySecret: 'test-cache-key-secret',
    },
  });
}

describe('router: penny-less verification (GET /bank/{ifsc}/accounts/{account_number}/penniless-verify)', () => {
  let sim: PennyLessSimulator;
  let h: Harness;
  let bank: BankService;
  let token: string;
  const opened: RedisClient[] = [];

  before(async () => {
    sim = await startPennyLessSimulator();
    const keyPrefix = `test:${randomUUID()}`;
    bank = await pennyLessBank(sim, keyPrefix, opened);
    h = await startHarness({ keyPrefix, areas: [bankArea(bank)] });
    token = await h.token(CLIENTS.bankOnly);
  });
  after(async () => {
    await h.close();
    bank.close();
    for (const redis of opened) redis.disconnect();
    await sim.close();
  });
  afterEach(() => {
    sim.setDown(false);
    sim.setLatency(0);
  });

  const verify = (account: string, ifsc = IFSC, app = h.app, bearer = token) =>
    request(app).get(`/api/bank/${ifsc}/accounts/${account}/penniless-verify`).set('authorization', bearer).set('x-api-key', CLIENTS.bankOnly.apiKey);
  const responseSchema = (): unknown => (h.router.openapi['paths'] as Record<string, any>)[PATH].get.responses['200'].content['application/json'].schema;

  function expectError(res: request.Response, status: number, message: string): void {
    expect(res.status, res.text).to.equal(status);
    expect(res.body).to.deep.equal({ code: status, timestamp: res.body.timestamp, message, transaction_id: res.headers['x-request-id'] });
  }

  const answers: [keyof typeof ACCOUNTS, Record<string, unknown>][] = [
    ['individual', { '@entity': ENTITY, account_exists: true, name_at_bank: 'ANJALI RAO' }],
    ['business', { '@entity': ENTITY, account_exists: true, name_at_bank: 'SATYAPAN DEMO TECHNOLOGIES PVT LTD' }],
    ['invalidAccount', { '@entity': ENTITY, message: 'Invalid account number or ifsc provided', account_exists: false }],
    ['unknownEntity', { '@entity': ENTITY, account_exists: true, name_at_bank: 'MEERA IYER' }],
  ];
  for (const [account, data] of answers) {
    it(`answers the ${account} test account with 200 and the vendor's data keys`, async () => {
      const res = await verify(ACCOUNTS[account]);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.have.all.keys('code', 'timestamp', 'data', 'transaction_id');
      expect(res.body.data).to.deep.equal(data);
      expect(Object.keys(res.body.data)).to.deep.equal(Object.keys(data));
      expect(createAjv().validate(responseSchema() as object, res.body)).to.equal(true);
    });
  }

  it('compares the name asked with name_at_bank in name_match: a person or a business, inferred', async () => {
    const person = await verify(ACCOUNTS.individual).query({ name: 'Anjali Rao' });
    expect(person.body.data).to.deep.equal({
      '@entity': ENTITY, account_exists: true, name_at_bank: 'ANJALI RAO',
      name_match: { score: 1, result: 'match', reasons: [{ code: 'exact', detail: 'the same words' }] },
    });
    expect(createAjv().validate(responseSchema() as object, person.body)).to.equal(true);
    const business = await verify(ACCOUNTS.business).query({ name: 'M/s Satyapan Demo Technologies Private Limited' });
    expect(business.body.data.name_match).to.deep.equal({
      score: 1, result: 'match', reasons: [{ code: 'legal_form_normalised', detail: 'private limited' }],
    });
    const other = await verify(ACCOUNTS.business).query({ name: 'Satyapan Demo Textiles Pvt Ltd' });
    expect(other.body.data.name_match).to.deep.include({ result: 'no_match' });
    expect((await verify(ACCOUNTS.invalidAccount).query({ name: 'Anjali Rao' })).body.data).to.not.have.property('name_match');
  });

  it('answers 422 Invalid IFSC pattern, Invalid IFSC provided (an IFSC the directory lacks) and field messages before asking the provider; 503 when the provider is down', async () => {
    const before = sim.requests();
    expectError(await verify(ACCOUNTS.individual, 'SBIN745'), 422, 'Invalid IFSC pattern');
    expectError(await verify('1234-5678'), 422, 'Invalid account_number: must contain only letters and digits');
    expectError(await verify(ACCOUNTS.individual).query({ mobile: '12345' }), 422, 'Please provide a valid phone number');
    // Well formed, but in no directory of ours: the vendor's 422, and no paid call.
    expectError(await verify(ACCOUNTS.individual, 'ZZZZ0000001'), 422, 'Invalid IFSC provided');
    expect(sim.requests()).to.equal(before);
    expectError(await verify(ACCOUNTS.sourceUnavailable), 503, 'Source Unavailable');
    sim.setDown(true);
    expectError(await verify(ACCOUNTS.business), 503, 'Source Unavailable');
    const limited = await verify(ACCOUNTS.rateLimited);
    expect(limited.status).to.equal(503, 'the switch answers first');
  });

  it('passes the provider\'s rate limit on as 429 with Retry-After', async () => {
    const limited = await verify(ACCOUNTS.rateLimited);
    expectError(limited, 429, 'Too Many Requests');
    expect(limited.headers['retry-after']).to.equal('1');
  });

  it('x-accept-cache: true answers from the cache; false and absent ask the provider; other values are 400', async () => {
    await verify(ACCOUNTS.individual);
    const before = sim.requests();
    const cached = await verify(ACCOUNTS.individual).set('x-accept-cache', 'true');
    expect(cached.body.data).to.deep.equal({ '@entity': ENTITY, account_exists: true, name_at_bank: 'ANJALI RAO' });
    expect(sim.requests()).to.equal(before);
    await verify(ACCOUNTS.individual).set('x-accept-cache', 'false');
    expect(sim.requests()).to.equal(before + 1);
    expectError(await verify(ACCOUNTS.individual).set('x-accept-cache', 'maybe'), 400, 'Invalid parameter: x-accept-cache must be true or false');
  });

  it('two router instances sharing Redis make one provider call for two identical concurrent requests', async () => {
    const second = await startHarness({ keyPrefix: h.keyPrefix, areas: [bankArea(await pennyLessBank(sim, h.keyPrefix, opened))] });
    try {
      const secondToken = await second.token(CLIENTS.bankOnly);
      sim.setLatency(300);
      const before = sim.requests();
      const [a, b] = await Promise.all([verify(ACCOUNTS.business), verify(ACCOUNTS.business, IFSC, second.app, secondToken)]);
      expect(a.status).to.equal(200);
      expect(a.body.data).to.deep.equal(b.body.data);
      expect(sim.requests() - before).to.equal(1);
    } finally {
      await second.close();
    }
  });

  it('is in the OpenAPI document, and not mounted without a penny-less provider', async () => {
    const operation = (h.router.openapi['paths'] as Record<string, any>)[PATH]?.get;
    expect(operation?.operationId).to.equal('verifyBankAccountPennyLess');
    expect(operation.parameters.map((p: { name: string }) => p.name)).to.include.members(['ifsc', 'account_number', 'name', 'mobile', 'x-accept-cache']);
    const lookupOnly = await startHarness({ areas: [bankArea(await createBankService())] });
    try {
      const bearer = await lookupOnly.token();
      const res = await request(lookupOnly.app).get(`/api/bank/${IFSC}/accounts/${ACCOUNTS.individual}/penniless-verify`)
        .set('authorization', bearer).set('x-api-key', CLIENTS.all.apiKey);
      expect(res.status).to.equal(404);
      expect((lookupOnly.router.openapi['paths'] as Record<string, unknown>)[PATH]).to.equal(undefined);
    } finally {
      await lookupOnly.close();
    }
  });
});
