import { expect } from 'chai';
import { SetuPennyLessProvider, type PennyLessOutcome } from '@satyapan/bank';
import {
  SOURCE_UNAVAILABLE, capturedLogger, errorsOf, failure, itReadsEachExample, loadFixture, meaningsOf, startContractServer, validatorFor,
  type ContractServer, type Expected, type ProviderExample,
} from '../../sandbox/test/support/contract.js';

/**
 * Setu penny-less against Setu's own published answers (fixtures/setu: its OpenAPI document and quickstart):
 * each documented answer is served by a loopback server and read by the adapter, and what the adapter sends is
 * checked against Setu's request schema.
 */
interface SetuFixture {
  path: string;
  headers: string[];
  schemas: Record<string, unknown>;
  examples: ProviderExample[];
  sandboxValues: Record<string, { accountNumber: string; ifsc: string }>;
}
const fixture = loadFixture<SetuFixture>('setu/pennyless-drop.json');

const OWN: Record<string, Expected<PennyLessOutcome>> = {
  '200 Valid bank account (merchant)': { answer: { providerCode: 'SUCCESS/MERCHANT', accountExists: true, definitive: true, nameAtBank: 'Pavankumar Kamat Biz' } },
  '200 Invalid bank details': { answer: { providerCode: 'ERROR/INVALID_BANK_DETAILS', message: 'Invalid account number or ifsc provided', accountExists: false, definitive: true } },
  '400 BAD REQUEST': { error: { status: 422, message: 'Invalid bank account number or ifsc provided' } },
  '500 INTERNAL SERVER ERROR': SOURCE_UNAVAILABLE,
  '500 INTERNAL SERVER ERROR (internal)': SOURCE_UNAVAILABLE,
};
/** Setu's operations share no documented answers. */
const MEANING = meaningsOf(fixture.examples, OWN, {});

describe('bank: Setu penny-less against Setu\'s published contract', () => {
  let server: ContractServer;
  let provider: SetuPennyLessProvider;
  let logs: ReturnType<typeof capturedLogger>;

  beforeEach(async () => {
    server = await startContractServer();
    logs = capturedLogger();
    provider = new SetuPennyLessProvider({ baseUrl: server.url, clientId: 'setu-id', clientSecret: 'setu-secret', productInstanceId: 'setu-pi', logger: logs.logger });
  });
  afterEach(async () => {
    provider.close();
    await server.close();
  });

  it('has a meaning for every documented answer, and no other', () => {
    expect(Object.keys(OWN).sort()).to.deep.equal(fixture.examples.map((example) => `${example.status} ${example.name}`).sort());
  });

  itReadsEachExample({
    provider: 'Setu', examples: fixture.examples, meanings: MEANING, server: () => server,
    call: () => provider.verify(fixture.sandboxValues['merchant']!),
  });

  it('sends requests that Setu\'s request schema accepts, to the documented path, with its three headers', async () => {
    const validate = validatorFor(fixture.schemas['VerifyPennyLessDropRequest']);
    server.answer({ status: 200, body: fixture.examples[0]!.value });
    for (const values of Object.values(fixture.sandboxValues)) await provider.verify(values);
    await provider.verify({ accountNumber: '123456789012345678', ifsc: 'KKBK0000131' });
    expect(server.requests).to.have.length(3);
    for (const request of server.requests) {
      expect([request.method, request.path]).to.deep.equal(['POST', fixture.path]);
      expect(request.headers).to.include({ 'x-client-id': 'setu-id', 'x-client-secret': 'setu-secret', 'x-product-instance-id': 'setu-pi' });
      expect(validate(request.json), errorsOf(validate)).to.equal(true);
    }
  });

  it('never sends an account number outside Setu\'s ^\\d{9,18}$: a 422 without a call', async () => {
    for (const accountNumber of ['12345678', '1234567890123456789', 'AB12345678']) {
      expect(await failure(provider.verify({ accountNumber, ifsc: 'KKBK0000131' }))).to.deep.include({ status: 422 });
    }
    expect(server.requests).to.have.length(0);
  });

  it('reads any other 200 as unknown (503, logged with Setu\'s status only), never as an answer about the account', async () => {
    server.answer({ status: 200, body: { status: 'FAILED', data: {}, traceId: 'x' } });
    expect(await failure(provider.verify(fixture.sandboxValues['merchant']!))).to.deep.include({ status: 503 });
    expect(logs.text()).to.contain('unknown outcome').and.contain('FAILED');
  });
});
