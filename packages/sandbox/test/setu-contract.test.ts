import { expect } from 'chai';
import {
  PENNY_LESS_TEST_ACCOUNTS, SETU_SANDBOX_ACCOUNTS, VENDOR_PENNY_LESS_ACCOUNTS, startPennyLessSimulator, type PennyLessSimulator,
} from '@satyapan/sandbox';
import { errorsOf, loadFixture, postJson, validatorFor } from './support/contract.js';

/** The penny-less simulator answers only what Setu's published material (fixtures/setu) shows. */
interface SetuFixture { path: string; schemas: Record<string, unknown>; responses: Record<string, string[]>; examples: { status: number; value: Record<string, unknown> }[] }
const fixture = loadFixture<SetuFixture>('setu/pennyless-drop.json');

function documentedAnswer(status: number, body: Record<string, unknown>): void {
  const names = fixture.responses[String(status)];
  expect(names, `Setu documents no ${status}`).to.be.an('array');
  const failures = names!.map((name) => {
    const validate = validatorFor(fixture.schemas[name]);
    return validate(body) ? null : `${name}: ${errorsOf(validate)}`;
  });
  expect(failures.some((failure) => failure === null), failures.join('; ')).to.equal(true);
  if (status !== 200) {
    const codes = fixture.examples.filter((example) => example.status === status).map((example) => (example.value['error'] as Record<string, unknown>)['code']);
    expect(codes).to.include((body['error'] as Record<string, unknown>)['code']);
  } else if (body['status'] === 'ERROR') {
    expect(body['message']).to.equal('Invalid bank details');
  } else {
    expect(['MERCHANT', 'INDIVIDUAL', 'UNKNOWN']).to.include((body['data'] as Record<string, unknown>)['entityType']);
  }
}

describe('sandbox: the penny-less simulator answers as Setu\'s documentation shows', () => {
  let sim: PennyLessSimulator;
  beforeEach(async () => {
    sim = await startPennyLessSimulator();
  });
  afterEach(() => sim.close());

  const call = (body: unknown) => postJson(`${sim.url}${fixture.path}`, body, {
    'x-client-id': sim.clientId, 'x-client-secret': sim.clientSecret, 'x-product-instance-id': sim.productInstanceId,
  });

  it('every documented example passes the validator built from Setu\'s schemas', () => {
    for (const example of fixture.examples) documentedAnswer(example.status, example.value);
  });

  it('answers every test account (ours, Setu\'s sandbox\'s, the vendor\'s) with a documented answer', async () => {
    const { rateLimited, ...documented } = PENNY_LESS_TEST_ACCOUNTS; // 429: Setu documents none (simulator.ts says so)
    expect(rateLimited).to.be.a('string');
    for (const account of [...Object.values(documented), ...Object.values(SETU_SANDBOX_ACCOUNTS), ...Object.values(VENDOR_PENNY_LESS_ACCOUNTS), '998877665544']) {
      const answer = await call({ accountNumber: account, ifsc: 'UTIB0002083' });
      documentedAnswer(answer.status, answer.body);
    }
  });

  it('answers bad input and its outage with documented answers', async () => {
    for (const body of [{ ifsc: 'UTIB0002083' }, { accountNumber: '12345678', ifsc: 'UTIB0002083' }, { accountNumber: PENNY_LESS_TEST_ACCOUNTS.individual, ifsc: 'UTIB1002083' }]) {
      const answer = await call(body);
      expect(answer.status).to.equal(400);
      documentedAnswer(400, answer.body);
    }
    sim.setDown(true);
    const down = await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.individual, ifsc: 'UTIB0002083' });
    documentedAnswer(down.status, down.body);
  });
});
