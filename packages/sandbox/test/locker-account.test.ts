import { expect } from 'chai';
import { sha256Hex } from '@satyapan/core';
import { LOCKER_INDIVIDUALS, startLockerSimulator, type LockerSimulator } from '@satyapan/sandbox';

const CLIENT = { clientId: 'meta-client', clientSecret: 'meta-secret', name: 'Meta API test', redirectUris: ['http://127.0.0.1:1/cb'] };

describe('locker simulator: Verify Account (POST /account/2/verify)', () => {
  let sim: LockerSimulator;
  before(async () => { sim = await startLockerSimulator({ clients: [CLIENT] }); });
  after(() => sim.close());

  const ask = async (fields: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const response = await fetch(`${sim.docvaultBaseUrl}/account/2/verify`, { method: 'POST', body: form });
    return { status: response.status, body: await response.json() as Record<string, string> };
  };
  const signed = (extra: Record<string, string>, ts = String(Math.floor(Date.now() / 1000))): Record<string, string> => ({
    clientid: CLIENT.clientId, ts, hmac: sha256Hex(`${CLIENT.clientSecret}${CLIENT.clientId}${ts}`), ...extra,
  });

  it('answers registered and the digilockerid for a known user, registered false otherwise', async () => {
    const user = LOCKER_INDIVIDUALS[1]!;
    expect(await ask(signed({ uid: user.aadhaarNumber }))).to.deep.equal({ status: 200, body: { registered: 'true', digilockerid: user.id } });
    expect(await ask(signed({ mobile: '9000000001' }))).to.deep.equal({ status: 200, body: { registered: 'false', digilockerid: '' } });
  });

  it('refuses unknown clients, stale or missing timestamps, wrong HMACs and requests naming nobody', async () => {
    expect((await ask({ ...signed({ mobile: '9000000001' }), clientid: 'stranger' })).status).to.equal(401);
    const stale = String(Math.floor(Date.now() / 1000) - 31 * 60);
    expect((await ask(signed({ mobile: '9000000001' }, stale))).body['error_description']).to.match(/Timestamp/);
    expect((await ask({ ...signed({ mobile: '9000000001' }), hmac: 'f'.repeat(64) })).body['error_description']).to.match(/HMAC/);
    expect((await ask(signed({}))).body).to.deep.equal({ error: 'invalid_parameter', error_description: 'Either one of uid or mobile number is mandatory' });
    const urlencoded = await fetch(`${sim.docvaultBaseUrl}/account/2/verify`, { method: 'POST', body: new URLSearchParams(signed({ mobile: '9000000001' })) });
    expect(urlencoded.status, 'the partner API takes multipart forms').to.equal(400);
  });
});
