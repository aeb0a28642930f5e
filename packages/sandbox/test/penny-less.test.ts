import { expect } from 'chai';
import { PENNY_LESS_TEST_ACCOUNTS, VENDOR_PENNY_LESS_ACCOUNTS, startPennyLessSimulator, type PennyLessSimulator } from '@satyapan/sandbox';

describe('penny-less simulator (Setu PennyLess shape)', () => {
  let sim: PennyLessSimulator;
  before(async () => { sim = await startPennyLessSimulator(); });
  after(() => sim.close());

  const call = async (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${sim.url}/api/verify/ban/pennyless`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json', 'x-client-id': sim.clientId, 'x-client-secret': sim.clientSecret,
        'x-product-instance-id': sim.productInstanceId, ...headers,
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  it('answers a found account with its name and entity type, a failure with a reason code', async () => {
    const business = await call({ accountNumber: VENDOR_PENNY_LESS_ACCOUNTS.business, ifsc: 'sbin0021745' });
    expect(business.status).to.equal(200);
    expect(business.body).to.deep.include({ status: 'SUCCESS' });
    expect(business.body.data).to.include({ bankAccountName: 'JOHN DOE PVT LTD', entityType: 'MERCHANT', bankAccountIfsc: 'SBIN0021745' });
    const blocked = await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.blocked, ifsc: 'KKBK0000131' });
    expect(blocked.body).to.deep.include({ status: 'FAILED' });
    expect(blocked.body.error.code).to.equal('account-blocked');
  });

  it('refuses wrong credentials or product instance (401) and malformed input (400); counts what passed', async () => {
    const before = sim.requests();
    expect((await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.individual, ifsc: 'KKBK0000131' }, { 'x-product-instance-id': 'other' })).status).to.equal(401);
    expect((await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.individual, ifsc: 'KKBK000013' })).body.error.code).to.equal('invalid-param');
    expect(sim.requests()).to.equal(before);
  });
});
