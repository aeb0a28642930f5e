import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { CashfreePanProvider, type PanRecord } from '@satyapan/kyc';
import { PAN_TEST_VALUES, startPanSimulator } from '@satyapan/sandbox';
import { capturedLogger, failure } from '../../bank/test/support/observe.js';
import { errorsOf, loadFixture, meaningsOf, startContractServer, validatorFor, type ContractServer } from '../../sandbox/test/support/contract.js';

/**
 * Cashfree PAN 360 against Cashfree's own published answers (fixtures/cashfree, its Verification OpenAPI
 * 2023-12-18): each documented example of `POST /pan/advance` is served by a loopback server and read by the
 * adapter, and what the adapter sends is checked against Cashfree's request schema.
 */
interface Example { operation: string; status: number; name: string; component: string; value: Record<string, unknown> }
const fixture = loadFixture<{ schemas: Record<string, unknown>; examples: Example[] }>('cashfree/verification-openapi.json');
const OPERATION = 'POST /pan/advance';
const examples = fixture.examples.filter((example) => example.operation === OPERATION);

type Expected = { record: PanRecord } | { error: { status: number; message: string } };
const unavailable: Expected = { error: { status: 503, message: 'Source Unavailable' } };
const ours: Expected = { error: { status: 500, message: 'Internal Server Error' } };
const OWN: Record<string, Expected> = {
  '200 Valid PAN': { record: { providerCode: 'VALID', definitive: true, valid: true, remarks: null, registeredName: 'JOHN SNOW', dateOfBirth: '2004-10-27', aadhaarSeeded: true } },
  '200 Invalid PAN': { record: { providerCode: 'INVALID', definitive: true, valid: false, remarks: null } },
  '422 Insufficient balance': unavailable,
  '400 Invalid PAN Format': { error: { status: 422, message: 'Invalid Pan pattern' } },
  '400 Empty PAN field': { error: { status: 422, message: 'Invalid Pan pattern' } },
  '400 Client ID/Client Secret Missing': ours,
  '400 Using Test Credentials In Prod': ours,
};

/** What Cashfree means by each documented answer of the operation (the shared ones: contract.ts). */
const MEANING = meaningsOf(examples, OWN);

describe('kyc: Cashfree PAN 360 against Cashfree\'s published contract', () => {
  let server: ContractServer;
  let logs: ReturnType<typeof capturedLogger>;
  let provider: CashfreePanProvider;

  beforeEach(async () => {
    server = await startContractServer();
    logs = capturedLogger();
    provider = new CashfreePanProvider({ baseUrl: `${server.url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', logger: logs.logger });
  });
  afterEach(async () => {
    provider.close();
    await server.close();
  });

  for (const example of examples) {
    it(`reads ${example.status} "${example.name}" (${example.component}) as Cashfree means it`, async () => {
      server.answer({ status: example.status, body: example.value });
      const expected = MEANING.get(`${example.status} ${example.name}`)!;
      const attempt = provider.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' });
      if ('record' in expected) expect(await attempt).to.deep.equal(expected.record);
      else expect(await failure(attempt)).to.deep.include(expected.error);
    });
  }

  it('reads date_of_birth in each spelling Cashfree shows (DD-MM-YYYY, DD/MM/YYYY) and no impossible day', async () => {
    const valid = examples.find((example) => example.name === 'Valid PAN')!.value;
    const read = async (dateOfBirth: string): Promise<string | undefined> => {
      server.answer({ status: 200, body: { ...valid, date_of_birth: dateOfBirth } });
      return (await provider.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' })).dateOfBirth;
    };
    expect(await read('27-10-2004')).to.equal('2004-10-27');
    expect(await read('01/02/1990')).to.equal('1990-02-01'); // the schema's own example
    expect(await read('1990-02-01')).to.equal('1990-02-01');
    expect(await read('31-02-1990')).to.equal(undefined);
    expect(await read('')).to.equal(undefined);
  });

  it('logs the empty wallet as such, never as a bad PAN', async () => {
    server.answer({ status: 422, body: examples.find((example) => example.status === 422)!.value });
    await failure(provider.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' }));
    expect(logs.text()).to.contain('too little balance').and.not.contain('rejected the input');
  });

  it('sends requests that Cashfree\'s request schema accepts, to the documented path, a fresh verification_id each time', async () => {
    const validate = validatorFor(fixture.schemas['PanAdvanceRequestSchema']);
    server.answer({ status: 200, body: examples[0]!.value });
    await provider.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' });
    await provider.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' });
    for (const request of server.requests) {
      expect([request.method, request.path]).to.deep.equal(['POST', '/verification/pan/advance']);
      expect(request.headers).to.include({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret' });
      expect(validate(request.json), errorsOf(validate)).to.equal(true);
      expect((request.json as Record<string, string>)['verification_id']).to.match(/^[A-Za-z0-9._-]{1,50}$/);
    }
    const ids = server.requests.map((request) => (request.json as Record<string, string>)['verification_id']);
    expect(ids[0]).to.not.equal(ids[1]);
  });

  it('signs its calls when given Cashfree\'s public key, and the signing simulator accepts them', async () => {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    const sim = await startPanSimulator({ signature: { privateKeyPem: keys.privateKey } });
    const signing = new CashfreePanProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, publicKeyPem: keys.publicKey });
    const unsigned = new CashfreePanProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, logger: logs.logger });
    try {
      expect(await signing.lookup({ pan: PAN_TEST_VALUES.individual, name: 'Anjali Rao' })).to.include({ valid: true, dateOfBirth: '1990-08-15' });
      expect(await failure(unsigned.lookup({ pan: PAN_TEST_VALUES.individual, name: 'Anjali Rao' }))).to.deep.include({ status: 500 });
      expect(logs.text()).to.contain('egress IP is not whitelisted');
    } finally {
      signing.close();
      unsigned.close();
      await sim.close();
    }
  });
});
