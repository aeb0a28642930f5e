import { expect } from 'chai';
import {
  PennyLessVerificationService, SetuPennyLessProvider, type PennyLessOutcome, type PennyLessVerifyInput,
} from '@satyapan/bank';
import {
  PENNY_DROP_TEST_IFSC as IFSC, PENNY_LESS_TEST_ACCOUNTS as ACCOUNTS, startPennyLessSimulator, type PennyLessSimulator,
} from '@satyapan/sandbox';
import { testRedis } from './support/redis.js';
import { capturedLogger, failure } from '../../sandbox/test/support/contract.js';
import { keysMatching } from '../../../test/support/redis-cluster.js';

const ENTITY = '@in.co.service.bank.account.penny_less_verification_response';

describe('bank: penny-less verification', () => {
  let sim: PennyLessSimulator;
  let logs: ReturnType<typeof capturedLogger>;
  let provider: SetuPennyLessProvider;
  const setu = (over: Partial<ConstructorParameters<typeof SetuPennyLessProvider>[0]> = {}): SetuPennyLessProvider => new SetuPennyLessProvider({
    baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, productInstanceId: sim.productInstanceId,
    timeoutMs: 2_000, logger: logs.logger, ...over,
  });

  beforeEach(async () => {
    sim = await startPennyLessSimulator();
    logs = capturedLogger();
    provider = setu();
  });
  afterEach(async () => {
    provider.close();
    await sim.close();
  });

  describe('Setu PennyLess adapter', () => {
    const expectations: [keyof typeof ACCOUNTS, PennyLessOutcome][] = [
      ['individual', { providerCode: 'SUCCESS/INDIVIDUAL', accountExists: true, definitive: true, nameAtBank: 'ANJALI RAO' }],
      ['business', { providerCode: 'SUCCESS/MERCHANT', accountExists: true, definitive: true, nameAtBank: 'SATYAPAN DEMO TECHNOLOGIES PVT LTD' }],
      ['unknownEntity', { providerCode: 'SUCCESS/UNKNOWN', accountExists: true, definitive: true, nameAtBank: 'MEERA IYER' }],
      ['invalidAccount', { providerCode: 'ERROR/INVALID_BANK_DETAILS', message: 'Invalid account number or ifsc provided', accountExists: false, definitive: true }],
    ];
    for (const [account, expected] of expectations) {
      it(`maps the ${account} test account`, async () => {
        expect(await provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS[account] })).to.deep.equal(expected);
      });
    }

    it('answers an unknown account as invalid, like the vendors\' test environments', async () => {
      expect(await provider.verify({ ifsc: IFSC, accountNumber: '998877665544' })).to.include({ accountExists: false });
    });

    it('turns provider outages, 5xx, timeouts and refused connections into 503 Source Unavailable', async () => {
      const unavailable = { status: 503, message: 'Source Unavailable', headers: {} };
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.sourceUnavailable }))).to.deep.equal(unavailable);
      sim.setDown(true);
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.individual }))).to.deep.equal(unavailable);
      sim.setDown(false);
      sim.setLatency(600);
      const hasty = setu({ timeoutMs: 150 });
      const started = Date.now();
      expect(await failure(hasty.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.individual }))).to.deep.equal(unavailable);
      expect(Date.now() - started).to.be.below(550);
      hasty.close();
      const nobody = setu({ baseUrl: 'http://127.0.0.1:1' });
      expect(await failure(nobody.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.individual }))).to.deep.equal(unavailable);
      nobody.close();
    });

    it('answers refused credentials with a 500 that repeats nothing of the provider, and passes its 429 on', async () => {
      const wrong = setu({ productInstanceId: 'not-ours' });
      expect(await failure(wrong.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.individual })))
        .to.deep.equal({ status: 500, message: 'Internal Server Error', headers: {} });
      wrong.close();
      expect(logs.text()).to.contain('refused our credentials').and.not.contain('not-ours');
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.rateLimited })))
        .to.deep.equal({ status: 429, message: 'Too Many Requests', headers: { 'Retry-After': '1' } });
      expect(await failure(provider.verify({ ifsc: IFSC, accountNumber: '12-34' })))
        .to.deep.equal({ status: 422, message: 'Invalid bank account number or ifsc provided', headers: {} });
    });
  });

  describe('PennyLessVerificationService (cache, single flight)', () => {
    let store: Awaited<ReturnType<typeof testRedis>>;
    let service: PennyLessVerificationService;
    const base = (over: Partial<PennyLessVerifyInput> = {}): PennyLessVerifyInput => ({
      apiKey: 'key_live_a', ifsc: IFSC.toLowerCase(), accountNumber: ACCOUNTS.individual, ...over,
    });

    beforeEach(async () => {
      store = await testRedis('pl');
      service = new PennyLessVerificationService({ provider, redis: store.redis, keys: store.keys, keySecret: 'test-cache-key-secret', logger: logs.logger });
    });
    afterEach(() => store.cleanup());

    it('answers in the vendor\'s shape: name for a found account, message and account_exists otherwise', async () => {
      expect(await service.verifyAccount(base())).to.deep.equal({ '@entity': ENTITY, account_exists: true, name_at_bank: 'ANJALI RAO' });
      expect(await service.verifyAccount(base({ accountNumber: ACCOUNTS.invalidAccount })))
        .to.deep.equal({ '@entity': ENTITY, message: 'Invalid account number or ifsc provided', account_exists: false });
    });

    it('x-accept-cache: true answers from the cache; false and absent ask the provider; rail failures are not cached', async () => {
      await service.verifyAccount(base());
      expect(await service.verifyAccount(base({ acceptCache: true }))).to.deep.equal({ '@entity': ENTITY, account_exists: true, name_at_bank: 'ANJALI RAO' });
      expect(sim.requests()).to.equal(1);
      await service.verifyAccount(base({ acceptCache: false }));
      await service.verifyAccount(base());
      expect(sim.requests()).to.equal(3);
      expect((await service.verifyAccount(base({ apiKey: 'key_live_b', acceptCache: true }))).name_at_bank, 'per API key').to.equal('ANJALI RAO');
      expect(sim.requests()).to.equal(4);
      sim.setDown(true);
      await service.verifyAccount(base({ accountNumber: ACCOUNTS.business, acceptCache: true })).catch(() => undefined);
      sim.setDown(false);
      await service.verifyAccount(base({ accountNumber: ACCOUNTS.business, acceptCache: true }));
      expect(sim.requests(), 'an outage is not cached').to.equal(5);
      const [key] = await keysMatching(store.redis, `${store.keys.prefix}:pl*answer`);
      expect(key, 'its own keys, apart from penny drop').to.be.a('string');
      expect(key).to.not.contain(ACCOUNTS.individual);
    });

    it('two identical concurrent requests on two processes make one provider call and both get the answer', async () => {
      sim.setLatency(300);
      const other = new PennyLessVerificationService({ provider, redis: await store.connect(), keys: store.keys, keySecret: 'test-cache-key-secret' });
      const [a, b] = await Promise.all([service.verifyAccount(base()), other.verifyAccount(base())]);
      expect(a).to.deep.equal(b);
      expect(sim.requests()).to.equal(1);
    });

    it('validates input with the vendor\'s 422 messages before calling anyone', async () => {
      expect(await failure(service.verifyAccount(base({ ifsc: 'SBIN745' })))).to.deep.equal({ status: 422, message: 'Invalid IFSC pattern', headers: {} });
      expect(await failure(service.verifyAccount(base({ mobile: '12345' }))))
        .to.deep.equal({ status: 422, message: 'Please provide a valid phone number', headers: {} });
      expect(sim.requests()).to.equal(0);
    });

    it('never logs account numbers or names', async () => {
      await service.verifyAccount(base());
      await service.verifyAccount(base({ acceptCache: true }));
      await failure(service.verifyAccount(base({ accountNumber: ACCOUNTS.sourceUnavailable })));
      const text = logs.text();
      expect(text).to.contain('penny-less verification answered');
      for (const secret of [ACCOUNTS.individual, ACCOUNTS.sourceUnavailable, 'ANJALI']) expect(text).to.not.contain(secret);
    });
  });
});
