import { expect } from 'chai';
import { CashfreePanProvider, type PanRecord } from '@satyapan/kyc';
import { PAN_TEST_VALUES, startPanSimulator } from '@satyapan/sandbox';
import {
  CASHFREE_FIXTURE, OUR_SETUP, SOURCE_UNAVAILABLE, adapterRig, cashfreeExamples, errorsOf, failure,
  itReadsEachExample, meaningsOf, testKeyPair, validatorFor, type Expected,
} from '../../sandbox/test/support/contract.js';

/**
 * Cashfree PAN 360 against Cashfree's own published answers (fixtures/cashfree, its Verification OpenAPI
 * 2023-12-18): each documented example of `POST /pan/advance` is served by a loopback server and read by the
 * adapter, and what the adapter sends is checked against Cashfree's request schema.
 */
const examples = cashfreeExamples('POST /pan/advance');

const OWN: Record<string, Expected<PanRecord>> = {
  '200 Valid PAN': { answer: { providerCode: 'VALID', definitive: true, valid: true, remarks: null, registeredName: 'JOHN SNOW', dateOfBirth: '2004-10-27', aadhaarSeeded: true } },
  '200 Invalid PAN': { answer: { providerCode: 'INVALID', definitive: true, valid: false, remarks: null } },
  '422 Insufficient balance': SOURCE_UNAVAILABLE,
  '400 Invalid PAN Format': { error: { status: 422, message: 'Invalid Pan pattern' } },
  '400 Empty PAN field': { error: { status: 422, message: 'Invalid Pan pattern' } },
  '400 Client ID/Client Secret Missing': OUR_SETUP,
  '400 Using Test Credentials In Prod': OUR_SETUP,
};

/** What Cashfree means by each documented answer of the operation (the shared ones: contract.ts). */
const MEANING = meaningsOf(examples, OWN);

describe('kyc: Cashfree PAN 360 against Cashfree\'s published contract', () => {
  const rig = adapterRig((url, logger) => new CashfreePanProvider({ baseUrl: `${url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', logger: logger }));

  itReadsEachExample({
    provider: 'Cashfree', examples, meanings: MEANING, server: () => rig.server,
    call: () => rig.adapter.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' }),
  });

  it('reads date_of_birth in each spelling Cashfree shows (DD-MM-YYYY, DD/MM/YYYY) and no impossible day', async () => {
    const valid = examples.find((example) => example.name === 'Valid PAN')!.value;
    const read = async (dateOfBirth: string): Promise<string | undefined> => {
      rig.server.answer({ status: 200, body: { ...valid, date_of_birth: dateOfBirth } });
      return (await rig.adapter.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' })).dateOfBirth;
    };
    expect(await read('27-10-2004')).to.equal('2004-10-27');
    expect(await read('01/02/1990')).to.equal('1990-02-01'); // the schema's own example
    expect(await read('1990-02-01')).to.equal('1990-02-01');
    expect(await read('31-02-1990')).to.equal(undefined);
    expect(await read('')).to.equal(undefined);
  });

  it('logs the empty wallet as such, never as a bad PAN', async () => {
    rig.server.answer({ status: 422, body: examples.find((example) => example.status === 422)!.value });
    await failure(rig.adapter.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' }));
    expect(rig.logs.text()).to.contain('too little balance').and.not.contain('rejected the input');
  });

  it('sends requests that Cashfree\'s request schema accepts, to the documented path, a fresh verification_id each time', async () => {
    const validate = validatorFor(CASHFREE_FIXTURE.schemas['PanAdvanceRequestSchema']);
    rig.server.answer({ status: 200, body: examples[0]!.value });
    await rig.adapter.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' });
    await rig.adapter.lookup({ pan: 'LMNCD8010T', name: 'JOHN SNOW' });
    for (const request of rig.server.requests) {
      expect([request.method, request.path]).to.deep.equal(['POST', '/verification/pan/advance']);
      expect(request.headers).to.include({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret' });
      expect(validate(request.json), errorsOf(validate)).to.equal(true);
      expect((request.json as Record<string, string>)['verification_id']).to.match(/^[A-Za-z0-9._-]{1,50}$/);
    }
    const ids = rig.server.requests.map((request) => (request.json as Record<string, string>)['verification_id']);
    expect(ids[0]).to.not.equal(ids[1]);
  });

  it('signs its calls when given Cashfree\'s public key, and the signing simulator accepts them', async () => {
    const keys = testKeyPair();
    const sim = await startPanSimulator({ signature: { privateKeyPem: keys.privateKey } });
    const signing = new CashfreePanProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, publicKeyPem: keys.publicKey });
    const unsigned = new CashfreePanProvider({ baseUrl: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret, logger: rig.logs.logger });
    try {
      expect(await signing.lookup({ pan: PAN_TEST_VALUES.individual, name: 'Anjali Rao' })).to.include({ valid: true, dateOfBirth: '1990-08-15' });
      expect(await failure(unsigned.lookup({ pan: PAN_TEST_VALUES.individual, name: 'Anjali Rao' }))).to.deep.include({ status: 500 });
      expect(rig.logs.text()).to.contain('egress IP is not whitelisted');
    } finally {
      signing.close();
      unsigned.close();
      await sim.close();
    }
  });
});
