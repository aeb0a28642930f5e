import { expect } from 'chai';
import {
  PAN_TEST_VALUES as PANS, VENDOR_PAN_TEST_VALUES as VENDOR, startPanAadhaarLinkSimulator, startPanSimulator, type PanSimulator, type SimulatorControls,
} from '@satyapan/sandbox';

describe('sandbox: PAN simulators', () => {
  describe('PAN 360 (Cashfree shape)', () => {
    let sim: PanSimulator;
    before(async () => {
      sim = await startPanSimulator();
    });
    after(() => sim.close());

    const post = async (body: unknown, credentials = { id: sim.clientId, secret: sim.clientSecret }) => {
      const response = await fetch(`${sim.url}/verification/pan/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client-id': credentials.id, 'x-client-secret': credentials.secret },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() as Record<string, unknown> };
    };

    it('answers a known PAN with its record and an unknown one as invalid', async () => {
      const valid = await post({ verification_id: 'v1', pan: PANS.individual, name: 'Anjali' });
      expect(valid.status).to.equal(200);
      expect(valid.body).to.include({ status: 'VALID', pan: PANS.individual, registered_name: 'ANJALI RAO', date_of_birth: '15-08-1990', aadhaar_linked: true, type: 'Individual or Person' });
      expect((await post({ verification_id: 'v2', pan: VENDOR.company, name: 'x' })).body).to.include({ registered_name: 'RON DOE PRIVATE LIMITED', type: 'Company' });
      expect((await post({ verification_id: 'v3', pan: 'QWERT1234Y', name: 'x' })).body).to.include({ status: 'INVALID' });
    });

    it('checks credentials and input like the provider, and has a down switch', async () => {
      expect((await post({ verification_id: 'v', pan: PANS.individual, name: 'x' }, { id: sim.clientId, secret: 'wrong' })).status).to.equal(401);
      expect((await post({ verification_id: 'v', pan: 'ABC', name: 'x' })).status).to.equal(400);
      expect((await post({ pan: PANS.individual, name: 'x' })).status).to.equal(400);
      expect((await post({ verification_id: 'v', pan: PANS.sourceUnavailable, name: 'x' })).status).to.equal(502);
      const served = sim.requests();
      sim.setDown(true);
      expect((await post({ verification_id: 'v', pan: PANS.individual, name: 'x' })).status).to.equal(502);
      sim.setDown(false);
      expect(sim.requests()).to.equal(served);
    });
  });

  describe('link status (e-filing portal shape)', () => {
    let sim: SimulatorControls;
    before(async () => {
      sim = await startPanAadhaarLinkSimulator();
    });
    after(() => sim.close());

    const ask = async (pan: string, aadhaarNumber = '234567890123', serviceName = 'linkAadhaarPreLoginService') => {
      const response = await fetch(`${sim.url}/iec/servicesapi/getEntity`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pan, aadhaarNumber, preLoginFlag: 'Y', serviceName }),
      });
      const body = await response.json() as { messages: { code: string; type: string; desc: string }[] };
      return { status: response.status, message: body.messages[0] };
    };

    it('answers each test PAN with the portal\'s message', async () => {
      expect(await ask(PANS.individual)).to.deep.include({ status: 200 });
      // Masked as the portal masks: two characters each side.
      expect((await ask(PANS.individual)).message).to.deep.include({ code: 'EF40124', desc: 'Your PAN SBXXXXXX1A is already linked to given Aadhaar 23XXXXXXXX23' });
      expect((await ask(PANS.individualNotSeeded)).message).to.deep.include({ code: 'EF40024' });
      expect((await ask(PANS.panLinkedElsewhere)).message).to.deep.include({ code: 'EF40026', desc: 'Your PAN SBXXXXXX8H is linked to some other Aadhaar 23XXXXXXXX23' });
      expect(await ask(PANS.linkedElsewhere)).to.deep.include({ status: 400 });
      expect((await ask(VENDOR.linkedElsewhere)).message?.desc).to.equal('Your Aadhaar Number 23XXXXXXXX23 is linked to some other PAN');
      expect((await ask(VENDOR.panNotFound)).message).to.deep.include({ code: 'EF40089', desc: 'PAN does not exist.' });
      expect((await ask(PANS.invalidAadhaar)).message).to.deep.include({ code: 'EF40077', desc: 'Please enter a valid Aadhaar Number.' });
      expect((await ask(PANS.sourceUnavailable)).status).to.equal(503);
      expect((await ask(PANS.individual, '12')).message?.code).to.equal('EF40077');
      expect((await ask(PANS.individual, '234567890123', 'other')).status).to.equal(400);
    });
  });
});
