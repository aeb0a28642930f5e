import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { KeySpace, createLogger, createRedisConnection, isServiceError, serviceError, waitForRedis, type Logger, type RedisConnection } from '@satyapan/core';
import {
  CashfreePanProvider, IncomeTaxLinkStatusProvider, PanAadhaarLinkService, PanVerificationService, type PanVerifyInput, type PanAadhaarLinkInput,
} from '@satyapan/kyc';
import {
  PAN_TEST_VALUES as PANS, VENDOR_PAN_TEST_VALUES as VENDOR, startPanAadhaarLinkSimulator, startPanSimulator, type PanSimulator, type SimulatorControls,
} from '@satyapan/sandbox';
import { deleteKeysMatching, keysMatching } from '../../../test/support/redis-cluster.js';

const VERIFY_ENTITY = 'in.co.service.kyc.pan_verification.response';
const LINK_ENTITY = 'in.co.service.kyc.pan_aadhaar.status.response';
const AADHAAR = '234567890123';

function capturedLogger(): { logger: Logger; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString()); done(); } });
  return { logger: createLogger({ stream, level: 'debug' }), text: () => lines.join('') };
}

async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return { status: error.status, message: error.message };
  }
  throw new Error('expected a ServiceError');
}

const UNAVAILABLE = { status: 503, message: 'Source Unavailable' };

describe('kyc: PAN verification and PAN-Aadhaar link status', () => {
  let panSim: PanSimulator;
  let linkSim: SimulatorControls;
  let logs: ReturnType<typeof capturedLogger>;
  let pan: CashfreePanProvider;
  let link: IncomeTaxLinkStatusProvider;
  let redis: RedisConnection;
  let keys: KeySpace;
  const opened: RedisConnection[] = [];
  const cashfree = (over: Partial<ConstructorParameters<typeof CashfreePanProvider>[0]> = {}): CashfreePanProvider => new CashfreePanProvider({
    baseUrl: `${panSim.url}/verification`, clientId: panSim.clientId, clientSecret: panSim.clientSecret, timeoutMs: 2_000, logger: logs.logger, ...over,
  });
  const connect = async (): Promise<RedisConnection> => {
    const connection = createRedisConnection({ flavour: 'producer', connectionName: 'kyc-pan-test' });
    opened.push(connection);
    await waitForRedis(connection);
    return connection;
  };

  beforeEach(async () => {
    [panSim, linkSim] = await Promise.all([startPanSimulator(), startPanAadhaarLinkSimulator()]);
    logs = capturedLogger();
    pan = cashfree();
    link = new IncomeTaxLinkStatusProvider({ baseUrl: linkSim.url, timeoutMs: 2_000, logger: logs.logger });
    redis = await connect();
    keys = new KeySpace(`test:kyc-pan:${process.pid}:${Date.now()}:${randomBytes(4).toString('hex')}`);
  });
  afterEach(async () => {
    pan.close();
    link.close();
    await deleteKeysMatching(redis, `${keys.prefix}*`);
    for (const connection of opened.splice(0)) connection.disconnect();
    await Promise.all([panSim.close(), linkSim.close()]);
  });

  describe('Cashfree PAN 360 adapter against the simulator', () => {
    it('reads a valid individual\'s record: registered name, date of birth, Aadhaar seeding', async () => {
      expect(await pan.lookup({ pan: PANS.individual, name: 'Anjali Rao' })).to.deep.equal({
        providerCode: 'VALID', definitive: true, valid: true, remarks: null, registeredName: 'ANJALI RAO', dateOfBirth: '1990-08-15', aadhaarSeeded: true,
      });
      expect(await pan.lookup({ pan: PANS.company, name: 'x' })).to.include({ valid: true, registeredName: 'SATYAPAN DEMO TECHNOLOGIES PRIVATE LIMITED' });
    });

    it('answers an invalid PAN, and any PAN it does not know, as invalid', async () => {
      expect(await pan.lookup({ pan: PANS.invalid, name: 'x' })).to.deep.equal({ providerCode: 'INVALID', definitive: true, valid: false, remarks: null });
      expect(await pan.lookup({ pan: 'QWEPZ9876K', name: 'x' })).to.include({ valid: false });
    });

    it('turns outages, timeouts and refused connections into 503, refused credentials into a 500 that says nothing', async () => {
      expect(await failure(pan.lookup({ pan: PANS.sourceUnavailable, name: 'x' }))).to.deep.equal(UNAVAILABLE);
      panSim.setDown(true);
      expect(await failure(pan.lookup({ pan: PANS.individual, name: 'x' }))).to.deep.equal(UNAVAILABLE);
      panSim.setDown(false);
      panSim.setLatency(500);
      const hasty = cashfree({ timeoutMs: 100 });
      const started = Date.now();
      expect(await failure(hasty.lookup({ pan: PANS.individual, name: 'x' }))).to.deep.equal(UNAVAILABLE);
      expect(Date.now() - started).to.be.below(450);
      hasty.close();
      panSim.setLatency(0);
      const nobody = cashfree({ baseUrl: 'http://127.0.0.1:1/verification' });
      expect(await failure(nobody.lookup({ pan: PANS.individual, name: 'x' }))).to.deep.equal(UNAVAILABLE);
      nobody.close();
      const wrong = cashfree({ clientSecret: 'not-ours' });
      expect(await failure(wrong.lookup({ pan: PANS.individual, name: 'x' }))).to.deep.equal({ status: 500, message: 'Internal Server Error' });
      wrong.close();
      expect(logs.text()).to.contain('refused our credentials').and.not.contain('not-ours');
    });

    it('refuses plain http off loopback', () => {
      expect(() => new CashfreePanProvider({ baseUrl: 'http://example.com/verification', clientId: 'a', clientSecret: 'b' })).to.throw(/loopback/);
    });
  });

  describe('e-filing portal link status adapter against the simulator', () => {
    const cases: [string, string, object][] = [
      ['linked', PANS.individual, { state: 'linked', aadhaarLastFour: AADHAAR.slice(-4) }],
      ['not linked', PANS.individualNotSeeded, { state: 'not_linked' }],
      ['linked to another PAN', PANS.linkedElsewhere, { state: 'linked_elsewhere' }],
      ['PAN does not exist', PANS.invalid, { state: 'pan_not_found' }],
      ['invalid Aadhaar number', PANS.invalidAadhaar, { state: 'invalid_aadhaar' }],
      ['PAN linked to another Aadhaar number (EF40026, never "linked")', PANS.panLinkedElsewhere, { state: 'pan_linked_elsewhere' }],
      ['the vendor\'s linked PAN: linked to the number sent', VENDOR.individual, { state: 'linked', aadhaarLastFour: AADHAAR.slice(-4) }],
    ];
    for (const [label, value, expected] of cases) {
      it(`maps ${label}`, async () => {
        expect(await link.linkStatus({ pan: value, aadhaarNumber: AADHAAR })).to.include(expected).and.include({ definitive: true });
      });
    }

    it('turns an outage and a timeout into 503', async () => {
      expect(await failure(link.linkStatus({ pan: PANS.sourceUnavailable, aadhaarNumber: AADHAAR }))).to.deep.equal(UNAVAILABLE);
      linkSim.setLatency(400);
      const hasty = new IncomeTaxLinkStatusProvider({ baseUrl: linkSim.url, timeoutMs: 100 });
      expect(await failure(hasty.linkStatus({ pan: PANS.individual, aadhaarNumber: AADHAAR }))).to.deep.equal(UNAVAILABLE);
      hasty.close();
      // A message the adapter does not know: cashfree-pan-contract's sibling, income-tax-portal-contract.test.ts.
    });
  });

  describe('PanVerificationService', () => {
    let service: PanVerificationService;
    const input = (over: Partial<PanVerifyInput> = {}): PanVerifyInput => ({
      apiKey: 'key_live_a', pan: PANS.individual, nameAsPerPan: 'Anjali Rao', dateOfBirth: '15/08/1990', consent: 'Y', reason: 'Onboarding', ...over,
    });
    beforeEach(() => {
      service = new PanVerificationService({ provider: pan, redis, keys, keySecret: 'test-cache-key-secret', logger: logs.logger });
    });

    it('answers in the vendor\'s shape, with the name compared by @satyapan/name-match and the date compared exactly', async () => {
      expect(await service.verifyPan(input())).to.deep.equal({
        '@entity': VERIFY_ENTITY, pan: PANS.individual, category: 'individual', status: 'valid', remarks: null,
        name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'y',
      });
      const initials = await service.verifyPan(input({ nameAsPerPan: 'Ms. Anjali R.' }));
      expect(initials.name_as_per_pan_match, 'honorific dropped, initial matched').to.equal(true);
      expect(await service.verifyPan(input({ nameAsPerPan: 'Vikram Singh', dateOfBirth: '16/08/1990' })))
        .to.include({ name_as_per_pan_match: false, date_of_birth_match: false });
      expect(await service.verifyPan(input({ pan: PANS.individualNotSeeded, nameAsPerPan: 'Rahul Verma', dateOfBirth: '01/02/1985' })))
        .to.include({ aadhaar_seeding_status: 'n', name_as_per_pan_match: true, date_of_birth_match: true });
    });

    it('compares a business\'s name by business rules and reports seeding not applicable', async () => {
      expect(await service.verifyPan(input({ pan: PANS.company, nameAsPerPan: 'Satyapan Demo Technologies Pvt. Ltd.', dateOfBirth: '01/04/2015' }))).to.deep.equal({
        '@entity': VERIFY_ENTITY, pan: PANS.company, category: 'company', status: 'valid', remarks: null,
        name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'na',
      });
    });

    it('answers an invalid PAN with status invalid and nothing matching', async () => {
      expect(await service.verifyPan(input({ pan: PANS.invalid }))).to.deep.equal({
        '@entity': VERIFY_ENTITY, pan: PANS.invalid, category: 'individual', status: 'invalid', remarks: null,
        name_as_per_pan_match: false, date_of_birth_match: false, aadhaar_seeding_status: 'na',
      });
    });

    it('reproduces the vendor\'s examples with its sandbox PANs', async () => {
      const vendor = (value: string, name: string, dateOfBirth: string) => service.verifyPan(input({ pan: value, nameAsPerPan: name, dateOfBirth }));
      expect(await vendor(VENDOR.individual, 'John Ronald Doe', '11/11/2001')).to.include({ name_as_per_pan_match: true, date_of_birth_match: true, aadhaar_seeding_status: 'y' });
      expect(await vendor(VENDOR.dateOfBirthMismatch, 'James Hope', '10/11/1999')).to.include({ name_as_per_pan_match: true, date_of_birth_match: false });
      expect(await vendor(VENDOR.nameAndDateMismatch, 'James Hope Jr', '10/11/1999')).to.include({ name_as_per_pan_match: false, date_of_birth_match: false });
      expect(await vendor(VENDOR.associationOfPersons, 'Doe Associations', '08/12/1991')).to.include({ category: 'association_of_persons', name_as_per_pan_match: false });
      expect(await vendor(VENDOR.bodyOfIndividuals, 'Doe Industries', '08/12/1991')).to.include({ category: 'body_of_individuals', name_as_per_pan_match: false, date_of_birth_match: true });
      expect(await vendor(VENDOR.invalid, 'Tom Wells', '10/11/1999')).to.include({ category: 'firm', status: 'invalid' });
    });

    it('x-accept-cache: true answers from the cache, per API key, and compares this request\'s name; failures are not cached', async () => {
      await service.verifyPan(input());
      expect(panSim.requests()).to.equal(1);
      const cached = await service.verifyPan(input({ acceptCache: true, nameAsPerPan: 'Somebody Else' }));
      expect(cached).to.include({ status: 'valid', name_as_per_pan_match: false });
      expect(panSim.requests()).to.equal(1);
      await service.verifyPan(input({ acceptCache: false }));
      await service.verifyPan(input());
      expect(panSim.requests()).to.equal(3);
      await service.verifyPan(input({ apiKey: 'key_live_b', acceptCache: true }));
      expect(panSim.requests(), 'another API key never sees this one\'s answers').to.equal(4);
      panSim.setDown(true);
      expect(await failure(service.verifyPan(input({ pan: PANS.company, acceptCache: true })))).to.deep.equal(UNAVAILABLE);
      panSim.setDown(false);
      await service.verifyPan(input({ pan: PANS.company, acceptCache: true }));
      expect(panSim.requests(), 'the 503 was not cached').to.equal(5);
      const stored = await keysMatching(redis, `${keys.prefix}:pan*`);
      expect(stored.length).to.be.greaterThan(0);
      for (const key of stored) expect(key).to.not.contain(PANS.individual).and.not.contain(PANS.company);
    });

    it('seals cached records when given a sealer: Redis never holds the registered name in clear', async () => {
      const { Sealer } = await import('@satyapan/core');
      const sealed = new PanVerificationService({ provider: pan, redis, keys: keys.child('sealed'), keySecret: 'test-cache-key-secret', sealer: new Sealer([{ id: 't', key: Sealer.generateKey() }]) });
      await sealed.verifyPan(input());
      const [key] = await keysMatching(redis, `${keys.prefix}:sealed:pan*answer`);
      expect(await redis.get(key!)).to.be.a('string').and.not.contain('ANJALI');
      expect(await sealed.verifyPan(input({ acceptCache: true }))).to.include({ name_as_per_pan_match: true });
      expect(panSim.requests()).to.equal(1);
    });

    it('makes one provider call for two concurrent identical requests on two processes', async () => {
      panSim.setLatency(300);
      const other = new PanVerificationService({ provider: pan, redis: await connect(), keys, keySecret: 'test-cache-key-secret' });
      const [a, b] = await Promise.all([service.verifyPan(input()), other.verifyPan(input())]);
      expect(a).to.deep.equal(b);
      expect(panSim.requests()).to.equal(1);
    });

    it('checks input with the vendor\'s messages, naming the field, before calling anyone', async () => {
      const cases: [Partial<PanVerifyInput>, string][] = [
        [{ pan: 'XXXPX123EE' }, 'Invalid Pan pattern'],
        [{ pan: 'sbxpr1001a' }, 'Invalid Pan pattern'],
        [{ nameAsPerPan: '  ' }, 'Invalid name_as_per_pan: must be 1 to 200 characters'],
        [{ dateOfBirth: '1990-08-15' }, 'Invalid date_of_birth: must be a date as DD/MM/YYYY'],
        [{ dateOfBirth: '31/02/1990' }, 'Invalid date_of_birth: must be a date as DD/MM/YYYY'],
        [{ reason: '' }, 'Reason cannot be empty'],
        [{ consent: 'N' }, 'Invalid parameter: Consent is required.'],
      ];
      for (const [over, message] of cases) expect(await failure(service.verifyPan(input(over))), message).to.deep.equal({ status: 422, message });
      expect(panSim.requests()).to.equal(0);
    });

    it('validates its name-match threshold at construction', () => {
      expect(() => new PanVerificationService({ provider: pan, redis, keys, keySecret: 'test-cache-key-secret', nameMatchThreshold: 2 })).to.throw(RangeError);
    });
  });

  describe('PanAadhaarLinkService', () => {
    let service: PanAadhaarLinkService;
    const input = (over: Partial<PanAadhaarLinkInput> = {}): PanAadhaarLinkInput => ({
      apiKey: 'key_live_a', pan: PANS.individual, aadhaarNumber: AADHAAR, consent: 'y', reason: 'KYC refresh', ...over,
    });
    beforeEach(() => {
      service = new PanAadhaarLinkService({ provider: link, redis, keys, keySecret: 'a-keyed-hash-secret', logger: logs.logger });
    });

    it('answers each state with the vendor\'s message', async () => {
      const answer = async (value: string) => service.linkStatus(input({ pan: value }));
      expect(await answer(PANS.individual)).to.deep.equal({ '@entity': LINK_ENTITY, aadhaar_seeding_status: 'y', message: 'Your PAN is linked to Aadhaar Number  XXXX XXXX 0123.' });
      expect(await answer(PANS.individualNotSeeded)).to.deep.equal({ '@entity': LINK_ENTITY, aadhaar_seeding_status: 'n', message: 'PAN not linked with Aadhaar' });
      expect(await answer(PANS.linkedElsewhere)).to.include({ aadhaar_seeding_status: 'n', message: 'Your Aadhaar Number is linked to some other PAN' });
      expect(await answer(PANS.invalid)).to.include({ message: 'PAN does not exist' });
      expect(await answer(PANS.invalidAadhaar)).to.include({ message: 'Please enter a valid Aadhaar Number' });
      expect(await answer(PANS.panLinkedElsewhere)).to.include({ aadhaar_seeding_status: 'n', message: 'Your PAN is linked to some other Aadhaar Number' });
      expect(await failure(answer(PANS.sourceUnavailable))).to.deep.equal(UNAVAILABLE);
    });

    it('caches per API key, PAN and Aadhaar number under a keyed hash', async () => {
      await service.linkStatus(input());
      await service.linkStatus(input({ acceptCache: true }));
      expect(linkSim.requests()).to.equal(1);
      await service.linkStatus(input({ acceptCache: true, aadhaarNumber: '345678901234' }));
      await service.linkStatus(input({ acceptCache: true, apiKey: 'key_live_b' }));
      expect(linkSim.requests()).to.equal(3);
      for (const key of await keysMatching(redis, `${keys.prefix}*`)) expect(key).to.not.contain(AADHAAR).and.not.contain(PANS.individual);
    });

    it('checks input with the vendor\'s messages before calling anyone (reason before consent, as its example shows)', async () => {
      const cases: [Partial<PanAadhaarLinkInput>, string][] = [
        [{ pan: 'XXPP45X' }, 'Invalid PAN pattern'],
        [{ pan: 'XXPCX2345X' }, 'Individuals PAN is required'],
        [{ aadhaarNumber: '1234' }, 'Invalid Aadhaar number pattern'],
        [{ consent: 'n', reason: '' }, 'Reason cannot be empty'],
        [{ consent: 'n' }, 'invalid parameter: Consent is required.'],
      ];
      for (const [over, message] of cases) expect(await failure(service.linkStatus(input(over))), message).to.deep.equal({ status: 422, message });
      expect(linkSim.requests()).to.equal(0);
    });

    it('awaits beforeProviderCall right before the source is asked, and only then; a rejection skips the call', async () => {
      let calls = 0;
      const before = async (): Promise<void> => void calls++;
      await service.linkStatus(input({ beforeProviderCall: before }));
      await service.linkStatus(input({ acceptCache: true, beforeProviderCall: before }));
      expect({ calls, requests: linkSim.requests() }).to.deep.equal({ calls: 1, requests: 1 });
      const refused = await failure(service.linkStatus(input({ beforeProviderCall: () => Promise.reject(serviceError('TOO_MANY_REQUESTS')) })));
      expect(refused).to.deep.equal({ status: 429, message: 'Too Many Requests' });
      expect(linkSim.requests()).to.equal(1);
    });
  });

  describe('logs', () => {
    it('never carry a PAN, a name, a date of birth or an Aadhaar number: the services log none, and the redaction rules scrub one logged by mistake', async () => {
      const verify = new PanVerificationService({ provider: pan, redis, keys, keySecret: 'test-cache-key-secret', logger: logs.logger });
      const status = new PanAadhaarLinkService({ provider: link, redis, keys, keySecret: 'test-cache-key-secret', logger: logs.logger });
      const base = { apiKey: 'key_live_a', consent: 'Y', reason: 'Onboarding' };
      await verify.verifyPan({ ...base, pan: PANS.individual, nameAsPerPan: 'Anjali Rao', dateOfBirth: '15/08/1990' });
      await verify.verifyPan({ ...base, pan: PANS.individual, nameAsPerPan: 'Anjali Rao', dateOfBirth: '15/08/1990', acceptCache: true });
      await failure(verify.verifyPan({ ...base, pan: PANS.sourceUnavailable, nameAsPerPan: 'Anjali Rao', dateOfBirth: '15/08/1990' }));
      await status.linkStatus({ ...base, pan: PANS.individual, aadhaarNumber: AADHAAR });
      await failure(status.linkStatus({ ...base, pan: PANS.sourceUnavailable, aadhaarNumber: AADHAAR }));
      // A developer's mistake: the PAN in a message and under keys the rules know.
      logs.logger.warn(`verifying ${PANS.company} for ${AADHAAR.slice(0, 4)} ${AADHAAR.slice(4, 8)} ${AADHAAR.slice(8)}`, { pan: PANS.company, request: { pan_number: VENDOR.individual, date_of_birth: '15/08/1990' } });
      const text = logs.text();
      expect(text).to.contain('PAN verification answered').and.contain('PAN-Aadhaar link status answered').and.contain('[REDACTED:pan]');
      for (const secret of [...Object.values(PANS), VENDOR.individual, 'ANJALI', 'Anjali', '15/08/1990', '1990-08-15', AADHAAR, AADHAAR.slice(8)]) {
        expect(text, secret).to.not.contain(secret);
      }
    });
  });
});
