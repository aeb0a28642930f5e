import { expect } from 'chai';
import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { CashfreePennyDropProvider, type PennyDropOutcome } from '@satyapan/bank';
import {
  PENNY_DROP_TEST_ACCOUNTS as ACCOUNTS, PENNY_DROP_TEST_IFSC as IFSC, startPennyDropSimulator,
} from '@satyapan/sandbox';
import { capturedLogger, failure } from './support/observe.js';
import {
  errorsOf, loadFixture, meaningsOf, startContractServer, validatorFor, type ContractServer,
} from '../../sandbox/test/support/contract.js';

/**
 * Cashfree penny drop against Cashfree's own published answers (fixtures/cashfree, its Verification OpenAPI
 * 2023-12-18): each documented example of `POST /bank-account/sync` is served by a loopback server and read by
 * the adapter, and what the adapter sends is checked against Cashfree's request schema. The expectations say what
 * Cashfree means by each answer; none of it comes from our simulator.
 */
interface Example { operation: string; status: number; name: string; component: string; value: Record<string, unknown> }
interface CashfreeFixture { schemas: Record<string, unknown>; examples: Example[] }

const fixture = loadFixture<CashfreeFixture>('cashfree/verification-openapi.json');
const OPERATION = 'POST /bank-account/sync';
const examples = fixture.examples.filter((example) => example.operation === OPERATION);

type Expected = { outcome: Omit<PennyDropOutcome, 'utr' | 'nameAtBank'> & { nameAtBank?: string; utr?: string } } | { error: { status: number; message: string } };
const rail = (providerCode: string, message: string): Expected => ({ outcome: { providerCode, message, deposited: false, definitive: false } });
const unavailable: Expected = { error: { status: 503, message: 'Source Unavailable' } };
const ours: Expected = { error: { status: 500, message: 'Internal Server Error' } }; // our setup
const input = (message: string): Expected => ({ error: { status: 422, message } });

/** What Cashfree means by each of this operation's documented answers, keyed `status name` (the shared ones: contract.ts). */
const OWN: Record<string, Expected> = {
  '200 Valid account': { outcome: {
    providerCode: 'ACCOUNT_IS_VALID', message: 'Bank Account details verified successfully.', accountExists: true, deposited: true, definitive: true,
    nameAtBank: 'BHARATHTEST GKUMARUT', utr: '404223241811',
  } },
  '200 Invalid account': { outcome: { providerCode: 'INVALID_ACCOUNT_FAIL', message: 'Invalid account number or ifsc provided', accountExists: false, deposited: false, definitive: true } },
  '200 Account blocked': { outcome: { providerCode: 'ACCOUNT_BLOCKED', message: 'Account is blocked', accountExists: true, deposited: false, definitive: true } },
  '200 Invalid IFSC fail': { outcome: { providerCode: 'INVALID_IFSC_FAIL', message: 'IFSC is invalid', deposited: false, definitive: true } },
  '200 NRE account fail': { outcome: { providerCode: 'NRE_ACCOUNT_FAIL', message: 'Given account is an NRE account', accountExists: true, deposited: false, definitive: true } },
  '422 Fraud account provided': { outcome: { providerCode: 'FRAUD_ACCOUNT', message: 'Account is blocked', accountExists: true, deposited: false, definitive: true } },
  '422 Insufficient balance': unavailable,
  '422 Concurrent request in progress': unavailable,
  '422 Failed at bank': { error: { status: 500, message: 'Failed at bank' } },
  '422 NPCI unavailable': rail('NPCI_UNAVAILABLE', 'NPCI Unavailable'),
  '422 Connection timeout': { error: { status: 500, message: 'Transaction failed' } },
  '422 Source bank declined': rail('SOURCE_BANK_DECLINED', 'Source bank declined'),
  '422 Beneficiary bank declined': rail('BENE_BANK_DECLINED', 'Failed at beneficiary bank'),
  '422 IMPS mode fail': rail('IMPS_MODE_FAIL', 'IMPS Mode fail'),
  '422 Benficiary bank offline': rail('BENEFICIARY_BANK_OFFLINE', 'Beneficiary bank offline'),
  '400 Phone short': input('Please provide a valid phone number'),
  '400 Invalid phone': input('Please provide a valid phone number'),
  '400 Missing bank account number': input('Please provide a valid bank account'),
  '400 Bank account number short': input('Please provide a valid bank account'),
  '400 Invalid bank account number': input('Please provide a valid bank account'),
  '400 Invalid IFSC': input('Invalid IFSC provided'),
  '400 Invalid name': input('Invalid name: rejected by the bank verification provider'),
  '400 Name exceeded': input('Invalid name: rejected by the bank verification provider'),
  '400 Phone exceeded': input('Please provide a valid phone number'),
  '400 Bank account number exceeded': input('Please provide a valid bank account'),
  '400 Missing IFSC': input('Invalid IFSC provided'),
  '400 Missing header': ours,
  '400 Using test credentials': ours,
  '400 Service not enabled': ours,
};

const MEANING = meaningsOf(examples, OWN);

describe('bank: Cashfree penny drop against Cashfree\'s published contract', () => {
  let server: ContractServer;
  let logs: ReturnType<typeof capturedLogger>;
  let provider: CashfreePennyDropProvider;

  beforeEach(async () => {
    server = await startContractServer();
    logs = capturedLogger();
    provider = new CashfreePennyDropProvider({ baseUrl: `${server.url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', logger: logs.logger });
  });
  afterEach(() => server.close());

  for (const example of examples) {
    it(`reads ${example.status} "${example.name}" (${example.component}) as Cashfree means it`, async () => {
      server.answer({ status: example.status, body: example.value, headers: example.status === 429 ? { 'retry-after': '2' } : {} });
      const expected = MEANING.get(`${example.status} ${example.name}`)!;
      const attempt = provider.verify({ ifsc: 'YESB0000262', accountNumber: '026291800001191' });
      if ('outcome' in expected) expect(await attempt).to.deep.equal(expected.outcome);
      else expect(await failure(attempt)).to.deep.include(expected.error);
    });
  }

  it('logs the reference Cashfree gives a bank or rail failure, for a later status poll', async () => {
    server.answer({ status: 422, body: examples.find((example) => example.name === 'NPCI unavailable')!.value });
    await provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
    expect(logs.text()).to.contain('"provider_reference":"102"').and.not.contain(ACCOUNTS.valid);
  });

  it('logs one line naming the cause when Cashfree refuses our setup, and never the provider\'s text', async () => {
    const forbidden = examples.find((example) => example.status === 403)!;
    server.answer({ status: 403, body: forbidden.value });
    await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }));
    const testKeys = examples.find((example) => example.name === 'Using test credentials')!;
    server.answer({ status: 400, body: testKeys.value });
    await failure(provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }));
    const text = logs.text();
    expect(text).to.contain('egress IP is not whitelisted').and.contain('client secret belongs to the other environment');
    expect(text).to.not.contain('106.51.91.104');
  });

  it('sends requests that Cashfree\'s request schema accepts, to the documented path, with its headers', async () => {
    const validate = validatorFor(fixture.schemas['BankAccountVerificationSyncRequestSchema']);
    server.answer({ status: 200, body: examples[0]!.value });
    await provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
    await provider.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid, name: 'Ana D\'Souza-Rao (Mrs.)', mobile: '9876543210' });
    for (const request of server.requests) {
      expect(request.method).to.equal('POST');
      expect(request.path).to.equal('/verification/bank-account/sync');
      expect(request.headers).to.include({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret', 'content-type': 'application/json' });
      expect(validate(request.json), errorsOf(validate)).to.equal(true);
    }
    // The name as Cashfree's schema allows it: "alphanumeric, whitespace, period, hyphen, slash and ampersand".
    expect(server.requests[1]!.json).to.deep.include({ name: 'Ana D Souza-Rao Mrs.', phone: '9876543210' });
  });

  it('reaches the same operation whether the base URL carries /verification or not', async () => {
    server.answer({ status: 200, body: examples[0]!.value });
    const hostOnly = new CashfreePennyDropProvider({ baseUrl: server.url, clientId: 'cf-id', clientSecret: 'cf-secret' });
    await hostOnly.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
    expect(server.requests.map((request) => request.path)).to.deep.equal(['/verification/bank-account/sync']);
  });

  describe('request signing (x-cf-signature)', () => {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

    it('signs every call with RSA-OAEP of clientId.unixSeconds under Cashfree\'s public key, fresh each time', async () => {
      const signing = new CashfreePennyDropProvider({ baseUrl: `${server.url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', publicKeyPem: keys.publicKey });
      server.answer({ status: 200, body: examples[0]!.value });
      const before = Math.floor(Date.now() / 1000);
      await signing.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
      await signing.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
      const signatures = server.requests.map((request) => String(request.headers['x-cf-signature']));
      expect(signatures[0]).to.not.equal(signatures[1]); // OAEP is randomised: never a replayable constant
      for (const signature of signatures) {
        const plain = privateDecrypt({ key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(signature, 'base64')).toString();
        const [id, seconds] = plain.split('.');
        expect(id).to.equal('cf-id');
        expect(Number(seconds)).to.be.within(before, before + 5);
      }
    });

    it('passes the simulator\'s signature check when signing, and is refused (500, the cause logged) when not', async () => {
      const sim = await startPennyDropSimulator({ signature: { privateKeyPem: keys.privateKey } });
      try {
        const signing = new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, publicKeyPem: keys.publicKey });
        expect(await signing.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid })).to.include({ providerCode: 'ACCOUNT_IS_VALID' });
        const unsigned = new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, logger: logs.logger });
        expect(await failure(unsigned.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }))).to.deep.include({ status: 500 });
        expect(logs.text()).to.contain('set the public key to sign calls');
        expect(sim.deposits()).to.equal(1);
      } finally {
        await sim.close();
      }
    });

    it('refuses a malformed public key when the adapter is built, not on the first call', () => {
      expect(() => new CashfreePennyDropProvider({ baseUrl: server.url, clientId: 'a', clientSecret: 'b', publicKeyPem: 'not a key' })).to.throw();
    });
  });
});
