import { expect } from 'chai';
import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeySpace, createRedisConnection, waitForRedis } from '@satyapan/core';
import {
  CashfreePennyDropProvider, IfscDirectory, bankArea, branchView, createBankService, encodeSnapshot, loadSampleDirectory, type BankService,
  type Branch, type RedisClient,
} from '@satyapan/bank';
import {
  PENNY_DROP_TEST_ACCOUNTS as ACCOUNTS, PENNY_DROP_TEST_IFSC as IFSC, startPennyDropSimulator, type PennyDropSimulator,
} from '@satyapan/sandbox';
import { createAjv } from '../src/validation.js';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';

const ENTITY = '@in.co.service.bank.account.penny_drop_verification_response';
const KYC_ONLY = { id: 'client-kyc', apiKey: 'key_test_kyc', apiSecret: 'secret_test_kyc', products: ['kyc'] as const };

/** A bank service as a host builds it: the sample directory, the simulator as provider, the router's Redis prefix. */
async function bankService(sim: PennyDropSimulator, keyPrefix: string, opened: RedisClient[], refuseUnknownIfsc?: boolean): Promise<BankService> {
  const redis = createRedisConnection({ flavour: 'producer', connectionName: 'bank-route-test' });
  opened.push(redis);
  await waitForRedis(redis);
  return createBankService({
    ...(refuseUnknownIfsc !== undefined ? { refuseUnknownIfsc } : {}),
    verification: {
      provider: new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, timeoutMs: 2_000 }),
      redis,
      keys: new KeySpace(keyPrefix).child('bank'), keySecret: 'test-cache-key-secret',
    },
  });
}

describe('router: bank routes', () => {
  let sim: PennyDropSimulator;
  let h: Harness;
  let bank: BankService;
  let token: string;
  const opened: RedisClient[] = [];
  let sample: IfscDirectory;

  before(async () => {
    sim = await startPennyDropSimulator();
    sample = await loadSampleDirectory();
    const keyPrefix = `test:${randomUUID()}`;
    bank = await bankService(sim, keyPrefix, opened);
    h = await startHarness({ keyPrefix, areas: [bankArea(bank)], clients: [...Object.values(CLIENTS), KYC_ONLY] });
    token = await h.token(CLIENTS.bankOnly);
  });
  after(async () => {
    await h.close();
    for (const redis of opened) redis.disconnect();
    await sim.close();
  });

  const get = (path: string, client = CLIENTS.bankOnly, bearer = token) =>
    request(h.app).get(`/api${path}`).set('authorization', bearer).set('x-api-key', client.apiKey);

  function expectError(res: request.Response, status: number, message: string): void {
    expect(res.status, res.text).to.equal(status);
    expect(res.body).to.deep.equal({ code: status, timestamp: res.body.timestamp, message, transaction_id: res.headers['x-request-id'] });
  }

  describe('GET /bank/{ifsc}', () => {
    it('returns the branch object itself, matching the documented schema', async () => {
      const res = await get('/bank/ABNA0100310');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(branchView(sample.lookup('ABNA0100310')!));
      // An absent SWIFT code is null, as the vendor's examples show it; other absent values stay "".
      expect(res.body).to.include({ IFSC: 'ABNA0100310', BANKCODE: 'ABNA', BANK: 'Royal Bank of Scotland N.V.', MICR: '400030002', SWIFT: null, RTGS: true, NEFT: false });
      const schema = ((h.router.openapi['paths'] as Record<string, any>)['/bank/{ifsc}'].get.responses['200'].content['application/json'].schema);
      expect(createAjv().validate(schema, res.body)).to.equal(true);
    });

    it('is case-insensitive and resolves sublet bank codes', async () => {
      const res = await get('/bank/icic00kurla');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ IFSC: 'ICIC00KURLA', BANKCODE: 'KNSB', BANK: 'Kurla Nagarik Sahakari Bank' });
    });

    it('answers 404 for an unknown IFSC and 422 for a bad pattern, in the error envelope', async () => {
      expectError(await get('/bank/abna0999999'), 404, 'IFSC not found: ABNA0999999');
      expectError(await get('/bank/ABNA010031'), 422, 'Invalid IFSC pattern');
      expectError(await get('/bank/ABNA-100310'), 422, 'Invalid IFSC pattern');
    });

    it('needs a token and the bank product', async () => {
      expectError(await request(h.app).get('/api/bank/ABNA0100310').set('x-api-key', CLIENTS.bankOnly.apiKey), 403, 'Invalid access token');
      expectError(await get('/bank/ABNA0100310', KYC_ONLY, await h.token(KYC_ONLY)), 403, 'Insufficient privilege');
    });

    it('serves a new snapshot after a hot swap, without a restart', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'satyapan-bank-route-'));
      try {
        const branch: Branch = { ...(sample.lookup('ABNA0100310') as Branch), IFSC: 'ZZZZ0000001', BANK: 'Swapped Bank', BANKCODE: 'ZZZZ' };
        const path = join(dir, 'next.bin');
        await writeFile(path, encodeSnapshot([...sample.branches(), branch], 'next'));
        expectError(await get('/bank/ZZZZ0000001'), 404, 'IFSC not found: ZZZZ0000001');
        await bank.directory.reload(path);
        expect((await get('/bank/zzzz0000001')).body).to.include({ BANK: 'Swapped Bank', BANKCODE: 'ZZZZ' });
      } finally {
        bank.directory.swap(sample);
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('GET /bank/search', () => {
    it('filters and pages, enveloped, in IFSC order', async () => {
      const all = [...sample.branches()].filter((b) => b.BANKCODE === 'KKBK' && b.ISO3166 === 'IN-DL').map((b) => b.IFSC);
      expect(all.length).to.be.at.least(3);
      const first = await get('/bank/search').query({ bank: 'kkbk', state: 'delhi', limit: 2 });
      expect(first.status).to.equal(200);
      expect(first.body.code).to.equal(200);
      expect(first.body.data).to.deep.include({ '@entity': 'in.co.service.bank.branch.paginated_list', total: all.length, limit: 2, offset: 0, has_next: true });
      const second = await get('/bank/search').query({ bank: 'Kotak Mahindra Bank', state: 'IN-DL', limit: 2, offset: 2 });
      const seen = [...first.body.data.items, ...second.body.data.items].map((b: Branch) => b.IFSC);
      expect(seen).to.deep.equal(all.slice(0, 4));
      const text = await get('/bank/search').query({ q: 'nariman point', city: 'mumbai' });
      expect(text.body.data.items.length).to.be.above(0);
      for (const b of text.body.data.items as Branch[]) expect(`${b.BRANCH} ${b.ADDRESS}`.toUpperCase()).to.contain('NARIMAN POINT');
    });

    it('defaults to 10 results and validates paging and parameters', async () => {
      const res = await get('/bank/search');
      expect(res.body.data).to.include({ total: sample.size, limit: 10, offset: 0, has_next: true });
      expect(res.body.data.items).to.have.length(10);
      expectError(await get('/bank/search').query({ limit: 0 }), 422, 'Invalid limit: must be >= 1');
      expectError(await get('/bank/search').query({ limit: 101 }), 422, 'Invalid limit: must be <= 100');
      expectError(await get('/bank/search').query({ limit: 'ten' }), 400, 'Invalid parameter: limit must be integer');
      expectError(await get('/bank/search').query({ branch: 'x' }), 400, 'Invalid parameter: branch is not allowed');
    });

    it('pages with page_size and last_evaluated_key like every other list; cursors not ours and mixed paging are 400 (issue 24)', async () => {
      const all = [...sample.branches()].filter((b) => b.BANKCODE === 'KKBK').map((b) => b.IFSC);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get('/bank/search').query({ bank: 'KKBK', page_size: 100, ...(cursor ? { last_evaluated_key: cursor } : {}) });
        expect(res.status, res.text).to.equal(200);
        // The shared list shape (with total); the deprecated limit/offset/has_next only for callers that page the old way.
        expect(res.body.data).to.have.all.keys('@entity', 'items', 'total', 'last_evaluated_key');
        seen.push(...(res.body.data.items as Branch[]).map((b) => b.IFSC));
        cursor = res.body.data.last_evaluated_key;
      } while (cursor !== null);
      expect(seen).to.deep.equal(all);
      const legacy = await get('/bank/search').query({ bank: 'KKBK', limit: 3, offset: 3 });
      expect(legacy.body.data).to.include({ limit: 3, offset: 3, has_next: true }).and.have.property('last_evaluated_key').that.is.a('string');
      const switched = await get('/bank/search').query({ bank: 'KKBK', page_size: 3, last_evaluated_key: legacy.body.data.last_evaluated_key });
      expect((switched.body.data.items as Branch[]).map((b) => b.IFSC)).to.deep.equal(all.slice(6, 9));
      const refused = 'Invalid parameter: last_evaluated_key is not a cursor of a previous page';
      for (const bad of ['abc', '!!!', '99999999999999999999', Buffer.from('branch:KKBK').toString('base64url')]) {
        expectError(await get('/bank/search').query({ last_evaluated_key: bad }), 400, refused);
      }
      expectError(await get('/bank/search').query({ last_evaluated_key: 'x'.repeat(65) }), 422, 'Invalid last_evaluated_key: must NOT have more than 64 characters');
      expectError(await get('/bank/search').query({ page_size: 2, limit: 2 }), 400, 'Invalid parameter: limit cannot be combined with page_size (limit is its deprecated name)');
      expectError(await get('/bank/search').query({ last_evaluated_key: legacy.body.data.last_evaluated_key, offset: 1 }), 400,
        'Invalid parameter: offset cannot be combined with last_evaluated_key (offset is deprecated)');
      expectError(await get('/bank/search').query({ page_size: 101 }), 422, 'Invalid page_size: must be <= 100');
    });
  });

  describe('GET /bank/{ifsc}/accounts/{account_number}/verify', () => {
    const verify = (account: string, ifsc = IFSC) => get(`/bank/${ifsc}/accounts/${account}/verify`);

    it('verifies an account with a penny drop, enveloped', async () => {
      const before = sim.deposits();
      const res = await verify(ACCOUNTS.valid).query({ name: 'Anjali Rao', mobile: '9876543210' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ code: 200, transaction_id: res.headers['x-request-id'] });
      expect(res.body.data).to.deep.include({
        '@entity': ENTITY, message: 'Bank Account details verified successfully.', account_exists: true,
        name_at_bank: 'ANJALI RAO', amount_deposited: '1',
      });
      expect(res.body.data.utr).to.match(/^\d{12}$/);
      expect(sim.deposits() - before).to.equal(1);
    });

    it('compares the name asked with name_at_bank in name_match, for a cached answer too; none without a name', async () => {
      const res = await verify(ACCOUNTS.valid).query({ name: 'Smt. Rao Anjali' });
      expect(Object.keys(res.body.data).slice(2, 5)).to.deep.equal(['account_exists', 'name_at_bank', 'name_match']);
      expect(res.body.data.name_match).to.deep.equal({
        score: 1, result: 'match',
        reasons: [{ code: 'honorific_dropped', detail: 'smt' }, { code: 'tokens_reordered', detail: 'the same words in another order' }],
      });
      const schema = (h.router.openapi['paths'] as Record<string, any>)['/bank/{ifsc}/accounts/{account_number}/verify'].get.responses['200'].content['application/json'].schema;
      expect(createAjv().validate(schema, res.body), JSON.stringify(createAjv().errors)).to.equal(true);
      const cached = await verify(ACCOUNTS.valid).query({ name: 'Anita Rao' }).set('x-accept-cache', 'true');
      expect(cached.body.data).to.deep.include({ amount_deposited: '0', name_at_bank: 'ANJALI RAO' });
      expect(cached.body.data.name_match).to.deep.include({ result: 'no_match' });
      expect((await verify(ACCOUNTS.valid).set('x-accept-cache', 'true')).body.data).to.not.have.property('name_match');
      expect((await verify(ACCOUNTS.invalidAccount).query({ name: 'Anjali Rao' })).body.data).to.not.have.property('name_match');
    });

    const outcomes: [keyof typeof ACCOUNTS, Record<string, unknown>][] = [
      ['invalidAccount', { message: 'Invalid account number or ifsc provided', account_exists: false }],
      ['nreAccount', { message: 'Given account is an NRE account', account_exists: true }],
      ['blocked', { message: 'Account is blocked', account_exists: true }],
      ['fraud', { message: 'Account is blocked', account_exists: true }],
      ['invalidIfsc', { message: 'IFSC is invalid' }],
      ['impsModeFail', { message: 'IMPS Mode fail' }],
      ['beneficiaryBankDeclined', { message: 'Failed at beneficiary bank' }],
      ['npciUnavailable', { message: 'NPCI Unavailable' }],
      ['sourceBankDeclined', { message: 'Source bank declined' }],
      ['beneficiaryBankOffline', { message: 'Beneficiary bank offline' }],
    ];
    for (const [account, expected] of outcomes) {
      it(`reports "${String(expected['message'])}" (${account}) as 200 with the bank's answer`, async () => {
        const res = await verify(ACCOUNTS[account]);
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.equal({ '@entity': ENTITY, ...expected });
      });
    }

    it('answers a credit the bank or the rails failed with the vendor\'s 500 envelope', async () => {
      expectError(await verify(ACCOUNTS.failedAtBank), 500, 'Failed at bank');
      expectError(await verify(ACCOUNTS.connectionTimeout), 500, 'Transaction failed');
    });

    it('x-accept-cache: true answers from the cache; false and absent go to the provider', async () => {
      const first = await verify(ACCOUNTS.validSecond).set('x-accept-cache', 'false');
      const deposits = sim.deposits();
      const cached = await verify(ACCOUNTS.validSecond).set('x-accept-cache', 'true');
      expect(cached.body.data).to.deep.equal({ ...first.body.data, amount_deposited: '0' });
      expect(sim.deposits()).to.equal(deposits);
      expect((await verify(ACCOUNTS.validSecond).set('x-accept-cache', 'FALSE')).body.data.amount_deposited).to.equal('1');
      expect((await verify(ACCOUNTS.validSecond)).body.data.amount_deposited).to.equal('1');
      expect(sim.deposits()).to.equal(deposits + 2);
      expectError(await verify(ACCOUNTS.validSecond).set('x-accept-cache', 'yes'), 400, 'Invalid parameter: x-accept-cache must be true or false');
    });

    it('keeps each API key\'s cache to itself', async () => {
      await verify(ACCOUNTS.valid);
      const deposits = sim.deposits();
      const otherToken = await h.token(CLIENTS.all);
      const res = await get(`/bank/${IFSC}/accounts/${ACCOUNTS.valid}/verify`, CLIENTS.all, otherToken).set('x-accept-cache', 'true');
      expect(res.body.data.amount_deposited).to.equal('1');
      expect(sim.deposits()).to.equal(deposits + 1);
    });

    it('validates per the spec with 422 messages naming the field', async () => {
      expectError(await verify(ACCOUNTS.valid, 'KKBK000013'), 422, 'Invalid IFSC pattern');
      expectError(await verify('1'.repeat(41)), 422, 'Invalid account_number: must be 1 to 40 characters');
      expectError(await verify('1234-5678'), 422, 'Invalid account_number: must contain only letters and digits');
      expectError(await verify(ACCOUNTS.valid).query({ name: 'n'.repeat(101) }), 422, 'Invalid name: must be at most 100 characters');
      expectError(await verify(ACCOUNTS.valid).query({ mobile: '5876543210' }), 422, 'Please provide a valid phone number');
      expectError(await verify(ACCOUNTS.valid).query({ mobile: '98765x3210' }), 422, 'Phone should be numeric');
      expectError(await verify(ACCOUNTS.valid).query({ email: 'a@b.c' }), 400, 'Invalid parameter: email is not allowed');
    });

    it('refuses an IFSC the directory does not know with the vendor\'s 422, without a call to the provider', async () => {
      const before = sim.requests();
      expectError(await verify(ACCOUNTS.valid, 'ZZZZ0000001'), 422, 'Invalid IFSC provided');
      expectError(await verify(ACCOUNTS.valid, 'zzzz0000001').set('x-accept-cache', 'true'), 422, 'Invalid IFSC provided');
      expect(sim.requests(), 'provider calls').to.equal(before);
    });

    it('asks the provider about an IFSC the directory lacks with refuseUnknownIfsc: false, and about one a swapped-in directory has', async () => {
      const lagging = await startHarness({ keyPrefix: h.keyPrefix, areas: [bankArea(await bankService(sim, h.keyPrefix, opened, false))] });
      try {
        const before = sim.requests();
        const res = await request(lagging.app).get(`/api/bank/ZZZZ0000001/accounts/${ACCOUNTS.valid}/verify`)
          .set('authorization', await lagging.token(CLIENTS.bankOnly)).set('x-api-key', CLIENTS.bankOnly.apiKey);
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data).to.include({ account_exists: true, amount_deposited: '1' });
        expect(sim.requests(), 'provider calls').to.equal(before + 1);
      } finally {
        await lagging.close();
      }
      const branch: Branch = { ...(sample.lookup('ABNA0100310') as Branch), IFSC: 'ZZZZ0000001', BANK: 'New Bank', BANKCODE: 'ZZZZ' };
      bank.directory.swap(IfscDirectory.fromBranches([...sample.branches(), branch], 'with ZZZZ0000001'));
      try {
        const before = sim.requests();
        expect((await verify(ACCOUNTS.valid, 'ZZZZ0000001')).status).to.equal(200);
        expect(sim.requests(), 'provider calls').to.equal(before + 1);
      } finally {
        bank.directory.swap(sample);
      }
    });

    it('answers 503 Source Unavailable when the provider is down, 500 when it refuses our credentials', async () => {
      sim.setDown(true);
      try {
        expectError(await verify(ACCOUNTS.valid), 503, 'Source Unavailable');
      } finally {
        sim.setDown(false);
      }
      expectError(await verify(ACCOUNTS.serverError), 503, 'Source Unavailable');
      const misconfigured = await createBankService({
        directory: sample,
        verification: {
          provider: new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: 'stale-secret' }),
          redis: h.redis, keys: new KeySpace(h.keyPrefix).child('bank-misconfigured'), keySecret: 'test-cache-key-secret',
        },
      });
      const other = await startHarness({ areas: [bankArea(misconfigured)] });
      try {
        const res = await request(other.app).get(`/api/bank/${IFSC}/accounts/${ACCOUNTS.valid}/verify`)
          .set('authorization', await other.token()).set('x-api-key', CLIENTS.all.apiKey);
        expectError(res, 500, 'Internal Server Error');
        expect(res.text).to.not.match(/authentication/i);
      } finally {
        await other.close();
      }
    });

    it('two router instances sharing Redis make one deposit for two identical concurrent requests', async () => {
      const second = await startHarness({ keyPrefix: h.keyPrefix, areas: [bankArea(await bankService(sim, h.keyPrefix, opened))] });
      try {
        const secondToken = await second.token(CLIENTS.bankOnly);
        sim.setLatency(300);
        const requestsBefore = sim.requests();
        const depositsBefore = sim.deposits();
        const path = `/api/bank/${IFSC}/accounts/${ACCOUNTS.validSecond}/verify`;
        const [a, b] = await Promise.all([
          request(h.app).get(path).set('authorization', token).set('x-api-key', CLIENTS.bankOnly.apiKey),
          request(second.app).get(path).set('authorization', secondToken).set('x-api-key', CLIENTS.bankOnly.apiKey),
        ]);
        expect(a.status).to.equal(200);
        expect(b.status).to.equal(200);
        expect(a.body.data).to.deep.equal(b.body.data);
        expect(a.body.data.amount_deposited).to.equal('1');
        expect(sim.requests() - requestsBefore, 'provider calls').to.equal(1);
        expect(sim.deposits() - depositsBefore, 'deposits').to.equal(1);
      } finally {
        sim.setLatency(0);
        await second.close();
      }
    });

    it('is not mounted when the bank service has no penny-drop provider', async () => {
      const lookupOnly = await startHarness({ areas: [bankArea(await createBankService({ directory: sample }))] });
      try {
        const bearer = await lookupOnly.token();
        const res = await request(lookupOnly.app).get(`/api/bank/${IFSC}/accounts/${ACCOUNTS.valid}/verify`).set('authorization', bearer).set('x-api-key', CLIENTS.all.apiKey);
        expect(res.status).to.equal(404);
        expect((await request(lookupOnly.app).get(`/api/bank/${IFSC}`).set('authorization', bearer).set('x-api-key', CLIENTS.all.apiKey)).status).to.equal(200);
      } finally {
        await lookupOnly.close();
      }
    });
  });

  it('documents the three operations in the OpenAPI document', () => {
    const paths = h.router.openapi['paths'] as Record<string, Record<string, { operationId: string }>>;
    expect(paths['/bank/{ifsc}']?.['get']?.operationId).to.equal('lookupIfsc');
    expect(paths['/bank/search']?.['get']?.operationId).to.equal('searchBranches');
    expect(paths['/bank/{ifsc}/accounts/{account_number}/verify']?.['get']?.operationId).to.equal('verifyBankAccount');
  });
});
