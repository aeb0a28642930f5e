import { expect } from 'chai';
import { ManualClock } from '@satyapan/core';
import {
  PENNY_DROP_TEST_ACCOUNTS as ACCOUNTS, PENNY_DROP_TEST_IFSC as IFSC, startPennyDropSimulator, type PennyDropSimulator,
} from '@satyapan/sandbox';

describe('sandbox: penny-drop provider simulator', () => {
  let sim: PennyDropSimulator;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 22, 13, 5));
    sim = await startPennyDropSimulator({ clock });
  });
  afterEach(() => sim.close());

  async function verify(
    body: Record<string, unknown>,
    headers: Record<string, string> = { 'x-client-id': sim.clientId, 'x-client-secret': sim.clientSecret },
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${sim.url}/verification/bank-account/sync`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('credits a rupee to a valid account and answers with the name at the bank, a 12-digit UTR and a name match', async () => {
    const answer = await verify({ bank_account: ACCOUNTS.valid, ifsc: IFSC, name: 'Anjali  Rao', phone: '9876543210' });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include({
      account_status: 'VALID', account_status_code: 'ACCOUNT_IS_VALID', name_at_bank: 'ANJALI RAO',
      name_match_score: '100.00', name_match_result: 'DIRECT_MATCH',
    });
    // Day 326 of 2026, 13h UTC, then the reference's sequence.
    expect(answer.body['utr']).to.match(/^632613\d{6}$/);
    expect(sim.deposits()).to.equal(1);
    expect(sim.deposits(ACCOUNTS.valid)).to.equal(1);
    const partial = await verify({ bank_account: ACCOUNTS.validSecond, ifsc: IFSC, name: 'Rahul V' });
    expect(partial.body['name_match_result']).to.be.oneOf(['GOOD_PARTIAL_MATCH', 'MODERATE_PARTIAL_MATCH', 'POOR_PARTIAL_MATCH']);
    expect(sim.deposits()).to.equal(2);
  });

  const statuses: [keyof typeof ACCOUNTS, string, string][] = [
    ['invalidAccount', 'INVALID', 'INVALID_ACCOUNT_FAIL'],
    ['nreAccount', 'INVALID', 'NRE_ACCOUNT_FAIL'],
    ['blocked', 'INVALID', 'ACCOUNT_BLOCKED'],
    ['invalidIfsc', 'INVALID', 'INVALID_IFSC_FAIL'],
  ];
  it('answers 200 only with the sync endpoint\'s documented account answers, none of which credits money', async () => {
    for (const [account, status, code] of statuses) {
      const answer = await verify({ bank_account: ACCOUNTS[account], ifsc: IFSC });
      expect(answer.status, account).to.equal(200);
      expect(answer.body, account).to.include({ account_status: status, account_status_code: code, utr: null, name_at_bank: null });
    }
    expect((await verify({ bank_account: '55551234', ifsc: IFSC })).body['account_status_code'], 'unknown accounts are invalid')
      .to.equal('INVALID_ACCOUNT_FAIL');
    expect(sim.deposits()).to.equal(0);
    expect(sim.requests()).to.equal(statuses.length + 1);
  });

  it('answers the bank\'s and the rails\' failures as 422 with Cashfree\'s lower-case codes and the reference to poll', async () => {
    const failures: [keyof typeof ACCOUNTS, string][] = [
      ['fraud', 'fraud_account'], ['impsModeFail', 'imps_mode_fail'], ['beneficiaryBankDeclined', 'bene_bank_declined'],
      ['failedAtBank', 'failed_at_bank'], ['connectionTimeout', 'connection_timeout'], ['npciUnavailable', 'npci_unavailable'],
      ['sourceBankDeclined', 'source_bank_declined'], ['beneficiaryBankOffline', 'benficiary_bank_offline'],
      ['underProcess', 'verification_already_under_process'],
    ];
    for (const [account, code] of failures) {
      const answer = await verify({ bank_account: ACCOUNTS[account], ifsc: IFSC });
      expect(answer.status, account).to.equal(422);
      expect(answer.body, account).to.include({ type: 'validation_error', code });
      expect(answer.body['error'], account).to.have.property('reference_id').that.is.a('number');
    }
    expect(sim.deposits()).to.equal(0);
  });

  it('answers the provider-level errors with their HTTP statuses', async () => {
    const errors: [keyof typeof ACCOUNTS, number, string][] = [
      ['insufficientBalance', 422, 'insufficient_balance'],
      ['serverError', 500, 'verification_failed'],
      ['rateLimited', 429, 'too_many_requests_per_operation'],
    ];
    for (const [account, status, code] of errors) {
      const answer = await verify({ bank_account: ACCOUNTS[account], ifsc: IFSC });
      expect(answer.status, account).to.equal(status);
      expect(answer.body['code'], account).to.equal(code);
    }
  });

  it('validates input like the provider and refuses bad credentials', async () => {
    expect((await verify({ bank_account: '12345', ifsc: IFSC })).body['code']).to.equal('bank_account_length_short');
    expect((await verify({ bank_account: ACCOUNTS.valid, ifsc: 'KKBK1000131' })).body).to.deep.equal({
      type: 'validation_error', code: 'ifsc_value_invalid', message: 'ifsc should be of 11 characters and 5th character should be 0.',
    });
    expect((await verify({ bank_account: ACCOUNTS.valid, ifsc: IFSC, phone: '98x' })).status).to.equal(400);
    const denied = await verify({ bank_account: ACCOUNTS.valid, ifsc: IFSC }, { 'x-client-id': sim.clientId, 'x-client-secret': 'wrong' });
    expect(denied).to.deep.equal({
      status: 401, body: { type: 'authentication_error', code: 'authentication_failed', message: 'Invalid clientId and clientSecret combination' },
    });
    expect(sim.requests()).to.equal(0);
    expect(sim.deposits()).to.equal(0);
  });

  it('refuses a caller without credential headers, even when the configured credentials are empty', async () => {
    expect((await verify({ bank_account: ACCOUNTS.valid, ifsc: IFSC }, {})).status).to.equal(401);
    const open = await startPennyDropSimulator({ clientId: '', clientSecret: '' });
    try {
      const call = (headers: Record<string, string>): Promise<Response> => fetch(`${open.url}/verification/bank-account/sync`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ bank_account: ACCOUNTS.valid, ifsc: IFSC }),
      });
      expect((await call({})).status).to.equal(401);
      expect((await call({ 'x-client-id': '', 'x-client-secret': '' })).status).to.equal(200);
    } finally {
      await open.close();
    }
  });

  it('can be switched down and slowed down, and reports its counters over HTTP', async () => {
    sim.setDown(true);
    expect((await verify({ bank_account: ACCOUNTS.valid, ifsc: IFSC })).status).to.equal(502);
    sim.setDown(false);
    sim.setLatency(150);
    const started = Date.now();
    expect((await verify({ bank_account: ACCOUNTS.valid, ifsc: IFSC })).status).to.equal(200);
    expect(Date.now() - started).to.be.at.least(140);
    const stats = await (await fetch(`${sim.url}/_simulator/stats`)).json();
    expect(stats).to.deep.equal({ requests: 1, deposits: 1, rate_limited: 0, accounts_asked_twice: 0 });
  });
});
