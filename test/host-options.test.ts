// What a host passes our constructors and factories: each missing or malformed setting is one OptionError that
// names it (and says what to give), at start, never a TypeError from deep inside (docs/EMBEDDING.md, "Options").
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { KeySpace, OptionError, Sealer, FsStorage, createRedisConnection, type RedisConnection } from '@satyapan/core';
import { CashfreePennyDropProvider, SetuPennyLessProvider, createBankService } from '@satyapan/bank';
import { CashfreePanProvider, IncomeTaxLinkStatusProvider, createKycServices, type KycServicesConfig } from '@satyapan/kyc';
import { StatementService } from '@satyapan/statement-queue';
import { createRouter } from '@satyapan/router';

const NONE = undefined as never;

function expectOption(build: () => unknown, option: string, message: RegExp): void {
  let thrown: unknown;
  try {
    build();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `${option}: nothing thrown`).to.be.instanceOf(OptionError);
  expect(thrown).to.have.property('option', option);
  expect((thrown as Error).message).to.match(message);
}

async function expectOptionAsync(build: () => Promise<unknown>, option: string, message: RegExp): Promise<void> {
  const thrown = await build().then(() => undefined, (error: unknown) => error);
  expect(thrown, `${option}: nothing thrown`).to.be.instanceOf(OptionError);
  expect(thrown).to.have.property('option', option);
  expect((thrown as Error).message).to.match(message);
}

describe('host options: a missing or malformed setting is named', () => {
  let redis: RedisConnection;
  const cashfree = { baseUrl: 'http://127.0.0.1:9/verification', clientId: 'id', clientSecret: 'secret' };
  before(() => {
    redis = createRedisConnection({ flavour: 'producer', overrides: { lazyConnect: true } });
  });
  after(() => redis.disconnect());

  it('the Cashfree adapters name their URL and credentials', () => {
    expectOption(() => new CashfreePennyDropProvider({ ...cashfree, baseUrl: NONE }), 'baseUrl', /^CashfreePennyDropProvider: baseUrl is missing: the Verification API URL/);
    expectOption(() => new CashfreePennyDropProvider({ ...cashfree, baseUrl: 'api.cashfree.com' }), 'baseUrl', /^CashfreePennyDropProvider: baseUrl must be an absolute http\(s\) URL/);
    expectOption(() => new CashfreePennyDropProvider({ ...cashfree, clientId: NONE }), 'clientId', /^CashfreePennyDropProvider: clientId is missing/);
    expectOption(() => new CashfreePennyDropProvider({ ...cashfree, clientSecret: '' }), 'clientSecret', /^CashfreePennyDropProvider: clientSecret is missing/);
    expectOption(() => new CashfreePanProvider({ ...cashfree, clientSecret: NONE }), 'clientSecret', /^CashfreePanProvider: clientSecret is missing/);
    expectOption(() => new SetuPennyLessProvider({ ...cashfree, productInstanceId: NONE }), 'productInstanceId', /^SetuPennyLessProvider: productInstanceId is missing/);
    expectOption(() => new IncomeTaxLinkStatusProvider({ baseUrl: NONE }), 'baseUrl', /^IncomeTaxLinkStatusProvider: baseUrl is missing/);
  });

  it('createBankService wants the cache key secret of each verification', async () => {
    const settings = { redis, keys: new KeySpace('t').child('bank'), provider: new CashfreePennyDropProvider(cashfree) };
    await expectOptionAsync(() => createBankService({ verification: { ...settings, keySecret: NONE } }), 'verification.keySecret',
      /^createBankService: verification\.keySecret is missing: give a random secret of 16 bytes or more/);
    await expectOptionAsync(() => createBankService({ verification: { ...settings, keySecret: 'short' } }), 'verification.keySecret',
      /must be at least 16 bytes, got 5/);
  });

  it('createKycServices names its secrets, keys and lockers', () => {
    const locker = { baseUrl: 'http://127.0.0.1:9/public', clientId: 'id', clientSecret: 'secret', callbackUrl: 'https://kyc.acme.in/api/kyc/docvault/callback' };
    const config: KycServicesConfig = {
      redis, storage: new FsStorage({ root: '/tmp/unused', signingSecret: randomBytes(32) }), keyPrefix: 't', documentSweepIntervalMs: 0,
      sealingKeys: [{ id: 'k1', key: Sealer.generateKey() }], stateSecret: randomBytes(32), lockers: { docvault: locker, entityvault: locker },
    };
    expectOption(() => createKycServices({ ...config, stateSecret: NONE }), 'stateSecret', /^createKycServices: stateSecret is missing/);
    expectOption(() => createKycServices({ ...config, stateSecret: 'short' }), 'stateSecret', /^createKycServices: stateSecret must be at least 16 bytes/);
    expectOption(() => createKycServices({ ...config, sealingKeys: NONE }), 'sealingKeys', /^createKycServices: sealingKeys is missing/);
    expectOption(() => createKycServices({ ...config, lockers: { docvault: locker } as never }), 'lockers.entityvault', /^createKycServices: lockers\.entityvault is missing/);
    expectOption(() => createKycServices({ ...config, lockers: { docvault: { ...locker, clientSecret: NONE }, entityvault: locker } }), 'clientSecret',
      /^docvault locker: clientSecret is missing/);
    expectOption(() => createKycServices({ ...config, lockers: { docvault: { ...locker, callbackUrl: 'https://api.example.com/kyc-api/kyc/docvault/callback' }, entityvault: locker } }),
      'callbackUrl', /^docvault locker: callbackUrl is https:\/\/api\.example\.com, a documentation placeholder/);
    expectOption(() => createKycServices({ ...config, pan: { ...cashfree, cacheKeySecret: NONE } }), 'pan.cacheKeySecret', /^createKycServices: pan\.cacheKeySecret is missing/);
  });

  it('Sealer, FsStorage, StatementService and createRouter name what is missing; a placeholder public URL is refused', () => {
    expectOption(() => new Sealer([{ id: 'k1', key: NONE }]), 'keys[0].key', /^Sealer: the key of sealing key k1 is missing/);
    const signingSecret = randomBytes(32);
    expectOption(() => new FsStorage({ root: NONE, signingSecret }), 'root', /^FsStorage: root is missing/);
    expectOption(() => new FsStorage({ root: '/tmp/x', signingSecret, publicBaseUrl: 'https://api.example.com/kyc-api/storage' }), 'publicBaseUrl',
      /^FsStorage: publicBaseUrl is https:\/\/api\.example\.com, a documentation placeholder .*: set it to the URL your clients reach this host at$/);
    const storage = new FsStorage({ root: '/tmp/x', signingSecret });
    expectOption(() => new StatementService({ redis, storage, sealer: NONE }), 'sealer', /^StatementService: sealer is missing: give new Sealer\(sealingKeys\)/);
    const router = { redis, storage, clients: [], tokens: { secret: randomBytes(32).toString('hex') } };
    expectOption(() => createRouter({ ...router, publicBaseUrl: 'https://api.example.com/kyc-api' }), 'publicBaseUrl', /^createRouter: publicBaseUrl is https:\/\/api\.example\.com/);
    expectOption(() => createRouter({ ...router, publicBaseUrl: 'api.acme.in/kyc-api' }), 'publicBaseUrl', /^createRouter: publicBaseUrl must be an absolute http\(s\) URL/);
    expectOption(() => createRouter({ ...router, storage: NONE }), 'storage', /^createRouter: storage is missing: give the object storage/);
    expectOption(() => createRouter({ ...router, tokens: { secret: NONE } }), 'tokens.secret', /^tokens\.secret is missing/);
  });
});
