import { expect } from 'chai';
import {
  AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, VENDOR_AADHAAR_NUMBERS, startAadhaarOtpSimulator, type AadhaarOtpSimulator,
  PAN_TEST_VALUES, PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC, VENDOR_PAN_TEST_VALUES, VENDOR_PENNY_DROP_ACCOUNTS,
  startPanSimulator, startPennyDropSimulator, type PanSimulator, type PennyDropSimulator,
} from '@satyapan/sandbox';
import { CASHFREE_FIXTURE as fixture, cashfreeExamples, errorsOf, postJson, validatorFor } from './support/contract.js';

/**
 * The Cashfree simulators answer only what Cashfree's own OpenAPI document (fixtures/cashfree) shows: every
 * answer is validated against the documented response schema of its status, and its status and `code` must be
 * one of the documented examples of the operation (200 answers: one of the documented account_status_code values).
 */
/** Fields where Cashfree's own examples send a number and its schema says string, or the reverse. */
const LOOSE = ['ref_id', 'year_of_birth', 'pincode', 'share_code', 'reference_id'];

function documentedAnswer(operation: string, status: number, body: Record<string, unknown>): void {
  const responses = fixture.operations[operation]?.responses ?? {};
  const schemaName = responses[String(status)];
  expect(schemaName, `${operation} documents no ${status}`).to.be.a('string');
  const validate = validatorFor(fixture.schemas[schemaName!], LOOSE);
  expect(validate(body), `${operation} ${status}: ${errorsOf(validate)}`).to.equal(true);
  const documented = fixture.schemas[schemaName!]!['x-documented-values'] ?? {};
  for (const [field, values] of Object.entries(documented)) {
    if (body[field] !== undefined && body[field] !== null) expect(values, `${operation} ${status} ${field}`).to.include(body[field]);
  }
  if (status !== 200) {
    const codes = cashfreeExamples(operation).filter((example) => example.status === status).map((example) => example.value['code']);
    expect(codes, `${operation} ${status} code`).to.include(body['code']);
  }
}

describe('sandbox: Cashfree simulators answer as Cashfree\'s OpenAPI document shows', () => {
  it('every documented example passes the validator built from its own schema (the leniency is no wider than the examples)', () => {
    for (const example of fixture.examples) documentedAnswer(example.operation, example.status, example.value);
  });

  describe('penny drop (POST /bank-account/sync)', () => {
    let sim: PennyDropSimulator;
    beforeEach(async () => {
      sim = await startPennyDropSimulator();
    });
    afterEach(() => sim.close());

    const call = (body: Record<string, unknown>, headers: Record<string, string> = { 'x-client-id': sim.clientId, 'x-client-secret': sim.clientSecret }) => (
      postJson(`${sim.url}/verification/bank-account/sync`, body, headers));

    it('answers every test account, ours and the vendor\'s, with a documented answer', async () => {
      const accounts = [...Object.values(PENNY_DROP_TEST_ACCOUNTS), ...Object.values(VENDOR_PENNY_DROP_ACCOUNTS), '55551234'];
      for (const account of accounts) {
        const answer = await call({ bank_account: account, ifsc: PENNY_DROP_TEST_IFSC, name: 'Anjali Rao', phone: '9876543210' });
        documentedAnswer('POST /bank-account/sync', answer.status, answer.body);
      }
    });

    it('answers its input checks, bad credentials and its outage with documented answers', async () => {
      for (const body of [{ ifsc: PENNY_DROP_TEST_IFSC }, { bank_account: '12345', ifsc: PENNY_DROP_TEST_IFSC }, { bank_account: 'ab-12345', ifsc: PENNY_DROP_TEST_IFSC },
        { bank_account: PENNY_DROP_TEST_ACCOUNTS.valid }, { bank_account: PENNY_DROP_TEST_ACCOUNTS.valid, ifsc: 'KKBK1000131' },
        { bank_account: PENNY_DROP_TEST_ACCOUNTS.valid, ifsc: PENNY_DROP_TEST_IFSC, phone: '98x' },
        { bank_account: PENNY_DROP_TEST_ACCOUNTS.valid, ifsc: PENNY_DROP_TEST_IFSC, phone: '987' },
        { bank_account: PENNY_DROP_TEST_ACCOUNTS.valid, ifsc: PENNY_DROP_TEST_IFSC, name: 'Ana <script>' }]) {
        const answer = await call(body);
        expect(answer.status, JSON.stringify(body)).to.equal(400);
        documentedAnswer('POST /bank-account/sync', 400, answer.body);
      }
      const denied = await call({ bank_account: PENNY_DROP_TEST_ACCOUNTS.valid, ifsc: PENNY_DROP_TEST_IFSC }, { 'x-client-id': sim.clientId, 'x-client-secret': 'no' });
      documentedAnswer('POST /bank-account/sync', denied.status, denied.body);
      sim.setDown(true);
      const down = await call({ bank_account: PENNY_DROP_TEST_ACCOUNTS.valid, ifsc: PENNY_DROP_TEST_IFSC });
      documentedAnswer('POST /bank-account/sync', down.status, down.body);
    });
  });

  describe('PAN 360 (POST /pan/advance)', () => {
    let sim: PanSimulator;
    beforeEach(async () => {
      sim = await startPanSimulator();
    });
    afterEach(() => sim.close());

    const call = (body: Record<string, unknown>, secret = sim.clientSecret) => (
      postJson(`${sim.url}/verification/pan/advance`, body, { 'x-client-id': sim.clientId, 'x-client-secret': secret }));

    it('answers every test PAN, ours and the vendor\'s, with a documented answer, dates day first as Cashfree writes them', async () => {
      for (const pan of [...Object.values(PAN_TEST_VALUES), ...Object.values(VENDOR_PAN_TEST_VALUES), 'QWERT1234Y']) {
        const answer = await call({ verification_id: 'contract-1', pan, name: 'Anjali Rao' });
        documentedAnswer('POST /pan/advance', answer.status, answer.body);
        if (answer.body['date_of_birth'] !== undefined) expect(answer.body['date_of_birth']).to.match(/^\d{2}-\d{2}-\d{4}$/);
      }
    });

    it('answers bad input, bad credentials and its outage with documented answers', async () => {
      for (const body of [{ verification_id: 'c', pan: 'ABC' }, { verification_id: 'c' }]) {
        const answer = await call(body);
        documentedAnswer('POST /pan/advance', answer.status, answer.body);
      }
      const denied = await call({ verification_id: 'c', pan: PAN_TEST_VALUES.individual }, 'wrong');
      documentedAnswer('POST /pan/advance', denied.status, denied.body);
      sim.setDown(true);
      const down = await call({ verification_id: 'c', pan: PAN_TEST_VALUES.individual });
      documentedAnswer('POST /pan/advance', down.status, down.body);
    });
  });

  describe('offline Aadhaar OTP (POST /offline-aadhaar/otp, /offline-aadhaar/verify)', () => {
    let sim: AadhaarOtpSimulator;
    beforeEach(async () => {
      sim = await startAadhaarOtpSimulator();
    });
    afterEach(() => sim.close());

    const call = (path: string, body: Record<string, unknown>) => (
      postJson(`${sim.url}/verification${path}`, body, { 'x-client-id': sim.clientId, 'x-client-secret': sim.clientSecret }));

    it('answers every test number\'s send and verify, ours and the vendor\'s, with documented answers', async () => {
      for (const number of [...Object.values(AADHAAR_TEST_NUMBERS), ...Object.values(VENDOR_AADHAAR_NUMBERS), '234123412346', '12345']) {
        const sent = await call('/offline-aadhaar/otp', { aadhaar_number: number });
        documentedAnswer('POST /offline-aadhaar/otp', sent.status, sent.body);
        if (sent.status !== 200) continue;
        for (const otp of [AADHAAR_TEST_OTP, '000000', '12', '']) {
          const verified = await call('/offline-aadhaar/verify', { ref_id: String(sent.body['ref_id']), otp });
          documentedAnswer('POST /offline-aadhaar/verify', verified.status, verified.body);
        }
      }
    });
  });
});
