import { expect } from 'chai';
import { Sealer, serviceError } from '@satyapan/core';
import {
  BankVerificationService, CashfreePennyDropProvider, RedisSingleFlight, type PennyDropOutcome, type RedisClient,
  type VerifyAccountInput,
} from '@satyapan/bank';
import {
  PENNY_DROP_TEST_ACCOUNTS as ACCOUNTS, PENNY_DROP_TEST_IFSC as IFSC, startPennyDropSimulator, type PennyDropSimulator,
} from '@satyapan/sandbox';
import type { KeySpace } from '@satyapan/core';
import { testRedis } from './support/redis.js';
import { capturedLogger, failure } from '../../sandbox/test/support/contract.js';
import { keysMatching } from '../../../test/support/redis-cluster.js';

describe('bank: penny-drop verification', () => {
  let sim: PennyDropSimulator;
  let logs: ReturnType<typeof capturedLogger>;
  let provider: CashfreePennyDropProvider;

  beforeEach(async () => {
    sim = await startPennyDropSimulator();
    logs = capturedLogger();
    provider = new CashfreePennyDropProvider({
      baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, timeoutMs: 2_000,
      logger: logs.logger,
    });
  });
  afterEach(() => sim.close());

  describe('Cashfree BAV v2 adapter', () => {
    const expectations: [keyof typeof ACCOUNTS, Omit<PennyDropOutcome, 'utr' | 'nameAtBank'>][] = [
      ['invalidAccount', { providerCode: 'INVALID_ACCOUNT_FAIL', message: 'Invalid account number or ifsc provided', accountExists: false, deposited: false, definitive: true }],
      ['nreAccount', { providerCode: 'NRE_ACCOUNT_FAIL', message: 'Given account is an NRE account', accountExists: true, deposited: false, definitive: true }],
      ['blocked', { providerCode: 'ACCOUNT_BLOCKED', message: 'Account is blocked', accountExists: true, deposited: false, definitive: true }],
      ['fraud', { providerCode: 'FRAUD_ACCOUNT', message: 'Account is blocked', accountExists: true, deposited: false, definitive: true }],
      ['invalidIfsc', { providerCode: 'INVALID_IFSC_FAIL', message: 'IFSC is invalid', deposited: false, definitive: true }],
      ['impsModeFail', { providerCode: 'IMPS_MODE_FAIL', message: 'IMPS Mode fail', deposited: false, definitive: false }],
      ['beneficiaryBankDeclined', { providerCode: 'BENE_BANK_DECLINED', message: 'Failed at beneficiary bank', deposited: false, definitive: false }],
      ['npciUnavailable', { providerCode: 'NPCI_UNAVAILABLE', message: 'NPCI Unavailable', deposited: false, definitive: false }],
      ['sourceBankDeclined', { providerCode: 'SOURCE_BANK_DECLINED', message: 'Source bank declined', deposited: false, definitive: false }],
      ['beneficiaryBankOffline', { providerCode: 'BENEFICIARY_BANK_OFFLINE', message: 'Beneficiary bank offline', deposited: false, definitive: false }],
    ];

    it('turns a credit the bank or the rails failed into the vendor\'s 500 error (Failed at bank, Transaction failed)', async () => {
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.failedAtBank }))).to.deep.equal({ status: 500, message: 'Failed at bank', headers: {} });
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.connectionTimeout }))).to.deep.equal({ status: 500, message: 'Transaction failed', headers: {} });
    });

    it('maps a verified account to exists + name + UTR + deposit', async () => {
      const outcome = await provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid, name: 'Anjali Rao', mobile: '9876543210' });
      expect(outcome).to.deep.include({
        providerCode: 'ACCOUNT_IS_VALID', message: 'Bank Account details verified successfully.', accountExists: true,
        nameAtBank: 'ANJALI RAO', deposited: true, definitive: true,
      });
      expect(outcome.utr).to.match(/^\d{12}$/);
      expect(sim.deposits(ACCOUNTS.valid)).to.equal(1);
    });

    for (const [account, expected] of expectations) {
      it(`maps ${expected.providerCode} to "${expected.message}"`, async () => {
        expect(await provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS[account] })).to.deep.equal(expected);
      });
    }

    it('turns provider outages, timeouts, 5xx and provider-side refusals into 503 Source Unavailable', async () => {
      const unavailable = { status: 503, message: 'Source Unavailable', headers: {} };
      for (const account of [ACCOUNTS.serverError, ACCOUNTS.insufficientBalance, ACCOUNTS.underProcess]) {
        expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: account })), account).to.deep.equal(unavailable);
      }
      sim.setDown(true);
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }))).to.deep.equal(unavailable);
      sim.setDown(false);
      sim.setLatency(600);
      const hasty = new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, timeoutMs: 150 });
      const started = Date.now();
      expect(await failure(hasty.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }))).to.deep.equal(unavailable);
      expect(Date.now() - started).to.be.below(550);
      const url = sim.url;
      await sim.close();
      const nobody = new CashfreePennyDropProvider({ baseUrl: `${url}/verification`, clientId: 'a', clientSecret: 'b' });
      expect(await failure(nobody.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }))).to.deep.equal(unavailable);
      sim = await startPennyDropSimulator();
    });

    it('answers refused credentials with a 500 that does not repeat the provider', async () => {
      const wrong = new CashfreePennyDropProvider({
        baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: 'not-the-secret', logger: logs.logger,
      });
      const error = await failure(wrong.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }));
      expect(error).to.deep.equal({ status: 500, message: 'Internal Server Error', headers: {} });
      expect(logs.text()).to.contain('refused our credentials').and.not.contain('Invalid clientId and clientSecret');
      expect(logs.text()).to.not.contain('not-the-secret');
      expect(sim.deposits()).to.equal(0);
    });

    it('passes the provider rate limit on as 429 and its input refusals as 422 with the vendor message', async () => {
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.rateLimited })))
        .to.deep.equal({ status: 429, message: 'Too Many Requests', headers: { 'Retry-After': '1' } });
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: '12345' })))
        .to.deep.equal({ status: 422, message: 'Please provide a valid bank account', headers: {} });
    });
  });

  describe('BankVerificationService (cache, single flight)', () => {
    let store: Awaited<ReturnType<typeof testRedis>>;
    let service: BankVerificationService;
    const base = (over: Partial<VerifyAccountInput> = {}): VerifyAccountInput => ({
      apiKey: 'key_live_a', ifsc: IFSC.toLowerCase(), accountNumber: ACCOUNTS.valid, name: 'Anjali Rao', ...over,
    });
    const make = (redis: RedisClient, keys: KeySpace, extra: Partial<ConstructorParameters<typeof BankVerificationService>[0]> = {}) =>
      new BankVerificationService({ provider, redis, keys, keySecret: 'test-cache-key-secret', logger: logs.logger, ...extra });

    beforeEach(async () => {
      store = await testRedis('pd');
      service = make(store.redis, store.keys);
    });
    afterEach(() => store.cleanup());

    it('returns the penny-drop result in the API shape and makes one deposit', async () => {
      const result = await service.verifyAccount(base());
      expect(result).to.deep.include({
        '@entity': '@in.co.service.bank.account.penny_drop_verification_response',
        message: 'Bank Account details verified successfully.', account_exists: true, name_at_bank: 'ANJALI RAO',
        amount_deposited: '1',
      });
      expect(Object.keys(result).sort()).to.deep.equal(['@entity', 'account_exists', 'amount_deposited', 'message', 'name_at_bank', 'name_match', 'utr']);
      expect(result.name_match).to.deep.equal({ score: 1, result: 'match', reasons: [{ code: 'exact', detail: 'the same words' }] });
      expect(sim.deposits()).to.equal(1);
      const invalid = await service.verifyAccount(base({ accountNumber: ACCOUNTS.invalidAccount }));
      expect(invalid).to.deep.equal({
        '@entity': '@in.co.service.bank.account.penny_drop_verification_response',
        message: 'Invalid account number or ifsc provided', account_exists: false,
      });
    });

    it('compares the name at the configured threshold; no name_match without a name', async () => {
      const strict = make(store.redis, store.keys, { nameMatchThreshold: 0.99 });
      const result = await strict.verifyAccount(base({ name: 'Anjali Devi Rao' }));
      expect(result.name_match).to.deep.equal({
        score: 0.96, result: 'no_match', reasons: [{ code: 'extra_tokens', detail: 'only one name has devi (-0.04)' }],
      });
      expect(await service.verifyAccount(base({ name: undefined, acceptCache: true }))).to.not.have.property('name_match');
      expect(() => make(store.redis, store.keys, { nameMatchThreshold: -1 })).to.throw(RangeError, /threshold must be between 0 and 1/);
    });

    it('x-accept-cache: true answers from the cache with amount_deposited "0"; false and absent refresh it', async () => {
      const first = await service.verifyAccount(base());
      const cached = await service.verifyAccount(base({ acceptCache: true }));
      expect(cached).to.deep.equal({ ...first, amount_deposited: '0' });
      expect(sim.deposits()).to.equal(1);
      const fresh = await service.verifyAccount(base({ acceptCache: false }));
      expect(fresh.amount_deposited).to.equal('1');
      expect(fresh.utr).to.not.equal(first.utr);
      const absent = await service.verifyAccount(base());
      expect(absent.amount_deposited).to.equal('1');
      expect(sim.deposits()).to.equal(3);
      expect((await service.verifyAccount(base({ acceptCache: true }))).utr, 'the cache holds the latest answer').to.equal(absent.utr);
      expect(sim.deposits()).to.equal(3);
    });

    it('runs beforeProviderCall right before a provider call only; its rejection skips the call', async () => {
      let calls = 0;
      const beforeProviderCall = async (): Promise<void> => {
        calls++;
        expect(sim.requests(), 'the provider is asked after the hook').to.equal(calls - 1);
      };
      await service.verifyAccount(base({ beforeProviderCall }));
      await service.verifyAccount(base({ acceptCache: true, beforeProviderCall }));
      expect(calls, 'not for an answer from the cache').to.equal(1);
      const refused = service.verifyAccount(base({ accountNumber: ACCOUNTS.blocked, beforeProviderCall: async () => { throw serviceError('TOO_MANY_REQUESTS'); } }));
      expect(await failure(refused)).to.deep.include({ status: 429 });
      expect(sim.requests()).to.equal(1);
    });

    it('with x-accept-cache: true and nothing cached, asks the provider; caches are per API key', async () => {
      expect((await service.verifyAccount(base({ acceptCache: true }))).amount_deposited).to.equal('1');
      expect((await service.verifyAccount(base({ apiKey: 'key_live_b', acceptCache: true }))).amount_deposited).to.equal('1');
      expect((await service.verifyAccount(base({ apiKey: 'key_live_b', acceptCache: true }))).amount_deposited).to.equal('0');
      expect(sim.deposits()).to.equal(2);
    });

    it('caches answers about the account, but not failures of the rails', async () => {
      await service.verifyAccount(base({ accountNumber: ACCOUNTS.nreAccount }));
      const cachedNre = await service.verifyAccount(base({ accountNumber: ACCOUNTS.nreAccount, acceptCache: true }));
      expect(cachedNre).to.deep.include({ message: 'Given account is an NRE account', account_exists: true, amount_deposited: '0' });
      await service.verifyAccount(base({ accountNumber: ACCOUNTS.npciUnavailable, acceptCache: true }));
      const again = await service.verifyAccount(base({ accountNumber: ACCOUNTS.npciUnavailable, acceptCache: true }));
      expect(again).to.deep.equal({ '@entity': '@in.co.service.bank.account.penny_drop_verification_response', message: 'NPCI Unavailable' });
      expect(sim.requests()).to.equal(3);
    });

    it('keeps cache entries 30 days by default, or as configured, and seals them when given a Sealer', async () => {
      await service.verifyAccount(base());
      const [key] = await keysMatching(store.redis, `${store.keys.prefix}*answer`);
      expect(key).to.be.a('string');
      expect(await store.redis.ttl(key as string)).to.be.within(30 * 86_400 - 5, 30 * 86_400);
      expect(await store.redis.get(key as string)).to.contain('ANJALI RAO');
      expect(key).to.not.contain(ACCOUNTS.valid);

      const sealed = make(store.redis, store.keys.child('sealed'), { cacheTtlSeconds: 60, sealer: new Sealer([{ id: 'k1', key: Sealer.generateKey() }]) });
      await sealed.verifyAccount(base());
      const [sealedKey] = await keysMatching(store.redis, `${store.keys.prefix}:sealed*answer`);
      expect(await store.redis.ttl(sealedKey as string)).to.be.within(55, 60);
      expect(await store.redis.get(sealedKey as string)).to.match(/^v1\.k1\./).and.not.contain('ANJALI');
      expect((await sealed.verifyAccount(base({ acceptCache: true }))).name_at_bank).to.equal('ANJALI RAO');
      const deposits = sim.deposits();
      const rotated = make(store.redis, store.keys.child('sealed'), { sealer: new Sealer([{ id: 'k2', key: Sealer.generateKey() }]) });
      expect((await rotated.verifyAccount(base({ acceptCache: true }))).amount_deposited, 'unreadable entry = miss').to.equal('1');
      expect(sim.deposits()).to.equal(deposits + 1);
    });

    it('two identical concurrent requests on two processes make one deposit and both get the answer', async () => {
      sim.setLatency(300);
      const other = make(await store.connect(), store.keys);
      const [a, b] = await Promise.all([service.verifyAccount(base()), other.verifyAccount(base())]);
      expect(a).to.deep.equal(b);
      expect(a.amount_deposited).to.equal('1');
      expect(sim.requests()).to.equal(1);
      expect(sim.deposits()).to.equal(1);
    });

    it('concurrent waiters share the leader\'s failure too (provider down: one call, both 503)', async () => {
      sim.setLatency(200);
      sim.setDown(true);
      const other = make(await store.connect(), store.keys);
      const results = await Promise.all([failure(service.verifyAccount(base())), failure(other.verifyAccount(base()))]);
      expect(results).to.deep.equal([
        { status: 503, message: 'Source Unavailable', headers: {} }, { status: 503, message: 'Source Unavailable', headers: {} },
      ]);
      expect(logs.text().match(/penny-drop provider failed/g), 'one provider call').to.have.length(1);
    });

    it('validates input per the spec with 422 messages naming the field', async () => {
      const cases: [Partial<VerifyAccountInput>, string][] = [
        [{ ifsc: 'KKBK000013' }, 'Invalid IFSC pattern'],
        [{ accountNumber: '1'.repeat(41) }, 'Invalid account_number: must be 1 to 40 characters'],
        [{ accountNumber: '1234-5678' }, 'Invalid account_number: must contain only letters and digits'],
        [{ name: 'n'.repeat(101) }, 'Invalid name: must be at most 100 characters'],
        [{ mobile: '5876543210' }, 'Please provide a valid phone number'],
        [{ mobile: '98765O3210' }, 'Phone should be numeric'],
      ];
      for (const [over, message] of cases) {
        expect(await failure(service.verifyAccount(base(over)))).to.deep.equal({ status: 422, message, headers: {} });
      }
      expect(sim.requests()).to.equal(0);
    });

    it('never logs account numbers or names', async () => {
      await service.verifyAccount(base({ mobile: '9876543210' }));
      await service.verifyAccount(base({ acceptCache: true }));
      await failure(service.verifyAccount(base({ accountNumber: ACCOUNTS.serverError })));
      const text = logs.text();
      expect(text).to.contain('penny drop answered');
      for (const secret of [ACCOUNTS.valid, ACCOUNTS.serverError, 'ANJALI', 'Anjali', '9876543210']) expect(text).to.not.contain(secret);
    });
  });

  describe('RedisSingleFlight', () => {
    let store: Awaited<ReturnType<typeof testRedis>>;
    beforeEach(async () => {
      store = await testRedis('flight');
    });
    afterEach(() => store.cleanup());

    it('a waiter takes over when the leader vanished without an answer', async () => {
      const flights = new RedisSingleFlight(store.redis, store.keys, { lockTtlMs: 150, minPollMs: 5, maxPollMs: 20 });
      await store.redis.set(store.keys.tagged('v1', 'lock'), 'a-crashed-leader', 'PX', 150);
      let calls = 0;
      const started = Date.now();
      const answer = await flights.run('v1', async () => {
        calls++;
        return 'done';
      });
      expect(answer).to.equal('done');
      expect(calls).to.equal(1);
      expect(Date.now() - started).to.be.at.least(100);
    });

    it('runs again once a flight has landed (it is not a cache)', async () => {
      const flights = new RedisSingleFlight(store.redis, store.keys);
      let calls = 0;
      const work = async (): Promise<number> => ++calls;
      expect(await flights.run('v2', work)).to.equal(1);
      expect(await flights.run('v2', work)).to.equal(2);
      expect(await store.redis.exists(store.keys.tagged('v2', 'lock'))).to.equal(0);
    });
  });
});
