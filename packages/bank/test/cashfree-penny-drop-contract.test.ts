import { expect } from 'chai';
import { CashfreePennyDropProvider, type PennyDropOutcome } from '@satyapan/bank';
import {
  PENNY_DROP_TEST_ACCOUNTS as ACCOUNTS, PENNY_DROP_TEST_IFSC as IFSC, startPennyDropSimulator,
} from '@satyapan/sandbox';
import {
  CASHFREE_FIXTURE, OUR_SETUP, SOURCE_UNAVAILABLE, adapterRig, cashfreeExamples, errorsOf, failure,
  itReadsEachExample, meaningsOf, testKeyPair, validatorFor, type Expected,
} from '../../sandbox/test/support/contract.js';

/**
 * Cashfree penny drop against Cashfree's own published answers (fixtures/cashfree, its Verification OpenAPI
 * 2023-12-18): each documented example of `POST /bank-account/sync` is served by a loopback server and read by
 * the adapter, and what the adapter sends is checked against Cashfree's request schema. The expectations say what
 * Cashfree means by each answer; none of it comes from our simulator. (The signature and the base URL
 * convention are core's: packages/core/test/cashfree.test.ts.)
 */
const examples = cashfreeExamples('POST /bank-account/sync');

type Outcome = Omit<PennyDropOutcome, 'utr' | 'nameAtBank'> & { nameAtBank?: string; utr?: string };
const rail = (providerCode: string, message: string): Expected<Outcome> => ({ answer: { providerCode, message, deposited: false, definitive: false } });
const input = (message: string): Expected<Outcome> => ({ error: { status: 422, message } });

/** What Cashfree means by each of this operation's documented answers, keyed `status name` (the shared ones: contract.ts). */
const OWN: Record<string, Expected<Outcome>> = {
  '200 Valid account': { answer: {
    providerCode: 'ACCOUNT_IS_VALID', message: 'Bank Account details verified successfully.', accountExists: true, deposited: true, definitive: true,
    nameAtBank: 'BHARATHTEST GKUMARUT', utr: '404223241811',
  } },
  '200 Invalid account': { answer: { providerCode: 'INVALID_ACCOUNT_FAIL', message: 'Invalid account number or ifsc provided', accountExists: false, deposited: false, definitive: true } },
  '200 Account blocked': { answer: { providerCode: 'ACCOUNT_BLOCKED', message: 'Account is blocked', accountExists: true, deposited: false, definitive: true } },
  '200 Invalid IFSC fail': { answer: { providerCode: 'INVALID_IFSC_FAIL', message: 'IFSC is invalid', deposited: false, definitive: true } },
  '200 NRE account fail': { answer: { providerCode: 'NRE_ACCOUNT_FAIL', message: 'Given account is an NRE account', accountExists: true, deposited: false, definitive: true } },
  '422 Fraud account provided': { answer: { providerCode: 'FRAUD_ACCOUNT', message: 'Account is blocked', accountExists: true, deposited: false, definitive: true } },
  '422 Insufficient balance': SOURCE_UNAVAILABLE,
  '422 Concurrent request in progress': SOURCE_UNAVAILABLE,
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
  '400 Missing header': OUR_SETUP,
  '400 Using test credentials': OUR_SETUP,
  '400 Service not enabled': OUR_SETUP,
};

const MEANING = meaningsOf(examples, OWN);

describe('bank: Cashfree penny drop against Cashfree\'s published contract', () => {
  const rig = adapterRig((url, logger) => new CashfreePennyDropProvider({ baseUrl: `${url}/verification`, clientId: 'cf-id', clientSecret: 'cf-secret', logger: logger }));

  itReadsEachExample({
    provider: 'Cashfree', examples, meanings: MEANING, server: () => rig.server,
    call: () => rig.adapter.verify({ ifsc: 'YESB0000262', accountNumber: '026291800001191' }),
  });

  it('logs the reference Cashfree gives a bank or rail failure, for a later status poll', async () => {
    rig.server.answer({ status: 422, body: examples.find((example) => example.name === 'NPCI unavailable')!.value });
    await rig.adapter.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
    expect(rig.logs.text()).to.contain('"provider_reference":"102"').and.not.contain(ACCOUNTS.valid);
  });

  it('logs one line naming the cause when Cashfree refuses our setup, and never the provider\'s text', async () => {
    const forbidden = examples.find((example) => example.status === 403)!;
    rig.server.answer({ status: 403, body: forbidden.value });
    await failure(rig.adapter.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }));
    const testKeys = examples.find((example) => example.name === 'Using test credentials')!;
    rig.server.answer({ status: 400, body: testKeys.value });
    await failure(rig.adapter.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }));
    const text = rig.logs.text();
    expect(text).to.contain('egress IP is not whitelisted').and.contain('client secret belongs to the other environment');
    expect(text).to.not.contain('106.51.91.104');
  });

  it('sends requests that Cashfree\'s request schema accepts, to the documented path, with its headers', async () => {
    const validate = validatorFor(CASHFREE_FIXTURE.schemas['BankAccountVerificationSyncRequestSchema']);
    rig.server.answer({ status: 200, body: examples[0]!.value });
    await rig.adapter.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid });
    await rig.adapter.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid, name: 'Ana D\'Souza-Rao (Mrs.)', mobile: '9876543210' });
    for (const request of rig.server.requests) {
      expect(request.method).to.equal('POST');
      expect(request.path).to.equal('/verification/bank-account/sync');
      expect(request.headers).to.include({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret', 'content-type': 'application/json' });
      expect(validate(request.json), errorsOf(validate)).to.equal(true);
    }
    // The name as Cashfree's schema allows it: "alphanumeric, whitespace, period, hyphen, slash and ampersand".
    expect(rig.server.requests[1]!.json).to.deep.include({ name: 'Ana D Souza-Rao Mrs.', phone: '9876543210' });
  });

  describe('request signing (x-cf-signature)', () => {
    it('passes the simulator\'s signature check when signing, and is refused (500, the cause logged) when not', async () => {
      const keys = testKeyPair();
      const sim = await startPennyDropSimulator({ signature: { privateKeyPem: keys.privateKey } });
      try {
        const signing = new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, publicKeyPem: keys.publicKey });
        expect(await signing.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid })).to.include({ providerCode: 'ACCOUNT_IS_VALID' });
        const unsigned = new CashfreePennyDropProvider({ baseUrl: `${sim.url}/verification`, clientId: sim.clientId, clientSecret: sim.clientSecret, logger: rig.logs.logger });
        expect(await failure(unsigned.verify({ ifsc: IFSC, accountNumber: ACCOUNTS.valid }))).to.deep.include({ status: 500 });
        expect(rig.logs.text()).to.contain('set the public key to sign calls');
        expect(sim.deposits()).to.equal(1);
      } finally {
        await sim.close();
      }
    });
  });
});
