import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { FsStorage, KeySpace, Sealer, createLogger, createRedisConnection, isServiceError, waitForRedis } from '@satyapan/core';
import { KycService, OpenIdLockerClient, type LockerKind, type RedisClient } from '@satyapan/kyc';
import { LOCKER_INDIVIDUALS, startLockerSimulator, type LockerSimulator } from '@satyapan/sandbox';

const CLIENT = { clientId: 'user-verify-test', clientSecret: 'user-verify-secret' };
const ASHA = LOCKER_INDIVIDUALS[0]!;
const ENTITY = 'in.co.service.kyc.docvault.user.verification.response';

describe('kyc: locker account check (KycService.verifyUser)', () => {
  let sim: LockerSimulator;
  let redis: RedisClient;
  let root: string;
  let service: KycService;
  const lines: string[] = [];

  before(async () => {
    sim = await startLockerSimulator({ clients: [{ ...CLIENT, name: 'user verify test', redirectUris: ['http://127.0.0.1:1/cb'] }] });
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'kyc-user-verify-test' });
    await waitForRedis(redis);
    root = await mkdtemp(join(tmpdir(), 'satyapan-user-verify-'));
    const locker = (kind: LockerKind) => new OpenIdLockerClient({
      kind, baseUrl: kind === 'docvault' ? sim.docvaultBaseUrl : sim.entityvaultBaseUrl, ...CLIENT, callbackUrl: 'http://127.0.0.1:1/cb',
    });
    const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString()); done(); } });
    service = new KycService({
      redis, keys: new KeySpace(`test-kyc-user-verify-${process.pid}`), storage: new FsStorage({ root, signingSecret: randomBytes(32) }),
      lockers: { docvault: locker('docvault'), entityvault: locker('entityvault') },
      sealer: new Sealer([{ id: 'k1', key: Sealer.generateKey() }]), stateSecret: randomBytes(32),
      logger: createLogger({ stream, level: 'debug' }),
    });
  });
  after(async () => {
    service.close();
    redis.disconnect();
    await sim.close();
    await rm(root, { recursive: true, force: true });
  });
  afterEach(() => sim.resetSwitches());

  const status = async (promise: Promise<unknown>): Promise<[number, string]> => {
    try {
      await promise;
    } catch (error) {
      if (isServiceError(error)) return [error.status, error.message];
      throw error;
    }
    throw new Error('expected a ServiceError');
  };

  it('answers user_exists for an Aadhaar number, a mobile number or both, and logs neither number', async () => {
    expect(await service.verifyUser({ aadhaar_number: ASHA.aadhaarNumber })).to.deep.equal({ '@entity': ENTITY, user_exists: true });
    expect(await service.verifyUser({ mobile: ASHA.mobile })).to.deep.equal({ '@entity': ENTITY, user_exists: true });
    expect(await service.verifyUser({ aadhaar_number: '234123412346', mobile: ASHA.mobile })).to.deep.equal({ '@entity': ENTITY, user_exists: false });
    const text = lines.join('');
    expect(text).to.contain('locker account checked');
    for (const secret of [ASHA.aadhaarNumber, ASHA.mobile, '234123412346']) expect(text).to.not.contain(secret);
  });

  it('needs one of the numbers (400) and maps the locker\'s faults to 429, 503 and 500', async () => {
    expect(await status(service.verifyUser({}))).to.deep.equal([400, 'Invalid request body: aadhaar_number or mobile is required']);
    sim.setRateLimited(true);
    expect(await status(service.verifyUser({ mobile: ASHA.mobile }))).to.deep.equal([429, 'Too Many Requests']);
    sim.resetSwitches();
    sim.setDown(true);
    expect(await status(service.verifyUser({ mobile: ASHA.mobile }))).to.deep.equal([503, 'Source Unavailable']);
    sim.resetSwitches();
    sim.setFailing(true);
    expect(await status(service.verifyUser({ mobile: ASHA.mobile }))).to.deep.equal([500, 'Internal Server Error']);
    expect(lines.join('')).to.not.contain(ASHA.mobile);
  });
});
