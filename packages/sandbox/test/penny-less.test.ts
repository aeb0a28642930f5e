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

  it('answers a found account with its name and entity type, an unknown one with Setu\'s "Invalid bank details"', async () => {
    const business = await call({ accountNumber: VENDOR_PENNY_LESS_ACCOUNTS.business, ifsc: 'sbin0021745' });
    expect(business.status).to.equal(200);
    expect(business.body).to.deep.include({ status: 'SUCCESS' });
    expect(business.body.data).to.include({ bankAccountName: 'JOHN DOE PVT LTD', entityType: 'MERCHANT', bankAccountIfsc: 'SBIN0021745' });
    const unknown = await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.invalidAccount, ifsc: 'KKBK0000131' });
    expect(unknown.status).to.equal(200);
    expect(unknown.body).to.include({ status: 'ERROR', message: 'Invalid bank details' }).and.have.property('traceId');
  });

  it('refuses wrong credentials or product instance (401) and malformed input (400); counts what passed', async () => {
    const before = sim.requests();
    expect((await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.individual, ifsc: 'KKBK0000131' }, { 'x-product-instance-id': 'other' })).status).to.equal(401);
    expect((await call({ accountNumber: PENNY_LESS_TEST_ACCOUNTS.individual, ifsc: 'KKBK000013' })).body.error.code).to.equal('bad_request');
    expect((await call({ accountNumber: '12345678', ifsc: 'KKBK0000131' })).body.error.detail, 'Setu\'s ^\\d{9,18}$').to.contain('accountNumber');
    expect(sim.requests()).to.equal(before);
  });
});
